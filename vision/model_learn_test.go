package vision

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
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
