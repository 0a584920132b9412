package dashboard

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/games/dschunke"
	"comptoir/games/dschunke/dschunkekit"
	"comptoir/games/kit"
	"comptoir/input"
	"comptoir/journal"
	"comptoir/table"
)

// TestStaffCorrectsDschunkeStandIn: from the staff page, a staff message
// corrects a stand-in market card of a running Dschunke game (RULES-NOTES:
// "staff can correct them like the Genoa board"). The correction goes
// through Dschunke's editor to the session, which swaps the rules under
// the game; the page data (/api/game) list the corrected value and the
// frames name a new version of them; a value that is not a stand-in is
// refused in both languages; and the game goes on with the corrected
// card. The daemon's side (draft, file) is cmd/comptoird's
// TestDschunkeDataEditor.
func TestStaffCorrectsDschunkeStandIn(t *testing.T) {
	checkLeaks(t)
	rules := dschunke.New()
	setup := engine.Setup{Game: dschunke.Name, Players: []string{"Anna", "Bruno", "Chloé", "David"}}
	store, err := journal.Open(filepath.Join(t.TempDir(), "table.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	game, err := store.Begin(rules, setup, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	k := dschunkekit.Game()
	topts := table.DefaultOpts
	topts.Rules, topts.Game, topts.Store, topts.Kit = rules, game, store, k
	sess, err := table.New(topts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); sess.Run(ctx, make(chan input.Event)) }()
	t.Cleanup(func() { cancel(); wg.Wait() })
	// The daemon's editor without its file: the kit's editor, then the
	// rules swapped in the session.
	edit := func(e kit.Edit) error {
		next, err := k.Edit.Apply(sess.Rules(), []kit.Edit{e})
		if err != nil {
			return err
		}
		return sess.Staff(context.Background(), table.StaffRequest{Kind: table.StaffRules, Rules: next})
	}
	opts := DefaultOpts
	opts.StaffPIN = "2468"
	r := newRig(t, FromTable(sess, TableOpts{Store: store, Edit: edit}), opts)
	t.Cleanup(r.stop)

	for seat, goods := range []map[string]int{
		{"fish": 2, "rice": 2, "spices": 2, "vegetables": 2},
		{"rice": 3, "spices": 3, "vegetables": 2},
		{"rice": 3, "spices": 3, "vegetables": 2},
		{"fish": 6, "vegetables": 2},
	} {
		if err := sess.Submit(ctx, engine.Action{By: engine.Seat(seat), Cmd: dschunke.Hand{Goods: goods}}); err != nil {
			t.Fatal(err)
		}
	}
	items := func() []kit.EditItem {
		t.Helper()
		resp := r.get("/api/game")
		defer resp.Body.Close()
		var info kit.Info
		if err := json.NewDecoder(resp.Body).Decode(&info); err != nil {
			t.Fatal(err)
		}
		return info.Edit
	}
	if !slices.Contains(items(), kit.EditItem{Key: "market-05.fish", Value: "4"}) {
		t.Fatalf("/api/game does not offer market-05.fish at 4: %v", items())
	}

	staff := r.dial()
	staff.send(Message{Type: msgHello, Role: roleStaff, PIN: "2468"})
	if m := staff.reply(); m["type"] != "welcome" {
		t.Fatalf("staff hello: %v", m)
	}
	first := staff.must("state")
	staff.send(Message{Type: msgStaff, Nonce: nonce(), PIN: "2468", Action: "cell", Cell: "market-01.fish", Square: "3"})
	if m := staff.reply(); m["type"] != "refused" || m["code"] != dschunke.ErrNotStandIn.Code || m["fr"] == "" || m["fr"] == m["en"] {
		t.Errorf("correcting market-01 (printed in the rules): %v, want a not-a-stand-in refusal in both languages", m)
	}
	staff.send(Message{Type: msgStaff, Nonce: nonce(), PIN: "2468", Action: "cell", Cell: "market-05.fish", Square: "1"})
	if m := staff.reply(); m["type"] != "accepted" {
		t.Fatalf("correcting market-05.fish: %v", m)
	}
	// The swap publishes the game again, with a new version of its data.
	f := staff.must("state")
	for f["info"] == first["info"] {
		f = staff.must("state")
	}
	if !slices.Contains(items(), kit.EditItem{Key: "market-05.fish", Value: "1"}) {
		t.Errorf("/api/game after the correction: %v, want market-05.fish at 1", items())
	}
	if err := sess.Submit(ctx, engine.Action{By: engine.NoSeat, Cmd: dschunke.Reveal{Market: "market-05"}}); err != nil {
		t.Fatal(err)
	}
	f = staff.stateAt(int64(first["seq"].(float64)) + 1)
	view := f["view"].(map[string]any)
	if p := view["prices"].(map[string]any); p["fish"] != "1" || p["vegetables"] != "S" {
		t.Errorf("market-05 in play: %v, want fish 1, vegetables S", p)
	}
}
