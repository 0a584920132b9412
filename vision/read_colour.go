package vision

import (
	"fmt"
	"image"
	"sort"

	"gocv.io/x/gocv"
)

// hsv converts an 8-bit BGR colour to OpenCV's HSV (hue 0-179), in
// integers: the saturation (255 d / v, rounded, d the channels' span)
// and the hue (30 per sixth of the circle, rounded) looked up
// (hsvTables), not divided.
func hsv(b, g, r int) (h, s, v int) {
	v = max(r, g, b)
	d := v - min(r, g, b)
	return hue(b, g, r, v, d), int(hsvSat[uint16(v<<8|d)]), v
}

// hue is the hue of hsv, given the colour's brightness v and the span of
// its channels d.
func hue(b, g, r, v, d int) int {
	if d == 0 {
		return 0
	}
	var num, base int
	switch v {
	case r:
		num, base = g-b, 0
	case g:
		num, base = b-r, 60
	default:
		num, base = r-g, 120
	}
	h := base + int(hsvHue[(d<<9|(num+256))&(1<<17-1)])
	if h < 0 {
		h += 180
	}
	return h % 180
}

func sign(x int) int {
	if x < 0 {
		return -1
	}
	return 1
}

// shrunkFrame is a frame shrunk to find its dice by colour: at 1/step of
// its size (block means, sm) and at 1/(step*ratio) (tiny), where the
// background under the dice is taken from. The learned reader's locator
// and the hand-tuned reader shrink a 640-wide frame alike (by 2, then by
// 8): Combined gives both one shrunkFrame, so that a frame is shrunk
// once. Its pixels' buffers are reused from frame to frame.
type shrunkFrame struct {
	ok          bool // sm and tiny are the frame's, at step and ratio
	step, ratio int
	sm, tiny    bgrImage
}

// forget makes sf forget its frame: the next shrink shrinks the frame it
// is given.
func (sf *shrunkFrame) forget() { sf.ok = false }

// shrink shrinks frame into sf by step, then by ratio, unless sf holds
// it shrunk so already (since the last forget). The callers take the
// pixels as they are and do not change them.
func (sf *shrunkFrame) shrink(frame gocv.Mat, step, ratio int) error {
	if sf.ok && sf.step == step && sf.ratio == ratio {
		return nil
	}
	sf.ok = false
	small := gocv.NewMat()
	defer small.Close()
	w, h := max(1, frame.Cols()/step), max(1, frame.Rows()/step)
	gocv.Resize(frame, &small, image.Pt(w, h), 0, 0, gocv.InterpolationArea)
	sm, err := viewBGRInto(small, sf.sm.pix)
	if err != nil {
		return err
	}
	tiny := gocv.NewMat()
	defer tiny.Close()
	gocv.Resize(small, &tiny, image.Pt(max(1, w/ratio), max(1, h/ratio)), 0, 0, gocv.InterpolationArea)
	t, err := viewBGRInto(tiny, sf.tiny.pix)
	if err != nil {
		return err
	}
	sf.sm, sf.tiny, sf.step, sf.ratio, sf.ok = sm, t, step, ratio, true
	return nil
}

// median is the median filter of im (k x k pixels), its pixels copied
// into buf when it is large enough.
func median(im bgrImage, k int, buf []byte) (bgrImage, error) {
	m, err := gocv.NewMatFromBytes(im.h, im.w, gocv.MatTypeCV8UC3, im.pix)
	if err != nil {
		return bgrImage{}, fmt.Errorf("%w: %v", ErrBadFrame, err)
	}
	defer m.Close()
	med := gocv.NewMat()
	defer med.Close()
	gocv.MedianBlur(m, &med, k)
	return viewBGRInto(med, buf)
}

// shrink returns the frame at 1/step of its size (block means; sf's) and
// the background under the dice at 1/(step*ratio): a median filter wide
// enough that a die (or two touching) is less than half of any window,
// its pixels copied into bgBuf when it is large enough.
func shrink(sf *shrunkFrame, frame gocv.Mat, step, ratio int, bgBuf []byte) (sm, bg bgrImage, err error) {
	if err := sf.shrink(frame, step, ratio); err != nil {
		return sm, bg, err
	}
	bg, err = median(sf.tiny, max(5, (sf.tiny.w/8)|1), bgBuf)
	return sf.sm, bg, err
}

