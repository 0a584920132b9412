package lights

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"

	"comptoir/hw/clock"
	"comptoir/hw/internal/leakcheck"
	"comptoir/input"
)

var t0 = time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC)

// logPin is a gpiotest.Pin that logs each write with the fake time, and
// fails writes while fail is set.
type logPin struct {
	gpiotest.Pin
	clk  *clock.Fake
	mu   sync.Mutex
	log  []string // guarded by mu
	fail bool     // guarded by mu
}

func (p *logPin) Out(l gpio.Level) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.fail {
		return errors.New("gpio: write failed")
	}
	p.log = append(p.log, fmt.Sprintf("+%dms %v", p.clk.Now().Sub(t0).Milliseconds(), l))
	return p.Pin.Out(l)
}

func (p *logPin) setFail(f bool) {
	p.mu.Lock()
	p.fail = f
	p.mu.Unlock()
}

func (p *logPin) writes() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.log...)
}

// waitWrites waits until p has logged n writes.
func waitWrites(t *testing.T, p *logPin, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for len(p.writes()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d writes %q, want %d", p.N, len(p.writes()), p.writes(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// playPattern steps the clock through a whole refusal pattern.
func playPattern(t *testing.T, clk *clock.Fake, steps int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for range steps {
		if !clk.WaitTimers(ctx, 1) {
			t.Fatal("the pattern stopped early")
		}
		clk.AdvanceToNext()
	}
}

func TestIndicator(t *testing.T) {
	leakcheck.Check(t)
	clk := clock.NewFake(t0)
	w := &logPin{Pin: gpiotest.Pin{N: "GPIO22"}, clk: clk}
	r := &logPin{Pin: gpiotest.Pin{N: "GPIO23"}, clk: clk}
	ind, err := New(w, r, Opts{Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	events := ind.Run(ctx)

	ind.Waiting(true)
	waitWrites(t, w, 2) // Low from New, then High
	ind.Refused()
	waitWrites(t, r, 2)
	playPattern(t, clk, 3)
	waitWrites(t, r, 5)
	ind.Waiting(false)
	waitWrites(t, w, 3)
	cancel()
	for e := range events {
		t.Errorf("unexpected event %v", e)
	}
	if got, want := strings.Join(w.writes(), " "), "+0ms Low +0ms High +400ms Low"; got != want {
		t.Errorf("waiting LED writes %q, want %q", got, want)
	}
	// New puts it out; the pattern: on 150ms, off 100ms, on 150ms.
	if got, want := strings.Join(r.writes(), " "), "+0ms Low +0ms High +150ms Low +250ms High +400ms Low"; got != want {
		t.Errorf("refusal output writes %q, want %q", got, want)
	}
}

func TestRefusalOnWaitingLED(t *testing.T) {
	leakcheck.Check(t)
	clk := clock.NewFake(t0)
	w := &logPin{Pin: gpiotest.Pin{N: "GPIO22"}, clk: clk}
	ind, err := New(w, nil, Opts{Clock: clk, RefusePattern: []time.Duration{50 * time.Millisecond, 50 * time.Millisecond, 50 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	events := ind.Run(ctx)
	ind.Waiting(true)
	waitWrites(t, w, 2)
	ind.Refused()
	waitWrites(t, w, 3)
	playPattern(t, clk, 3)
	waitWrites(t, w, 6)
	cancel()
	for range events {
	}
	// The lit LED blinks off, on, off, comes back on, is put out at stop.
	want := "+0ms Low +0ms High +0ms Low +50ms High +100ms Low +150ms High +150ms Low"
	if got := strings.Join(w.writes(), " "); got != want {
		t.Errorf("waiting LED writes %q, want %q", got, want)
	}
}

func TestWriteFault(t *testing.T) {
	leakcheck.Check(t)
	clk := clock.NewFake(t0)
	w := &logPin{Pin: gpiotest.Pin{N: "GPIO22"}, clk: clk}
	ind, err := New(w, nil, Opts{Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events := ind.Run(ctx)
	w.setFail(true)
	ind.Waiting(true)
	ev := <-events
	if s, ok := ev.(input.DeviceStatus); !ok || s.OK || s.Detail != "writing GPIO22(0): gpio: write failed" {
		t.Errorf("event %v, want a lights fault naming the pin", ev)
	}
	ind.Waiting(false) // fails again: no second report
	w.setFail(false)
	ind.Waiting(true)
	ev = <-events
	if s, ok := ev.(input.DeviceStatus); !ok || !s.OK {
		t.Errorf("event %v, want lights ok again", ev)
	}
	cancel()
	for e := range events {
		t.Errorf("unexpected event %v", e)
	}
}

func TestNewErrors(t *testing.T) {
	if _, err := New(nil, nil, DefaultOpts); err == nil {
		t.Error("New(nil, nil) = nil error")
	}
	if _, err := New(&gpiotest.Pin{}, nil, Opts{RefusePattern: []time.Duration{0}}); err == nil {
		t.Error("New with a zero pattern step = nil error")
	}
}

func TestHalt(t *testing.T) {
	w, r := &gpiotest.Pin{N: "GPIO22"}, &gpiotest.Pin{N: "GPIO23"}
	ind, err := New(w, r, DefaultOpts)
	if err != nil {
		t.Fatal(err)
	}
	w.Out(gpio.High)
	r.Out(gpio.High)
	if err := ind.Halt(); err != nil || w.Read() != gpio.Low || r.Read() != gpio.Low {
		t.Errorf("Halt() = %v, outputs %v %v; want both low", err, w.Read(), r.Read())
	}
	if got := ind.String(); got != "lights (waiting on GPIO22(0), refused on GPIO23(0))" {
		t.Errorf("String() = %q", got)
	}
}
