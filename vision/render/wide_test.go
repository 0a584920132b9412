package render

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

func TestDefaultSplit(t *testing.T) {
	s, err := DefaultSplit()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.TrainFonts) + len(s.TestFonts); n < 8 {
		t.Errorf("%d fonts, want at least 8", n)
	}
	if len(s.ValidationFonts) < 4 {
		t.Errorf("%d validation fonts, want at least 4", len(s.ValidationFonts))
	}
	test := map[string]bool{}
	for _, f := range append(append([]string{}, s.TestFonts...), s.TestSurfaces...) {
		test[f] = true
	}
	for _, f := range append(append([]string{}, s.TrainFonts...), s.TrainSurfaces...) {
		if test[f] {
			t.Errorf("%s is in both splits", f)
		}
	}
	train := map[string]bool{}
	for _, f := range s.TrainFonts {
		train[f] = true
	}
	for _, f := range s.ValidationFonts {
		if train[f] || test[f] {
			t.Errorf("validation font %s is in train or test", f)
		}
	}
	kinds := map[string]map[string]bool{"train": {}, "test": {}}
	for split, names := range map[string][]string{"train": s.TrainSurfaces, "test": s.TestSurfaces} {
		for _, n := range names {
			kinds[split][wideSurfaces[n](rand.New(rand.NewPCG(1, 1))).Kind] = true
		}
	}
	for _, k := range []string{"felt", "wood", "cloth", "mat"} {
		if !kinds["train"][k] || !kinds["test"][k] {
			t.Errorf("surfaces of kind %s: train %v, test %v; want both", k, kinds["train"][k], kinds["test"][k])
		}
	}
}

func TestLoadSplitErrors(t *testing.T) {
	for _, tc := range []struct{ name, data string }{
		{"in both", "fonts:\n  train: [a.ttf]\n  test: [a.ttf]\nsurfaces:\n  train: [pine]\n  test: [walnut]\n"},
		{"unknown surface", "fonts:\n  train: [a.ttf]\n  test: [b.ttf]\nsurfaces:\n  train: [lava]\n  test: [walnut]\n"},
		{"empty test", "fonts:\n  train: [a.ttf]\n  test: []\nsurfaces:\n  train: [pine]\n  test: [walnut]\n"},
		{"unknown key", "fonts:\n  train: [a.ttf]\n  test: [b.ttf]\nsurfaces:\n  train: [pine]\n  test: [walnut]\ncolours: []\n"},
		{"validation font in train", "fonts:\n  train: [a.ttf]\n  test: [b.ttf]\n  validation: [c.ttf, a.ttf]\nsurfaces:\n  train: [pine]\n  test: [walnut]\n"},
		{"validation font in test", "fonts:\n  train: [a.ttf]\n  test: [b.ttf]\n  validation: [b.ttf]\nsurfaces:\n  train: [pine]\n  test: [walnut]\n"},
		{"train font twice", "fonts:\n  train: [a.ttf, c.ttf, a.ttf]\n  test: [b.ttf]\nsurfaces:\n  train: [pine]\n  test: [walnut]\n"},
		{"test surface twice", "fonts:\n  train: [a.ttf]\n  test: [b.ttf]\nsurfaces:\n  train: [pine]\n  test: [walnut, walnut]\n"},
		{"validation font twice", "fonts:\n  train: [a.ttf]\n  test: [b.ttf]\n  validation: [c.ttf, c.ttf]\nsurfaces:\n  train: [pine]\n  test: [walnut]\n"},
		{"validation surfaces", "fonts:\n  train: [a.ttf]\n  test: [b.ttf]\nsurfaces:\n  train: [pine]\n  test: [walnut]\n  validation: [linen]\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := LoadSplit("x.yaml", []byte(tc.data)); !errors.Is(err, ErrSplit) {
				t.Errorf("LoadSplit: %v, want ErrSplit", err)
			} else if strings.HasSuffix(tc.name, "twice") && !strings.Contains(err.Error(), "listed twice") {
				t.Errorf("LoadSplit: %v, want it to say which name is listed twice", err)
			}
		})
	}
}

