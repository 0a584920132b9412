package render

import (
	"errors"
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
