// Package wiring opens the devices that a table configuration names and
// runs them as one stream of input events. It is the one place that calls
// host.Init, spireg.Open, i2creg.Open and gpioreg.ByName; the drivers of
// packages nfc, buttons, lights and sensors take buses and pins.
//
// # Faults
//
// A device that cannot be opened does not stop the table: Open keeps the
// others and Run reports it as an input.DeviceStatus. The NFC reader is
// opened lazily and reopened after faults (nfc.Reopening), and the sensor
// expanders are opened by their sampler, so a reader plugged in late or a
// board powered late is picked up.
//
// # Concurrency
//
// Run starts the sources' goroutines and one per source to merge them;
// all stop, and the channel is closed, when the context is done. Close
// halts the devices; call it after Run's channel is closed.
package wiring

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/conn/v3/spi/spireg"
	"periph.io/x/host/v3"

	"comptoir/hw/buttons"
	"comptoir/hw/clock"
	"comptoir/hw/hwconfig"
	"comptoir/hw/lights"
	"comptoir/hw/nfc"
	"comptoir/hw/sensors"
	"comptoir/input"
)

// ErrNoPin is returned for a configured pin the host does not have.
var ErrNoPin = errors.New("no such pin on this host")

// Parts are the opened devices of a table; any may be nil.
type Parts struct {
	Reader  nfc.TagReader
	Buttons *buttons.Set
	Lights  *lights.Indicator
	Sensors *sensors.Board
	// Faults are the devices that could not be opened, reported by Run.
	Faults []input.DeviceStatus
	// Halt halts the devices and closes their buses.
	Halt func() error
}

// Opts configures the sources.
type Opts struct {
	// Clock times every source; nil means the real clock.
	Clock clock.Clock
}

// Table is the running inputs and outputs of a table box.
type Table struct {
	parts Parts
	cfg   hwconfig.Devices
	opts  Opts
}

// New makes a table of parts opened elsewhere, for tests and replays.
func New(parts Parts, cfg hwconfig.Devices, opts Opts) *Table {
	if opts.Clock == nil {
		opts.Clock = clock.Real()
	}
	return &Table{parts: parts, cfg: cfg, opts: opts}
}

// Lights returns the indicator, or nil when none is fitted.
func (t *Table) Lights() *lights.Indicator { return t.parts.Lights }

// Run runs every source and merges their events until ctx is done.
func (t *Table) Run(ctx context.Context) <-chan input.Event {
	out := make(chan input.Event, 16)
	var sources []<-chan input.Event
	if t.parts.Reader != nil {
		po := nfc.DefaultPollOpts
		if c := t.cfg.NFC; c != nil {
			po.PollEvery, po.LiftedAfter = c.PollEvery, c.LiftedAfter
		}
		po.Clock = t.opts.Clock
		sources = append(sources, nfc.NewPoller(t.parts.Reader, po).Run(ctx))
	}
	if t.parts.Buttons != nil {
		sources = append(sources, t.parts.Buttons.Run(ctx))
	}
	if t.parts.Lights != nil {
		sources = append(sources, t.parts.Lights.Run(ctx))
	}
	if t.parts.Sensors != nil {
		sources = append(sources, t.parts.Sensors.Run(ctx))
	}
	var wg sync.WaitGroup
	for _, src := range sources {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for e := range src {
				select {
				case out <- e:
				case <-ctx.Done():
				}
			}
		}()
	}
	go func() {
		for _, f := range t.parts.Faults {
			select {
			case out <- f:
			case <-ctx.Done():
			}
		}
		wg.Wait()
		close(out)
	}()
	return out
}

// Close halts the devices.
func (t *Table) Close() error {
	if t.parts.Halt == nil {
		return nil
	}
	return t.parts.Halt()
}

