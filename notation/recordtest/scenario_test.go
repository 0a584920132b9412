package recordtest

import (
	"fmt"
	"strings"
	"testing"

	"comptoir/engine/enginetest"
)

// recorder is a testing.TB that keeps the errors it is told.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Helper() {}

// TestScenario replays a record whose Refused tags hold, at a line and at
// the end, and one whose tags are all wrong: a refusal for another rule,
// a line accepted, a tag at a line without an action.
func TestScenario(t *testing.T) {
	rules := enginetest.Rules{}
	st := Scenario(t, rules, rules.Codec(), "testdata/scenario/tally-refused.txt")
	if s := st.(*enginetest.State); s.Pile != 1 {
		t.Errorf("the pile holds %d coins, want 1", s.Pile)
	}
	r := &recorder{TB: t}
	Scenario(r, rules, rules.Codec(), "testdata/scenario/tally-wrong-code.txt")
	for _, want := range []string{"refused for tally.take-count", "accepted, want refused", "line 9, which holds no action"} {
		if !strings.Contains(strings.Join(r.errs, "\n"), want) {
			t.Errorf("errors %q lack %q", r.errs, want)
		}
	}
	if len(r.errs) != 3 {
		t.Errorf("%d errors, want 3: %q", len(r.errs), r.errs)
	}
}

// TestCheckTrace checks a trace that holds and one with every fault.
func TestCheckTrace(t *testing.T) {
	got := CheckTrace(t, "testdata/trace/RULES.md")
	if want := []TraceCount{{"tally.txt", 4, 2, 1, 1}}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("CheckTrace = %v, want %v", got, want)
	}
	r := &recorder{TB: t}
	CheckTrace(r, "testdata/trace/BAD.md")
	all := strings.Join(r.errs, "\n")
	for _, want := range []string{"names TestGone", "subtest sub.TestInSub/another_case", "record testdata/gone.txt", "does not say \"no test\"", "the summary says tally.txt has [9 9 0 0]"} {
		if !strings.Contains(all, want) {
			t.Errorf("errors %q lack %q", r.errs, want)
		}
	}
}
