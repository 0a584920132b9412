package table

import (
	"context"
	"strings"
	"testing"

	"comptoir/configs"
	"comptoir/engine"
	"comptoir/games/dschunke"
)

// TestStaffRulesDschunke swaps the data of a running Dschunke game for
// data where the staff corrected a stand-in (RULES-NOTES: "staff can
// correct them like the Genoa board"): the game goes on where it stood,
// on the corrected market card.
func TestStaffRulesDschunke(t *testing.T) {
	checkLeaks(t)
	setup := engine.Setup{Game: dschunke.Name, Players: []string{"Anna", "Bruno", "Chloé", "David"}}
	r := newRigWith(t, "", dschunke.New(), setup, nil)
	ctx := context.Background()
	for seat, goods := range []map[string]int{
		{"fish": 2, "rice": 2, "spices": 2, "vegetables": 2},
		{"rice": 3, "spices": 3, "vegetables": 2},
		{"rice": 3, "spices": 3, "vegetables": 2},
		{"fish": 6, "vegetables": 2},
	} {
		if err := r.s.Submit(ctx, engine.Action{By: engine.Seat(seat), Cmd: dschunke.Hand{Goods: goods}}); err != nil {
			t.Fatal(err)
		}
	}
	before := r.latest()
	board, err := configs.FS.ReadFile(dschunke.BoardFile)
	if err != nil {
		t.Fatal(err)
	}
	cards, err := configs.FS.ReadFile(dschunke.CardsFile)
	if err != nil {
		t.Fatal(err)
	}
	fixed := strings.Replace(string(cards), "{id: market-05, prices: {fish: 4, rice: 2, spices: 5, vegetables: S}, stand-in: true}", "{id: market-05, prices: {fish: 1, rice: S, spices: 3, vegetables: 6}}", 1)
	if fixed == string(cards) {
		t.Fatal("market-05 is not in the cards file as expected")
	}
	d, err := dschunke.Decode(board, dschunke.BoardFile, []byte(fixed), dschunke.CardsFile)
	if err != nil {
		t.Fatal(err)
	}
	rules := dschunke.NewWithData(d)
	if err := r.s.Staff(ctx, StaffRequest{Kind: StaffRules, Rules: rules}); err != nil {
		t.Fatalf("StaffRules = %v", err)
	}
	after := r.latest()
	if after.Seq != before.Seq || len(after.Log) != len(before.Log) || r.s.Rules() != rules {
		t.Errorf("after the swap: Seq %d, %d log lines; want %d and %d with the new rules", after.Seq, len(after.Log), before.Seq, len(before.Log))
	}
	if err := r.s.Submit(ctx, engine.Action{By: engine.NoSeat, Cmd: dschunke.Reveal{Market: "market-05"}}); err != nil {
		t.Fatal(err)
	}
	if p := r.latest().State.View(engine.NoSeat).(dschunke.View).Prices; p["fish"] != "1" || p["rice"] != "S" {
		t.Errorf("market-05 after the correction: %v, want fish 1, rice S", p)
	}
}
