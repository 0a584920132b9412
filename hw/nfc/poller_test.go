package nfc

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"comptoir/hw/clock"
	"comptoir/hw/internal/leakcheck"
	"comptoir/input"
)

var t0 = time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC)

// scriptReader answers ReadUID from a script, one entry per call: a hex
// UID, "-" for no tag, "?" for a garbled read, "X" for a bus error. Past
// the script it answers ErrNoTag.
type scriptReader struct {
	mu    sync.Mutex
	steps []string
	n     int
}

func (r *scriptReader) ReadUID() ([]byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := "-"
	if r.n < len(r.steps) {
		s = r.steps[r.n]
	}
	r.n++
	switch s {
	case "-":
		return nil, ErrNoTag
	case "?":
		return nil, fmt.Errorf("%w: check byte", ErrBadRead)
	case "X":
		return nil, fmt.Errorf("%w: unplugged", ErrBus)
	}
	var b []byte
	for i := 0; i+1 < len(s); i += 2 {
		var v byte
		fmt.Sscanf(s[i:i+2], "%02X", &v)
		b = append(b, v)
	}
	return b, nil
}

// runPoller runs a poller over r on a fake clock for the given number of
// reads and returns its events, formatted as "+ms event".
func runPoller(t *testing.T, r TagReader, reads int, opts PollOpts) []string {
	t.Helper()
	clk := clock.NewFake(t0)
	opts.Clock = clk
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events := NewPoller(r, opts).Run(ctx)
	var got []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		for e := range events {
			got = append(got, fmt.Sprintf("+%dms %s", e.When().Sub(t0).Milliseconds(), e))
		}
	}()
	wctx, wcancel := context.WithTimeout(ctx, 5*time.Second)
	defer wcancel()
	for i := 0; i < reads; i++ {
		// The poller sleeps after each read: wait for its timer, fire it.
		if !clk.WaitTimers(wctx, 1) {
			t.Fatalf("poller never slept after read %d", i+1)
		}
		if i < reads-1 {
			clk.AdvanceToNext()
		}
	}
	cancel()
	<-done
	return got
}

func TestPollerTaps(t *testing.T) {
	const A, B = "04A2B3C4D5E680", "DEADBEEF"
	const ready = "+0ms nfc ok reader ready"
	tests := []struct {
		name  string
		steps []string
		want  []string
	}{
		{"nothing", []string{"-", "-", "-"}, []string{ready}},
		{"card resting gives one tap", []string{A, A, A, A, A, A, A, A}, []string{ready, "+0ms tag " + A}},
		{"missed reads while resting", []string{A, "-", "-", A, "?", "-", A, A}, []string{ready, "+0ms tag " + A}},
		{"lifted and laid again", []string{A, A, "-", "-", "-", "-", A}, []string{ready, "+0ms tag " + A, "+600ms tag " + A}},
		{"lifted just too briefly", []string{A, "-", "-", "-", A}, []string{ready, "+0ms tag " + A}},
		{"another tag at once", []string{A, B, B, A}, []string{ready, "+0ms tag " + A, "+100ms tag " + B, "+300ms tag " + A}},
		{"late first tap", []string{"-", "-", B}, []string{ready, "+200ms tag " + B}},
		{"fault, back-off, recovery", []string{A, "X", "X", "X", "-", A}, []string{
			ready,
			"+0ms tag " + A,
			"+100ms nfc fault: nfc: SPI transfer failed: unplugged",
			// retries after 250ms, 500ms, 1000ms: answers at +1850ms
			"+1850ms nfc ok reader answers again",
			// A was unseen for 1950ms: a new tap
			"+1950ms tag " + A,
		}},
		{"garbled reads are not faults", []string{"?", "?", A}, []string{ready, "+200ms tag " + A}},
		{"reader missing at start", []string{"X", "X", "-"}, []string{
			"+0ms nfc fault: nfc: SPI transfer failed: unplugged",
			"+750ms nfc ok reader ready",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			leakcheck.Check(t)
			r := &scriptReader{steps: tt.steps}
			got := runPoller(t, r, len(tt.steps), PollOpts{})
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if r.n != len(tt.steps) {
				t.Errorf("%d reads, want %d", r.n, len(tt.steps))
			}
		})
	}
}

func TestPollerBackoffCaps(t *testing.T) {
	leakcheck.Check(t)
	steps := make([]string, 9)
	for i := range steps {
		steps[i] = "X"
	}
	clk := clock.NewFake(t0)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := &scriptReader{steps: steps}
	events := NewPoller(r, PollOpts{BackoffMin: 100 * time.Millisecond, BackoffMax: time.Second, Clock: clk}).Run(ctx)
	var waits []time.Duration
	for range 8 {
		clk.WaitTimers(ctx, 1)
		waits = append(waits, clk.AdvanceToNext())
	}
	want := []time.Duration{100, 200, 400, 800, 1000, 1000, 1000, 1000}
	for i := range want {
		if waits[i] != want[i]*time.Millisecond {
			t.Errorf("wait %d = %v, want %v", i, waits[i], want[i]*time.Millisecond)
		}
	}
	cancel()
	var n int
	for e := range events {
		if s, ok := e.(input.DeviceStatus); !ok || s.OK {
			t.Errorf("event %v, want only one fault status", e)
		}
		n++
	}
	if n != 1 {
		t.Errorf("%d status events for one lasting fault, want 1", n)
	}
}
