package dashboard

import (
	"context"
	"fmt"
	"image"
	"image/jpeg"
	"os"
	"slices"
	"sync"
	"time"

	"comptoir/games/kit"
	"comptoir/input"
)

// fakeCamera is a dice camera for the tests: throws added by the test,
// and a last frame (a small grey JPEG) with its verdict, or none.
type fakeCamera struct {
	changed chan struct{}

	mu      sync.Mutex
	throws  []DiceThrow        // guarded by mu
	last    *input.DiceReading // the last frame's verdict; nil: no frame yet; guarded by mu
	snapped int                // Snapshot calls; guarded by mu
	// the calibration from throws (Learn, Calibrate); guarded by mu
	calib     *DiceCalibration
	calibrate int // Learn and Calibrate calls
	forgot    int // ForgetCamera calls
}

func newFakeCamera() *fakeCamera { return &fakeCamera{changed: make(chan struct{}, 1)} }

func (f *fakeCamera) Throws() []DiceThrow {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]DiceThrow(nil), f.throws...)
}

func (f *fakeCamera) Changed() <-chan struct{} { return f.changed }

func (f *fakeCamera) add(t DiceThrow) {
	f.mu.Lock()
	f.throws = append(f.throws, t)
	r := t.DiceReading
	f.last = &r
	f.mu.Unlock()
	select {
	case f.changed <- struct{}{}:
	default:
	}
}

// settle changes the last throw as the table decides it (its fate, the
// roll entered), as the daemon's notes do.
func (f *fakeCamera) settle(fn func(*DiceThrow)) {
	f.mu.Lock()
	fn(&f.throws[len(f.throws)-1])
	f.mu.Unlock()
	select {
	case f.changed <- struct{}{}:
	default:
	}
}

func (f *fakeCamera) Snapshot(ctx context.Context, path string) (input.DiceReading, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.snapped++
	if f.last == nil {
		return input.DiceReading{}, ErrNoFrame
	}
	out, err := os.Create(path)
	if err != nil {
		return input.DiceReading{}, err
	}
	defer out.Close()
	// A picture of some size, so the byte bound can be tested.
	img := image.NewGray(image.Rect(0, 0, 320, 240))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 7)
	}
	if err := jpeg.Encode(out, img, &jpeg.Options{Quality: 95}); err != nil {
		return input.DiceReading{}, err
	}
	return *f.last, nil
}

// unreadThrow is a throw whose red die the reader could not read.
func unreadThrow(at time.Time) DiceThrow {
	return DiceThrow{DiceReading: input.DiceReading{At: at,
		Blue:   input.DieReading{Face: 5, Confidence: 0.97, Found: true},
		Red:    input.DieReading{Confidence: 0.41, Found: true, Reason: "numeral unclear", ReasonFR: "chiffre peu net"},
		Reason: "red die: numeral unclear", ReasonFR: "dé rouge : chiffre peu net"},
		Fate: "unreadable"}
}

// inUse makes the fake camera start from a calibration in use of faces
// (dice dice learned), as the reader started with a calibration file
// tells it.
func (f *fakeCamera) inUse(dice int, faces ...int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calib = &DiceCalibration{DiceCalibState: input.DiceCalibState{Blue: []int{}, Red: []int{}, Earlier: faces, Dice: dice, Need: max(fakeCalibDice-dice, 0), Faces: faces}, Saved: true}
	f.signalLocked()
}

// leans makes the fake camera's calibration say that tilted of the shown
// dice learned looked tilted to the hand-tuned reader, the camera
// leaning, as the reader tells it (vision.TiltMisleads).
func (f *fakeCamera) leans(tilted, shown int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calib.Tilted, f.calib.Shown, f.calib.Leans = tilted, shown, true
	f.signalLocked()
}

// flat makes the fake camera's calibration say that it learned flat dice
// in whole frames, need more before its reader refuses a die whose
// numeral is not where a flat die's lies (vision.MinFlatDice).
func (f *fakeCamera) flat(flat, need int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calib.Flat, f.calib.FlatNeed = flat, need
	f.signalLocked()
}

