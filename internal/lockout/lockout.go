// Package lockout slows down the guessing of a secret (the café floor's
// secret, a table's staff PIN): a Guard counts the wrong attempts in a
// row across every connection; after a few free ones (typing errors)
// each failure makes the next attempt wait, the wait doubling with each
// failure up to a lockout. An attempt made while the guard waits is
// refused without the secret being compared; a right secret starts the
// count again.
//
// Time is the caller's: every method takes the instant it happens at, so
// tests drive it with a fake clock.
//
// # Concurrency
//
// A Guard is safe for concurrent use. An attempt is checked, compared and
// counted under the guard's lock, so concurrent guesses are counted one
// after the other and none is compared while an earlier failure makes
// them wait.
package lockout

import (
	"fmt"
	"sync"
	"time"
)

// Policy says how wrong attempts are made to wait.
type Policy struct {
	// Free is how many wrong attempts in a row cost nothing.
	Free int
	// First is the wait after the first failure beyond the free ones; it
	// doubles with each further failure.
	First time.Duration
	// Max is the longest wait: past it, every failure locks attempts out
	// for this long.
	Max time.Duration
}

// Default is the house's policy for a secret typed on a phone: three
// wrong attempts cost nothing (typing errors); then each makes the next
// wait, from 2 s doubling up to 15 min (after 13 failures in a row),
// which leaves a guesser a few tries an hour.
var Default = Policy{Free: 3, First: 2 * time.Second, Max: 15 * time.Minute}

// Delay is the wait after the n-th wrong attempt in a row.
func (p Policy) Delay(n int) time.Duration {
	if n <= p.Free {
		return 0
	}
	d := p.First
	for i := p.Free + 1; i < n && d < p.Max; i++ {
		d *= 2
	}
	return min(d, p.Max)
}

// Attempt is what a Guard made of one attempt.
type Attempt struct {
	// Refused: the attempt came while the guard waits; the secret was
	// not compared. No attempt is compared before Until.
	Refused bool
	Until   time.Time
	// Right: the secret was right; the count starts again.
	Right bool
	// Changed: the lockout began, was made longer, or ended with this
	// attempt (failures in a row beyond the free ones after a wrong
	// secret, or before a right one), for a screen that shows it.
	Changed bool
}

// Error is an attempt refused while the guard waits: it tells until
// when, and wraps Locked, the caller's sentinel, so that errors.Is(err,
// Locked) holds.
type Error struct {
	Until  time.Time
	Locked error
}

func (e *Error) Error() string {
	return fmt.Sprintf("%v until %s", e.Locked, e.Until.Format(time.TimeOnly))
}

// Unwrap returns Locked.
func (e *Error) Unwrap() error { return e.Locked }

// Guard counts wrong attempts under a Policy; its zero value is not
// usable: see New.
type Guard struct {
	policy Policy

	mu       sync.Mutex
	failures int       // wrong attempts since the last right one; guarded by mu
	wait     time.Time // no attempt compared before; guarded by mu
}

// New returns a guard with no failure counted.
func New(p Policy) *Guard { return &Guard{policy: p} }

// Try makes an attempt at now: refused while the guard waits; otherwise
// right compares the secret (under the guard's lock), and a wrong one is
// counted and makes the next attempt wait Policy.Delay(failures).
func (g *Guard) Try(now time.Time, right func() bool) Attempt {
	return g.try(now, true, right)
}

// TryTrusted is Try for a place that must never be locked out (a table's
// own screen, so that guessing from elsewhere cannot keep the staff out of
// their table): its attempt is compared even while the guard waits, and a
// wrong one still counts.
func (g *Guard) TryTrusted(now time.Time, right func() bool) Attempt {
	return g.try(now, false, right)
}

func (g *Guard) try(now time.Time, waits bool, right func() bool) Attempt {
	g.mu.Lock()
	defer g.mu.Unlock()
	if waits && now.Before(g.wait) {
		return Attempt{Refused: true, Until: g.wait}
	}
	if right() {
		changed := g.failures > g.policy.Free
		g.failures, g.wait = 0, time.Time{}
		return Attempt{Right: true, Changed: changed}
	}
	g.failures++
	g.wait = now.Add(g.policy.Delay(g.failures))
	return Attempt{Changed: g.failures > g.policy.Free}
}

// Lock reports until when attempts are refused at now (zero when they are
// not, the free failures included) and how many failed in a row.
func (g *Guard) Lock(now time.Time) (until time.Time, failures int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.failures <= g.policy.Free || !now.Before(g.wait) {
		return time.Time{}, g.failures
	}
	return g.wait, g.failures
}
