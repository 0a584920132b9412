package table

import (
	"time"

	"comptoir/engine"
	"comptoir/games/kit"
	"comptoir/input"
)

// What became of the camera's dice readings, for the staff page's list of
// the last throws (Opts.DiceNote): the session tells it as it decides.

// DiceFate is what the session did with a dice reading.
type DiceFate string

const (
	// DiceAccepted: the reading was played as step Seq.
	DiceAccepted DiceFate = "accepted"
	// DiceRefused: the reading was refused (too unsure, or the game does
	// not take it now); the note's words say why.
	DiceRefused DiceFate = "refused"
	// DiceUnreadable: the reader could not read the roll; the players
	// were asked for it.
	DiceUnreadable DiceFate = "unreadable"
	// DiceCorrected: a die moved and the camera read it again: the
	// reading's step Seq was undone.
	DiceCorrected DiceFate = "corrected"
	// DiceMisread: the players entered another roll (StaffDice, or the
	// thrower's CorrectDice): the reading's step Seq was undone as a
	// misread.
	DiceMisread DiceFate = "misread"
	// DiceHeld: the journal was down; the reading waits for it.
	DiceHeld DiceFate = "held"
)

// DiceNote is one thing the session did with a dice reading of the
// camera, told to Opts.DiceNote on the session's goroutine.
type DiceNote struct {
	// At is the reading's time (input.DiceRolled.At or
	// input.DiceUnreadable.At): it names the reading.
	At        time.Time
	Blue, Red input.Face
	Fate      DiceFate
	// Seq is the step played (DiceAccepted) or undone (DiceCorrected,
	// DiceMisread); 0 otherwise.
	Seq int64
	// Why is the refusal (DiceRefused), or the roll the players saw
	// (DiceMisread), in both languages.
	Why kit.Text
}

// noteDice tells Opts.DiceNote, if set.
func (s *Session) noteDice(n DiceNote) {
	if s.opts.DiceNote != nil {
		s.opts.DiceNote(n)
	}
}

// noteRefused tells that reading e was refused with r.
func (s *Session) noteRefused(e input.DiceRolled, r *engine.Refusal) {
	s.noteDice(DiceNote{At: e.At, Blue: e.Blue, Red: e.Red, Fate: DiceRefused, Why: kit.Text{EN: r.EN, FR: r.FR}})
}
