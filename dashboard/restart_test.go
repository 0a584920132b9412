package dashboard

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/journal"
	"comptoir/table"
)

// TestRestartKeepsOffers restarts the table (a new session resumed from
// the journal, a new dashboard on the same token file) while Anna's
// announced command stands and her proposal to Bruno is pending: Bruno's
// phone finds its seat, still sees Anna's announced command (rebuilt from
// the journal), and no longer sees the proposal (not a game step: it is
// gone, Anna proposes again).
func TestRestartKeepsOffers(t *testing.T) {
	dir := t.TempDir()
	rules := enginetest.Rules{}
	opts := DefaultOpts
	opts.StaffPIN, opts.TokenFile = "2468", filepath.Join(dir, "tokens.json")
	start := func(resume bool) (*rig, func()) {
		store, err := journal.Open(filepath.Join(dir, "table.db"))
		if err != nil {
			t.Fatal(err)
		}
		var g *journal.Game
		if resume {
			g, err = store.Resume(rules)
		} else {
			g, err = store.Begin(rules, engine.Setup{Game: "tally", Players: []string{"Anna", "Bruno"}}, time.Now())
		}
		if err != nil {
			t.Fatal(err)
		}
		topts := table.DefaultOpts
		topts.Rules, topts.Game, topts.Store = rules, g, store
		topts.Kit = kitOf(t, rules)
		sess, stopSess := runSession(t, topts)
		r := newRig(t, FromTable(sess, TableOpts{Store: store}), opts)
		return r, func() { r.stop(); stopSess(); store.Close() }
	}

	r, stop := start(false)
	tokA, tokB := r.join(1), r.join(2)
	anna, bruno := r.dial(), r.dial()
	anna.send(Message{Type: msgHello, Token: tokA})
	anna.reply()
	bruno.send(Message{Type: msgHello, Token: tokB})
	bruno.reply()
	anna.send(Message{Type: msgCommand, Line: "take n=2"})
	if m := anna.reply(); m["type"] != "accepted" {
		t.Fatalf("take: %v", m)
	}
	anna.stateAt(1) // the dashboard has the take: Bruno's turn
	anna.send(Message{Type: msgPropose, Line: "take n=1"})
	if m := anna.reply(); m["type"] != "accepted" {
		t.Fatalf("propose: %v", m)
	}
	// Said in words to the seats (Tally is played with kit.Play).
	want := fmt.Sprint([]any{map[string]any{"seat": 0.0, "label": map[string]any{"en": "Anna takes 2 coin(s)", "fr": "Anna prend 2 pièce(s)"}}})
	for {
		f := bruno.must("state")
		if len(asList(f["proposals"])) == 1 {
			if got := fmt.Sprint(f["said"]); got != want {
				t.Fatalf("before the restart Bruno is told %s, want %s", got, want)
			}
			break
		}
	}
	anna.close()
	bruno.close()
	stop()

	r, stop = start(true)
	defer stop()
	bruno = r.dial()
	bruno.send(Message{Type: msgHello, Token: tokB})
	if m := bruno.reply(); m["type"] != "welcome" {
		t.Fatalf("Bruno's phone after the restart: %v", m)
	}
	f := bruno.must("state")
	for f["role"] != roleSeat { // the table's frame, sent before the hello
		f = bruno.must("state")
	}
	if got := fmt.Sprint(f["said"]); got != want {
		t.Errorf("after the restart Bruno is told %s, want Anna's announced %s", got, want)
	}
	if p := f["proposals"]; p != nil {
		t.Errorf("after the restart Bruno sees proposals %v: a pending proposal is not kept", p)
	}
}
