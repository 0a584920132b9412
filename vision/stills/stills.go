// Package stills makes dice-reader frame sources out of still pictures:
// a Shown picture, repeated at a camera's pace until another replaces it
// (the demo shows each recorded roll as a labelled picture of that roll),
// and Paced, a source read no faster than a frame rate (a folder of
// recorded frames played back in real time), which Loop can play again
// and again.
//
// It lives under vision/ because its sources take OpenCV matrices; the
// command line (comptoir dicefeed) uses it without importing OpenCV.
//
// # Concurrency
//
// A source is read by one goroutine (vision.Watch); Shown.Show and Close
// may be called from any goroutine. Reads stop when their context is done.
package stills

import (
	"context"
	"sync"
	"time"

	"gocv.io/x/gocv"

	"comptoir/hw/clock"
	"comptoir/vision"
)

// Shown is a camera that films one picture until another is shown.
type Shown struct {
	ctx    context.Context
	clk    clock.Clock
	period time.Duration

	mu     sync.Mutex
	cur    gocv.Mat // guarded by mu
	closed bool     // guarded by mu
}

var _ vision.Source = (*Shown)(nil)

// NewShown returns a source that gives first, fps times a second on clk,
// until ctx is done or it is closed. It owns first (and every picture
// shown later) and closes it.
func NewShown(ctx context.Context, first gocv.Mat, fps float64, clk clock.Clock) *Shown {
	if clk == nil {
		clk = clock.Real()
	}
	return &Shown{ctx: ctx, clk: clk, period: period(fps), cur: first}
}

// period is the time between two frames at fps (30 when fps is not > 0).
func period(fps float64) time.Duration {
	if fps <= 0 {
		fps = 30
	}
	return time.Duration(float64(time.Second) / fps)
}

// Show replaces the picture filmed; Shown owns img from now on. After
// Close it closes img at once.
func (s *Shown) Show(img gocv.Mat) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		img.Close()
		return
	}
	s.cur.Close()
	s.cur = img
}

// Read waits one frame period and copies the picture into m. It returns
// false once the context is done or the source is closed.
func (s *Shown) Read(m *gocv.Mat) bool {
	if clock.Sleep(s.ctx, s.clk, s.period) != nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.cur.CopyTo(m)
	return true
}

// Close releases the picture; later reads return false.
func (s *Shown) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	return s.cur.Close()
}

// Paced reads a source no faster than a frame rate.
type Paced struct {
	ctx    context.Context
	clk    clock.Clock
	period time.Duration
	src    vision.Source
	next   time.Time
}

var _ vision.Erring = (*Paced)(nil)

// Pace returns src read at most fps frames a second on clk (30 when fps
// is not > 0), until ctx is done. Closing it closes src.
func Pace(ctx context.Context, src vision.Source, fps float64, clk clock.Clock) *Paced {
	if clk == nil {
		clk = clock.Real()
	}
	return &Paced{ctx: ctx, clk: clk, period: period(fps), src: src}
}

// Read waits for the next frame's time, then reads it from the source.
func (p *Paced) Read(m *gocv.Mat) bool {
	now := p.clk.Now()
	if p.next.IsZero() {
		p.next = now
	}
	if wait := p.next.Sub(now); wait > 0 {
		if clock.Sleep(p.ctx, p.clk, wait) != nil {
			return false
		}
	} else if p.ctx.Err() != nil {
		return false
	}
	// A slow reader does not make the next frames come in a burst.
	p.next = maxTime(p.next, now).Add(p.period)
	return p.src.Read(m)
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// Err is the source's error (see vision.SourceErr).
func (p *Paced) Err() error { return vision.SourceErr(p.src) }

// Close closes the source.
func (p *Paced) Close() error { return p.src.Close() }

// Looping plays a source again from its start each time it ends without
// an error.
type Looping struct {
	open func() (vision.Source, error)
	src  vision.Source
	err  error
}

var _ vision.Erring = (*Looping)(nil)

// Loop returns a source that opens open's source, and opens it again each
// time it ends cleanly. It ends with the first error (of open or of the
// source), which Err returns. Pace it, or it loops as fast as it reads.
func Loop(open func() (vision.Source, error)) *Looping { return &Looping{open: open} }

// Read reads the next frame, starting the source again at its end.
func (l *Looping) Read(m *gocv.Mat) bool {
	for tries := 0; l.err == nil && tries < 2; tries++ {
		if l.src == nil {
			if l.src, l.err = l.open(); l.err != nil {
				l.src = nil
				return false
			}
		}
		if l.src.Read(m) {
			return true
		}
		if l.err = vision.SourceErr(l.src); l.err != nil {
			return false
		}
		l.src.Close()
		l.src = nil
	}
	// Opened twice in a row without a frame: an empty source would spin.
	return false
}

// Err returns why the source stopped.
func (l *Looping) Err() error { return l.err }

// Close closes the source being read.
func (l *Looping) Close() error {
	if l.src == nil {
		return nil
	}
	err := l.src.Close()
	l.src = nil
	return err
}
