package table

import (
	"reflect"
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
	// DiceEntered: the camera could not read the roll (the reading was
	// unreadable, or refused as too unsure) and the players, or the
	// staff, entered it before any other step: played as step Seq.
	DiceEntered DiceFate = "entered"
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
	// Entered is the roll (blue, red) the players or the staff entered
	// for the reading (DiceMisread, DiceEntered): the dice as the table
	// knows them.
	Entered [2]input.Face
}

// noteDice tells Opts.DiceNote, if set.
func (s *Session) noteDice(n DiceNote) {
	if s.opts.DiceNote != nil {
		s.opts.DiceNote(n)
	}
}

// enteredFor is the note of action a (played from dice entered by hand
// when fromDice) as the roll of the camera's last reading, which it could
// not read or was too unsure of, nil when it is not: the reading came
// before the last step, the camera read the dice again, or no single
// roll of the game's dice makes a's command now.
func (s *Session) enteredFor(a engine.Action, fromDice bool) *DiceNote {
	if s.asked.IsZero() || s.askedSeq != s.seq {
		return nil
	}
	n := &DiceNote{At: s.asked, Fate: DiceEntered}
	if fromDice {
		if !s.byHand {
			return nil // the camera read them again: a reading of its own
		}
		n.Entered = [2]input.Face{s.lastRoll.Blue, s.lastRoll.Red}
		return n
	}
	if s.adapter == nil || s.opts.Kit.Dice == nil {
		return nil
	}
	found := 0
	for blue := 1; blue <= 8; blue++ {
		for red := 1; red <= 8; red++ {
			if !s.opts.Kit.Dice(blue, red) {
				continue
			}
			got, err := s.adapter.Translate(s.state, input.DiceRolled{Blue: input.Face(blue), Red: input.Face(red), Confidence: 1}, Target{})
			if err == nil && reflect.DeepEqual(got.Cmd, a.Cmd) {
				found++
				n.Entered = [2]input.Face{input.Face(blue), input.Face(red)}
			}
		}
	}
	if found != 1 {
		return nil // a command that is not a roll, or that does not tell the faces
	}
	return n
}

// noteRefused tells that reading e was refused with r.
func (s *Session) noteRefused(e input.DiceRolled, r *engine.Refusal) {
	s.noteDice(DiceNote{At: e.At, Blue: e.Blue, Red: e.Red, Fate: DiceRefused, Why: kit.Text{EN: r.EN, FR: r.FR}})
}
