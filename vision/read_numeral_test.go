package vision

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gocv.io/x/gocv"
)

// drawnMask is the numeral face drawn in white on a size x size mask, as
// drawnGlyph draws it.
func drawnMask(t *testing.T, face, size int) []byte {
	t.Helper()
	m := gocv.NewMatWithSize(size, size, gocv.MatTypeCV8UC1)
	defer m.Close()
	text := fmt.Sprint(face)
	sz := gocv.GetTextSize(text, gocv.FontHersheySimplex, 3, 8)
	gocv.PutText(&m, text, image.Pt((size-sz.X)/2, (size+sz.Y)/2), gocv.FontHersheySimplex, 3, color.RGBA{255, 255, 255, 255}, 8)
	data := m.ToBytes()
	mask := make([]byte, len(data))
	for i, v := range data {
		if v > 127 {
			mask[i] = 1
		}
	}
	return mask
}

// shrinkMask is mask seen slanted: shrunk by sl.c along sl's direction
// about the mask's middle.
func shrinkMask(mask []byte, size int, sl slant) []byte {
	out := make([]byte, len(mask))
	c := float64(size) / 2
	inv := slant{sl.dx, sl.dy, 1 / sl.c}
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			u, v := inv.apply(float64(x)+0.5-c, float64(y)+0.5-c)
			sx, sy := int(math.Floor(u+c)), int(math.Floor(v+c))
			if sx >= 0 && sy >= 0 && sx < size && sy < size {
				out[y*size+x] = mask[sy*size+sx]
			}
		}
	}
	return out
}

// apply maps a point of the face to the picture: (u, v) shrunk along
// the slant's direction.
func (s slant) apply(u, v float64) (float64, float64) {
	k := (1 - s.c) * (u*s.dx + v*s.dy)
	return u - k*s.dx, v - k*s.dy
}

// correlation is the correlation of two glyphs, -1 to 1.
func correlation(a, b glyph) float64 {
	na, nb := normalise(a), normalise(b)
	return float64(dot(&na, &nb))
}

// A numeral seen slanted (shrunk along a direction, as the numeral of a
// face turned away from the camera shows) gives, with the slant undone,
// the glyph of the numeral seen square on; and the matcher scores its face
// higher for it: what tells a die leaning on the tray's wall.
func TestGlyphSlanted(t *testing.T) {
	const size = 160
	r := builtinReader(t)
	for _, face := range []int{2, 4, 7} {
		for _, sl := range []slant{{1, 0, 0.7}, {0, 1, 0.6}, {math.Sqrt(0.5), math.Sqrt(0.5), 0.75}} {
			t.Run(fmt.Sprintf("%d shrunk %.2f along (%.2f,%.2f)", face, sl.c, sl.dx, sl.dy), func(t *testing.T) {
				upright := glyphOfMask(drawnMask(t, face, size), size, size)
				shrunk := shrinkMask(drawnMask(t, face, size), size, sl)
				seen := glyphOfMask(shrunk, size, size)
				var n, sx, sy float64
				for i, v := range shrunk {
					if v != 0 {
						n++
						sx += float64(i%size) + 0.5
						sy += float64(i/size) + 0.5
					}
				}
				cx, cy := sx/n, sy/n
				undone := glyphSlanted(shrunk, size, size, cx, cy, slantedRMS(shrunk, size, cx, cy, sl), sl)
				cSeen, cUndone := correlation(upright, seen), correlation(upright, undone)
				if cUndone < 0.97 || cUndone < cSeen+0.03 {
					t.Errorf("correlation with the numeral seen square on: %.3f slanted, %.3f with the slant undone; want the slant undone at 0.97 and 0.03 better", cSeen, cUndone)
				}
				m := r.m.faceMatch(&seen, face)
				s, u := m.score, r.m.scoreAt(&undone, m.template, m.rotation)
				if u < s+tiltedGain {
					t.Errorf("face %d scores %.3f slanted, %.3f with the slant undone; want %g better", face, s, u, tiltedGain)
				}
				// the identity slant is glyphOf
				if a, b := glyphOf(shrunk, size, size, cx, cy, slantedRMS(shrunk, size, cx, cy, square)), glyphSlanted(shrunk, size, size, cx, cy, slantedRMS(shrunk, size, cx, cy, square), square); a != b {
					t.Error("glyphSlanted with no slant differs from glyphOf")
				}
			})
		}
	}
}

// faceMatch of the best face scores at least as the best match does (it
// compares, alone, all that face's templates best compared), of another
// face no more; and scoreAt, at the template and rotation it found,
// gives its score again.
func TestFaceMatch(t *testing.T) {
	r := builtinReader(t)
	for _, s := range HersheySamples() {
		m := r.m.best(&s.g)
		fm := r.m.faceMatch(&s.g, m.face)
		if fm.score < m.score-1e-9 || fm.face != m.face {
			t.Errorf("%s %d: faceMatch %d at %.4f, best %d at %.4f", s.From, s.Face, fm.face, fm.score, m.face, m.score)
		}
		if at := r.m.scoreAt(&s.g, fm.template, fm.rotation); at != fm.score {
			t.Errorf("%s %d: scoreAt %.6f, faceMatch %.6f", s.From, s.Face, at, fm.score)
		}
		if sm := r.m.faceMatch(&s.g, m.second); sm.score > m.score+1e-9 {
			t.Errorf("%s %d: faceMatch of the second face %d, %.4f, over the best's %.4f", s.From, s.Face, m.second, sm.score, m.score)
		}
	}
}