// Open opens every device of cfg on this host. Devices that fail to open
// are left out and reported by Run; Open fails only when the host drivers
// cannot start.
func Open(cfg hwconfig.Devices, opts Opts) (*Table, error) {
	if opts.Clock == nil {
		opts.Clock = clock.Real()
	}
	if _, err := host.Init(); err != nil {
		return nil, fmt.Errorf("wiring: starting the host drivers: %w", err)
	}
	var p Parts
	var halts []func() error
	fault := func(device string, err error) {
		p.Faults = append(p.Faults, input.DeviceStatus{At: opts.Clock.Now(), Device: device, OK: false, Detail: err.Error()})
	}
	if c := cfg.NFC; c != nil {
		r := nfc.NewReopening(func() (*nfc.MFRC522, io.Closer, error) { return OpenNFC(c) })
		p.Reader = r
		halts = append(halts, r.Halt)
	}
	if c := cfg.Buttons; c != nil {
		set, err := openButtons(c, opts)
		if err != nil {
			fault("buttons", err)
		} else {
			p.Buttons = set
			halts = append(halts, set.Halt)
		}
	}
	if c := cfg.Lights; c != nil {
		ind, err := openLights(c, opts)
		if err != nil {
			fault("lights", err)
		} else {
			p.Lights = ind
			halts = append(halts, ind.Halt)
		}
	}
	if c := cfg.Sensors; c != nil {
		// The expanders are opened by the sampler, which retries them
		// with back-off: a board powered after the daemon is picked up.
		b, closer, err := openSensorsLater(c, opts)
		if err != nil {
			fault("sensors", err)
		} else {
			p.Sensors = b
			halts = append(halts, b.Halt, closer.Close)
		}
	}
	p.Halt = func() error {
		var errs []error
		for _, h := range halts {
			errs = append(errs, h())
		}
		return errors.Join(errs...)
	}
	return New(p, cfg, opts), nil
}

// Pin finds a configured pin on this host.
func Pin(p hwconfig.Pin) (gpio.PinIO, error) {
	pin := gpioreg.ByName(string(p))
	if pin == nil {
		return nil, fmt.Errorf("%w: %s; is this a Raspberry Pi with the GPIO drivers loaded?", ErrNoPin, p)
	}
	return pin, nil
}

// OpenNFC opens the MFRC522 that c names and returns it with its port.
func OpenNFC(c *hwconfig.NFC) (*nfc.MFRC522, io.Closer, error) {
	reset, err := Pin(c.Reset)
	if err != nil {
		return nil, nil, fmt.Errorf("reset pin: %w", err)
	}
	var irq gpio.PinIn
	if c.IRQ != "" {
		p, err := Pin(c.IRQ)
		if err != nil {
			return nil, nil, fmt.Errorf("irq pin: %w", err)
		}
		irq = p
	}
	port, err := spireg.Open(c.SPI)
	if err != nil {
		return nil, nil, fmt.Errorf("SPI port %s: %w (is SPI enabled: dtparam=spi=on?)", c.SPI, err)
	}
	r, err := nfc.NewMFRC522(port, reset, irq, nfc.Opts{AntennaGain: c.AntennaGain, Name: "MFRC522 on " + c.SPI})
	if err != nil {
		port.Close()
		return nil, nil, err
	}
	return r, port, nil
}

func openButtons(c *hwconfig.Buttons, opts Opts) (*buttons.Set, error) {
	var bs []buttons.Button
	for _, np := range c.Pins {
		p, err := Pin(np.Pin)
		if err != nil {
			return nil, fmt.Errorf("button %s: %w", np.Name, err)
		}
		bs = append(bs, buttons.Button{Name: np.Name, Pin: p})
	}
	return buttons.New(bs, buttons.Opts{Debounce: c.Debounce, Clock: opts.Clock})
}

func openLights(c *hwconfig.Lights, opts Opts) (*lights.Indicator, error) {
	var waiting, refused gpio.PinOut
	if c.Waiting != "" {
		p, err := Pin(c.Waiting)
		if err != nil {
			return nil, fmt.Errorf("waiting light: %w", err)
		}
		waiting = p
	}
	if c.Refused != "" {
		p, err := Pin(c.Refused)
		if err != nil {
			return nil, fmt.Errorf("refusal output: %w", err)
		}
		refused = p
	}
	return lights.New(waiting, refused, lights.Opts{Clock: opts.Clock})
}

// OpenSensors opens the board sensors that c names and returns them with
// their bus.
func OpenSensors(c *hwconfig.Sensors, opts Opts) (*sensors.Board, io.Closer, error) {
	bus, err := i2creg.Open(strings.TrimPrefix(c.I2C, "/dev/i2c-"))
	if err != nil {
		return nil, nil, fmt.Errorf("I2C bus %s: %w (is I2C enabled: dtparam=i2c_arm=on?)", c.I2C, err)
	}
	b, err := sensors.New(bus, expanders(c), sensors.Opts{PollEvery: c.PollEvery, Settle: c.Settle, ActiveLow: c.ActiveLow, Clock: opts.Clock})
	if err != nil {
		bus.Close()
		return nil, nil, err
	}
	return b, bus, nil
}

