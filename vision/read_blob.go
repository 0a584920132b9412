package vision

import (
	"encoding/binary"
	"image"
)

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
	clear(labels)
	var blobs []blob
	var stack []int32
	for start := 0; start < len(mask); start++ {
		// most of a mask is empty: skip it eight pixels at a time
		if start%8 == 0 && start+8 <= len(mask) && binary.LittleEndian.Uint64(mask[start:]) == 0 {
			start += 7
			continue
		}
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
			y := p / w
			x := p - y*w
			b.area++
			b.sx += x
			b.sy += y
			b.box.Min.X = min(b.box.Min.X, x)
			b.box.Min.Y = min(b.box.Min.Y, y)
			b.box.Max.X = max(b.box.Max.X, x+1)
			b.box.Max.Y = max(b.box.Max.Y, y+1)
			if x == 0 || y == 0 || x == w-1 || y == h-1 {
				b.edge = true
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
				continue
			}
			// inside the border: the eight neighbours without bounds
			for _, q := range [8]int{p - w - 1, p - w, p - w + 1, p - 1, p + 1, p + w - 1, p + w, p + w + 1} {
				if mask[q] != 0 && labels[q] == 0 {
					labels[q] = n
					stack = append(stack, int32(q))
				}
			}
		}
		blobs = append(blobs, b)
	}
	return blobs, labels
}
