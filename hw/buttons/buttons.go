// Package buttons reads the table box's push buttons (confirm, undo) on
// GPIO inputs and turns presses into input.Button events.
//
// # Wiring
//
// Each button connects its GPIO pin to ground; the pin's internal pull-up
// holds it high. A press is a falling level that holds for Opts.Debounce;
// the press is reported once, when the level has settled low, and the
// button must be released (settle high) before it can be pressed again.
//
// # Debounce
//
// The pins are configured for both edges. An edge arms a check of the
// pin's level Opts.Debounce later; edges that arrive while a check is
// armed do not move it, and any edge after a check arms a new one, so the
// level is always read at least Debounce after the last edge. Contact
// bounce (a few milliseconds) therefore gives one press.
//
// # Concurrency
//
// Run starts one goroutine per button that waits for edges, in slices of
// Opts.EdgeWait so it notices shutdown, and one goroutine that debounces
// and emits. All stop, and the channel is closed, when the context is
// done.
package buttons

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/gpio"

	"comptoir/hw/clock"
	"comptoir/input"
)

// Button is one button: its name in input.Button events and its pin.
type Button struct {
	Name string
	Pin  gpio.PinIn
}

// Opts configures a Set.
type Opts struct {
	// Debounce is how long the level must hold after an edge before it is
	// read. 30 ms covers the bounce of common tactile switches.
	Debounce time.Duration
	// EdgeWait bounds one wait for an edge, so that the edge goroutines
	// notice shutdown within it.
	EdgeWait time.Duration
	// Clock times the debounce; nil means the real clock.
	Clock clock.Clock
}

// DefaultOpts are the options of the reference build.
var DefaultOpts = Opts{Debounce: 30 * time.Millisecond, EdgeWait: 100 * time.Millisecond}

// Set is the table box's buttons.
type Set struct {
	buttons []Button
	opts    Opts
}

// New configures the pins as inputs with pull-ups, on both edges.
func New(buttons []Button, opts Opts) (*Set, error) {
	if len(buttons) == 0 {
		return nil, errors.New("buttons: no button to read")
	}
	if opts.Debounce <= 0 {
		opts.Debounce = DefaultOpts.Debounce
	}
	if opts.EdgeWait <= 0 {
		opts.EdgeWait = DefaultOpts.EdgeWait
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real()
	}
	for _, b := range buttons {
		if b.Pin == nil {
			return nil, fmt.Errorf("buttons: %s has no pin", b.Name)
		}
		if err := b.Pin.In(gpio.PullUp, gpio.BothEdges); err != nil {
			return nil, fmt.Errorf("buttons: setting up %s on %s: %w", b.Name, b.Pin, err)
		}
	}
	return &Set{buttons: append([]Button(nil), buttons...), opts: opts}, nil
}

// String implements conn.Resource.
func (s *Set) String() string { return fmt.Sprintf("buttons (%d)", len(s.buttons)) }

// Halt turns edge detection off on every pin, keeping the pull-ups. Call
// it after Run has stopped.
func (s *Set) Halt() error {
	var errs []error
	for _, b := range s.buttons {
		if err := b.Pin.In(gpio.PullUp, gpio.NoEdge); err != nil {
			errs = append(errs, fmt.Errorf("buttons: halting %s: %w", b.Name, err))
		}
	}
	return errors.Join(errs...)
}

var _ conn.Resource = (*Set)(nil)

// Run reads the buttons until ctx is done and returns the presses.
func (s *Set) Run(ctx context.Context) <-chan input.Event {
	out := make(chan input.Event, 8)
	d := &debouncer{
		set:    s,
		notify: make(chan struct{}, 1),
		dirty:  make([]bool, len(s.buttons)),
		stable: make([]gpio.Level, len(s.buttons)),
	}
	// The levels before any edge is watched: a button held down when the
	// daemon starts is not a press.
	for i, b := range s.buttons {
		d.stable[i] = b.Pin.Read()
	}
	var wg sync.WaitGroup
	for i := range s.buttons {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d.watch(ctx, i)
		}()
	}
	go func() {
		defer close(out)
		d.run(ctx, out)
		wg.Wait()
	}()
	return out
}

type debouncer struct {
	set    *Set
	notify chan struct{} // one pending wake-up of run

	mu    sync.Mutex
	dirty []bool // guarded by mu: an edge came on button i since run last looked

	stable []gpio.Level // settled level of each button; owned by run
}

// watch waits for edges on button i and tells run.
func (d *debouncer) watch(ctx context.Context, i int) {
	pin := d.set.buttons[i].Pin
	for ctx.Err() == nil {
		if !pin.WaitForEdge(d.set.opts.EdgeWait) {
			continue
		}
		d.mu.Lock()
		d.dirty[i] = true
		d.mu.Unlock()
		select {
		case d.notify <- struct{}{}:
		default:
		}
	}
}

func (d *debouncer) run(ctx context.Context, out chan<- input.Event) {
	o := d.set.opts
	n := len(d.set.buttons)
	stable := d.stable
	armed := make([]bool, n) // a check of button i is due at due[i]
	due := make([]time.Time, n)
	var timer clock.Timer
	var timerC <-chan time.Time
	rearm := func() {
		if timer != nil {
			timer.Stop()
			timer, timerC = nil, nil
		}
		var next time.Time
		for i := range armed {
			if armed[i] && (next.IsZero() || due[i].Before(next)) {
				next = due[i]
			}
		}
		if !next.IsZero() {
			timer = o.Clock.NewTimer(next.Sub(o.Clock.Now()))
			timerC = timer.C()
		}
	}
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case <-d.notify:
			now := o.Clock.Now()
			d.mu.Lock()
			changed := false
			for i, dirty := range d.dirty {
				if dirty && !armed[i] {
					armed[i], due[i], changed = true, now.Add(o.Debounce), true
				}
				d.dirty[i] = false
			}
			d.mu.Unlock()
			if changed {
				rearm()
			}
		case <-timerC:
			timer, timerC = nil, nil
			now := o.Clock.Now()
			for i := range armed {
				if !armed[i] || due[i].After(now) {
					continue
				}
				armed[i] = false
				lvl := d.set.buttons[i].Pin.Read()
				if lvl == stable[i] {
					continue
				}
				stable[i] = lvl
				if lvl == gpio.Low {
					select {
					case out <- input.Button{At: now, Name: d.set.buttons[i].Name}:
					case <-ctx.Done():
						return
					}
				}
			}
			rearm()
		}
	}
}
