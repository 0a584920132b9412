// Package clock is the time source of the hw packages: the real clock on
// the table, a fake one in tests, so that debounce, polling, back-off and
// replay pacing are tested without sleeping.
//
// # Concurrency
//
// Both clocks are safe for concurrent use. A Fake's timers fire only when
// the test calls Advance; WaitTimers lets a test wait until the code under
// test has armed its timers, so a test steps a loop deterministically.
package clock

import (
	"context"
	"sort"
	"sync"
	"time"
)

// Clock tells the time and makes timers.
type Clock interface {
	Now() time.Time
	// NewTimer returns a timer that sends the time on C once d has passed.
	NewTimer(d time.Duration) Timer
}

// Timer is a one-shot timer, like *time.Timer.
type Timer interface {
	C() <-chan time.Time
	// Stop stops the timer; it reports whether the timer was still pending.
	Stop() bool
}

// Real returns the system clock.
func Real() Clock { return realClock{} }

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }
func (realClock) NewTimer(d time.Duration) Timer {
	return realTimer{time.NewTimer(d)}
}

type realTimer struct{ t *time.Timer }

func (t realTimer) C() <-chan time.Time { return t.t.C }
func (t realTimer) Stop() bool          { return t.t.Stop() }

// Sleep waits for d on c, or until ctx is done; it returns ctx.Err() in that
// case and nil otherwise.
func Sleep(ctx context.Context, c Clock, d time.Duration) error {
	t := c.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C():
		return nil
	}
}

// Fake is a clock that moves only when told to. The zero value is not
// usable: make one with NewFake.
type Fake struct {
	mu      sync.Mutex
	cond    *sync.Cond   // signalled when timers is changed; uses mu
	now     time.Time    // guarded by mu
	timers  []*fakeTimer // pending timers, guarded by mu
	created int          // timers made so far, guarded by mu
}

// NewFake returns a fake clock that reads start.
func NewFake(start time.Time) *Fake {
	f := &Fake{now: start}
	f.cond = sync.NewCond(&f.mu)
	return f
}

// Now returns the fake time.
func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// NewTimer makes a timer that fires when Advance moves the clock past d
// from now. A timer of d <= 0 fires at once.
func (f *Fake) NewTimer(d time.Duration) Timer {
	f.mu.Lock()
	defer f.mu.Unlock()
	t := &fakeTimer{f: f, at: f.now.Add(d), c: make(chan time.Time, 1)}
	f.created++
	if d <= 0 {
		t.c <- f.now
	} else {
		f.timers = append(f.timers, t)
	}
	f.cond.Broadcast()
	return t
}

// Advance moves the clock by d and fires, in time order, every timer due.
func (f *Fake) Advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	end := f.now.Add(d)
	sort.SliceStable(f.timers, func(i, j int) bool { return f.timers[i].at.Before(f.timers[j].at) })
	keep := f.timers[:0]
	for _, t := range f.timers {
		if t.at.After(end) {
			keep = append(keep, t)
			continue
		}
		if t.at.After(f.now) {
			f.now = t.at
		}
		t.c <- f.now
	}
	f.timers = keep
	f.now = end
	f.cond.Broadcast()
}

// AdvanceToNext moves the clock to the earliest pending timer and fires
// it (and any other timer due then). It returns the step, or 0 when no
// timer is pending.
func (f *Fake) AdvanceToNext() time.Duration {
	f.mu.Lock()
	if len(f.timers) == 0 {
		f.mu.Unlock()
		return 0
	}
	next := f.timers[0].at
	for _, t := range f.timers[1:] {
		if t.at.Before(next) {
			next = t.at
		}
	}
	d := next.Sub(f.now)
	f.mu.Unlock()
	f.Advance(d)
	return d
}

// Pending returns the number of timers armed and not yet fired or stopped.
func (f *Fake) Pending() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.timers)
}

// WaitTimers blocks until at least n timers are pending, or until ctx is
// done, and reports whether they are.
func (f *Fake) WaitTimers(ctx context.Context, n int) bool {
	stop := context.AfterFunc(ctx, func() {
		f.mu.Lock()
		f.cond.Broadcast()
		f.mu.Unlock()
	})
	defer stop()
	f.mu.Lock()
	defer f.mu.Unlock()
	for len(f.timers) < n {
		if ctx.Err() != nil {
			return false
		}
		f.cond.Wait()
	}
	return true
}

type fakeTimer struct {
	f  *Fake
	at time.Time
	c  chan time.Time
}

func (t *fakeTimer) C() <-chan time.Time { return t.c }

func (t *fakeTimer) Stop() bool {
	t.f.mu.Lock()
	defer t.f.mu.Unlock()
	for i, o := range t.f.timers {
		if o == t {
			t.f.timers = append(t.f.timers[:i], t.f.timers[i+1:]...)
			t.f.cond.Broadcast()
			return true
		}
	}
	return false
}
