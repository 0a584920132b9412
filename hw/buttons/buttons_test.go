package buttons

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

func newPin(name string) *gpiotest.Pin {
	// Unbuffered: a test's edge is taken by the watcher before the send
	// returns.
	return &gpiotest.Pin{N: name, EdgesChan: make(chan gpio.Level)}
}

// rig runs a Set over fake pins on a fake clock and collects its events.
type rig struct {
	t      *testing.T
	clk    *clock.Fake
	cancel context.CancelFunc
	mu     sync.Mutex
	got    []string
	done   chan struct{}
}

func start(t *testing.T, pins map[string]*gpiotest.Pin) *rig {
	t.Helper()
	var bs []Button
	for _, name := range []string{"confirm", "undo"} {
		if p, ok := pins[name]; ok {
			bs = append(bs, Button{Name: name, Pin: p})
		}
	}
	r := &rig{t: t, clk: clock.NewFake(t0), done: make(chan struct{})}
	set, err := New(bs, Opts{Debounce: 30 * time.Millisecond, EdgeWait: 5 * time.Millisecond, Clock: r.clk})
	if err != nil {
		t.Fatal(err)
	}
	for name, p := range pins {
		if p.Pull() != gpio.PullUp || p.Read() != gpio.High {
			t.Errorf("%s: pull %v level %v after New, want pull-up and high", name, p.Pull(), p.Read())
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	events := set.Run(ctx)
	go func() {
		defer close(r.done)
		for e := range events {
			r.mu.Lock()
			r.got = append(r.got, fmt.Sprintf("+%dms %s", e.When().Sub(t0).Milliseconds(), e))
			r.mu.Unlock()
		}
	}()
	return r
}

// edges sends edges on p, waits until p reads the last level, then lets
// every debounce check armed by them run.
func (r *rig) edges(p *gpiotest.Pin, levels ...gpio.Level) {
	r.t.Helper()
	for _, l := range levels {
		p.EdgesChan <- l
	}
	deadline := time.Now().Add(5 * time.Second)
	for p.Read() != levels[len(levels)-1] {
		if time.Now().After(deadline) {
			r.t.Fatal("the pin never took its last level")
		}
		time.Sleep(time.Millisecond)
	}
	r.settle()
}

// settle fires the debounce timers until none has been armed for a while.
func (r *rig) settle() {
	idle := 0
	for idle < 20 {
		if r.clk.Pending() > 0 {
			r.clk.AdvanceToNext()
			idle = 0
			continue
		}
		idle++
		time.Sleep(time.Millisecond)
	}
}

// advance moves time on with no edge.
func (r *rig) advance(d time.Duration) { r.clk.Advance(d) }

func (r *rig) stop() []string {
	r.cancel()
	<-r.done
	return r.got
}

func TestPresses(t *testing.T) {
	L, H := gpio.Low, gpio.High
	tests := []struct {
		name string
		run  func(r *rig, confirm, undo *gpiotest.Pin)
		want []string
	}{
		{"one clean press and release", func(r *rig, c, u *gpiotest.Pin) {
			r.edges(c, L)
			r.edges(c, H)
		}, []string{"+30ms button confirm"}},
		{"bouncing contact gives one press", func(r *rig, c, u *gpiotest.Pin) {
			r.edges(c, L, H, L, H, L)
			r.edges(c, H, L, H)
		}, []string{"+30ms button confirm"}},
		{"held button gives one press", func(r *rig, c, u *gpiotest.Pin) {
			r.edges(c, L)
			r.advance(10 * time.Second)
			r.settle()
		}, []string{"+30ms button confirm"}},
		{"glitch shorter than debounce is ignored", func(r *rig, c, u *gpiotest.Pin) {
			r.edges(c, L, H)
		}, nil},
		{"press, release, press again", func(r *rig, c, u *gpiotest.Pin) {
			r.edges(c, L)
			r.edges(c, H)
			r.advance(time.Second)
			r.edges(c, L)
		}, []string{"+30ms button confirm", "+1090ms button confirm"}},
		{"two buttons", func(r *rig, c, u *gpiotest.Pin) {
			r.edges(u, L)
			r.edges(c, L)
			r.edges(u, H)
			r.edges(c, H)
		}, []string{"+30ms button undo", "+60ms button confirm"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			leakcheck.Check(t)
			c, u := newPin("GPIO17"), newPin("GPIO27")
			r := start(t, map[string]*gpiotest.Pin{"confirm": c, "undo": u})
			tt.run(r, c, u)
			got := r.stop()
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("events %q, want %q", got, tt.want)
			}
		})
	}
}

// brokenPin is a pin whose set-up fails, as on a pin claimed by another
// driver.
type brokenPin struct{ gpiotest.Pin }

func (p *brokenPin) In(gpio.Pull, gpio.Edge) error { return errors.New("gpio: pin busy") }

func TestSetupErrors(t *testing.T) {
	if _, err := New(nil, DefaultOpts); err == nil {
		t.Error("New(no buttons) = nil error")
	}
	p := &brokenPin{gpiotest.Pin{N: "GPIO17"}}
	_, err := New([]Button{{Name: "confirm", Pin: p}}, DefaultOpts)
	if err == nil || !strings.Contains(err.Error(), "setting up confirm on GPIO17(0): gpio: pin busy") {
		t.Errorf("New(broken pin) = %v", err)
	}
	if _, err := New([]Button{{Name: "confirm", Pin: &gpiotest.Pin{N: "GPIO17"}}}, DefaultOpts); err == nil {
		t.Error("New with a pin without edge support = nil error")
	}
}

func TestStopsOnCancel(t *testing.T) {
	leakcheck.Check(t)
	r := start(t, map[string]*gpiotest.Pin{"confirm": newPin("GPIO17")})
	if got := r.stop(); len(got) != 0 {
		t.Errorf("events %q with no edge", got)
	}
	var _ input.Event = input.Button{}
}

func TestHalt(t *testing.T) {
	p := newPin("GPIO17")
	set, err := New([]Button{{Name: "confirm", Pin: p}}, DefaultOpts)
	if err != nil {
		t.Fatal(err)
	}
	if err := set.Halt(); err != nil || p.Pull() != gpio.PullUp {
		t.Errorf("Halt() = %v, pull %v; want nil and the pull-up kept", err, p.Pull())
	}
	b := &brokenPin{gpiotest.Pin{N: "GPIO27"}}
	bad := &Set{buttons: []Button{{Name: "undo", Pin: b}}}
	if err := bad.Halt(); err == nil || !strings.Contains(err.Error(), "halting undo") {
		t.Errorf("Halt on a broken pin = %v", err)
	}
}
