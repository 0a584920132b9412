package vision

import (
	"image"
	"sort"

	"gocv.io/x/gocv"
)

// hsv converts an 8-bit BGR colour to OpenCV's HSV (hue 0-179), in
// integers.
func hsv(b, g, r int) (h, s, v int) {
	v = max(r, g, b)
	if v == 0 {
		return 0, 0, 0
	}
	d := v - min(r, g, b)
	s = (255*d + v/2) / v
	if d == 0 {
		return 0, s, v
	}
	// hue in half degrees: 30 per sixth of the circle, rounded
	var num, base int
	switch v {
	case r:
		num, base = g-b, 0
	case g:
		num, base = b-r, 60
	default:
		num, base = r-g, 120
	}
	h = base + (60*num+d*sign(num))/(2*d)
	if h < 0 {
		h += 180
	}
	return h % 180, s, v
}

func sign(x int) int {
	if x < 0 {
		return -1
	}
	return 1
}

// shrink returns the frame at 1/step of its size (block means) and the
// background under the dice at 1/(step*ratio): a median filter wide enough
// that a die (or two touching) is less than half of any window.
func shrink(frame gocv.Mat, step, ratio int) (sm, bg bgrImage, err error) {
	small := gocv.NewMat()
	defer small.Close()
	w, h := frame.Cols()/step, frame.Rows()/step
	gocv.Resize(frame, &small, image.Pt(w, h), 0, 0, gocv.InterpolationArea)
	if sm, err = viewBGRCopy(small); err != nil {
		return sm, bg, err
	}
	tiny := gocv.NewMat()
	defer tiny.Close()
	tw, th := w/ratio, h/ratio
	gocv.Resize(small, &tiny, image.Pt(tw, th), 0, 0, gocv.InterpolationArea)
	med := gocv.NewMat()
	defer med.Close()
	gocv.MedianBlur(tiny, &med, max(5, (tw/8)|1))
	bg, err = viewBGRCopy(med)
	return sm, bg, err
}

// viewBGRInto is viewBGRCopy into buf when it is large enough.
func viewBGRInto(m gocv.Mat, buf []byte) (bgrImage, error) {
	v, err := viewMat(m)
	if err != nil {
		return v, err
	}
	v.pix = append(buf[:0], v.pix...)
	return v, nil
}

// viewBGRCopy is viewBGR with the pixels copied out of the Mat.
func viewBGRCopy(m gocv.Mat) (bgrImage, error) { return viewBGRInto(m, nil) }

// colourMasks marks, on im (at 1/step of the frame), the pixels in the
// blue and the red ranges that also stand out from the background bg (at
// 1/bgStep of the frame): a felt of the dice's own colour is not a die.
// A pixel in both ranges is blue.
//
// bm and rm are reused when large enough.
func colourMasks(im, bg bgrImage, ratio int, blue, red HSVRange, minDiff int, bm, rm []byte) ([]byte, []byte) {
	bm, rm = zeroed(bm, im.w*im.h), zeroed(rm, im.w*im.h)
	// a pixel's saturation and hue (each a division) are worked out only
	// when its brightness and then its saturation fall in a range
	vmin, vmax := min(blue.VMin, red.VMin), max(blue.VMax, red.VMax)
	smin, smax := min(blue.SMin, red.SMin), max(blue.SMax, red.SMax)
	for y := 0; y < im.h; y++ {
		by := min(bg.h-1, y/ratio)
		bgRow := bg.pix[3*by*bg.w : 3*(by+1)*bg.w]
		row := im.pix[3*y*im.w : 3*(y+1)*im.w]
		bmRow, rmRow := bm[y*im.w:(y+1)*im.w], rm[y*im.w:(y+1)*im.w]
		for x := range bmRow {
			p := row[3*x : 3*x+3 : 3*x+3]
			b, g, r := int(p[0]), int(p[1]), int(p[2])
			j := 3 * min(bg.w-1, x/ratio)
			q := bgRow[j : j+3 : j+3]
			if iabs(b-int(q[0]))+iabs(g-int(q[1]))+iabs(r-int(q[2])) < minDiff {
				continue
			}
			v := max(r, g, b)
			if v < vmin || v > vmax {
				continue
			}
			sat := 0
			if v > 0 {
				sat = (255*(v-min(r, g, b)) + v/2) / v
			}
			if sat < smin || sat > smax {
				continue
			}
			h, _, _ := hsv(b, g, r)
			if blue.Contains(h, sat, v) {
				bmRow[x] = 1
			} else if red.Contains(h, sat, v) {
				rmRow[x] = 1
			}
		}
	}
	return bm, rm
}

// dieCandidates returns the blobs of one colour that may be the die, of a
// plausible size and shape (compact, not a stripe of cloth), largest first,
// at most n; and the largest such blob at the edge of the picture, or -1.
func dieCandidates(blobs []blob, labels []int32, w, minArea, maxArea, n int) ([]int, int) {
	var out []int
	edge := -1
	for i := range blobs {
		b := &blobs[i]
		if b.area < minArea || b.area > maxArea || !dieShaped(b, labels, w) {
			continue
		}
		if b.edge {
			if edge < 0 || b.area > blobs[edge].area {
				edge = i
			}
			continue
		}
		out = append(out, i)
	}
	sort.Slice(out, func(i, j int) bool { return blobs[out[i]].area > blobs[out[j]].area })
	if len(out) > n {
		out = out[:n]
	}
	return out, edge
}

// dieShaped says whether a blob is compact enough to be a die seen from
// above: its bounding box is not elongated and, with the holes in each row
// filled (a top face lost to glare), it fills most of it.
func dieShaped(b *blob, labels []int32, stride int) bool {
	w, h := b.box.Dx(), b.box.Dy()
	if w == 0 || h == 0 {
		return false
	}
	if float64(max(w, h)) > 1.7*float64(min(w, h)) {
		return false
	}
	return rowFill(b, labels, stride) >= minFill*float64(w*h)
}

// rowFill is the area of blob b with the holes in each of its rows
// filled: from each row's first pixel of b to its last.
func rowFill(b *blob, labels []int32, stride int) float64 {
	filled := 0
	for y := b.box.Min.Y; y < b.box.Max.Y; y++ {
		row := labels[y*stride : (y+1)*stride]
		first, last := -1, -1
		for x := b.box.Min.X; x < b.box.Max.X; x++ {
			if row[x] == b.label {
				if first < 0 {
					first = x
				}
				last = x
			}
		}
		if first >= 0 {
			filled += last - first + 1
		}
	}
	return float64(filled)
}

// minFill is the least part of its bounding box a die's blob fills, its
// rows' holes filled (a hexagon fills 3/4; glare and shadows take some).
var minFill = 0.4

// zeroed returns b with n zero bytes, reusing its array when large enough.
func zeroed(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	b = b[:n]
	clear(b)
	return b
}
