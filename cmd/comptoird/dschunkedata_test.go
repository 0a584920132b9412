package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"comptoir/engine"
	"comptoir/games/dschunke"
	"comptoir/games/dschunke/dschunkekit"
	"comptoir/games/kit"
	"comptoir/table"
)

// newDschunkeSession runs a four-player Dschunke session on rules until
// the test ends.
func newDschunkeSession(t *testing.T, rules engine.Rules) *table.Session {
	t.Helper()
	setup := engine.Setup{Game: dschunke.Name, Players: []string{"Anna", "Bruno", "Chloé", "David"}}
	opts, _, _ := demoGame(t, rules, setup)
	s, err := table.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, nil) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return s
}

// TestDschunkeDataEditor corrects a stand-in market card of a running
// Dschunke game through the daemon's editor: a value that is not a
// stand-in is refused and nothing is written; a merchant moved onto
// another's junk waits in the draft; the correction is applied to the
// running game, saved in the table's data file (which loads back), and
// the game goes on with the corrected card.
func TestDschunkeDataEditor(t *testing.T) {
	k := dschunkekit.Game()
	s := newDschunkeSession(t, dschunke.New())
	ctx := context.Background()
	for seat, goods := range []map[string]int{
		{"fish": 2, "rice": 2, "spices": 2, "vegetables": 2},
		{"rice": 3, "spices": 3, "vegetables": 2},
		{"rice": 3, "spices": 3, "vegetables": 2},
		{"fish": 6, "vegetables": 2},
	} {
		if err := s.Submit(ctx, engine.Action{By: engine.Seat(seat), Cmd: dschunke.Hand{Goods: goods}}); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "dschunke.yaml")
	rules, err := loadData(k.Edit, path) // not written yet: the embedded data
	if err != nil {
		t.Fatal(err)
	}
	e := &dataEditor{path: path, edit: k.Edit, adapter: k.Adapter, cur: rules, sess: func() *table.Session { return s }}

	err = e.Edit(kit.Edit{Key: "market-01.fish", Value: "3"})
	if r, ok := engine.AsRefusal(err); !ok || !errors.Is(err, dschunke.ErrNotStandIn) || r.FR == "" {
		t.Fatalf("Edit(market-01.fish) = %v, want a not-a-stand-in refusal", err)
	}
	err = e.Edit(kit.Edit{Key: "setup.merchants.load", Value: "orange"})
	if !errors.Is(err, ErrBoardDraft) {
		t.Fatalf("Edit(setup.merchants.load) = %v, want a draft refusal", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused or incomplete correction was saved: %v", err)
	}
	// Moving it back makes the data whole again: applied and saved.
	if err := e.Edit(kit.Edit{Key: "setup.merchants.load", Value: "brown"}); err != nil || len(e.draft) != 0 {
		t.Fatalf("Edit(setup.merchants.load back) = %v, draft %v", err, e.draft)
	}

	before := s.Latest()
	if err := e.Edit(kit.Edit{Key: "market-05.fish", Value: "1"}); err != nil {
		t.Fatalf("Edit(market-05.fish=1) = %v", err)
	}
	after := s.Latest()
	if after.Rules == before.Rules || after.Seq != before.Seq {
		t.Errorf("after the correction: Seq %d (want %d), rules swapped %v", after.Seq, before.Seq, after.Rules != before.Rules)
	}
	saved, err := loadData(k.Edit, path)
	if err != nil {
		t.Fatalf("the saved data do not load: %v", err)
	}
	d, err := saved.(dschunke.Rules).Data()
	if err != nil {
		t.Fatal(err)
	}
	if i, _ := d.MarketIndex("market-05"); d.Market[i].Prices[0] != 1 || !d.Market[i].StandIn {
		t.Errorf("saved market-05: %v (stand-in %v), want fish 1, still a stand-in", d.Market[i].Prices, d.Market[i].StandIn)
	}
	// The game goes on with the corrected card.
	if err := s.Submit(ctx, engine.Action{By: engine.NoSeat, Cmd: dschunke.Reveal{Market: "market-05"}}); err != nil {
		t.Fatal(err)
	}
	if p := s.Latest().State.View(engine.NoSeat).(dschunke.View).Prices; p["fish"] != "1" || p["vegetables"] != "S" {
		t.Errorf("market-05 in play: %v, want fish 1, vegetables S", p)
	}
}
