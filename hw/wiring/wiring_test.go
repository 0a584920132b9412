package wiring

import (
	"context"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/conn/v3/gpio/gpiotest"

	"comptoir/hw/buttons"
	"comptoir/hw/clock"
	"comptoir/hw/hwconfig"
	"comptoir/hw/internal/leakcheck"
	"comptoir/hw/nfc"
	"comptoir/input"
)

// oneTag reads a tag once, then nothing.
type oneTag struct {
	mu   sync.Mutex
	read bool
}

func (r *oneTag) ReadUID() ([]byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.read {
		return nil, nfc.ErrNoTag
	}
	r.read = true
	return []byte{0xDE, 0xAD, 0xBE, 0xEF}, nil
}

func TestRunMergesSources(t *testing.T) {
	leakcheck.Check(t)
	clk := clock.NewFake(time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC))
	pin := &gpiotest.Pin{N: "GPIO17", EdgesChan: make(chan gpio.Level)}
	set, err := buttons.New([]buttons.Button{{Name: "confirm", Pin: pin}}, buttons.Opts{EdgeWait: 5 * time.Millisecond, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	halted := false
	tb := New(Parts{
		Reader:  &oneTag{},
		Buttons: set,
		Faults:  []input.DeviceStatus{{Device: "sensors", Detail: "I2C bus 1: no bus"}},
		Halt:    func() error { halted = true; return nil },
	}, hwconfig.Devices{}, Opts{Clock: clk})
	ctx, cancel := context.WithCancel(context.Background())
	events := tb.Run(ctx)
	var got []string
	for len(got) < 4 {
		select {
		case e := <-events:
			got = append(got, e.String())
			if e.String() == "tag DEADBEEF" {
				pin.EdgesChan <- gpio.Low // press confirm
			}
		case <-time.After(5 * time.Millisecond):
			clk.Advance(50 * time.Millisecond) // let polls and debounce run
		}
	}
	cancel()
	for range events {
	}
	if err := tb.Close(); err != nil || !halted {
		t.Errorf("Close() = %v, halted %v", err, halted)
	}
	sort.Strings(got)
	want := "button confirm|nfc ok reader ready|sensors fault: I2C bus 1: no bus|tag DEADBEEF"
	if strings.Join(got, "|") != want {
		t.Errorf("events %q, want %q", got, want)
	}
}

// TestCheckWithoutHardware runs the check on a machine that is not a Pi:
// every device fails, each saying why.
func TestCheckWithoutHardware(t *testing.T) {
	if len(gpioreg.All()) > 0 {
		t.Skip("this host has GPIO pins: the check would talk to real devices")
	}
	cfg, err := hwconfig.LoadFile("../../configs/tables/example-pi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range Check(cfg) {
		if r.OK {
			t.Errorf("%v: ok on a host without devices", r)
		}
		got = append(got, r.String())
	}
	want := []string{
		"FAIL nfc      reset pin: no such pin on this host: GPIO25; is this a Raspberry Pi with the GPIO drivers loaded?",
		"FAIL button   confirm on GPIO17: no such pin on this host: GPIO17; is this a Raspberry Pi with the GPIO drivers loaded?",
		"FAIL button   undo on GPIO27: no such pin on this host: GPIO27; is this a Raspberry Pi with the GPIO drivers loaded?",
		"FAIL light    waiting on GPIO22: no such pin on this host: GPIO22; is this a Raspberry Pi with the GPIO drivers loaded?",
		"FAIL light    refused on GPIO23: no such pin on this host: GPIO23; is this a Raspberry Pi with the GPIO drivers loaded?",
		"FAIL sensors  I2C bus 1: i2creg: no bus found; did you forget to call Init()? (is I2C enabled: dtparam=i2c_arm=on?)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Check:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestOpenWithoutHardware(t *testing.T) {
	leakcheck.Check(t)
	if len(gpioreg.All()) > 0 {
		t.Skip("this host has GPIO pins")
	}
	cfg, err := hwconfig.LoadFile("../../configs/tables/example-pi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	clk := clock.NewFake(time.Unix(0, 0))
	tb, err := Open(cfg, Opts{Clock: clk})
	if err != nil {
		t.Fatalf("Open = %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var devices []string
	for e := range tb.Run(ctx) {
		s, ok := e.(input.DeviceStatus)
		if !ok || s.OK {
			t.Errorf("event %v, want only faults", e)
		}
		devices = append(devices, s.Device)
		if len(devices) == 4 { // buttons, lights, sensors at start, then the reader's first try
			cancel()
		}
	}
	sort.Strings(devices)
	if strings.Join(devices, " ") != "buttons lights nfc sensors" {
		t.Errorf("faults from %v, want buttons lights nfc sensors", devices)
	}
	if err := tb.Close(); err != nil {
		t.Errorf("Close() = %v", err)
	}
}
