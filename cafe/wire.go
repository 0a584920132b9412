package cafe

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"time"

	"comptoir/engine"
)

// Names on the café's NATS.
const (
	// Stream is the JetStream stream of every table's steps.
	Stream = "COMPTOIR"
	// StepSubjects are the stream's subjects.
	StepSubjects = "comptoir.table.*.step"
	// PresenceBucket is the key-value bucket of the tables' presence.
	PresenceBucket = "comptoir-presence"
	// MaxMessage is the largest message a table may send; the hub skips
	// larger ones.
	MaxMessage = 256 << 10
	// Version is the wire format's version, in every message.
	Version = 1
)

// Table states, as the floor shows them.
const (
	StatePlaying  = "playing"
	StateStaff    = "staff"    // waiting for staff
	StateIdle     = "idle"     // no step for a while
	StateFinished = "finished" // the game has ended
)

var tableNameRe = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,31}$`)

// ErrTableName is wrapped by the error of a table name that cannot be a
// NATS subject token.
var ErrTableName = errors.New("cafe: bad table name")

// CheckName checks a table's name on the café's network: lower-case
// letters, digits and dashes, 1 to 32 characters.
func CheckName(name string) error {
	if !tableNameRe.MatchString(name) {
		return fmt.Errorf("%w %q: want lower-case letters, digits and dashes, like table-3 (it names the table's NATS subjects)", ErrTableName, name)
	}
	return nil
}

// StepSubject is the subject of table's steps.
func StepSubject(table string) string { return "comptoir.table." + table + ".step" }

// AnswerSubject is the subject the hub answers table's call for staff on.
func AnswerSubject(table string) string { return "comptoir.floor." + table + ".answer" }

// InboxPrefix is the prefix of table's reply subjects (JetStream acks).
func InboxPrefix(table string) string { return "_INBOX_" + table }

// PresenceSubject is the subject a put of table's presence key goes to.
func PresenceSubject(table string) string { return "$KV." + PresenceBucket + "." + table }

// MsgID is the Nats-Msg-Id of a step; seq 0 names the game's end.
func MsgID(table string, game, seq int64) string {
	if seq == 0 {
		return fmt.Sprintf("%s/%d/end", table, game)
	}
	return fmt.Sprintf("%s/%d/%d", table, game, seq)
}

// Line is a line of the game's log, public.
type Line struct {
	FR string `json:"fr"`
	EN string `json:"en"`
}

// Step is the public side of one journalled step, or of a game's end
// (Seq 0, End true).
type Step struct {
	V     int    `json:"v"`
	Table string `json:"table"`
	// Game is the game's number in the table's journal.
	Game int64 `json:"game"`
	// Seq is the step's number in its game; 0 for the end.
	Seq int64 `json:"seq"`
	// At is when the step was taken (the end: when the game ended).
	At time.Time `json:"at"`
	// Started is when the game began.
	Started time.Time `json:"started"`
	Name    string    `json:"name"`
	Variant string    `json:"variant,omitempty"`
	Players []string  `json:"players"`
	// Log is what the step did, told in words.
	Log []Line `json:"log"`
	// Round is the view's round, 0 when the game has none.
	Round int `json:"round,omitempty"`
	// Waiting are the names of the players the game waits for.
	Waiting []string `json:"waiting"`
	// View is the table's public view (engine.NoSeat) after the step.
	View json.RawMessage `json:"view"`
	// End is set on the game's end message; Outcome is "over" or
	// "abandoned".
	End     bool   `json:"end,omitempty"`
	Outcome string `json:"outcome,omitempty"`
	// Result is the final scoring, once the game is over (never before:
	// the running scores may hold secrets, a player's hidden money).
	Result *engine.Result `json:"result,omitempty"`
}

// Device is a device's status on the floor.
type Device struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail,omitempty"`
}

// Presence is a table's live status: the value of its presence key.
type Presence struct {
	V     int    `json:"v"`
	Table string `json:"table"`
	// State is one of the State constants.
	State string    `json:"state"`
	At    time.Time `json:"at"`
	// Game and Seq are the journal's last game and step; Name, Variant,
	// Players and Started that game's, so the floor shows a game before
	// its first step.
	Game    int64     `json:"game"`
	Seq     int64     `json:"seq"`
	Name    string    `json:"name,omitempty"`
	Variant string    `json:"variant,omitempty"`
	Players []string  `json:"players,omitempty"`
	Started time.Time `json:"started,omitzero"`
	Devices []Device  `json:"devices"`
	// StaffCall is when the table called for staff, zero when it has not
	// (or the call was closed at the table).
	StaffCall time.Time `json:"staffCall,omitzero"`
	// Answered is when the floor answered the call ("on my way").
	Answered time.Time `json:"answered,omitzero"`
	// Dice is how the table's dice camera fared over its last throws;
	// nil for a table without one.
	Dice *DiceHealth `json:"dice,omitempty"`
}

