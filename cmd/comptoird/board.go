package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"comptoir/engine"
	"comptoir/games/kit"
	"comptoir/table"
)

// ErrBoardDraft refuses a board edit that leaves the layout invalid for
// now: the edit is kept in the draft until the next ones make it whole.
var ErrBoardDraft = engine.NewRule("comptoird.board-draft", "the game's data (a board's layout, a set-up) are not whole yet; the edit waits for the next ones", "les données du jeu (plan du plateau, mise en place) ne sont pas encore complètes ; la modification attend les suivantes")

// loadData reads the table's data file of the game's editor (Genoa's
// board layout) and returns rules over it, or the game's default rules
// when the configuration names none or the file is not written yet.
func loadData(ed *kit.Editor, path string) (engine.Rules, error) {
	if path == "" {
		return ed.Load(nil, "")
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return ed.Load(nil, "")
	}
	if err != nil {
		return nil, err
	}
	return ed.Load(data, filepath.Base(path))
}

// dataEditor applies the staff's item-by-item corrections of the game's
// fixed data (Genoa's board layout, cell by cell) through the game's
// editor (kit.Editor). Valid data often takes several edits (a board has
// fixed counts of streets and buildings), so edits gather in a draft
// until the data they make is whole; then the game is replayed with the
// rules over it (refused if the game so far does not fit), and the data
// is saved.
type dataEditor struct {
	path    string
	edit    *kit.Editor
	adapter func(engine.Rules) kit.Adapter // the game's, nil if none
	sess    func() *table.Session

	mu    sync.Mutex
	cur   engine.Rules // guarded by mu
	draft []kit.Edit   // guarded by mu
}

// Edit applies one edit (a cell given to a square).
func (e *dataEditor) Edit(ed kit.Edit) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.path == "" {
		return engine.Refuse(ErrBoardDraft, "this table's configuration names no data file (board:), where the corrections would be kept",
			"la configuration de cette table ne nomme pas de fichier de données (board:), où garder les corrections")
	}
	draft := append(append([]kit.Edit(nil), e.draft...), ed)
	rules, err := e.edit.Apply(e.cur, draft)
	if errors.Is(err, kit.ErrIncomplete) {
		e.draft = draft
		return engine.Refusef(ErrBoardDraft, "%d edit(s) waiting: %v", "%d modification(s) en attente : %v", len(draft), err)
	}
	if err != nil {
		return err
	}
	req := table.StaffRequest{Kind: table.StaffRules, Rules: rules}
	if e.adapter != nil {
		req.Adapter = e.adapter(rules)
	}
	if err := e.sess().Staff(context.Background(), req); err != nil {
		return err
	}
	if err := writeAtomic(e.path, e.edit.Encode(rules)); err != nil {
		return fmt.Errorf("board: the layout is in use but could not be saved: %w", err)
	}
	e.cur, e.draft = rules, nil
	return nil
}

// writeAtomic writes data to path through a temporary file, so that a
// crash leaves the old file or the new one.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".board-*.yaml")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
