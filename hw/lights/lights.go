// Package lights drives the table box's outputs: an LED that says "waiting
// for you" and a buzzer or LED that signals a refusal.
//
// # Signals
//
// Waiting(true) lights the waiting LED steadily, Waiting(false) puts it
// out. Refused() plays Opts.RefusePattern on the refusal output: on, off,
// on... for the given durations, timed by the injectable clock; a refusal
// during a pattern starts it again. Without a refusal output the pattern
// blinks the waiting LED, which then returns to its state.
//
// # Faults
//
// A pin that cannot be written is reported once as an input.DeviceStatus
// on Run's channel, and again as OK when a write succeeds; the daemon keeps
// going without its lights.
//
// # Concurrency
//
// Waiting and Refused may be called from any goroutine, before or during
// Run; they never block. Run starts one goroutine that owns the pins and
// stops, putting the outputs out and closing its channel, when the context
// is done.
package lights

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/gpio"

	"comptoir/hw/clock"
	"comptoir/input"
)

// Opts configures an Indicator.
type Opts struct {
	// RefusePattern is the refusal signal: durations of on, off, on, ...
	// It should end on an "on" step and stay short: a player hears it
	// while reading the reason on a phone.
	RefusePattern []time.Duration
	// Device names the outputs in input.DeviceStatus events.
	Device string
	// Clock times the pattern; nil means the real clock.
	Clock clock.Clock
}

// DefaultOpts is two short beeps.
var DefaultOpts = Opts{
	RefusePattern: []time.Duration{150 * time.Millisecond, 100 * time.Millisecond, 150 * time.Millisecond},
	Device:        "lights",
}

// Indicator drives the waiting and refusal outputs.
type Indicator struct {
	waiting, refused gpio.PinOut // either may be nil when not fitted
	opts             Opts

	wantWaiting chan bool     // latest Waiting request, capacity 1
	refusals    chan struct{} // pending Refused requests, capacity 1
}

// New returns an indicator on the given outputs; either may be nil, not
// both. Both outputs are put out.
func New(waiting, refused gpio.PinOut, opts Opts) (*Indicator, error) {
	if waiting == nil && refused == nil {
		return nil, errors.New("lights: no output pin")
	}
	if len(opts.RefusePattern) == 0 {
		opts.RefusePattern = DefaultOpts.RefusePattern
	}
	for _, d := range opts.RefusePattern {
		if d <= 0 {
			return nil, fmt.Errorf("lights: refusal pattern step %v: want positive durations", d)
		}
	}
	if opts.Device == "" {
		opts.Device = DefaultOpts.Device
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real()
	}
	for _, p := range []gpio.PinOut{waiting, refused} {
		if p != nil {
			if err := p.Out(gpio.Low); err != nil {
				return nil, fmt.Errorf("lights: setting up %s: %w", p, err)
			}
		}
	}
	return &Indicator{waiting: waiting, refused: refused, opts: opts,
		wantWaiting: make(chan bool, 1), refusals: make(chan struct{}, 1)}, nil
}

// String implements conn.Resource.
func (ind *Indicator) String() string {
	var parts []string
	if ind.waiting != nil {
		parts = append(parts, fmt.Sprintf("waiting on %s", ind.waiting))
	}
	if ind.refused != nil {
		parts = append(parts, fmt.Sprintf("refused on %s", ind.refused))
	}
	return "lights (" + strings.Join(parts, ", ") + ")"
}

// Halt puts both outputs out. Call it after Run has stopped.
func (ind *Indicator) Halt() error {
	var errs []error
	for _, p := range []gpio.PinOut{ind.waiting, ind.refused} {
		if p != nil {
			if err := p.Out(gpio.Low); err != nil {
				errs = append(errs, fmt.Errorf("lights: halting %s: %w", p, err))
			}
		}
	}
	return errors.Join(errs...)
}

var _ conn.Resource = (*Indicator)(nil)

// Waiting lights or puts out the waiting LED.
func (ind *Indicator) Waiting(on bool) {
	for {
		select {
		case ind.wantWaiting <- on:
			return
		default:
		}
		select { // replace a request not yet taken: the latest wins
		case <-ind.wantWaiting:
		default:
		}
	}
}

// Refused plays the refusal pattern.
func (ind *Indicator) Refused() {
	select {
	case ind.refusals <- struct{}{}:
	default: // one is pending already
	}
}

// Run drives the outputs until ctx is done. Its channel carries the
// input.DeviceStatus of write faults and is closed when Run has stopped.
func (ind *Indicator) Run(ctx context.Context) <-chan input.Event {
	out := make(chan input.Event, 4)
	go func() {
		defer close(out)
		ind.loop(ctx, out)
	}()
	return out
}

func (ind *Indicator) loop(ctx context.Context, out chan<- input.Event) {
	o := ind.opts
	var (
		waiting bool // the waiting LED's wanted state
		step    = -1 // index in RefusePattern of the step playing, -1 when none
		timer   clock.Timer
		timerC  <-chan time.Time
		faulty  bool
	)
	// Both outputs were put out by New; a failed write leaves the level
	// unknown so that it is tried again.
	type output struct {
		pin   gpio.PinOut
		level gpio.Level
		known bool
	}
	wait := &output{pin: ind.waiting, known: true}
	sig := &output{pin: ind.refused, known: true}
	shared := ind.refused == nil
	if shared {
		sig = wait
	}
	set := func(p *output, level gpio.Level) {
		if p.pin == nil || (p.known && p.level == level) {
			return
		}
		err := p.pin.Out(level)
		p.level, p.known = level, err == nil
		switch {
		case err != nil && !faulty:
			faulty = true
			select {
			case out <- input.DeviceStatus{At: o.Clock.Now(), Device: o.Device, OK: false, Detail: fmt.Sprintf("writing %s: %v", p.pin, err)}:
			default:
			}
		case err == nil && faulty:
			faulty = false
			select {
			case out <- input.DeviceStatus{At: o.Clock.Now(), Device: o.Device, OK: true, Detail: "outputs work again"}:
			default:
			}
		}
	}
	// show sets the outputs for the current state.
	show := func() {
		playing := step >= 0
		on := playing && step%2 == 0
		switch {
		case !shared:
			set(wait, gpio.Level(waiting))
			set(sig, gpio.Level(on))
		case !playing:
			set(wait, gpio.Level(waiting))
		default:
			// The pattern on a lit waiting LED blinks it off.
			set(wait, gpio.Level(on != waiting))
		}
	}
	stopTimer := func() {
		if timer != nil {
			timer.Stop()
			timer, timerC = nil, nil
		}
	}
	defer func() {
		stopTimer()
		set(wait, gpio.Low)
		set(sig, gpio.Low)
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case waiting = <-ind.wantWaiting:
			show()
		case <-ind.refusals:
			stopTimer()
			step = 0
			show()
			timer = o.Clock.NewTimer(o.RefusePattern[0])
			timerC = timer.C()
		case <-timerC:
			timer, timerC = nil, nil
			step++
			if step >= len(o.RefusePattern) {
				step = -1
			}
			// Outputs first, then the next timer: a test that sees the
			// timer armed sees the step's outputs.
			show()
			if step >= 0 {
				timer = o.Clock.NewTimer(o.RefusePattern[step])
				timerC = timer.C()
			}
		}
	}
}