// viewBGRInto is viewBGR with the pixels copied out of the Mat, into buf
// when it is large enough.
func viewBGRInto(m gocv.Mat, buf []byte) (bgrImage, error) {
	v, err := viewMat(m)
	if err != nil {
		return v, err
	}
	v.pix = append(buf[:0], v.pix...)
	return v, nil
}

// colourMasks marks, on im (at 1/step of the frame), the pixels in the
// blue and the red ranges that also stand out from the background bg (at
// 1/bgStep of the frame): a felt of the dice's own colour is not a die.
// A pixel in both ranges is blue.
//
// bm and rm are reused when large enough.
func colourMasks(im, bg bgrImage, ratio int, blue, red HSVRange, minDiff int, bm, rm []byte) ([]byte, []byte) {
	bm, rm = zeroed(bm, im.w*im.h), zeroed(rm, im.w*im.h)
	// a pixel's saturation and hue are worked out only when its
	// brightness and then its saturation fall in a range
	vmin, vmax := min(blue.VMin, red.VMin), max(blue.VMax, red.VMax)
	smin, smax := min(blue.SMin, red.SMin), max(blue.SMax, red.SMax)
	for y := 0; y < im.h; y++ {
		by := min(bg.h-1, y/ratio)
		bgRow := bg.pix[3*by*bg.w : 3*(by+1)*bg.w]
		row := im.pix[3*y*im.w : 3*(y+1)*im.w]
		bmRow, rmRow := bm[y*im.w:(y+1)*im.w], rm[y*im.w:(y+1)*im.w]
		// the background is one colour along each run of ratio pixels
		// (the last run of the row takes the pixels beyond the
		// background's width): no division and no reload of its colour
		// for each pixel
		for x0 := 0; x0 < im.w; {
			bx := min(bg.w-1, x0/ratio)
			x1 := im.w
			if bx < bg.w-1 {
				x1 = min(im.w, (bx+1)*ratio)
			}
			qb, qg, qr := int(bgRow[3*bx]), int(bgRow[3*bx+1]), int(bgRow[3*bx+2])
			run := row[3*x0 : 3*x1]
			for i := 0; i+2 < len(run); i += 3 {
				b, g, r := int(run[i]), int(run[i+1]), int(run[i+2])
				if iabs(b-qb)+iabs(g-qg)+iabs(r-qr) < minDiff {
					continue
				}
				v := max(r, g, b)
				if v < vmin || v > vmax {
					continue
				}
				d := v - min(r, g, b)
				sat := int(hsvSat[uint16(v<<8|d)])
				if sat < smin || sat > smax {
					continue
				}
				h := hue(b, g, r, v, d)
				if blue.Contains(h, sat, v) {
					bmRow[x0+i/3] = 1
				} else if red.Contains(h, sat, v) {
					rmRow[x0+i/3] = 1
				}
			}
			x0 = x1
		}
	}
	return bm, rm
}

// The divisions of hsv, looked up: hsvSat[v<<8|d] is the saturation of
// a colour of brightness v whose channels span d, and hsvHue[d<<9|(num+256)]
// the hue's offset from its sixth's base for the difference num of the
// other two channels. 192 KB, made when the package starts.
var hsvSat, hsvHue = hsvTables()

func hsvTables() (sats *[1 << 16]uint8, hues *[1 << 17]int8) {
	sats, hues = new([1 << 16]uint8), new([1 << 17]int8)
	for v := 1; v < 256; v++ {
		for d := 0; d <= v; d++ {
			sats[v<<8|d] = uint8((255*d + v/2) / v)
		}
	}
	for d := 1; d < 256; d++ {
		for num := -d; num <= d; num++ {
			hues[d<<9|(num+256)] = int8((60*num + d*sign(num)) / (2 * d))
		}
	}
	return sats, hues
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
