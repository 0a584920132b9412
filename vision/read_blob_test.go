package vision

import (
	"image"
	"math/rand/v2"
	"slices"
	"testing"
)

// componentsEveryPixel is components as first written, every pixel of
// the mask looked at and every neighbour bounds-checked: the oracle of
// TestComponentsSameAsEveryPixel.
func componentsEveryPixel(mask []byte, w, h int) ([]blob, []int32) {
	labels := make([]int32, w*h)
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
			b.box.Min.X, b.box.Min.Y = min(b.box.Min.X, x), min(b.box.Min.Y, y)
			b.box.Max.X, b.box.Max.Y = max(b.box.Max.X, x+1), max(b.box.Max.Y, y+1)
			if x == 0 || y == 0 || x == w-1 || y == h-1 {
				b.edge = true
			}
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					xx, yy := x+dx, y+dy
					if xx < 0 || xx >= w || yy < 0 || yy >= h {
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

// TestComponentsSameAsEveryPixel: components, which skips empty runs of
// the mask eight pixels at a time and checks no bounds inside the
// border, finds the same blobs and labels as looking at every pixel:
// masks sparse and dense, of widths that are and are not multiples of
// eight, one pixel wide or high, blobs at every border, with a labels
// buffer reused dirty.
func TestComponentsSameAsEveryPixel(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	var labels []int32
	for _, size := range [][2]int{{1, 1}, {1, 17}, {17, 1}, {8, 8}, {13, 7}, {64, 48}, {99, 61}} {
		for _, density := range []float64{0, 0.02, 0.3, 0.7, 1} {
			w, h := size[0], size[1]
			mask := make([]byte, w*h)
			for i := range mask {
				if rng.Float64() < density {
					mask[i] = 1
				}
			}
			wb, wl := componentsEveryPixel(mask, w, h)
			var gb []blob
			gb, labels = components(mask, w, h, labels)
			if !slices.Equal(gb, wb) || !slices.Equal(labels, wl) {
				t.Errorf("%dx%d, density %.2f: %d blobs %v, want %d %v", w, h, density, len(gb), gb, len(wb), wb)
			}
			// the next mask reuses the labels, dirty
		}
	}
}
