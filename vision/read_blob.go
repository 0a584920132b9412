package vision

import "image"

// blob is one 8-connected component of a mask.
type blob struct {
	label  int32
	area   int
	box    image.Rectangle // in mask pixels, Max exclusive
	sx, sy int             // sums of coordinates, for the centroid
	edge   bool            // touches the border of the mask
}

func (b *blob) centroid() (float64, float64) {
	return float64(b.sx) / float64(b.area), float64(b.sy) / float64(b.area)
}

// components labels the 8-connected components of the non-zero pixels of
// mask (w x h). labels receives the component number (1-based) of each
// pixel, 0 for background; it is reused when large enough.
func components(mask []byte, w, h int, labels []int32) ([]blob, []int32) {
	if cap(labels) < w*h {
		labels = make([]int32, w*h)
	}
	labels = labels[:w*h]
	for i := range labels {
		labels[i] = 0
	}
	var blobs []blob
	var stack []int32
	for start := range mask {
		if mask[start] == 0 || labels[start] != 0 {
			continue
		}
		n := int32(len(blobs) + 1)
		b := blob{label: n, box: image.Rectangle{Min: image.Pt(w, h)}}
		labels[start] = n
		stack = append(stack[:0], int32(start))
		for len(stack) > 0 {
			p := int(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
			x, y := p%w, p/w
			b.area++
			b.sx += x
			b.sy += y
			if x < b.box.Min.X {
				b.box.Min.X = x
			}
			if y < b.box.Min.Y {
				b.box.Min.Y = y
			}
			if x >= b.box.Max.X {
				b.box.Max.X = x + 1
			}
			if y >= b.box.Max.Y {
				b.box.Max.Y = y + 1
			}
			if x == 0 || y == 0 || x == w-1 || y == h-1 {
				b.edge = true
			}
			for dy := -1; dy <= 1; dy++ {
				yy := y + dy
				if yy < 0 || yy >= h {
					continue
				}
				for dx := -1; dx <= 1; dx++ {
					xx := x + dx
					if xx < 0 || xx >= w {
						continue
					}
					q := yy*w + xx
					if mask[q] != 0 && labels[q] == 0 {
						labels[q] = n
						stack = append(stack, int32(q))
					}
				}
			}
		}
		blobs = append(blobs, b)
	}
	return blobs, labels
}
