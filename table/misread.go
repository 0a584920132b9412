package table

import (
	"context"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"time"

	"comptoir/engine"
	"comptoir/games/kit"
	"comptoir/input"
)

// The player who threw the dice may correct the camera's reading of them
// from their phone while it is still the last step (CorrectDice), as the
// staff may (StaffDice): the reading is undone as a misread
// (MisreadPrefix, counted by Misreads) and the roll entered is played.

// Refusals of a player's correction of the camera's reading (CorrectDice).
var (
	// ErrMisreadLate: something happened since the reading (or there is
	// none): the staff correct it now.
	ErrMisreadLate = engine.NewRule("table.misread-late", "too late: the game has moved on, ask the staff", "trop tard : la partie a avancé, demandez au personnel")
	// ErrNotThrower: the seat did not throw the dice read.
	ErrNotThrower = engine.NewRule("table.not-thrower", "you did not throw these dice: the player who threw them or the staff may correct the reading", "vous n'avez pas lancé ces dés : le joueur qui les a lancés ou le personnel peut corriger la lecture")
	// ErrNotARoll: the faces entered are not a roll of the game's dice.
	ErrNotARoll = engine.NewRule("table.not-a-roll", "that is not a roll of the game's dice", "ce n'est pas un tirage des dés du jeu")
	// ErrSameRoll: the faces entered are those the camera read.
	ErrSameRoll = engine.NewRule("table.same-roll", "the camera read these very faces: nothing to correct", "la caméra a lu ces mêmes faces : rien à corriger")
)

// Reading is the camera's dice reading standing as the last step, nothing
// having happened since: the seat that threw may still correct it.
type Reading struct {
	// Seq is the reading's step.
	Seq       int64
	Blue, Red input.Face
	// Thrower is the seat that threw (throwerOf); engine.NoSeat when the
	// game does not tell: then only the staff may correct the reading.
	Thrower engine.Seat
}

// diceFix is a player's correction of the camera's reading (CorrectDice).
type diceFix struct {
	by        engine.Seat
	seq       int64
	blue, red int
}

// CorrectDice replaces the camera's reading of step seq by the roll
// blue, red that seat, who threw the dice, sees: the reading is undone
// with a reason that begins with MisreadPrefix and names seat, and the
// roll is played as the table's. It is refused (a *engine.Refusal) when
// something happened since the reading, seat did not throw, the faces are
// not a roll of the game's dice or are those read. Its other errors are
// Submit's.
func (s *Session) CorrectDice(ctx context.Context, seat engine.Seat, seq int64, blue, red int) error {
	if seat < 0 {
		return fmt.Errorf("%w: only a player corrects the dice they threw", ErrBadRequest)
	}
	return s.do(ctx, request{dice: &diceFix{by: seat, seq: seq, blue: blue, red: red}})
}

// correctDice carries out a CorrectDice on the Run goroutine.
func (s *Session) correctDice(f diceFix) error {
	if err := s.writable(); err != nil {
		return err
	}
	r := s.reading()
	switch {
	case r == nil || r.Seq != f.seq:
		return engine.Refuse(ErrMisreadLate, "", "")
	case r.Thrower != f.by:
		return engine.Refuse(ErrNotThrower, "", "")
	case s.opts.Kit.Dice == nil || !s.opts.Kit.Dice(f.blue, f.red):
		return engine.Refusef(ErrNotARoll, "blue %d · red %d is not a roll of the game's dice", "bleu %d · rouge %d n'est pas un tirage des dés du jeu", f.blue, f.red)
	case int(r.Blue) == f.blue && int(r.Red) == f.red:
		return engine.Refusef(ErrSameRoll, "the camera read blue %d · red %d, as you say: nothing to correct", "la caméra a lu bleu %d · rouge %d, comme vous : rien à corriger", f.blue, f.red)
	}
	return s.enterDice(f.by, f.blue, f.red)
}

// reading is the camera's reading standing as the last step, or nil.
func (s *Session) reading() *Reading {
	if s.outcome != "" || s.last == nil || s.lastDice != s.last.Seq || s.byHand {
		return nil
	}
	return &Reading{Seq: s.last.Seq, Blue: s.lastRoll.Blue, Red: s.lastRoll.Red, Thrower: s.thrower}
}

// The note of a step played from a dice roll (journal.Game.AppendNoted,
// kept as the step's Reason): a camera's reading, with the seat that threw
// and the reading's time, or a roll entered by hand. A session that
// resumes the journal reads it again (rebuild), so that the thrower may
// still correct the reading after a restart.
var rollNoteRE = regexp.MustCompile(`^dice (?:read: blue=(\d+) red=(\d+) thrower=(-?\d+) at=(\S+)|entered: blue=(\d+) red=(\d+))$`)

