// Package input holds the plain values that the table's physical inputs
// produce: a settled dice roll from the camera, a tag tapped on the NFC
// reader, the squares the board sensors feel, a button pressed, and the
// status of a device. The vision and hw packages produce them; the table
// session turns them into engine commands. The package has no dependencies,
// so every part of Comptoir can speak it without OpenCV or periph.io.
package input

import (
	"fmt"
	"time"
)

// Event is any value on an input channel. Its concrete type is one of the
// types of this package.
type Event interface {
	// When is the time the input was observed, from the source's clock.
	When() time.Time
	String() string
}

// Face is what one die shows: 1 to 8, or 0 when the reading is uncertain.
type Face int

// DiceRolled is a roll of the blue and the red die that has come to rest.
type DiceRolled struct {
	At   time.Time
	Blue Face // horizontal coordinate, 1 to 8
	Red  Face // vertical coordinate, 1 to 8
	// Confidence of the whole reading, 0 to 1.
	Confidence float64
	// Correction is true when this roll replaces the last one reported
	// (a die was knocked and came to rest on another face).
	Correction bool
	// Latency is the time from the dice coming to rest to the report.
	Latency time.Duration
}

func (e DiceRolled) When() time.Time { return e.At }
func (e DiceRolled) String() string {
	s := fmt.Sprintf("dice blue=%d red=%d conf=%.2f", e.Blue, e.Red, e.Confidence)
	if e.Correction {
		s += " (correction)"
	}
	return s
}

// DiceUnreadable says a roll came to rest but could not be read with
// certainty; the players are asked to look again or to enter the roll.
type DiceUnreadable struct {
	At     time.Time
	Reason string // in words, for example "red die cocked against the tray wall"
	// ReasonFR is Reason in French; empty from a reader that says it in
	// English only (an old recording).
	ReasonFR string
}

// ReasonIn is the reason in lang ("fr" or "en"): the French one when
// there is one, else the English.
func (e DiceUnreadable) ReasonIn(lang string) string {
	if lang == "fr" && e.ReasonFR != "" {
		return e.ReasonFR
	}
	return e.Reason
}

func (e DiceUnreadable) When() time.Time { return e.At }
func (e DiceUnreadable) String() string  { return "dice unreadable: " + e.Reason }

// TagTapped is an NFC tag laid on the reader: a board square's sticker or a
// card's. UID is upper-case hex without separators, for example "04A2B3C4D5E680".
type TagTapped struct {
	At  time.Time
	UID string
}

func (e TagTapped) When() time.Time { return e.At }
func (e TagTapped) String() string  { return "tag " + e.UID }

// UnknownTag is a tap of a tag that is not enrolled. It is never dropped:
// the dashboard offers to enroll it.
type UnknownTag struct {
	At  time.Time
	UID string
}

func (e UnknownTag) When() time.Time { return e.At }
func (e UnknownTag) String() string  { return "unknown tag " + e.UID }

// Cell is a board cell: X is the blue coordinate (column 1-8), Y the red
// coordinate (row 1-8).
type Cell struct{ X, Y int }

func (c Cell) String() string { return fmt.Sprintf("%d-%d", c.X, c.Y) }

// SquareSensed is the set of cells where the board sensors feel a magnet
// (the pawn and the discs left on visited squares), after debounce.
type SquareSensed struct {
	At    time.Time
	Cells []Cell
}

func (e SquareSensed) When() time.Time { return e.At }
func (e SquareSensed) String() string  { return fmt.Sprintf("sensed %v", e.Cells) }

// Button is a press of one of the table box's buttons ("confirm", "undo").
type Button struct {
	At   time.Time
	Name string
}

func (e Button) When() time.Time { return e.At }
func (e Button) String() string  { return "button " + e.Name }