// TestWideSeeds: the same seed gives the same crop and frame; the draws
// stay in their ranges.
func TestWideSeeds(t *testing.T) {
	s, err := DefaultSplit()
	if err != nil {
		t.Fatal(err)
	}
	for i := uint64(0); i < 200; i++ {
		a, ai := Wide(rand.New(rand.NewPCG(1, i)), s.TrainFonts, s.TrainSurfaces)
		b, bi := Wide(rand.New(rand.NewPCG(1, i)), s.TrainFonts, s.TrainSurfaces)
		if !reflect.DeepEqual(a, b) || ai != bi {
			t.Fatalf("seed %d: two draws differ", i)
		}
		if ai.SizePx < 25 || ai.SizePx > 160 || ai.Tilt > 20 || ai.Face < 1 || ai.Face > 8 {
			t.Errorf("seed %d: %+v out of range", i, ai)
		}
		if f, flat := a.Dice[0].Face(); f != ai.Face || !flat {
			t.Errorf("seed %d: die shows %d (flat %v), labelled %d", i, f, flat, ai.Face)
		}
		fr, infos := WideFrame(rand.New(rand.NewPCG(2, i)), s.TestFonts, s.TestSurfaces, 25, 160)
		for k, in := range infos {
			box := fr.DieBox(k)
			w := math.Max(float64(box.X1-box.X0), float64(box.Y1-box.Y0))
			// the box of the six vertices is the die's width across,
			// within the tilt's foreshortening and the die's turn
			if w < 0.6*in.SizePx || w > 1.5*in.SizePx {
				t.Errorf("seed %d die %d: %.0f px across in the frame, drawn %.0f", i, k, w, in.SizePx)
			}
		}
	}
}

// newWall returns the wall c has beyond WideFrame's frame fr (the last
// one: it fails unless there is exactly one more) and the unit vector
// from the dice towards its face.
func newWall(t *testing.T, seed uint64, fr, c Scene) (WallBox, Vec) {
	t.Helper()
	if len(c.Walls) != len(fr.Walls)+1 {
		t.Fatalf("seed %d: %d walls, WideFrame's %d: want one more", seed, len(c.Walls), len(fr.Walls))
	}
	w := c.Walls[len(c.Walls)-1]
	return w, Vec{math.Cos(w.Angle * math.Pi / 180), 0, math.Sin(w.Angle * math.Pi / 180)}
}

// TestWideCockedFrame: the frame is WideFrame's with one die cocked: tilted
// 20 to 30 degrees, on the table, touching a new wall's face, labelled 0;
// the other die flat, as drawn, on the die's side of the wall.
func TestWideCockedFrame(t *testing.T) {
	s, err := DefaultSplit()
	if err != nil {
		t.Fatal(err)
	}
	for i := uint64(0); i < 60; i++ {
		fr, infos := WideFrame(rand.New(rand.NewPCG(3, i)), s.ValidationFonts, s.TrainSurfaces, 25, 160)
		c, cinfos := WideCockedFrame(rand.New(rand.NewPCG(3, i)), s.ValidationFonts, s.TrainSurfaces, 25, 160)
		d, e := WideCockedFrame(rand.New(rand.NewPCG(3, i)), s.ValidationFonts, s.TrainSurfaces, 25, 160)
		if !reflect.DeepEqual(c, d) || !reflect.DeepEqual(cinfos, e) {
			t.Fatalf("seed %d: two draws differ", i)
		}
		w, u := newWall(t, i, fr, c)
		cocked := 0
		for k, in := range cinfos {
			dk := c.Dice[k]
			if !in.Cocked {
				if !reflect.DeepEqual(dk, fr.Dice[k]) || in != infos[k] {
					t.Errorf("seed %d die %d: not cocked, but not as WideFrame drew it", i, k)
				}
				for _, p := range body(dk) {
					if p.Sub(w.At).Dot(u) > -2 {
						t.Errorf("seed %d die %d: within 2 mm of the wall or beyond it", i, k)
						break
					}
				}
				continue
			}
			cocked++
			if _, flat := dk.Face(); flat || in.Face != 0 || !in.Wall {
				t.Errorf("seed %d die %d: cocked, but flat %v, face %d, wall %v", i, k, flat, in.Face, in.Wall)
			}
			floor := fr.Dice[k].Pos.Y - restHeight(dk.Size)
			low, reach := math.Inf(1), math.Inf(-1)
			for _, p := range body(dk) {
				low, reach = math.Min(low, p.Y), math.Max(reach, p.Sub(w.At).Dot(u))
			}
			if math.Abs(low-floor) > 1e-9 || math.Abs(reach) > 1e-9 || math.Abs(w.At.Y-floor) > 1e-9 {
				t.Errorf("seed %d die %d: lowest point %.3f mm over the table, %.3f mm from the wall's face", i, k, low-floor, reach)
			}
		}
		if cocked != 1 {
			t.Errorf("seed %d: %d dice cocked, want 1", i, cocked)
		}
	}
}

