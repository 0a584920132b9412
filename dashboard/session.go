package dashboard

import (
	"context"
	"time"

	"comptoir/engine"
	"comptoir/games/genoa/board"
	"comptoir/games/kit"
	"comptoir/input"
)

// Session is what the dashboard needs of a table's game: submit a phone's
// command, submit a staff request, and follow the game's updates. The
// table session (package comptoir/table) provides it through [FromTable].
type Session interface {
	// Submit proposes an action. nil means accepted and journalled; a
	// *engine.Refusal (see engine.AsRefusal) means refused, with its
	// reason; any other error is a fault.
	Submit(ctx context.Context, a engine.Action) error
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

// Update is one state of the game as the session publishes it.
type Update struct {
	// Game is the game's number in the table's journal; it changes when
	// a new game starts at the table (and every seat is then free).
	Game int64
	// Outcome is "" while the game runs, then "over" or "abandoned".
	Outcome string
	// Seq increases on every accepted step or undo.
	Seq int64
	// State is an immutable snapshot; the dashboard calls State.View(seat)
	// for each connection.
	State engine.State
	// Rules are the rules the state was built with, and Codec theirs: the
	// dashboard decodes and formats commands with the update's codec.
	Rules engine.Rules
	Codec *engine.Codec
	// Log is the game's log in words, public.
	Log []LogLine
	// Refusal is the last refusal since the last step, nil if none.
	Refusal *Refused
	// Devices is the status of the table's devices.
	Devices []input.DeviceStatus
	// Unknown lists the tags tapped that are not enrolled.
	Unknown []input.UnknownTag
	// Started is when the game started (zero if unknown), for the BG
	// Stats export.
	Started time.Time
	// GenoaBoard is the board layout a Genoa game is played on now (it
	// changes with the staff's board edits); nil: Opts.GenoaBoard.
	GenoaBoard *board.Board
}

// LogLine is one line of the game's log.
type LogLine struct {
	Seq int64  `json:"seq"`
	FR  string `json:"fr"`
	EN  string `json:"en"`
}

// Refused is a refusal told to the table: who asked and why not.
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
	// StaffCell sets the board cell Cell to the square Square (the
	// board's layout, edited cell by cell).
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
	// Cell and Square are a StaffCell's cell ("3-4") and square name.
	Cell   input.Cell
	Square string
	// Players are a StaffNewGame's players in seating order; empty: the
	// same as the game before.
	Players []string
}