// DeviceStatus reports a device coming up, failing, or coming back.
type DeviceStatus struct {
	At     time.Time
	Device string // "nfc", "camera", "buttons", "sensors"
	OK     bool
	Detail string
	// DetailFR is Detail in French, when the device says it in both
	// languages (the journal does).
	DetailFR string
}

func (e DeviceStatus) When() time.Time { return e.At }
func (e DeviceStatus) String() string {
	if e.OK {
		return e.Device + " ok " + e.Detail
	}
	return e.Device + " fault: " + e.Detail
}

// WithTime returns e with its time set to at (recordings replayed at their
// own pace, events stamped by a clock). An event type this package does
// not define is returned as it is.
func WithTime(e Event, at time.Time) Event {
	switch v := e.(type) {
	case DiceRolled:
		v.At = at
		return v
	case DiceUnreadable:
		v.At = at
		return v
	case TagTapped:
		v.At = at
		return v
	case UnknownTag:
		v.At = at
		return v
	case SquareSensed:
		v.At = at
		return v
	case Button:
		v.At = at
		return v
	case DeviceStatus:
		v.At = at
		return v
	}
	return e
}

// DieReading is what the dice reader made of one die: its face (0 when
// unread), its confidence, and why it could not be read.
type DieReading struct {
	Face       Face    `json:"face"`
	Confidence float64 `json:"confidence"`
	// Found is true when the die was seen in the frame, read or not.
	Found bool `json:"found"`
	// Reason says why the die was not read; empty when it was.
	Reason string `json:"reason,omitempty"`
	// ReasonFR is Reason in French; empty from a reader that says it in
	// English only.
	ReasonFR string `json:"reason_fr,omitempty"`
}

// DiceReading is the dice reader's verdict on one rest of the dice, die
// by die: what the staff page shows of the camera's last throws. It is
// not an Event: the session is told the roll (DiceRolled) or that it is
// unreadable (DiceUnreadable).
type DiceReading struct {
	At   time.Time  `json:"t"`
	Blue DieReading `json:"blue"`
	Red  DieReading `json:"red"`
	// Reason is the reader's words when it reported the roll unreadable;
	// empty when it reported a roll.
	Reason string `json:"reason,omitempty"`
	// ReasonFR is Reason in French; empty from a reader that says it in
	// English only.
	ReasonFR string `json:"reason_fr,omitempty"`
	// View is what the reader had learned of its camera by this rest;
	// nil from a reader that does not learn it.
	View *ReaderView `json:"view,omitempty"`
}

// ReaderView is what the dice reader learns of its camera as the table
// plays, from the dice at rest (and from its calibration): where the
// camera shows a flat die's numeral (with enough flat dice, it refuses a
// die whose numeral lies elsewhere: cocked against the tray's wall,
// showing the face it turns to the camera), and how large the dice look.
type ReaderView struct {
	// Flat is how many flat dice it knows.
	Flat int `json:"flat"`
	// FlatNeed is how many more it needs before it refuses such a die;
	// 0 once it does.
	FlatNeed int `json:"flat_need"`
	// Moved counts the times it took the camera as moved (flat dice in a
	// row off what it had learned) and started learning it afresh.
	Moved int `json:"moved,omitempty"`
	// Across is the median width of the dice at rest, in pixels of a
	// picture 640 wide (0: too few yet). Small is set when it is under
	// SmallUnder, the width under which the reader reads far fewer dice:
	// the camera is too far.
	Across     int  `json:"across,omitempty"`
	Small      bool `json:"small,omitempty"`
	SmallUnder int  `json:"small_under,omitempty"`
	// Blank is how many of the last BlankOf dice found at rest showed a
	// top face the lamp washes out, no numeral on it (refused); Glare is
	// set when that is too many for the table to play on: the lamp is to
	// be moved aside or dimmed.
	Blank   int  `json:"blank,omitempty"`
	BlankOf int  `json:"blank_of,omitempty"`
	Glare   bool `json:"glare,omitempty"`
}

