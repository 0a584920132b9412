package vision

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"gocv.io/x/gocv"
)

// ErrCalibration is returned when a calibration picture does not show the
// die asked for clearly enough to learn its numeral.
var ErrCalibration = errors.New("calibration")

// Calibration learns numeral templates from pictures of the dice, one face
// up at a time: with it, any set of d8 dice is read, whatever their font.
// Show each face of each die once (Add), then take the Model.
type Calibration struct {
	r       *Reader
	samples []Sample
	seen    shownFaces
}

// NewCalibration starts a calibration that finds the dice with the colours
// of o (Model is ignored: the calibration makes its own).
func NewCalibration(o ReaderOpts) (*Calibration, error) {
	o.Model = nil
	r, err := NewReader(o)
	if err != nil {
		return nil, err
	}
	return &Calibration{r: r, seen: shownFaces{}}, nil
}

// Add learns the numeral of face on die ("blue", "red", or "die" for the
// one die in the picture whatever its colour) from frame.
func (c *Calibration) Add(frame gocv.Mat, die string, face int) error {
	if face < 1 || face > 8 {
		return fmt.Errorf("%w: face %d, want 1 to 8", ErrCalibration, face)
	}
	var got *Sample
	var why Why
	c.r.onGlyph = func(name string, g glyph, size float64) {
		if name == die {
			got = &Sample{Face: face, From: "calibration " + die, g: g, size: size}
		}
	}
	defer func() { c.r.onGlyph = nil }()
	switch die {
	case "die":
		why = c.r.ReadSingle(frame).Why
	case "blue":
		why = c.r.Read(frame).Blue.Why
	case "red":
		why = c.r.Read(frame).Red.Why
	default:
		return fmt.Errorf("%w: die %q, want blue, red or die", ErrCalibration, die)
	}
	if got == nil {
		if why.Code == WhyNone {
			why = Why{Code: WhyNoNumeral}
		}
		return &CalibrationError{Die: die, Face: face, Why: why}
	}
	c.samples = append(c.samples, *got)
	c.seen.add(die, face)
	return nil
}

// CaptureSkip is how many frames AddFrom reads before the one it learns
// from, so that a camera's buffer turns over to a frame taken now.
const CaptureSkip = 5

// AddFrom reads CaptureSkip frames from src and learns the numeral of face
// on die from the last (see Add). A source that gives no frame is an error
// naming why (SourceErr); a frame where the die cannot be read is an
// ErrCalibration saying what to do, and the caller may show it again.
func (c *Calibration) AddFrom(src Source, die string, face int) error {
	frame := gocv.NewMat()
	defer frame.Close()
	if err := capture(src, &frame); err != nil {
		return err
	}
	return c.Add(frame, die, face)
}

// Missing lists the faces of die not shown yet.
func (c *Calibration) Missing(die string) []int { return c.seen.missing(die) }

// shownFaces records the faces of each die shown to a calibration.
type shownFaces map[string]map[int]bool

func (s shownFaces) add(die string, face int) {
	if s[die] == nil {
		s[die] = map[int]bool{}
	}
	s[die][face] = true
}

// missing lists the faces of die not shown yet.
func (s shownFaces) missing(die string) []int {
	var out []int
	for f := 1; f <= 8; f++ {
		if !s[die][f] {
			out = append(out, f)
		}
	}
	return out
}

// complete is an ErrCalibration unless every face of every die shown was
// shown.
func (s shownFaces) complete() error {
	if len(s) == 0 {
		return fmt.Errorf("%w: no face shown yet", ErrCalibration)
	}
	for die := range s {
		if m := s.missing(die); len(m) > 0 {
			return fmt.Errorf("%w: %s die: faces %v not shown yet", ErrCalibration, die, m)
		}
	}
	return nil
}

// capture reads CaptureSkip frames from src into frame (the last stays):
// an error naming why when the source gives none.
func capture(src Source, frame *gocv.Mat) error {
	for i := 0; i < CaptureSkip; i++ {
		if !src.Read(frame) {
			err := SourceErr(src)
			if err == nil {
				err = errors.New("the source ended")
			}
			return fmt.Errorf("no frame: %w", err)
		}
	}
	return nil
}

// Model returns the templates learned so far. Every face of every die
// shown must have been added: a model that lacks a face would read it as
// another.
func (c *Calibration) Model() (Model, error) {
	if err := c.seen.complete(); err != nil {
		return Model{}, err
	}
	o := DefaultLearnOpts
	o.Merge = 0.9
	o.SizeSlack = 0.15
	return LearnModel(c.samples, o), nil
}

// CalibrationFile is the file a calibration is stored in, in the table's
// configuration.
type CalibrationFile struct {
	Made  time.Time `json:"made"`
	Dice  []string  `json:"dice"` // the dice shown: blue, red or die
	Model Model     `json:"model"`
}

// SaveCalibration writes the model to path as JSON.
func SaveCalibration(path string, dice []string, m Model, now time.Time) error {
	data, err := json.MarshalIndent(CalibrationFile{Made: now.UTC(), Dice: dice, Model: m}, "", " ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("vision: save calibration: %w", err)
	}
	return nil
}

// LoadCalibration reads a calibration file written by SaveCalibration.
func LoadCalibration(path string) (Model, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Model{}, fmt.Errorf("vision: calibration: %w", err)
	}
	m, err := DecodeCalibration(data)
	if err != nil {
		return Model{}, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// DecodeCalibration decodes and checks a calibration file's contents.
func DecodeCalibration(data []byte) (Model, error) {
	var f CalibrationFile
	if err := json.Unmarshal(data, &f); err != nil {
		return Model{}, fmt.Errorf("%w: %v (run comptoir calibrate again)", ErrBadModel, err)
	}
	if err := f.Model.check(); err != nil {
		return Model{}, err
	}
	return f.Model, nil
}
