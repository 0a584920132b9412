package table

import (
	"context"
	"sync"
	"testing"

	"comptoir/engine"
	"comptoir/games/genoa"
	"comptoir/games/genoa/genoakit"
)

// TestRulesDuringStaffRules reads the session's rules (as the dashboard's
// readers and hub do on every message and frame) while the staff swap
// them for rules on an edited board: under -race, a read that is not
// synchronised with the swap on the session's goroutine fails the test.
func TestRulesDuringStaffRules(t *testing.T) {
	checkLeaks(t)
	setup := engine.Setup{Game: "genoa", Variant: "filosofia-2008", Players: []string{"Anna", "Bruno"}}
	r := newRigWith(t, "", genoa.New(), setup, nil)
	b, rules := boardCopy(t)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for ctx.Err() == nil {
			if r.s.Rules().Codec() == nil {
				t.Error("no codec")
				return
			}
		}
	}()
	for range 5 {
		if err := r.s.Staff(context.Background(), StaffRequest{Kind: StaffRules, Rules: rules, Adapter: genoakit.Adapter(b)}); err != nil {
			t.Fatalf("StaffRules = %v", err)
		}
	}
	cancel()
	wg.Wait()
	if got := r.latest().Rules; got != rules {
		t.Errorf("the update's rules are %p, want the swapped rules %p", got, rules)
	}
}
