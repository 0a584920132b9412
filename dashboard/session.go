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
	// CorrectDice replaces the camera's dice reading of step seq by the
	// roll blue, red that seat, who threw, sees (table.Session.CorrectDice),
	// with the same error contract.
	CorrectDice(ctx context.Context, seat engine.Seat, seq int64, blue, red int) error
	// Staff carries out a staff request, with the same error contract.
	// The dashboard frees seats itself (table.StaffReassign): that kind
	// never reaches the session.
	Staff(ctx context.Context, r table.StaffRequest) error
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