// DiceHealth is how a table's dice camera fared over its last throws,
// for the floor to show which tables' cameras need a hand: how many
// throws it read, how many the players had to enter because it could
// not read them, how many it read wrong and the players corrected (each
// journalled as a misread), and what it asks of the staff. Rolls are
// public: nothing here is a player's secret.
type DiceHealth struct {
	// Throws is how many of the last throws are counted (at most
	// MaxDiceThrows): those the camera read, and those it could not
	// read, whose roll the players entered.
	Throws int `json:"throws"`
	// Read were read and played as read; Entered could not be read and
	// the players entered the roll; Misread were read wrong and the
	// players corrected them. Read+Entered+Misread is at most Throws (a
	// roll the players have not entered yet is counted in Throws alone).
	Read    int `json:"read"`
	Entered int `json:"entered"`
	Misread int `json:"misread"`
	// Advice is what the camera asks of the staff (move the lamp, bring
	// the camera lower, calibrate it), most pressing first; empty when
	// nothing.
	Advice []Line `json:"advice,omitempty"`
}

// Bounds of a DiceHealth on the wire.
const (
	MaxDiceThrows = 100
	maxAdvice     = 4
	maxAdviceLen  = 300
)

// check says what is wrong with h, or nil.
func (h *DiceHealth) check() error {
	switch {
	case h.Throws < 0 || h.Throws > MaxDiceThrows:
		return fmt.Errorf("dice: %d throws, want 0 to %d", h.Throws, MaxDiceThrows)
	case h.Read < 0 || h.Entered < 0 || h.Misread < 0 || h.Read+h.Entered+h.Misread > h.Throws:
		return fmt.Errorf("dice: %d read, %d entered, %d misread of %d throws", h.Read, h.Entered, h.Misread, h.Throws)
	case len(h.Advice) > maxAdvice:
		return fmt.Errorf("dice: %d lines of advice, at most %d", len(h.Advice), maxAdvice)
	}
	for _, l := range h.Advice {
		if l.FR == "" || l.EN == "" || len(l.FR) > maxAdviceLen || len(l.EN) > maxAdviceLen {
			return fmt.Errorf("dice: advice %q / %q: want both languages, at most %d bytes each", l.FR, l.EN, maxAdviceLen)
		}
	}
	return nil
}

// clone is a copy of h that shares nothing with it.
func (h *DiceHealth) clone() *DiceHealth {
	if h == nil {
		return nil
	}
	c := *h
	c.Advice = slices.Clone(h.Advice)
	return &c
}

// Equal says whether h and o say the same (both nil, or the same counts
// and advice).
func (h *DiceHealth) Equal(o *DiceHealth) bool {
	if h == nil || o == nil {
		return h == o
	}
	return h.Throws == o.Throws && h.Read == o.Read && h.Entered == o.Entered && h.Misread == o.Misread && slices.Equal(h.Advice, o.Advice)
}

// Answer is the hub's answer to a call for staff.
type Answer struct {
	V     int       `json:"v"`
	Table string    `json:"table"`
	Call  time.Time `json:"call"` // the call answered
	At    time.Time `json:"at"`
}

// Errors of decoding a message from the network.
var (
	ErrMalformed = errors.New("cafe: malformed message")
	ErrTooLarge  = errors.New("cafe: message too large")
)

// DecodeStep decodes and checks a step message: its version, its table's
// name, its numbers.
func DecodeStep(data []byte) (Step, error) {
	var s Step
	if len(data) > MaxMessage {
		return s, fmt.Errorf("%w: %d bytes, at most %d", ErrTooLarge, len(data), MaxMessage)
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return s, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	switch {
	case s.V != Version:
		return s, fmt.Errorf("%w: version %d, want %d", ErrMalformed, s.V, Version)
	case CheckName(s.Table) != nil:
		return s, fmt.Errorf("%w: table %q", ErrMalformed, s.Table)
	case s.Game < 1 || s.Seq < 0 || (s.Seq == 0) != s.End:
		return s, fmt.Errorf("%w: game %d step %d end %v", ErrMalformed, s.Game, s.Seq, s.End)
	case s.Name == "" || len(s.Players) == 0 || s.At.IsZero():
		return s, fmt.Errorf("%w: no game name, players or time", ErrMalformed)
	}
	return s, nil
}

// DecodePresence decodes and checks a presence value.
func DecodePresence(data []byte) (Presence, error) {
	var p Presence
	if len(data) > MaxMessage {
		return p, fmt.Errorf("%w: %d bytes, at most %d", ErrTooLarge, len(data), MaxMessage)
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return p, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if p.V != Version || CheckName(p.Table) != nil {
		return p, fmt.Errorf("%w: version %d table %q", ErrMalformed, p.V, p.Table)
	}
	switch p.State {
	case StatePlaying, StateStaff, StateIdle, StateFinished:
	default:
		return p, fmt.Errorf("%w: state %q", ErrMalformed, p.State)
	}
	if p.Dice != nil {
		if err := p.Dice.check(); err != nil {
			return p, fmt.Errorf("%w: %v", ErrMalformed, err)
		}
	}
	return p, nil
}
