package main

import (
	"comptoir/games/genoa/genoakit"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"comptoir/engine"
	"comptoir/games/genoa"
	"comptoir/games/genoa/board"
	"comptoir/input"
	"comptoir/table"
)

// ErrBoardDraft refuses a board edit that leaves the layout invalid for
// now: the edit is kept in the draft until the next ones make it whole.
var ErrBoardDraft = engine.NewRule("comptoird.board-draft", "the board's layout is not whole yet; the edit waits for the next ones", "le plan du plateau n'est pas encore complet ; la modification attend les suivantes")

// loadBoard reads the table's Genoa board file, or gives the default
// layout when the configuration names none or the file is not written
// yet.
func loadBoard(path string) (*board.Board, error) {
	if path == "" {
		return board.Default(), nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return board.Default(), nil
	}
	if err != nil {
		return nil, err
	}
	return board.Decode(data, filepath.Base(path))
}

// boardEditor applies the staff's cell-by-cell corrections of the board's
// layout. A valid board has fixed counts of streets and buildings, so
// most corrections take several cells: edits gather in a draft until the
// layout they make is valid; then the game is replayed on it (refused if
// the game so far does not fit), and the layout is saved.
type boardEditor struct {
	path string
	sess func() *table.Session

	mu    sync.Mutex
	cur   *board.Board // guarded by mu
	draft []board.Edit // guarded by mu
}

// EditCell gives cell c to square (a building key, "street" or "market").
func (e *boardEditor) EditCell(c input.Cell, square string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.path == "" {
		return engine.Refuse(ErrBoardDraft, "this table's configuration names no board file (board:), where the layout would be kept",
			"la configuration de cette table ne nomme pas de fichier de plateau (board:), où garder le plan")
	}
	draft := append(append([]board.Edit(nil), e.draft...), board.Edit{X: c.X, Y: c.Y, Key: square})
	b, err := e.cur.WithCells(draft...)
	if err != nil {
		if !errors.Is(err, board.ErrInvalid) {
			return err
		}
		e.draft = draft
		return engine.Refusef(ErrBoardDraft, "%d edit(s) waiting: %v", "%d modification(s) en attente : %v", len(draft), err)
	}
	rules, err := genoa.WithBoard(b)
	if err != nil {
		e.draft = draft
		return engine.Refusef(ErrBoardDraft, "%d edit(s) waiting: %v", "%d modification(s) en attente : %v", len(draft), err)
	}
	if err := e.sess().Staff(context.Background(), table.StaffRequest{Kind: table.StaffRules, Rules: rules, Adapter: genoakit.Adapter(b)}); err != nil {
		return err
	}
	if err := writeAtomic(e.path, b.Encode()); err != nil {
		return fmt.Errorf("board: the layout is in use but could not be saved: %w", err)
	}
	e.cur, e.draft = b, nil
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
