package table

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/games/genoa"
	"comptoir/games/genoa/board"
	"comptoir/games/genoa/genoakit"
	"comptoir/input"
)

// genoaTags enrolls a tag "S-x-y" for every cell of the board.
func genoaTags() map[string]Target {
	tags := map[string]Target{}
	for x := 1; x <= 8; x++ {
		for y := 1; y <= 8; y++ {
			id := fmt.Sprintf("%d-%d", x, y)
			tags["S-"+id] = Target{Kind: "square", ID: id}
		}
	}
	return tags
}

func cellOf(t *testing.T, key genoa.Place) string {
	t.Helper()
	b := board.Default()
	id, ok := b.ByKey(string(key))
	if !ok {
		id, ok = b.ByKey("street-" + string(key))
	}
	if !ok {
		t.Fatalf("no square %q on the default board", key)
	}
	return b.Square(id).Cells[0].String()
}

func view(u Update) genoa.View { return u.State.View(engine.NoSeat).(genoa.View) }

// TestGenoaTurnFromInputs plays the start of a Genoa game from the table's
// inputs only: card scans for the starting hands, a roll, taps and sensor
// readings that move the pawn, refusals with the buzzer, the confirm
// button.
func TestGenoaTurnFromInputs(t *testing.T) {
	checkLeaks(t)
	setup := engine.Setup{Game: "genoa", Variant: "alea-2001", Players: []string{"Anna", "Bruno", "Chloé"}}
	rules := genoa.New()
	tags := genoaTags()
	cards := map[string]Target{}
	r := newRigWith(t, "", rules, setup, func(uid string) (Target, bool) {
		if tg, ok := tags[uid]; ok {
			return tg, true
		}
		tg, ok := cards[uid]
		return tg, ok
	})
	if !r.s.adapter.AwaitsTable(r.latest().State) {
		t.Errorf("AwaitsTable at the start = false, want true: the starting cards are to be scanned")
	}

	// A roll before the starting hands are scanned is refused.
	r.input(input.DiceRolled{Blue: 3, Red: 2, Confidence: 1})
	if u := r.latest(); u.Refusal == nil || u.Refusal.Code != "genoa.draw-first" || r.lights.refusals() != 1 {
		t.Fatalf("early roll: refusal %+v, buzzer %d; want genoa.draw-first and one buzz", u.Refusal, r.lights.refusals())
	}

	// Scan the starting cards: each tap names the card drawn.
	draws := 0
	for view(r.latest()).Drawing != nil {
		var card string
		for _, a := range r.latest().State.Legal() {
			if d, ok := a.Cmd.(genoa.Draw); ok {
				card = d.Card
				break
			}
		}
		uid := "C-" + card
		cards[uid] = Target{Kind: "card", ID: card}
		r.input(input.TagTapped{UID: uid})
		draws++
		if draws > 40 {
			t.Fatal("the draws never end")
		}
	}
	if draws != 12 {
		t.Errorf("scanned %d cards, want 12 (one of each of 4 decks for 3 players)", draws)
	}

	// The roll places the pawn on blue 3, red 2, a street.
	r.input(input.DiceRolled{Blue: 3, Red: 2, Confidence: 0.97})
	u := r.latest()
	v := view(u)
	if v.Phase != "move" || len(v.Path) != 1 || cellOf(t, v.Path[0]) != "3-2" {
		t.Fatalf("after the roll: phase %q path %v, want move from 3-2", v.Phase, v.Path)
	}
	seq := u.Seq

	// Tapping the square the pawn stands on does nothing.
	r.input(input.TagTapped{UID: "S-3-2"})
	if u := r.latest(); u.Seq != seq || u.Refusal != nil {
		t.Errorf("tap of the pawn's square: Seq %d refusal %+v, want nothing", u.Seq, u.Refusal)
	}

	// A tap far away is refused at once, with the buzzer.
	r.input(input.TagTapped{UID: "S-8-8"})
	u = r.latest()
	if u.Refusal == nil || u.Refusal.Code != "genoa.not-adjacent" || u.Refusal.FR == "" || r.lights.refusals() != 2 {
		t.Fatalf("far tap: refusal %+v buzzer %d, want genoa.not-adjacent and a second buzz", u.Refusal, r.lights.refusals())
	}

	// A tap on a neighbour moves the pawn.
	next := neighbourRoute(t, view(u))
	r.input(input.TagTapped{UID: "S-" + cellOf(t, next)})
	v = view(r.latest())
	if len(v.Path) != 2 || v.Path[1] != next {
		t.Fatalf("after the tap: path %v, want it to end on %s", v.Path, next)
	}

	// The board sensors feel the pawn on a third square (and the discs
	// left on the first two).
	third := neighbourRoute(t, v)
	var cells []input.Cell
	for _, p := range append(append([]genoa.Place(nil), v.Path...), third) {
		var x, y int
		fmt.Sscanf(cellOf(t, p), "%d-%d", &x, &y)
		cells = append(cells, input.Cell{X: x, Y: y})
	}
	r.input(input.SquareSensed{Cells: cells})
	v = view(r.latest())
	if len(v.Path) != 3 || v.Path[2] != third {
		t.Fatalf("after the sensors: path %v, want it to end on %s", v.Path, third)
	}

	// Confirm ends the movement unless an action is pending there, in
	// which case the refusal says so.
	before := r.latest().Seq
	r.input(input.Button{Name: "confirm"})
	u = r.latest()
	if u.Seq == before && (u.Refusal == nil || u.Refusal.EN == "") {
		t.Fatalf("confirm: neither accepted nor refused with a reason: %+v", u.Refusal)
	}
	if u.Seq != before && view(u).Phase == "move" {
		t.Errorf("confirm accepted but the movement goes on")
	}
	last := r.game.Steps()[len(r.game.Steps())-1]
	if u.Seq != before && last.Command != "end" {
		t.Errorf("last journal step %q, want end", last.Command)
	}
}