// TestWideWalledFrame: the frame is WideFrame's with a new wall 0 to 3 mm
// beside one die, which stays as drawn (flat, its face labelled, marked
// at a wall); the other die, as drawn too, lies on its side of the wall
// (2 mm away at least, so that it may be within 3 mm too).
func TestWideWalledFrame(t *testing.T) {
	s, err := DefaultSplit()
	if err != nil {
		t.Fatal(err)
	}
	for i := uint64(0); i < 60; i++ {
		fr, infos := WideFrame(rand.New(rand.NewPCG(3, i)), s.TrainFonts, s.TrainSurfaces, 25, 160)
		c, cinfos := WideWalledFrame(rand.New(rand.NewPCG(3, i)), s.TrainFonts, s.TrainSurfaces, 25, 160)
		w, u := newWall(t, i, fr, c)
		near := 0
		for k, in := range cinfos {
			dk := c.Dice[k]
			if !reflect.DeepEqual(dk, fr.Dice[k]) || in.Face != infos[k].Face || in.Cocked {
				t.Errorf("seed %d die %d: moved, turned or relabelled (face %d, cocked %v)", i, k, in.Face, in.Cocked)
			}
			if _, flat := dk.Face(); !flat {
				t.Errorf("seed %d die %d: not flat", i, k)
			}
			reach := math.Inf(-1)
			for _, p := range body(dk) {
				reach = math.Max(reach, p.Sub(w.At).Dot(u))
			}
			switch {
			case reach > 1e-9:
				t.Errorf("seed %d die %d: %.3f mm beyond the wall's face", i, k, reach)
			case reach >= -3-1e-9 && in.Wall:
				near++
			}
		}
		if near == 0 {
			t.Errorf("seed %d: no die within 3 mm of the new wall and marked at a wall", i)
		}
	}
}

// TestDefectsApplyExact: Apply's exposure curve, looked up by the sum of a
// pixel's samples, gives the pictures computing it at each pixel gives,
// byte for byte (make model's committed networks depend on them), with and
// without blur, shrunk and not.
func TestDefectsApplyExact(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 61, 47))
	r := rand.New(rand.NewPCG(3, 4))
	for i := range src.Pix {
		src.Pix[i] = uint8(r.IntN(256))
	}
	for i := uint64(0); i < 40; i++ {
		d := DrawDefects(rand.New(rand.NewPCG(9, i)), []float64{1, 1, 0.7, 0.45}[i%4])
		if i%3 == 0 {
			d.Blur, d.BlurDir = 1+float64(i%5)*0.7, float64(i)*0.3
		}
		t.Run(fmt.Sprintf("%d", i), func(t *testing.T) {
			got, want := d.Apply(src, i), applyEach(d, src, i)
			if !bytes.Equal(got.Pix, want.Pix) {
				t.Fatalf("defects %+v: Apply differs from the exposure computed at each pixel", d)
			}
		})
	}
}

// applyEach is Apply as it was written first, the exposure curve computed
// at each pixel: the reference for TestDefectsApplyExact.
func applyEach(d Defects, img image.Image, seed uint64) *image.RGBA {
	b := img.Bounds()
	w, h := max(1, int(math.Round(float64(b.Dx())*d.Scale))), max(1, int(math.Round(float64(b.Dy())*d.Scale)))
	src := resize(img, w, h)
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(seed, 0x51ed27))
	steps := int(math.Ceil(d.Blur))
	dx, dy := math.Cos(d.BlurDir), math.Sin(d.BlurDir)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var sum [3]float64
			n := 0.0
			for k := -steps; k <= steps; k++ {
				t := 0.0
				if steps > 0 {
					t = float64(k) / float64(steps) * d.Blur / 2
				}
				xx := min(max(int(math.Round(float64(x)+t*dx)), 0), w-1)
				yy := min(max(int(math.Round(float64(y)+t*dy)), 0), h-1)
				c := src.RGBAAt(xx, yy)
				sum[0] += float64(c.R)
				sum[1] += float64(c.G)
				sum[2] += float64(c.B)
				n++
			}
			var px [3]uint8
			for i := range px {
				v := 255 * math.Pow(math.Pow(sum[i]/n/255, 2.2)*d.Exposure, 1/2.2)
				v += r.NormFloat64() * d.Noise
				px[i] = uint8(min(max(v+0.5, 0), 255))
			}
			out.SetRGBA(x, y, color.RGBA{px[0], px[1], px[2], 255})
		}
	}
	return out
}
