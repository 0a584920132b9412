package dashboard

import (
	"context"
	"image"
	"image/jpeg"
	"os"
	"sync"
	"time"

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
