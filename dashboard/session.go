package dashboard

import (
	"context"
	"time"

	"comptoir/engine"
	"comptoir/games/kit"
	"comptoir/table"
)

// Session is what the dashboard needs of a table's game: submit a phone's
// command, submit a staff request, and follow the game's updates. The
// table session (package comptoir/table) provides it through [FromTable].
type Session interface {
	// Submit proposes an action. nil means accepted and journalled; a
	// *engine.Refusal (see engine.AsRefusal) means refused, with its
	// reason; any other error is a fault.
	Submit(ctx context.Context, a engine.Action) error
	// TakeBack undoes seat's own last step when the game allows it
	// (kit.Play.Undoable, nobody acted since), with the same error
	// contract.
	TakeBack(ctx context.Context, seat engine.Seat) error
	// Staff carries out a staff request, with the same error contract.
	Staff(ctx context.Context, r StaffRequest) error
	// Subscribe returns the game's updates: the latest one at once, then
	// every change. A slow reader may miss intermediate updates, never the
	// latest. The channel is closed when ctx ends.
	Subscribe(ctx context.Context) <-chan Update
	// Kit is the game's kit: its page data, renderer and announcements.
	// It does not change while the session lives.
	Kit() kit.Game
	// Record returns the game record (the engine's notation) of the game
	// so far, for download.
	Record() ([]byte, error)
}

// Update is one state of the game as the table session publishes it
// (table.Update: the state, the rules and codec it was built with, the
// public log, the last refusal, the devices), with when the game started.
type Update struct {
	table.Update
	// Started is when the game started (zero if unknown), for the BG
	// Stats export.
	Started time.Time
}

// LogLine is one line of the game's log.
type LogLine = table.LogLine

// Refused is a refusal as a frame tells it: who asked and why not.
type Refused struct {
	Seat engine.Seat `json:"seat"`
	FR   string      `json:"fr"`
	EN   string      `json:"en"`
	Seq  int64       `json:"seq"`
}

// StaffKind is what a staff request does.
type StaffKind string

// The staff requests.
const (
	// StaffUndo cancels the last standing step; Reason is required.
	StaffUndo StaffKind = "undo"
	// StaffCorrect submits Cmd, a game command, on behalf of the staff
	// (engine.Staff), for example to correct a holding.
	StaffCorrect StaffKind = "correct"
	// StaffCell edits one item of the game's fixed data (Edit: Genoa's
	// board cell "3-4" given to a square), through the game's editor
	// (kit.Game.Edit).
	StaffCell StaffKind = "cell"
	// StaffEnd ends the game as it stands (scored).
	StaffEnd StaffKind = "end"
	// StaffAbandon abandons the game (not scored).
	StaffAbandon StaffKind = "abandon"
	// StaffReassign frees Seat so that another phone may join it. The
	// dashboard handles it itself (it owns the seat tokens).
	StaffReassign StaffKind = "reassign"
	// StaffNewGame begins the next game once the current one is over or
	// abandoned: with Players, or the same players when Players is empty.
	StaffNewGame StaffKind = "new-game"
)

// StaffRequest is one staff action, checked against the staff PIN before
// it reaches the session.
type StaffRequest struct {
	Kind   StaffKind
	Reason string
	// Cmd is the game command of a StaffCorrect.
	Cmd engine.Command
	// Seat is the seat of a StaffReassign.
	Seat engine.Seat
	// Edit is a StaffCell's item and what it becomes.
	Edit kit.Edit
	// Players are a StaffNewGame's players in seating order; empty: the
	// same as the game before.
	Players []string
}
