package main

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"comptoir/engine"
	"comptoir/games/genoa"
	"comptoir/games/genoa/board"
	"comptoir/games/genoa/genoakit"
	"comptoir/games/kit"
	"comptoir/hw/tagmap"
	"comptoir/table"
	"comptoir/tableconfig"
)

// TestBoardEditor edits the layout cell by cell: an edit that leaves it
// invalid waits in the draft; the edit that makes it whole again is
// applied to the running game and saved.
func TestBoardEditor(t *testing.T) {
	cfg, err := tableconfig.Load(demoConfig)
	if err != nil {
		t.Fatal(err)
	}
	p := newPlayer(t, cfg, tagmap.New())
	path := filepath.Join(t.TempDir(), "board.yaml")
	k := genoakit.Game()
	e := &dataEditor{path: path, edit: k.Edit, adapter: k.Adapter, cur: genoa.New(), sess: func() *table.Session { return p.s }}

	// Blue 3, red 2 is a street; alone in the market it breaks the layout.
	err = e.Edit(kit.Edit{Key: "3-2", Value: "market"})
	if r, ok := engine.AsRefusal(err); !ok || !errors.Is(err, ErrBoardDraft) || r.EN == "" {
		t.Fatalf("Edit(3-2, market) = %v, want a draft refusal with the reason", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an invalid draft was saved: %v", err)
	}
	rulesBefore := p.s.Rules()
	// Giving it back to the streets makes the layout whole: applied, saved.
	if err := e.Edit(kit.Edit{Key: "3-2", Value: "street"}); err != nil {
		t.Fatalf("Edit(3-2, street) = %v", err)
	}
	if p.s.Rules() == rulesBefore {
		t.Errorf("the session still plays the old rules")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the layout was not saved: %v", err)
	}
	rules, err := loadData(k.Edit, path)
	if err != nil {
		t.Fatalf("the saved layout does not load: %v\n%s", err, data)
	}
	b := rules.(*genoa.Rules).Board()
	if sq := b.Square(b.SquareAt(3, 2)); sq.Kind != board.Street {
		t.Errorf("saved layout: 3-2 is %v, want a street", sq.Kind)
	}
	if len(e.draft) != 0 {
		t.Errorf("draft %v left after the layout was applied", e.draft)
	}
}