// across makes the fake camera tell the dice learned are that many
// pixels across, and small under 40 (as vision.SmallDieAcross).
func (f *fakeCamera) across(px int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calib.Across, f.calib.Small, f.calib.SmallUnder = px, px < 40, 40
	f.signalLocked()
}

// colours makes the fake camera's calibration say it learned the colours
// of dice its reader's own ranges did not find.
func (f *fakeCamera) colours(cs ...input.DieColour) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calib.Colours = cs
	f.signalLocked()
}

// fakeCalibDice is how many dice the fake camera learns before it saves.
const fakeCalibDice = 4

// Learn learns the last frame as a throw: a die whose face the frame's
// verdict read as another face is refused, like the real reader's
// classifier when it is sure.
func (f *fakeCamera) Learn(ctx context.Context, blue, red int) (DiceCalibration, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calibrate++
	if f.last == nil {
		return DiceCalibration{}, ErrNoFrame
	}
	if f.calib == nil {
		f.calib = &DiceCalibration{DiceCalibState: input.DiceCalibState{Blue: []int{}, Red: []int{}, Need: fakeCalibDice}}
	}
	c := f.calib
	c.Learned, c.Saved = nil, false
	var refused *CalibrationRefused
	for _, d := range []struct {
		name  string
		face  int
		read  input.Face
		faces *[]int
	}{{"blue", blue, f.last.Blue.Face, &c.Blue}, {"red", red, f.last.Red.Face, &c.Red}} {
		if d.read != 0 && int(d.read) != d.face {
			refused = &CalibrationRefused{Text: kit.Text{
				EN: fmt.Sprintf("%s die, face %d: the reader sees a %d on top", d.name, d.face, d.read),
				FR: fmt.Sprintf("dé %s, face %d : le lecteur voit un %d dessus", d.name, d.face, d.read)}}
			continue
		}
		if !slices.Contains(*d.faces, d.face) {
			*d.faces = append(*d.faces, d.face)
			slices.Sort(*d.faces)
		}
		c.Learned = append(c.Learned, d.name)
		c.Dice++
	}
	c.Need = max(fakeCalibDice-c.Dice, 0)
	f.signalLocked()
	if refused != nil {
		refused.State = *c
		return *c, refused
	}
	return *c, nil
}

func (f *fakeCamera) Calibrate(ctx context.Context) (DiceCalibration, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calibrate++
	if f.calib == nil || f.calib.Need > 0 {
		var c DiceCalibration
		if f.calib != nil {
			c = *f.calib
		}
		more := fakeCalibDice - c.Dice
		return c, &CalibrationRefused{State: c, Text: kit.Text{
			EN: fmt.Sprintf("%d dice learned, %d more needed before saving", c.Dice, more),
			FR: fmt.Sprintf("%d dés appris, encore %d avant d'enregistrer", c.Dice, more)}}
	}
	f.calib.Saved = true
	f.calib.Faces = slices.Compact(slices.Sorted(slices.Values(append(append(slices.Clone(f.calib.Blue), f.calib.Red...), f.calib.Earlier...))))
	f.signalLocked()
	return *f.calib, nil
}

// Reset drops what was learned, the earlier faces included.
func (f *fakeCamera) Reset(ctx context.Context) (DiceCalibration, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calibrate++
	f.calib = &DiceCalibration{DiceCalibState: input.DiceCalibState{Blue: []int{}, Red: []int{}, Need: fakeCalibDice}}
	f.signalLocked()
	return *f.calib, nil
}

// ForgetCamera forgets the camera as the reader does: the last throw's
// view then knows nothing of it.
func (f *fakeCamera) ForgetCamera(ctx context.Context) (DiceCalibration, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.forgot++
	if n := len(f.throws); n > 0 {
		f.throws[n-1].View = &input.ReaderView{FlatNeed: 12}
	}
	f.signalLocked()
	var c DiceCalibration
	if f.calib != nil {
		c = *f.calib
	}
	return c, nil
}

func (f *fakeCamera) Calibration() *DiceCalibration {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.calib == nil {
		return nil
	}
	c := *f.calib
	return &c
}

func (f *fakeCamera) signalLocked() {
	select {
	case f.changed <- struct{}{}:
	default:
	}
}
