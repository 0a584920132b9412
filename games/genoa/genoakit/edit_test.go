package genoakit

import (
	"errors"
	"testing"

	"comptoir/engine"
	"comptoir/games/genoa"
	"comptoir/games/genoa/board"
	"comptoir/games/kit"
)

// TestEditCells edits the board through the kit's editor: a cell that is
// not on the board is refused; an edit that leaves the layout invalid is
// incomplete; the edit that makes it whole gives rules on the new board,
// which the encoded file loads back.
func TestEditCells(t *testing.T) {
	e := Game().Edit
	rules, err := e.Load(nil, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, cell := range []string{"9-1", "0-3", "3-04", "x"} {
		_, err := e.Apply(rules, []kit.Edit{{Key: cell, Value: "harbour"}})
		if r, ok := engine.AsRefusal(err); !ok || r.Rule != engine.ErrBadArgument {
			t.Errorf("cell %q: %v, want a bad-argument refusal", cell, err)
		}
	}
	// Blue 3, red 2 is a street; alone in the market it breaks the layout.
	draft := []kit.Edit{{Key: "3-2", Value: "market"}}
	if _, err := e.Apply(rules, draft); !errors.Is(err, kit.ErrIncomplete) {
		t.Fatalf("3-2 to the market: %v, want ErrIncomplete", err)
	}
	draft = append(draft, kit.Edit{Key: "3-2", Value: "street"})
	next, err := e.Apply(rules, draft)
	if err != nil {
		t.Fatalf("3-2 back to the streets: %v", err)
	}
	again, err := e.Load(e.Encode(next), "board.yaml")
	if err != nil {
		t.Fatal(err)
	}
	b := again.(*genoa.Rules).Board()
	if sq := b.Square(b.SquareAt(3, 2)); sq.Kind != board.Street {
		t.Errorf("3-2 is %v, want a street", sq.Kind)
	}
}
