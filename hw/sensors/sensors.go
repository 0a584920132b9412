// Package sensors reads the optional board sensors: hall sensors under the
// squares, wired to MCP23017 expanders on I2C, and reports the cells where
// a magnet is felt (the pawn and the discs left on visited squares) as
// input.SquareSensed events.
//
// # Wiring
//
// Each sensor output goes to one expander input; the expander's internal
// pull-up holds it high and a sensor with a magnet over it pulls it low
// (Opts.ActiveLow). Which input lies under which cell comes from the table
// configuration (see package hwconfig).
//
// # Debounce
//
// The inputs are sampled every Opts.PollEvery. A sampled set of cells that
// differs from the one last reported must be seen unchanged for
// Opts.Settle before it is reported, so a hand sweeping over the board or a
// disc being slid into place gives one event, not a burst. The first
// settled set after start is always reported, so the daemon learns the
// board as it is.
//
// # Faults
//
// An expander that stops answering is reported once as an
// input.DeviceStatus, retried with exponential back-off (package
// hw/backoff, from Opts.BackoffMin to Opts.BackoffMax), re-initialised
// (its pull-ups are lost if it lost power) and reported OK when it answers.
//
// # Concurrency
//
// Run starts one goroutine that owns the bus and stops, closing its
// channel, when the context is done.
package sensors

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/devices/v3/mcp23xxx"

	"comptoir/hw/backoff"
	"comptoir/hw/clock"
	"comptoir/input"
)

// Expander is one MCP23017 and the cells its inputs lie under.
type Expander struct {
	Address uint16
	// Cells maps an input, 0-7 for A0-A7 and 8-15 for B0-B7, to its cell.
	Cells map[int]input.Cell
}

// Opts configures a Board.
type Opts struct {
	// PollEvery is the time between two samples of every input.
	PollEvery time.Duration
	// Settle is how long a new set of cells must hold to be reported.
	Settle time.Duration
	// ActiveLow is true when a magnet pulls the input low (open-collector
	// hall sensors such as the A3144 with the expander's pull-ups).
	ActiveLow bool
	// BackoffMin and BackoffMax bound the wait between two tries of a
	// failing bus; the wait doubles after each failure.
	BackoffMin, BackoffMax time.Duration
	// Device names the sensors in input.DeviceStatus events.
	Device string
	// Clock is the time source; nil means the real clock.
	Clock clock.Clock
}

// DefaultOpts are the options of the reference build.
var DefaultOpts = Opts{
	PollEvery:  50 * time.Millisecond,
	Settle:     150 * time.Millisecond,
	ActiveLow:  true,
	BackoffMin: 250 * time.Millisecond,
	BackoffMax: 8 * time.Second,
	Device:     "sensors",
}

// Board is the sensors under the board.
type Board struct {
	bus  i2c.Bus
	exps []Expander
	opts Opts
	devs []*expander // nil after a fault, until reopened; owned by the caller of Read
}

type expander struct {
	cfg   Expander
	dev   *mcp23xxx.Dev
	ports [2]gpio.Group // nil for a port with no cell
}

// New opens every expander on bus and sets up its inputs.
func New(bus i2c.Bus, exps []Expander, opts Opts) (*Board, error) {
	b, err := NewUnopened(bus, exps, opts)
	if err != nil {
		return nil, err
	}
	if err := b.open(); err != nil {
		return nil, err
	}
	return b, nil
}

// NewUnopened checks the expanders' configuration but opens them only at
// the first Read, so that a board whose expanders do not answer yet (not
// powered, cable loose) is retried by Run instead of left out.
func NewUnopened(bus i2c.Bus, exps []Expander, opts Opts) (*Board, error) {
	if len(exps) == 0 {
		return nil, errors.New("sensors: no expander")
	}
	d := DefaultOpts
	if opts.PollEvery <= 0 {
		opts.PollEvery = d.PollEvery
	}
	if opts.Settle < 0 {
		opts.Settle = d.Settle
	}
	opts.BackoffMin, opts.BackoffMax = backoff.Bounds(opts.BackoffMin, opts.BackoffMax, d.BackoffMin, d.BackoffMax)
	if opts.Device == "" {
		opts.Device = d.Device
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real()
	}
	for _, e := range exps {
		if e.Address < 0x20 || e.Address > 0x27 {
			return nil, fmt.Errorf("sensors: expander address %#x: an MCP23017 answers at 0x20 to 0x27", e.Address)
		}
		for i := range e.Cells {
			if i < 0 || i > 15 {
				return nil, fmt.Errorf("sensors: expander %#x: input %d: want 0 to 15", e.Address, i)
			}
		}
	}
	return &Board{bus: bus, exps: exps, opts: opts}, nil
}