// DiceCalibReply is the dice reader's answer, on its standard output, to
// a request of the daemon to learn its last frame as a throw of given
// faces ("learned"), to save and use the calibration learned
// ("calibrated") or to start again from nothing ("reset"), or to a
// request it could not read ("error"); or, with ID 0, the calibration
// it reads with at its start ("calibration"). Like DiceReading it is not
// an Event: the staff page shows it.
type DiceCalibReply struct {
	Type string `json:"type"`
	ID   int64  `json:"id"`
	DiceCalibState
	// File is the calibration written (calibrate).
	File string `json:"file,omitempty"`
	// View is what the reader knows of its camera once it forgot it
	// (forget-camera).
	View *ReaderView `json:"view,omitempty"`
	// Error and ErrorFR are the refusal; Code names it: "no-frame",
	// "refused" (a die of the throw not learned), "too-few",
	// "bad-request", "failed".
	Error   string `json:"error,omitempty"`
	ErrorFR string `json:"error_fr,omitempty"`
	Code    string `json:"code,omitempty"`
}

// DiceCalibState is a calibration learned from the table's throws as it
// stands: what the reader tells in its replies and the staff page shows.
type DiceCalibState struct {
	// Blue and Red are the faces of each die learned so far.
	Blue []int `json:"blue"`
	Red  []int `json:"red"`
	// Earlier are the faces of the calibration in use that the learning
	// keeps (its file does not tell them by die).
	Earlier []int `json:"earlier,omitempty"`
	// Dice is the number of dice learned; Need how many more before the
	// calibration can be saved (0: it can).
	Dice int `json:"dice"`
	Need int `json:"need"`
	// Learned names the dice of the last throw learned (learn).
	Learned []string `json:"learned,omitempty"`
	// Faces are the faces the calibration saved (calibrate) or in use
	// has prototypes of.
	Faces []int `json:"faces,omitempty"`
	// Shown counts the dice learned that the hand-tuned reader's "tilted"
	// test was shown (lying flat), Tilted those it found tilted; Leans is
	// set when they say the camera leans, so that the reader lets its
	// pose network judge the dice that test refuses.
	Shown  int  `json:"shown,omitempty"`
	Tilted int  `json:"tilted,omitempty"`
	Leans  bool `json:"leans,omitempty"`
	// Flat counts the flat dice learned in whole frames, which show where
	// this camera shows a flat die's numeral; FlatNeed how many more the
	// reader needs to refuse a die whose numeral lies elsewhere (cocked
	// against the tray's wall), 0 when it has enough.
	Flat     int `json:"flat,omitempty"`
	FlatNeed int `json:"flat_need,omitempty"`
	// Across is the median width of the dice learned, in pixels of a
	// picture 640 wide (0: none learned). Small is set when it is under
	// SmallUnder, the width under which the reader reads far fewer
	// dice: the camera is too far, and the staff page says to bring it
	// lower.
	Across     int  `json:"across,omitempty"`
	Small      bool `json:"small,omitempty"`
	SmallUnder int  `json:"small_under,omitempty"`
	// Colours are the dice's colours the calibration learned, for the
	// dice the reader's own colour ranges did not find (a violet "blue",
	// an orange "red"); none when they did.
	Colours []DieColour `json:"colours,omitempty"`
}

// DieColour is the colour a calibration learned for a die: the hues it
// finds the die by, From to To degrees going round the colour circle
// (past 360 to 0 when From is the larger), and the reader's own, OwnFrom
// to OwnTo.
type DieColour struct {
	Die     string `json:"die"` // blue or red
	From    int    `json:"from"`
	To      int    `json:"to"`
	OwnFrom int    `json:"own_from"`
	OwnTo   int    `json:"own_to"`
}

// Refuse sets the reply's refusal: its code and its words in English and
// French.
func (r *DiceCalibReply) Refuse(code, en, fr string) {
	r.Code, r.Error, r.ErrorFR = code, en, fr
}
