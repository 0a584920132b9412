package dashboard

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"comptoir/engine"
	"comptoir/games/kit"
	"comptoir/journal"
	"comptoir/notation"
	"comptoir/table"
)

// TableOpts are what FromTable needs besides the session.
type TableOpts struct {
	// Store is the table's journal, where the game's start time is read
	// (for the BG Stats export). Nil: the export is dated at the end.
	Store *journal.Store
	// Edit applies a staff edit of the game's fixed data (the daemon
	// keeps the data file and the draft; see kit.Editor). Nil: the staff
	// page cannot.
	Edit func(e kit.Edit) error
}

// ErrNoBoardEdit refuses an edit of the game's fixed data (Genoa's board
// layout, Dschunke's stand-ins) on a table that cannot do it.
var ErrNoBoardEdit = engine.NewRule("dashboard.no-board-edit", "this table's game data cannot be edited here", "les données du jeu de cette table ne se modifient pas ici")

// FromTable returns the table session as the dashboard's Session.
func FromTable(s *table.Session, opts TableOpts) Session {
	return &tableSession{s: s, opts: opts, started: map[int64]time.Time{}}
}

type tableSession struct {
	s    *table.Session
	opts TableOpts

	mu      sync.Mutex
	started map[int64]time.Time // game id → start, guarded by mu
}

func (t *tableSession) Kit() kit.Game { return t.s.Kit() }

func (t *tableSession) Submit(ctx context.Context, a engine.Action) error {
	return badRequest(t.s.Submit(ctx, a))
}

// badRequest turns the session's incomplete-request errors into refusals
// the staff can read.
func badRequest(err error) error {
	if err != nil && errors.Is(err, table.ErrBadRequest) {
		return engine.Refuse(engine.ErrBadArgument, err.Error(), "demande incomplète ou impossible : "+err.Error())
	}
	return err
}

// TakeBack takes back seat's own last step through the session.
func (t *tableSession) TakeBack(ctx context.Context, seat engine.Seat) error {
	return badRequest(t.s.TakeBack(ctx, seat))
}

// CorrectDice corrects the camera's reading through the session.
func (t *tableSession) CorrectDice(ctx context.Context, seat engine.Seat, seq int64, blue, red int) error {
	return badRequest(t.s.CorrectDice(ctx, seat, seq, blue, red))
}

// Staff carries out r through the session, but for an edit of the game's
// fixed data (table.StaffCell), which TableOpts.Edit applies.
func (t *tableSession) Staff(ctx context.Context, r table.StaffRequest) error {
	if r.Kind != table.StaffCell {
		return badRequest(t.s.Staff(ctx, r))
	}
	if t.opts.Edit == nil {
		return engine.Refuse(ErrNoBoardEdit, "", "")
	}
	return badRequest(t.opts.Edit(r.Edit))
}

func (t *tableSession) Record() ([]byte, error) {
	var b bytes.Buffer
	if err := notation.Write(&b, t.s.Record()); err != nil {
		return nil, fmt.Errorf("game record: %w", err)
	}
	return b.Bytes(), nil
}

func (t *tableSession) Subscribe(ctx context.Context) <-chan Update {
	in := t.s.Subscribe(ctx)
	out := make(chan Update, 1)
	go func() {
		defer close(out)
		for u := range in {
			v := Update{Update: u, Started: t.startOf(u.Game)}
			// Keep only the latest, like the session does.
			select {
			case <-out:
			default:
			}
			select {
			case out <- v:
			case <-ctx.Done():
			}
		}
	}()
	return out
}

// startOf is when game id started, from the journal's history.
func (t *tableSession) startOf(id int64) time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	if at, ok := t.started[id]; ok || t.opts.Store == nil {
		return at
	}
	games, err := t.opts.Store.Games()
	if err != nil {
		return time.Time{}
	}
	for _, g := range games {
		t.started[g.ID] = g.Started
	}
	return t.started[id]
}
