package vision

import (
	"image"
	"sort"
)

// pixelClass tells whether a BGR pixel belongs to a die.
type pixelClass func(b, g, r int) bool

// posClass tells whether the BGR pixel at (x, y) of the frame belongs to a
// die.
type posClass func(x, y, b, g, r int) bool

// downsample averages step x step blocks of im.
func downsample(im bgrImage, step int) bgrImage {
	if step <= 1 {
		return im
	}
	w, h := im.w/step, im.h/step
	out := bgrImage{w: w, h: h, pix: make([]byte, 3*w*h)}
	n := step * step
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var sb, sg, sr int
			for dy := 0; dy < step; dy++ {
				i := 3 * ((y*step+dy)*im.w + x*step)
				for dx := 0; dx < step; dx++ {
					sb += int(im.pix[i])
					sg += int(im.pix[i+1])
					sr += int(im.pix[i+2])
					i += 3
				}
			}
			o := 3 * (y*w + x)
			out.pix[o], out.pix[o+1], out.pix[o+2] = byte(sb/n), byte(sg/n), byte(sr/n)
		}
	}
	return out
}

// borderMedian is the per-channel median of the pixels on a ring of width
// 2 along the image border: the tray or table around the dice.
func borderMedian(im bgrImage) (int, int, int) {
	var ch [3][]int
	for y := 0; y < im.h; y++ {
		for x := 0; x < im.w; x++ {
			if x >= 2 && y >= 2 && x < im.w-2 && y < im.h-2 {
				x = im.w - 3
				continue
			}
			i := 3 * (y*im.w + x)
			for c := 0; c < 3; c++ {
				ch[c] = append(ch[c], int(im.pix[i+c]))
			}
		}
	}
	var m [3]int
	for c := range ch {
		sort.Ints(ch[c])
		m[c] = ch[c][len(ch[c])/2]
	}
	return m[0], m[1], m[2]
}

// differsFrom returns a class of pixels that differ from the background
// colour (b0, g0, r0) in luminance by more than dl, or in hue by more than
// dc (sum of the channel deviations from the mean difference).
func differsFrom(b0, g0, r0, dl, dc int) pixelClass {
	return func(b, g, r int) bool {
		db, dg, dr := b-b0, g-g0, r-r0
		l := (db + dg + dr) / 3
		if l > dl || -l > dl {
			return true
		}
		return iabs(db-l)+iabs(dg-l)+iabs(dr-l) > dc
	}
}

func iabs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}

// classMask marks the pixels of im of class cls.
func classMask(im bgrImage, cls pixelClass, mask []byte) []byte {
	if cap(mask) < im.w*im.h {
		mask = make([]byte, im.w*im.h)
	}
	mask = mask[:im.w*im.h]
	for i := range mask {
		p := im.pix[3*i:]
		if cls(int(p[0]), int(p[1]), int(p[2])) {
			mask[i] = 1
		} else {
			mask[i] = 0
		}
	}
	return mask
}

// cropDie cuts the die found as blob b of the mask at downsampling step out
// of the full-resolution frame: the die pixels (class cls, the component
// under the blob, holes filled) and the luminance.
func cropDie(im bgrImage, b blob, step int, cls posClass) dieCrop {
	margin := 2 * step
	box := image.Rect(b.box.Min.X*step-margin, b.box.Min.Y*step-margin, b.box.Max.X*step+margin, b.box.Max.Y*step+margin)
	box = box.Intersect(image.Rect(0, 0, im.w, im.h))
	c := dieCrop{box: box, w: box.Dx(), h: box.Dy(), fw: im.w, fh: im.h}
	c.gray = make([]float32, c.w*c.h)
	raw := make([]byte, c.w*c.h)
	for y := 0; y < c.h; y++ {
		for x := 0; x < c.w; x++ {
			i := 3 * ((box.Min.Y+y)*im.w + box.Min.X + x)
			bb, g, r := int(im.pix[i]), int(im.pix[i+1]), int(im.pix[i+2])
			c.gray[y*c.w+x] = 0.114*float32(bb) + 0.587*float32(g) + 0.299*float32(r)
			if cls(box.Min.X+x, box.Min.Y+y, bb, g, r) {
				raw[y*c.w+x] = 1
			}
		}
	}
	// keep the largest component (the die; bits of neighbours are dropped)
	blobs, labels := components(raw, c.w, c.h, nil)
	bestL, bestA := int32(0), 0
	for _, bl := range blobs {
		if bl.area > bestA {
			bestL, bestA = bl.label, bl.area
		}
	}
	for i, l := range labels {
		if l == bestL && l != 0 {
			raw[i] = 1
		} else {
			raw[i] = 0
		}
	}
	c.in = convexFill(raw, c.w, c.h)
	return c
}

// fillHoles returns mask with the background regions that do not reach the
// border set: the numerals inside a die's silhouette.
func fillHoles(mask []byte, w, h int) []byte {
	out := make([]byte, len(mask))
	for i := range out {
		out[i] = 1
	}
	// flood the outside from the border over zero pixels
	var stack []int
	push := func(i int) {
		if mask[i] == 0 && out[i] == 1 {
			out[i] = 0
			stack = append(stack, i)
		}
	}
	for x := 0; x < w; x++ {
		push(x)
		push((h-1)*w + x)
	}
	for y := 0; y < h; y++ {
		push(y * w)
		push(y*w + w - 1)
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x, y := i%w, i/w
		if x > 0 {
			push(i - 1)
		}
		if x < w-1 {
			push(i + 1)
		}
		if y > 0 {
			push(i - w)
		}
		if y < h-1 {
			push(i + w)
		}
	}
	return out
}

// holes counts the regions of background that mask (w x h) encloses, of
// at least 2 pixels: the loops of a numeral.
func holes(mask []byte, w, h int) int {
	filled := fillHoles(mask, w, h)
	in := make([]byte, len(mask))
	for i := range mask {
		if filled[i] != 0 && mask[i] == 0 {
			in[i] = 1
		}
	}
	blobs, _ := components(in, w, h, nil)
	n := 0
	for _, b := range blobs {
		if b.area >= 2 {
			n++
		}
	}
	return n
}
