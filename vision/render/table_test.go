package render

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// TestTable: a table's frames share its camera, surface, lamp and dice
// set, frame after frame; Alone shows the die asked for, flat, with that
// face up, in the picture; Throw shows both dice flat on the faces
// labelled, or one cocked (labelled 0) about as often as asked; the
// camera makes the dice the size drawn for the table; the same seeds give
// the same frames.
func TestTable(t *testing.T) {
	sp, err := DefaultSplit()
	if err != nil {
		t.Fatal(err)
	}
	cockedThrows, throws := 0, 0
	for i := uint64(0); i < 40; i++ {
		tb := DrawTable(rand.New(rand.NewPCG(4, i)), sp.ValidationFonts[int(i)%len(sp.ValidationFonts)], sp.TrainSurfaces, 40, 65)
		if again := DrawTable(rand.New(rand.NewPCG(4, i)), sp.ValidationFonts[int(i)%len(sp.ValidationFonts)], sp.TrainSurfaces, 40, 65); !reflect.DeepEqual(tb, again) {
			t.Fatalf("table %d: two draws differ", i)
		}
		if tb.Info.SizePx < 40 || tb.Info.SizePx > 65 || tb.Info.Tilt > 20 {
			t.Errorf("table %d: %+v out of range", i, tb.Info)
		}
		var first Scene
		for k := range 6 {
			r := rand.New(rand.NewPCG(5, i<<8|uint64(k)))
			colour, face := []string{"blue", "red"}[k%2], 1+k
			s, in := tb.Alone(r, colour, face)
			if len(s.Dice) != 1 || in.Colour != colour || in.Face != face || in.Font != tb.Info.Font {
				t.Fatalf("table %d frame %d: %d dice, %+v", i, k, len(s.Dice), in)
			}
			if f, flat := s.Dice[0].Face(); f != face || !flat {
				t.Errorf("table %d frame %d: the die shows %d (flat %v), asked %d", i, k, f, flat, face)
			}
			if k == 0 {
				first = s
			}
			if s.Camera != first.Camera || !reflect.DeepEqual(s.Lights, first.Lights) || s.Table != first.Table || s.Ambient != first.Ambient {
				t.Errorf("table %d frame %d: the camera, lamp or surface moved", i, k)
			}
			if s.Dice[0].Body != map[string]Vec{"blue": tb.Set.Blue, "red": tb.Set.Red}[colour] || s.Dice[0].Font != tb.Set.Font {
				t.Errorf("table %d frame %d: not the table's %s die", i, k, colour)
			}
			box := s.DieBox(0)
			if w := math.Max(float64(box.X1-box.X0), float64(box.Y1-box.Y0)); w < 0.6*tb.Info.SizePx || w > 1.5*tb.Info.SizePx {
				t.Errorf("table %d frame %d: %.0f px across, the table's camera %.0f", i, k, w, tb.Info.SizePx)
			}
		}
		for k := range 10 {
			r := rand.New(rand.NewPCG(6, i<<8|uint64(k)))
			s, infos := tb.Throw(r, 0.3)
			if s2, infos2 := tb.Throw(rand.New(rand.NewPCG(6, i<<8|uint64(k))), 0.3); !reflect.DeepEqual(s, s2) || !reflect.DeepEqual(infos, infos2) {
				t.Fatalf("table %d throw %d: two draws differ", i, k)
			}
			if s.Camera != first.Camera || s.Table != first.Table {
				t.Errorf("table %d throw %d: the camera or surface moved", i, k)
			}
			throws++
			for j, in := range infos {
				f, flat := s.Dice[j].Face()
				switch {
				case in.Face == 0:
					cockedThrows++
					if flat || !in.Cocked {
						t.Errorf("table %d throw %d die %d: labelled ?, but flat %v", i, k, j, flat)
					}
				case f != in.Face || !flat:
					t.Errorf("table %d throw %d die %d: shows %d (flat %v), labelled %d", i, k, j, f, flat, in.Face)
				}
			}
		}
	}
	if share := float64(cockedThrows) / float64(throws); share < 0.2 || share > 0.4 {
		t.Errorf("%d of %d throws with a die cocked, asked 30%%", cockedThrows, throws)
	}
}

// TestWithOddShades: a set of odd shades differs from its draw only by
// its dice's bodies, drawn from OddBlue and OddRed (within their jitter),
// and the same seed gives the same set.
func TestWithOddShades(t *testing.T) {
	// jitter scales each channel by 0.88 to 1.12
	near := func(v Vec, list []Vec) bool {
		for _, c := range list {
			if math.Abs(v.X-c.X) <= 0.12*c.X+1e-9 && math.Abs(v.Y-c.Y) <= 0.12*c.Y+1e-9 && math.Abs(v.Z-c.Z) <= 0.12*c.Z+1e-9 {
				return true
			}
		}
		return false
	}
	for i := uint64(0); i < 20; i++ {
		s := DrawSet(rand.New(rand.NewPCG(7, i)), "FreeMono.ttf")
		odd := WithOddShades(rand.New(rand.NewPCG(8, i)), s)
		if again := WithOddShades(rand.New(rand.NewPCG(8, i)), s); again != odd {
			t.Fatalf("set %d: two draws differ", i)
		}
		if !near(odd.Blue, OddBlue) || !near(odd.Red, OddRed) {
			t.Errorf("set %d: bodies %v and %v, not of OddBlue and OddRed", i, odd.Blue, odd.Red)
		}
		odd.Blue, odd.Red = s.Blue, s.Red
		if odd != s {
			t.Errorf("set %d: more than the bodies changed: %+v, was %+v", i, odd, s)
		}
	}
}

// TestWithHarshLight checks that a table under a harsh lamp keeps its
// dice, surface and camera, and that its lamp is harsh: one small bright
// light (at least 1.2 times a normal lamp's power), the same from the
// same seed.
func TestWithHarshLight(t *testing.T) {
	for i := uint64(0); i < 20; i++ {
		tb := DrawTable(rand.New(rand.NewPCG(7, i)), "FreeMono.ttf", []string{"green felt", "linen"}, 40, 65)
		h := tb.WithHarshLight(rand.New(rand.NewPCG(8, i)))
		if again := tb.WithHarshLight(rand.New(rand.NewPCG(8, i))); !reflect.DeepEqual(again, h) {
			t.Fatalf("table %d: two draws differ", i)
		}
		if !strings.HasSuffix(h.Info.Light, " harsh") {
			t.Errorf("table %d: light %q, want a harsh one", i, h.Info.Light)
		}
		if p := h.lights[0].Color; max(p.X, p.Y, p.Z) < 1.2 || h.lights[0].Size > 15 {
			t.Errorf("table %d: main light %v (size %g), want at least 1.2 bright and at most 15 across", i, p, h.lights[0].Size)
		}
		h.lights, h.ambient, h.Info.Light = tb.lights, tb.ambient, tb.Info.Light
		if !reflect.DeepEqual(h, tb) {
			t.Errorf("table %d: more than the lamp changed", i)
		}
	}
}