// rollNote is the note of a step played from roll, entered by hand or
// read by the camera from thrower's throw.
func rollNote(roll input.DiceRolled, byHand bool, thrower engine.Seat) string {
	if byHand {
		return fmt.Sprintf("dice entered: blue=%d red=%d", roll.Blue, roll.Red)
	}
	return fmt.Sprintf("dice read: blue=%d red=%d thrower=%d at=%s", roll.Blue, roll.Red, thrower, roll.At.UTC().Format(time.RFC3339Nano))
}

// parseRollNote reads a rollNote; false if note is not one (a step not
// played from a roll, or journalled before notes existed).
func parseRollNote(note string) (roll input.DiceRolled, byHand bool, thrower engine.Seat, ok bool) {
	m := rollNoteRE.FindStringSubmatch(note)
	if m == nil {
		return input.DiceRolled{}, false, engine.NoSeat, false
	}
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	if m[1] == "" {
		return input.DiceRolled{Blue: input.Face(atoi(m[5])), Red: input.Face(atoi(m[6])), Confidence: 1}, true, engine.NoSeat, true
	}
	at, err := time.Parse(time.RFC3339Nano, m[4])
	if err != nil {
		return input.DiceRolled{}, false, engine.NoSeat, false
	}
	return input.DiceRolled{At: at, Blue: input.Face(atoi(m[1])), Red: input.Face(atoi(m[2])), Confidence: 1}, false, engine.Seat(atoi(m[3])), true
}

// throwerOf is the seat that threw roll, which the table plays as a in
// the state now: the seat whose phone may enter that roll itself, as the
// dashboard's dice ask finds it (one of its actions, with a field per
// die, builds a's command from the roll's faces), or else the one seat
// the game waits for; engine.NoSeat when neither tells.
func (s *Session) throwerOf(a engine.Action, roll input.DiceRolled) engine.Seat {
	if p := s.opts.Kit.Play; p != nil && p.Actions != nil {
		for i := range s.state.Setup().Players {
			seat := engine.Seat(i)
			for _, act := range p.Actions(s.state, seat) {
				if entersRoll(act, a.Cmd, roll) {
					return seat
				}
			}
		}
	}
	if w := s.state.Waiting(); len(w) == 1 {
		return w[0]
	}
	return engine.NoSeat
}

// entersRoll reports whether act has a field per die and builds cmd from
// roll's faces.
func entersRoll(act kit.Action, cmd engine.Command, roll input.DiceRolled) bool {
	if len(act.Fields) != 2 || act.Build == nil {
		return false
	}
	blue, red := strconv.Itoa(int(roll.Blue)), strconv.Itoa(int(roll.Red))
	for _, order := range [][2]int{{0, 1}, {1, 0}} {
		got, err := act.Build(map[string]string{act.Fields[order[0]].Key: blue, act.Fields[order[1]].Key: red})
		if err == nil && reflect.DeepEqual(got, cmd) {
			return true
		}
	}
	return false
}

// misreadReason is the reason of the undo of a reading of blue, red that
// who (a player's name, or "the players" for the staff) saw as sawBlue,
// sawRed; misreadWords tells it in the log's words.
func misreadReason(readBlue, readRed input.Face, who string, sawBlue, sawRed int) string {
	return fmt.Sprintf("%sread blue=%d red=%d, %s saw blue=%d red=%d", MisreadPrefix, readBlue, readRed, who, sawBlue, sawRed)
}

// thePlayers is who saw the dice in the reason of a misread the staff
// entered (StaffDice).
const thePlayers = "the players"

var misreadRE = regexp.MustCompile(`^` + regexp.QuoteMeta(MisreadPrefix) + `read blue=(\d+) red=(\d+), (.+) saw blue=(\d+) red=(\d+)$`)

// misreadWords tells a misread's undo reason in French and English; false
// if reason is not one.
func misreadWords(reason string) (fr, en string, ok bool) {
	m := misreadRE.FindStringSubmatch(reason)
	if m == nil {
		return "", "", false
	}
	whoFR, saw := m[3]+" a vu", m[3]+" saw"
	if m[3] == thePlayers {
		whoFR, saw = "les joueurs ont vu", "the players saw"
	}
	return fmt.Sprintf("dés mal lus : la caméra a lu bleu %s, rouge %s ; %s bleu %s, rouge %s", m[1], m[2], whoFR, m[4], m[5]),
		fmt.Sprintf("dice misread: the camera read blue %s, red %s; %s blue %s, red %s", m[1], m[2], saw, m[4], m[5]), true
}