// neighbourRoute returns a square one move away that the pawn may reach,
// preferring streets (no action to take there).
func neighbourRoute(t *testing.T, v genoa.View) genoa.Place {
	t.Helper()
	var any genoa.Place
	for _, rt := range v.Reach {
		if len(rt.Path) != 1 {
			continue
		}
		if rt.Square[0] >= '1' && rt.Square[0] <= '8' {
			return rt.Square
		}
		any = rt.Square
	}
	if any == "" {
		t.Fatalf("no square one move away in %+v", v.Reach)
	}
	return any
}

// TestStaffRules swaps the rules of a running Genoa game for rules on a
// board of the same layout, read back from its own file: the game goes
// on where it stood.
func TestStaffRules(t *testing.T) {
	checkLeaks(t)
	setup := engine.Setup{Game: "genoa", Variant: "filosofia-2008", Players: []string{"Anna", "Bruno"}}
	r := newRigWith(t, "", genoa.New(), setup, nil)
	ctx := context.Background()
	for view(r.latest()).Drawing != nil {
		a := r.latest().State.Legal()[0]
		if err := r.s.Submit(ctx, engine.Action{By: engine.NoSeat, Cmd: a.Cmd}); err != nil {
			t.Fatal(err)
		}
	}
	before := r.latest()
	b, rules := boardCopy(t)
	if err := r.s.Staff(ctx, StaffRequest{Kind: StaffRules, Rules: rules, Adapter: genoakit.Adapter(b)}); err != nil {
		t.Fatalf("StaffRules = %v", err)
	}
	after := r.latest()
	if after.Seq != before.Seq || len(after.Log) != len(before.Log) || r.s.Rules() != rules {
		t.Errorf("after the swap: Seq %d, %d log lines; want %d and %d with the new rules", after.Seq, len(after.Log), before.Seq, len(before.Log))
	}
	r.input(input.DiceRolled{Blue: 3, Red: 2, Confidence: 1})
	if v := view(r.latest()); v.Phase != "move" {
		t.Errorf("after the swap a roll gives phase %q, want move", v.Phase)
	}
	if err := r.s.Staff(ctx, StaffRequest{Kind: StaffRules, Rules: enginetest.Rules{}}); !errors.Is(err, ErrBadRequest) {
		t.Errorf("StaffRules with Tally's rules = %v, want ErrBadRequest", err)
	}
}

// boardCopy is a copy of Genoa's default board, decoded again, and rules
// over it: the rules a staff board edit swaps in (StaffRules).
func boardCopy(t *testing.T) (*board.Board, engine.Rules) {
	t.Helper()
	b, err := board.Decode(board.Default().Encode(), "copy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rules, err := genoa.WithBoard(b)
	if err != nil {
		t.Fatal(err)
	}
	return b, rules
}
