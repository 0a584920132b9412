package vision

import (
	"encoding/json"
	"flag"
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
	if string(data) != string(builtinJSON) {
		t.Errorf("model/builtin.json is not what the learner makes from testdata/rendered: run go test ./vision -run TestLearnBuiltin -update")
	}
}