// outward measures how far out on its silhouette, along the line from
// the picture's centre, a die's numeral lies beyond where a flat die's
// would: 0 where parallax puts it, the distance over the die's radius
// further out or in, and 0 for a silhouette the crop cut.
func TestOutward(t *testing.T) {
	const fw, fh, size, radius = 640, 480, 60, 20.0
	// a round silhouette centred in a crop right of and below the
	// picture's centre; the numeral a bar across the line from the centre
	box := image.Rect(470, 330, 470+size, 330+size)
	cx, cy := float64(size)/2, float64(size)/2
	disc := func(r float64) []byte {
		in := make([]byte, size*size)
		for y := 0; y < size; y++ {
			for x := 0; x < size; x++ {
				if math.Hypot(float64(x)+0.5-cx, float64(y)+0.5-cy) <= r {
					in[y*size+x] = 1
				}
			}
		}
		return in
	}
	for _, tc := range []struct {
		name   string
		in     []byte
		beyond float64 // numeral's middle beyond a flat die's, in radii
		want   float64
	}{
		{"flat", disc(radius), 0, 0},
		{"further out", disc(radius), 0.3, 0.3},
		{"further in", disc(radius), -0.2, -0.2},
		{"silhouette cut by the crop", disc(size), 0.3, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &dieCrop{box: box, w: size, h: size, fw: fw, fh: fh, in: tc.in, gray: make([]float32, size*size)}
			c.face = measureFace(c)
			f := c.face
			// the numeral's middle, in crop pixels, then in the picture
			px, py := float64(box.Min.X)+f.sx-fw/2, float64(box.Min.Y)+f.sy-fh/2
			rad := math.Hypot(px, py)
			dx, dy := px/rad, py/rad
			d := (flatShift0 + flatShift1*rad/fw + tc.beyond) * f.dr
			mx, my := f.sx+d*dx, f.sy+d*dy
			nr := numeralResult{mask: make([]byte, size*size)}
			for y := 0; y < size; y++ {
				for x := 0; x < size; x++ {
					// a bar 9 pixels long across (dx, dy), 3 pixels deep
					u, v := (float64(x)+0.5-mx)*dx+(float64(y)+0.5-my)*dy, -(float64(x)+0.5-mx)*dy+(float64(y)+0.5-my)*dx
					if math.Abs(u) <= 1.5 && math.Abs(v) <= 4.5 {
						nr.mask[y*size+x] = 1
					}
				}
			}
			if got := outward(c, nr, dx, dy, rad); math.Abs(got-tc.want) > 0.05 {
				t.Errorf("outward = %.3f, want %.3f", got, tc.want)
			}
		})
	}
}

// filter1EveryWindow is filter1 as first written, each window scanned:
// the oracle of TestFilter1SameAsEveryWindow.
func filter1EveryWindow(src, dst []float32, w, h, k int, horizontal, isMin bool) {
	n, m, stride, step := h, w, w, 1
	if !horizontal {
		n, m, stride, step = w, h, 1, w
	}
	for line := 0; line < n; line++ {
		base := line * stride
		for i := 0; i < m; i++ {
			lo, hi := max(0, i-k), min(m-1, i+k)
			v := src[base+lo*step]
			for j := lo + 1; j <= hi; j++ {
				x := src[base+j*step]
				if (isMin && x < v) || (!isMin && x > v) {
					v = x
				}
			}
			dst[base+i*step] = v
		}
	}
}

// TestFilter1SameAsEveryWindow: the min and max filters give what
// scanning every window gives, along rows and columns, for windows
// narrower and wider than the picture, on values with many ties.
func TestFilter1SameAsEveryWindow(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range [][2]int{{1, 1}, {7, 3}, {40, 31}, {5, 60}} {
		w, h := size[0], size[1]
		src := make([]float32, w*h)
		for i := range src {
			src[i] = float32(rng.IntN(6)) / 5 // few values: ties everywhere
		}
		for _, k := range []int{0, 1, 2, 5, 9, 70} {
			for _, horizontal := range []bool{true, false} {
				for _, isMin := range []bool{true, false} {
					want, got := make([]float32, w*h), make([]float32, w*h)
					filter1EveryWindow(src, want, w, h, k, horizontal, isMin)
					filter1(src, got, w, h, k, horizontal, isMin)
					if !slices.Equal(got, want) {
						t.Errorf("%dx%d, radius %d, horizontal %v, min %v: %v, want %v", w, h, k, horizontal, isMin, got, want)
					}
				}
			}
		}
	}
}