// open (re)opens every expander.
func (b *Board) open() error {
	b.close()
	devs := make([]*expander, 0, len(b.exps))
	for _, e := range b.exps {
		x, err := openExpander(b.bus, e)
		if err != nil {
			for _, d := range devs {
				d.dev.Close()
			}
			return err
		}
		devs = append(devs, x)
	}
	b.devs = devs
	return nil
}

func (b *Board) close() {
	for _, d := range b.devs {
		// Close only unregisters the pins from gpioreg; an error there
		// means another expander holds the names, which is harmless.
		_ = d.dev.Close()
	}
	b.devs = nil
}

func openExpander(bus i2c.Bus, e Expander) (*expander, error) {
	dev, err := mcp23xxx.NewI2C(bus, mcp23xxx.MCP23017, e.Address)
	if err != nil {
		return nil, fmt.Errorf("sensors: MCP23017 at %#x: %w", e.Address, err)
	}
	x := &expander{cfg: e, dev: dev}
	used := make([]int, 0, len(e.Cells))
	for i := range e.Cells {
		used = append(used, i)
	}
	sort.Ints(used)
	for _, i := range used {
		if err := dev.Pins[i/8][i%8].In(gpio.PullUp, gpio.NoEdge); err != nil {
			return nil, fmt.Errorf("sensors: MCP23017 at %#x: setting up input %d: %w", e.Address, i, err)
		}
		if x.ports[i/8] == nil {
			g := dev.Group(i/8, []int{0, 1, 2, 3, 4, 5, 6, 7})
			if g == nil {
				return nil, fmt.Errorf("sensors: MCP23017 at %#x: no group for port %d", e.Address, i/8)
			}
			x.ports[i/8] = *g
		}
	}
	return x, nil
}

// String names the board.
func (b *Board) String() string { return fmt.Sprintf("board sensors (%d MCP23017)", len(b.exps)) }

// Read samples every input once and returns the cells where a magnet is
// felt, sorted by row then column. After a fault it reopens the expanders
// first.
func (b *Board) Read() ([]input.Cell, error) {
	if b.devs == nil {
		if err := b.open(); err != nil {
			return nil, err
		}
	}
	var cells []input.Cell
	for _, x := range b.devs {
		for port, g := range x.ports {
			if g == nil {
				continue
			}
			v, err := g.Read(0)
			if err != nil {
				b.close()
				return nil, fmt.Errorf("sensors: reading MCP23017 at %#x port %c: %w", x.cfg.Address, "AB"[port], err)
			}
			for bit := range 8 {
				c, ok := x.cfg.Cells[port*8+bit]
				if !ok {
					continue
				}
				high := v&(1<<bit) != 0
				if high != b.opts.ActiveLow {
					cells = append(cells, c)
				}
			}
		}
	}
	sortCells(cells)
	return cells, nil
}

func sortCells(cells []input.Cell) {
	sort.Slice(cells, func(i, j int) bool {
		if cells[i].Y != cells[j].Y {
			return cells[i].Y < cells[j].Y
		}
		return cells[i].X < cells[j].X
	})
}

// Run samples the sensors until ctx is done and returns the settled sets
// of cells and the status of the bus.
func (b *Board) Run(ctx context.Context) <-chan input.Event {
	out := make(chan input.Event, 8)
	go func() {
		defer close(out)
		b.loop(ctx, out)
	}()
	return out
}

func (b *Board) loop(ctx context.Context, out chan<- input.Event) {
	o := b.opts
	var (
		reported     []input.Cell // last set reported
		haveReported bool
		pending      []input.Cell // a new set being watched
		havePending  bool
		since        time.Time // when pending was first seen
		health       = backoff.New(backoff.Opts{Min: o.BackoffMin, Max: o.BackoffMax, Device: o.Device,
			Ready: "sensors ready", Again: "sensors answer again"})
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
		cells, err := b.Read()
		now := o.Clock.Now()
		wait := o.PollEvery
		if err != nil {
			st, report, w := health.Failed(now, err)
			if report && !emit(st) {
				return
			}
			havePending = false
			wait = w
		} else {
			if st, report := health.Answered(now); report && !emit(st) {
				return
			}
			switch {
			case haveReported && slices.Equal(cells, reported):
				havePending = false
			case !havePending || !slices.Equal(cells, pending):
				pending, havePending, since = cells, true, now
			}
			if havePending && now.Sub(since) >= o.Settle {
				reported, haveReported, havePending = pending, true, false
				if !emit(input.SquareSensed{At: now, Cells: append([]input.Cell{}, reported...)}) {
					return
				}
			}
		}
		if clock.Sleep(ctx, o.Clock, wait) != nil {
			return
		}
	}
}

var _ conn.Resource = (*Board)(nil)

// Halt does nothing to the expanders (they are inputs only) and forgets
// them; a later Read reopens them. Call it after Run has stopped.
func (b *Board) Halt() error {
	b.close()
	return nil
}
