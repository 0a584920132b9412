package lockout

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

// policy is the house's: TestDelay checks its figures.
var policy = Default

func TestDelay(t *testing.T) {
	for _, tt := range []struct {
		p    Policy
		n    int
		want time.Duration
	}{
		{policy, 0, 0}, {policy, 1, 0}, {policy, 3, 0},
		{policy, 4, 2 * time.Second}, {policy, 5, 4 * time.Second}, {policy, 6, 8 * time.Second},
		{policy, 12, 512 * time.Second}, {policy, 13, 15 * time.Minute}, {policy, 100, 15 * time.Minute},
		{Policy{Free: 0, First: time.Second, Max: 5 * time.Second}, 1, time.Second},
		{Policy{Free: 0, First: time.Second, Max: 5 * time.Second}, 3, 4 * time.Second},
		{Policy{Free: 0, First: time.Second, Max: 5 * time.Second}, 4, 5 * time.Second},
		{Policy{Free: 1, First: time.Minute, Max: time.Minute}, 2, time.Minute},
		{Policy{Free: 1, First: time.Minute, Max: time.Minute}, 1000, time.Minute},
	} {
		if got := tt.p.Delay(tt.n); got != tt.want {
			t.Errorf("%+v.Delay(%d) = %v, want %v", tt.p, tt.n, got, tt.want)
		}
	}
}

// TestGuard plays scripts of attempts on a fake clock: each step moves
// the clock, makes an attempt (right or wrong secret, trusted or not) and
// checks what the guard made of it and the lock it shows after.
func TestGuard(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	type step struct {
		after    time.Duration // since the previous step
		right    bool
		trusted  bool
		want     Attempt // Until as an offset from t0 in untilAt
		untilAt  time.Duration
		lockAt   time.Duration // the lock shown after the step, from t0; 0: none
		failures int
	}
	wrong := func(after time.Duration, changed bool, lockAt time.Duration, failures int) step {
		return step{after: after, want: Attempt{Changed: changed}, lockAt: lockAt, failures: failures}
	}
	refused := func(after, until time.Duration, failures int) step {
		return step{after: after, want: Attempt{Refused: true}, untilAt: until, lockAt: until, failures: failures}
	}
	for _, tt := range []struct {
		name  string
		steps []step
	}{
		{"free tries then right", []step{
			wrong(0, false, 0, 1), wrong(0, false, 0, 2), wrong(0, false, 0, 3),
			{right: true, want: Attempt{Right: true}},
		}},
		{"doubling waits, right refused while waiting", []step{
			wrong(0, false, 0, 1), wrong(0, false, 0, 2), wrong(0, false, 0, 3),
			wrong(0, true, 2*time.Second, 4),
			{after: time.Second, right: true, want: Attempt{Refused: true}, untilAt: 2 * time.Second, lockAt: 2 * time.Second, failures: 4},
			refused(999*time.Millisecond, 2*time.Second, 4),
			wrong(time.Millisecond, true, 6*time.Second, 5), // at 2 s: waits 4 s
			refused(3*time.Second, 6*time.Second, 5),
			wrong(time.Second, true, 14*time.Second, 6), // at 6 s: waits 8 s
			{after: 8 * time.Second, right: true, want: Attempt{Right: true, Changed: true}},
			wrong(0, false, 0, 1),
		}},
		{"the lock ends by itself", []step{
			wrong(0, false, 0, 1), wrong(0, false, 0, 2), wrong(0, false, 0, 3),
			wrong(0, true, 2*time.Second, 4),
			{after: 2 * time.Second, right: true, want: Attempt{Right: true, Changed: true}},
		}},
		{"the wait stops at the lockout", func() []step {
			var s []step
			for n := 1; n <= 3; n++ {
				s = append(s, wrong(0, false, 0, n))
			}
			at := time.Duration(0)
			for n := 4; n <= 13; n++ {
				d := policy.Delay(n)
				s = append(s, wrong(policy.Delay(n-1), true, at+policy.Delay(n-1)+d, n))
				at += policy.Delay(n - 1)
			}
			return append(s, refused(15*time.Minute-time.Nanosecond, at+15*time.Minute, 13))
		}()},
		{"trusted attempts are never refused but count", []step{
			wrong(0, false, 0, 1), wrong(0, false, 0, 2), wrong(0, false, 0, 3),
			wrong(0, true, 2*time.Second, 4),
			{trusted: true, want: Attempt{Changed: true}, lockAt: 4 * time.Second, failures: 5},
			refused(time.Second, 4*time.Second, 5),
			{trusted: true, right: true, want: Attempt{Right: true, Changed: true}},
			{right: true, want: Attempt{Right: true}},
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := New(policy)
			now := t0
			for i, s := range tt.steps {
				now = now.Add(s.after)
				try := g.Try
				if s.trusted {
					try = g.TryTrusted
				}
				compared := false
				got := try(now, func() bool { compared = true; return s.right })
				want := s.want
				if want.Refused {
					want.Until = t0.Add(s.untilAt)
				}
				if got != want {
					t.Fatalf("step %d at +%v: Try = %+v, want %+v", i, now.Sub(t0), got, want)
				}
				if compared == got.Refused {
					t.Fatalf("step %d: secret compared %v on an attempt refused %v", i, compared, got.Refused)
				}
				until, n := g.Lock(now)
				var wantUntil time.Time
				if s.lockAt != 0 {
					wantUntil = t0.Add(s.lockAt)
				}
				if !until.Equal(wantUntil) || n != s.failures {
					t.Fatalf("step %d at +%v: Lock = %v, %d; want %v, %d", i, now.Sub(t0), until, n, wantUntil, s.failures)
				}
			}
		})
	}
}

// TestGuardConcurrent: guesses made at once, with no free try, are
// counted one after the other: one is compared, the others wait for it.
func TestGuardConcurrent(t *testing.T) {
	g := New(Policy{Free: 0, First: time.Minute, Max: time.Hour})
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	compared := 0
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			g.Try(now, func() bool {
				mu.Lock()
				compared++
				mu.Unlock()
				return false
			})
		})
	}
	wg.Wait()
	if until, n := g.Lock(now); compared != 1 || n != 1 || !until.Equal(now.Add(time.Minute)) {
		t.Errorf("32 guesses at once: %d compared, Lock = %v, %d; want 1 compared, a minute, 1", compared, until, n)
	}
}

func TestError(t *testing.T) {
	locked := errors.New("locked after wrong secrets")
	until := time.Date(2026, 11, 25, 20, 15, 4, 0, time.UTC)
	var err error = fmt.Errorf("login: %w", &Error{Until: until, Locked: locked})
	var e *Error
	if !errors.Is(err, locked) || !errors.As(err, &e) || !e.Until.Equal(until) {
		t.Errorf("%v: want it to wrap the sentinel and an *Error until %v", err, until)
	}
	if got, want := err.Error(), "login: locked after wrong secrets until 20:15:04"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}
