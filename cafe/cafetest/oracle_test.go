package cafetest

import (
	"testing"

	"comptoir/cafe"
	"comptoir/engine"
	"comptoir/internal/leaktest"
)

// TestOracle checks the oracle on a made-up game (leaktest.TwoSteps): a
// seat's card is a secret until the table's view shows it, vocabulary is
// not, money is a secret figure in log lines, scores only at the end.
func TestOracle(t *testing.T) {
	o := New([]string{"silk"})
	for i, st := range leaktest.TwoSteps() {
		o.See(int64(i+1), st)
	}
	line := func(seq int64, text string) cafe.Step {
		return cafe.Step{Table: "t", Game: 1, Seq: seq, Log: []cafe.Line{{FR: text, EN: text}}}
	}
	for _, tt := range []struct {
		m    cafe.Step
		leak bool
	}{
		{line(1, "Anna draws a card"), false},
		{line(1, "Anna draws L05"), true},
		{line(1, "Bruno plays L05-bis"), false},
		{line(1, "silk for P1"), false},
		{line(1, "Anna pays 23 ducats"), true},
		{line(2, "Bruno plays L07"), false},
		{cafe.Step{Table: "t", Game: 1, Seq: 1, Waiting: []string{"L07"}}, true},
		{cafe.Step{Table: "t", Game: 1, Seq: 1, Result: &engine.Result{}}, true},
		{cafe.Step{Table: "t", Game: 1, Seq: 2, Result: &engine.Result{Over: true}}, false},
		{cafe.Step{Table: "t", Game: 1, Seq: 3}, true},
	} {
		if got := o.Leaks(tt.m); (len(got) > 0) != tt.leak {
			t.Errorf("Leaks(%+v) = %q, want a leak: %v", tt.m, got, tt.leak)
		}
	}
}
