package dashboard

import (
	"context"
	"errors"

	"comptoir/games/kit"
	"comptoir/input"
)

// The dice camera on the staff page: the reader's verdict on the last
// throws, die by die, with what the table did with each, live; and the
// frames the staff send for inspection (inspect.go). The daemon gives the
// camera through DiceCamera; the dashboard knows nothing of the reader
// (no vision, no OpenCV here).

// DiceCamera is the table's dice camera as the staff page sees it.
type DiceCamera interface {
	// Throws returns the camera's last readings, oldest first.
	Throws() []DiceThrow
	// Changed receives a value each time Throws changes.
	Changed() <-chan struct{}
	// Snapshot writes the last frame the reader read as a JPEG to path
	// (absolute) and returns the reader's verdict on that frame. Its
	// error wraps ErrNoFrame when the camera has no frame yet, and
	// ErrNoCamera when no reader runs.
	Snapshot(ctx context.Context, path string) (input.DiceReading, error)
	// Learn teaches the reader its last frame as a throw of blue and red
	// (calibrate.go) and returns the calibration learned so far; Calibrate
	// saves it and makes the reader use it. Their errors wrap ErrNoFrame,
	// ErrNoCamera, or are a *CalibrationRefused.
	Learn(ctx context.Context, blue, red int) (DiceCalibration, error)
	Calibrate(ctx context.Context) (DiceCalibration, error)
	// Reset starts the calibration again from nothing: what was learned
	// is dropped, the calibration in use included (the reader reads with
	// it until the next save). Its errors are Learn's.
	Reset(ctx context.Context) (DiceCalibration, error)
	// ForgetCamera makes the reader forget what it knows of its camera,
	// which the staff moved: where it shows a flat die's numeral and how
	// large it shows the dice (the last throw's View then says so); what
	// it learned of the dice stays. Its errors wrap ErrNoCamera.
	ForgetCamera(ctx context.Context) (DiceCalibration, error)
	// Calibration is the calibration learned so far, nil before the
	// first throw learned.
	Calibration() *DiceCalibration
}

// Errors of DiceCamera.Snapshot that the staff page words.
var (
	ErrNoFrame  = errors.New("the camera has no frame yet")
	ErrNoCamera = errors.New("no dice reader runs")
)

// DiceThrow is one reading of the camera and what became of it.
type DiceThrow struct {
	input.DiceReading
	// Fate is what the table did with it (table.DiceFate: "accepted",
	// "refused", "unreadable", "corrected", "misread", "held",
	// "entered"), "" until the table has taken it.
	Fate string `json:"fate,omitempty"`
	// Entered is the roll (blue, red) the players or the staff entered
	// for it, when it was unreadable, too unsure or misread: the dice as
	// the table knows them.
	Entered []int `json:"entered,omitempty"`
	// Seq is the step it was played as, or undone.
	Seq int64 `json:"seq,omitempty"`
	// Why is the refusal's words, or the roll the players saw.
	Why *kit.Text `json:"why,omitempty"`
}

// staffCamera is the dice camera on a staff frame.
type staffCamera struct {
	Throws      []DiceThrow  `json:"throws"`
	Inspections []inspection `json:"inspections"`
	// Calibration is what the reader learned of the table's throws
	// (calibrate.go); nil before the first.
	Calibration *DiceCalibration `json:"calibration,omitempty"`
}

// camera is the staff frame's dice camera; nil without one.
func (s *Server) camera() *staffCamera {
	if s.opts.Dice == nil {
		return nil
	}
	c := &staffCamera{Throws: s.opts.Dice.Throws(), Inspections: s.inspections(), Calibration: s.opts.Dice.Calibration()}
	if c.Throws == nil {
		c.Throws = []DiceThrow{}
	}
	if c.Inspections == nil {
		c.Inspections = []inspection{}
	}
	return c
}

// cameraChanged is the channel of the camera's changes; nil (never
// ready) without a camera.
func (s *Server) cameraChanged() <-chan struct{} {
	if s.opts.Dice == nil {
		return nil
	}
	return s.opts.Dice.Changed()
}

// notifyCamera tells the hub the staff's view of the camera changed (a
// frame saved for inspection).
func (s *Server) notifyCamera() {
	select {
	case s.inspected <- struct{}{}:
	default:
	}
}