func openSensorsLater(c *hwconfig.Sensors, opts Opts) (*sensors.Board, io.Closer, error) {
	bus, err := i2creg.Open(strings.TrimPrefix(c.I2C, "/dev/i2c-"))
	if err != nil {
		return nil, nil, fmt.Errorf("I2C bus %s: %w (is I2C enabled: dtparam=i2c_arm=on?)", c.I2C, err)
	}
	b, err := sensors.NewUnopened(bus, expanders(c), sensors.Opts{PollEvery: c.PollEvery, Settle: c.Settle, ActiveLow: c.ActiveLow, Clock: opts.Clock})
	if err != nil {
		bus.Close()
		return nil, nil, err
	}
	return b, bus, nil
}

func expanders(c *hwconfig.Sensors) []sensors.Expander {
	var exps []sensors.Expander
	for _, e := range c.Expanders {
		exps = append(exps, sensors.Expander{Address: e.Address, Cells: e.Cells})
	}
	return exps
}

// Report is what `comptoir hw check` says of one device.
type Report struct {
	Device string
	OK     bool
	Detail string
}

func (r Report) String() string {
	state := "ok  "
	if !r.OK {
		state = "FAIL"
	}
	return fmt.Sprintf("%s %-8s %s", state, r.Device, r.Detail)
}

// Check opens every device of cfg once, asks each a question and closes it.
func Check(cfg hwconfig.Devices) []Report {
	var out []Report
	if _, err := host.Init(); err != nil {
		return []Report{{Device: "host", Detail: "starting the host drivers: " + err.Error()}}
	}
	if c := cfg.NFC; c != nil {
		out = append(out, checkNFC(c))
	}
	if c := cfg.Buttons; c != nil {
		for _, np := range c.Pins {
			p, err := Pin(np.Pin)
			if err == nil {
				err = p.In(gpio.PullUp, gpio.NoEdge)
			}
			if err != nil {
				out = append(out, Report{Device: "button", Detail: fmt.Sprintf("%s on %s: %v", np.Name, np.Pin, err)})
				continue
			}
			state := "released"
			if p.Read() == gpio.Low {
				state = "pressed (or shorted to ground)"
			}
			out = append(out, Report{Device: "button", OK: true, Detail: fmt.Sprintf("%s on %s: %s", np.Name, np.Pin, state)})
		}
	}
	if c := cfg.Lights; c != nil {
		for _, l := range []struct {
			name string
			pin  hwconfig.Pin
		}{{"waiting", c.Waiting}, {"refused", c.Refused}} {
			if l.pin == "" {
				continue
			}
			p, err := Pin(l.pin)
			if err == nil {
				err = p.Out(gpio.Low)
			}
			if err != nil {
				out = append(out, Report{Device: "light", Detail: fmt.Sprintf("%s on %s: %v", l.name, l.pin, err)})
				continue
			}
			out = append(out, Report{Device: "light", OK: true, Detail: fmt.Sprintf("%s on %s: output set low", l.name, l.pin)})
		}
	}
	if c := cfg.Sensors; c != nil {
		b, bus, err := OpenSensors(c, Opts{})
		if err != nil {
			out = append(out, Report{Device: "sensors", Detail: err.Error()})
		} else {
			cells, err := b.Read()
			b.Halt()
			bus.Close()
			if err != nil {
				out = append(out, Report{Device: "sensors", Detail: err.Error()})
			} else {
				out = append(out, Report{Device: "sensors", OK: true, Detail: fmt.Sprintf("%d MCP23017 answer; magnets on %s", len(c.Expanders), cellList(cells))})
			}
		}
	}
	return out
}

func checkNFC(c *hwconfig.NFC) Report {
	r, port, err := OpenNFC(c)
	if err != nil {
		return Report{Device: "nfc", Detail: err.Error()}
	}
	defer port.Close()
	defer r.Halt()
	version, err := r.Version()
	if err != nil {
		return Report{Device: "nfc", Detail: err.Error()}
	}
	uid, err := r.ReadUID()
	switch {
	case err == nil:
		return Report{Device: "nfc", OK: true, Detail: fmt.Sprintf("%s answers on %s; tag %s on the reader", version, c.SPI, nfc.UIDString(uid))}
	case errors.Is(err, nfc.ErrNoTag) || errors.Is(err, nfc.ErrBadRead):
		return Report{Device: "nfc", OK: true, Detail: fmt.Sprintf("%s answers on %s; no tag on the reader", version, c.SPI)}
	}
	return Report{Device: "nfc", Detail: err.Error()}
}

func cellList(cells []input.Cell) string {
	if len(cells) == 0 {
		return "no cell"
	}
	s := make([]string, len(cells))
	for i, c := range cells {
		s[i] = c.String()
	}
	sort.Strings(s)
	return strings.Join(s, " ")
}
