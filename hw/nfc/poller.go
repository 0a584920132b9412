package nfc

import (
	"context"
	"errors"
	"time"

	"comptoir/hw/backoff"
	"comptoir/hw/clock"
	"comptoir/input"
)

// PollOpts configures a Poller.
type PollOpts struct {
	// PollEvery is the time between two reads. 100 ms makes a tap feel
	// instant and costs the Pi nothing.
	PollEvery time.Duration
	// LiftedAfter is how long a tag must go unread to count as lifted;
	// laying it again after that is a new tap. It must cover a few missed
	// reads of a tag that rests on the reader: 4 polls or more.
	LiftedAfter time.Duration
	// BackoffMin and BackoffMax bound the wait between two tries of a
	// failing reader; the wait doubles after each failure.
	BackoffMin, BackoffMax time.Duration
	// Device names the reader in input.DeviceStatus events.
	Device string
	// Clock is the time source; nil means the real clock.
	Clock clock.Clock
}

// DefaultPollOpts are the poller's options of the reference build.
var DefaultPollOpts = PollOpts{
	PollEvery:   100 * time.Millisecond,
	LiftedAfter: 400 * time.Millisecond,
	BackoffMin:  250 * time.Millisecond,
	BackoffMax:  8 * time.Second,
	Device:      "nfc",
}

// Poller turns a TagReader into tap events.
type Poller struct {
	r    TagReader
	opts PollOpts
}

// NewPoller returns a poller of r. Zero fields of opts take their value
// from DefaultPollOpts.
func NewPoller(r TagReader, opts PollOpts) *Poller {
	d := DefaultPollOpts
	if opts.PollEvery <= 0 {
		opts.PollEvery = d.PollEvery
	}
	if opts.LiftedAfter <= 0 {
		opts.LiftedAfter = d.LiftedAfter
	}
	opts.BackoffMin, opts.BackoffMax = backoff.Bounds(opts.BackoffMin, opts.BackoffMax, d.BackoffMin, d.BackoffMax)
	if opts.Device == "" {
		opts.Device = d.Device
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real()
	}
	return &Poller{r: r, opts: opts}
}

// Run polls the reader until ctx is done and returns the events:
// input.TagTapped and input.DeviceStatus. The channel is closed when the
// poller has stopped.
func (p *Poller) Run(ctx context.Context) <-chan input.Event {
	out := make(chan input.Event, 8)
	go func() {
		defer close(out)
		p.loop(ctx, out)
	}()
	return out
}

func (p *Poller) loop(ctx context.Context, out chan<- input.Event) {
	o := p.opts
	var (
		current  string    // UID of the tag on the reader, "" if none
		lastSeen time.Time // when current was last read
		health   = backoff.New(backoff.Opts{Min: o.BackoffMin, Max: o.BackoffMax, Device: o.Device,
			Ready: "reader ready", Again: "reader answers again"})
	)
	emit := func(e input.Event) bool {
		select {
		case out <- e:
			return true
		case <-ctx.Done():
			return false
		}
	}
	for {
		uid, err := p.r.ReadUID()
		now := o.Clock.Now()
		wait := o.PollEvery
		answered := err == nil || errors.Is(err, ErrNoTag) || errors.Is(err, ErrBadRead)
		if answered {
			if st, report := health.Answered(now); report && !emit(st) {
				return
			}
		}
		switch {
		case err == nil:
			u := UIDString(uid)
			if u != current {
				current = u
				if !emit(input.TagTapped{At: now, UID: u}) {
					return
				}
			}
			lastSeen = now
		case answered:
			// Nothing read this time; a resting tag may just have been
			// missed, so it is lifted only after LiftedAfter.
		default:
			st, report, w := health.Failed(now, err)
			if report && !emit(st) {
				return
			}
			wait = w
		}
		if current != "" && now.Sub(lastSeen) >= o.LiftedAfter {
			current = ""
		}
		if clock.Sleep(ctx, o.Clock, wait) != nil {
			return
		}
	}
}
