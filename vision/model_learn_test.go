package vision

import (
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
)

var update = flag.Bool("update", false, "relearn vision/model/builtin.json from the even-numbered renders")

// learnBuiltin learns the built-in model: the Hershey numerals plus the
// numerals of the even-numbered renders (the odd-numbered ones and every
// real photo are held out).
func learnBuiltin(t testing.TB) Model {
	t.Helper()
	boot := LearnModel(HersheySamples(), DefaultLearnOpts)
	o := DefaultReaderOpts
	o.Model = &boot
	r, err := NewReader(o)
	if err != nil {
		t.Fatal(err)
	}
	ss, err := SamplesFrom(r, renderedSet(t, 0), "rendered")
	if err != nil {
		t.Fatal(err)
	}
	return LearnModel(append(HersheySamples(), ss...), DefaultLearnOpts)
}

// TestLearnBuiltin relearns the built-in model; with -update it writes it
// to vision/model/builtin.json. Without, it checks the committed model is
// the one the committed program learns from the committed renders.
func TestLearnBuiltin(t *testing.T) {
	checkLeaks(t)
	m := learnBuiltin(t)
	data, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, '\n')
	if *update {
		if err := os.WriteFile("model/builtin.json", data, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote model/builtin.json: %d templates", len(m.Templates))
		return
	}
	committed, err := BuiltinModel()
	if err != nil {
		t.Fatal(err)
	}
	if why := modelsDiffer(m, committed); why != "" {
		t.Errorf("model/builtin.json is not what the learner makes from testdata/rendered (%s): run go test ./vision -run TestLearnBuiltin -update", why)
	}
}

// modelsDiffer says how two models differ, beyond the rounding that
// another CPU's floating point (fused multiply-adds) may bring.
func modelsDiffer(a, b Model) string {
	if a.Grid != b.Grid || a.Span != b.Span || a.Rotations != b.Rotations {
		return "grid, span or rotations"
	}
	if len(a.Templates) != len(b.Templates) {
		return fmt.Sprintf("%d templates, committed %d", len(a.Templates), len(b.Templates))
	}
	near := func(p, q []byte) bool {
		for i := range p {
			if d := int(p[i]) - int(q[i]); d > 3 || d < -3 {
				return false
			}
		}
		return true
	}
	for i, ta := range a.Templates {
		tb := b.Templates[i]
		if ta.Face != tb.Face || ta.N != tb.N || len(ta.Members) != len(tb.Members) || !near(ta.Pix, tb.Pix) {
			return fmt.Sprintf("template %d", i)
		}
		for j := range ta.Members {
			if !near(ta.Members[j], tb.Members[j]) {
				return fmt.Sprintf("template %d member %d", i, j)
			}
		}
	}
	if len(a.Sizes) != len(b.Sizes) {
		return "size ranges"
	}
	for f, ra := range a.Sizes {
		rb := b.Sizes[f]
		if math.Abs(ra[0]-rb[0]) > 1e-3 || math.Abs(ra[1]-rb[1]) > 1e-3 {
			return fmt.Sprintf("size range of face %d", f)
		}
	}
	return ""
}

// TestNearestAsSorted: nearest keeps the fineMembers members most
// correlated with a glyph, in order, as sorting every member's
// correlation does: fewer members than that, more, the member left out
// anywhere, and members repeated (equal correlations).
func TestNearestAsSorted(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	randGlyph := func() glyph {
		var g glyph
		for i := range g {
			g[i] = rng.Float32()
		}
		return normalise(g)
	}
	for _, n := range []int{0, 1, fineMembers - 1, fineMembers, fineMembers + 1, 40} {
		for _, skip := range []int{-1, 0, n / 2, n - 1} {
			members := make([]glyph, n)
			for i := range members {
				members[i] = randGlyph()
				if i%5 == 4 {
					members[i] = members[i-2]
				}
			}
			g := randGlyph()
			var all []scored
			for i := range members {
				if i != skip {
					all = append(all, scored{i, dot(&g, &members[i])})
				}
			}
			slices.SortStableFunc(all, func(a, b scored) int { return cmp.Compare(b.s, a.s) })
			want := all[:min(len(all), fineMembers)]
			got := nearest(nil, members, &g, skip >= 0, skip)
			if len(got) != len(want) {
				t.Fatalf("%d members, member %d left out: %d kept, want %d", n, skip, len(got), len(want))
			}
			for k := range want {
				// members of equal correlation are interchangeable
				if got[k].s != want[k].s || members[got[k].i] != members[want[k].i] {
					t.Errorf("%d members, member %d left out: %dth nearest is %v, want %v", n, skip, k+1, got[k], want[k])
				}
			}
		}
	}
}
