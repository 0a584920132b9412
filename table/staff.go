package table

import (
	"comptoir/engine"
	"comptoir/games/kit"
)

// StaffKind is what a staff request asks. Its value is the request's name
// on the staff page's wire ("undo", "correct"…).
type StaffKind string

// The staff requests. The session carries out all but two: StaffReassign
// frees a seat's phone, which the dashboard does itself (it owns the seat
// tokens), and StaffCell edits the game's fixed data, which the daemon
// does (it keeps the data file, then swaps the rules with StaffRules).
const (
	// StaffUndo undoes the last standing step; Reason is required.
	StaffUndo StaffKind = "undo"
	// StaffCorrect plays Cmd as engine.Staff: a correction the game's
	// rules allow the staff (a holding set right).
	StaffCorrect StaffKind = "correct"
	// StaffEnd ends the game as it stands: over, scored as the rules
	// score it now. The game must be over by its rules, or Reason must
	// say why it ends early.
	StaffEnd StaffKind = "end"
	// StaffAbandon abandons the game: it ends without a result.
	// Reason is required.
	StaffAbandon StaffKind = "abandon"
	// StaffNewGame starts a new game at the table once the current one
	// has ended (the session needs Opts.Store): with Setup, or else the
	// setup of the game before with Players (the same players when
	// Players is empty).
	StaffNewGame StaffKind = "new-game"
	// StaffRules replays the game so far with other Rules of the same
	// game (a corrected board layout) and Adapter, if it fits them; the
	// session needs Opts.Store.
	StaffRules StaffKind = "rules"
	// StaffCell edits one item of the game's fixed data (Edit: Genoa's
	// board cell "3-4" given to a square) through the game's editor
	// (kit.Editor); not the session's (see above).
	StaffCell StaffKind = "cell"
	// StaffReassign frees Seat so that another phone may join it; not
	// the session's (see above).
	StaffReassign StaffKind = "reassign"
	// StaffDice enters the dice as the players see them (Blue, Red): a
	// roll the reader could not read, or the faces of one it read wrong.
	// A reading of the camera still standing (nothing happened since) is
	// undone first, the undo's reason saying what was read and what the
	// players saw (MisreadPrefix), so that a café can count the reader's
	// wrong reads in the journal (Misreads).
	StaffDice StaffKind = "dice"
)

// StaffRequest is a request from the staff page, checked against the
// staff PIN before it reaches the session.
type StaffRequest struct {
	Kind StaffKind
	// Reason says why, in the staff's words; required for an undo and
	// an abandon.
	Reason string
	// Cmd is the game command of a StaffCorrect.
	Cmd engine.Command
	// Setup is the setup of a StaffNewGame; nil: the game before's with
	// Players.
	Setup *engine.Setup
	// Players are a StaffNewGame's players in seating order when Setup
	// is nil; empty: the same as the game before.
	Players []string
	// Rules and Adapter are those of a StaffRules; a nil Adapter keeps
	// the session's.
	Rules   engine.Rules
	Adapter Adapter
	// Seat is the seat of a StaffReassign.
	Seat engine.Seat
	// Edit is a StaffCell's item and what it becomes.
	Edit kit.Edit
	// Blue and Red are the dice of a StaffDice.
	Blue, Red int
}
