package sensors

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"periph.io/x/conn/v3/i2c/i2ctest"

	"comptoir/hw/clock"
	"comptoir/hw/internal/leakcheck"
	"comptoir/input"
)

var t0 = time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC)

// MCP23017 registers, bank 0.
const (
	regIODIRA = 0x00 // direction, 1 = input (power-on 0xFF)
	regGPPUA  = 0x0C // pull-ups (power-on 0x00)
	regGPIOA  = 0x12 // port levels
)

// script builds the I2C transactions of periph's mcp23xxx driver.
type script struct{ ops []i2ctest.IO }

// open is NewI2C, which reads both direction registers, then In(PullUp)
// on each used input in order: the first input of a port reads the port's
// pull-up register, each input sets its bit (direction bits are inputs
// already and cached, so not written).
func (s *script) open(addr uint16, inputs ...int) {
	s.ops = append(s.ops,
		i2ctest.IO{Addr: addr, W: []byte{regIODIRA}, R: []byte{0xFF}},
		i2ctest.IO{Addr: addr, W: []byte{regIODIRA + 1}, R: []byte{0xFF}})
	var pu [2]byte
	var read [2]bool
	for _, i := range inputs {
		p := i / 8
		if !read[p] {
			s.ops = append(s.ops, i2ctest.IO{Addr: addr, W: []byte{regGPPUA + byte(p)}, R: []byte{0x00}})
			read[p] = true
		}
		pu[p] |= 1 << (i % 8)
		s.ops = append(s.ops, i2ctest.IO{Addr: addr, W: []byte{regGPPUA + byte(p), pu[p]}})
	}
}

// sample is one Read: the GPIO register of each port in use.
func (s *script) sample(addr uint16, a, b byte) {
	s.ops = append(s.ops,
		i2ctest.IO{Addr: addr, W: []byte{regGPIOA}, R: []byte{a}},
		i2ctest.IO{Addr: addr, W: []byte{regGPIOA + 1}, R: []byte{b}})
}

// faultyBus fails the transactions whose numbers are in fail without
// consuming the playback: the expander did not acknowledge.
type faultyBus struct {
	*i2ctest.Playback
	mu   sync.Mutex
	n    int
	fail map[int]bool
}

func (f *faultyBus) Tx(addr uint16, w, r []byte) error {
	f.mu.Lock()
	n := f.n
	f.n++
	f.mu.Unlock()
	if f.fail[n] {
		return errors.New("i2c: remote I/O error (no ACK)")
	}
	return f.Playback.Tx(addr, w, r)
}

var exp = Expander{Address: 0x20, Cells: map[int]input.Cell{0: {X: 1, Y: 1}, 1: {X: 2, Y: 1}, 8: {X: 1, Y: 2}}}

func TestRead(t *testing.T) {
	var s script
	s.open(0x20, 0, 1, 8)
	s.sample(0x20, 0xFF, 0xFF) // nothing
	s.sample(0x20, 0xFC, 0xFE) // magnets on A0, A1, B0
	s.sample(0x20, 0xFD, 0x00) // A1 and B0 (others unmapped)
	pb := &i2ctest.Playback{Ops: s.ops, DontPanic: true}
	b, err := New(pb, []Expander{exp}, Opts{Clock: clock.NewFake(t0), ActiveLow: true})
	if err != nil {
		t.Fatalf("New = %v", err)
	}
	for _, want := range []string{"[]", "[1-1 2-1 1-2]", "[2-1 1-2]"} {
		cells, err := b.Read()
		if err != nil || fmt.Sprint(cellsOrEmpty(cells)) != want {
			t.Errorf("Read() = %v, %v; want %s", cells, err, want)
		}
	}
	b.Halt()
	if err := pb.Close(); err != nil {
		t.Errorf("playback: %v", err)
	}
}

func cellsOrEmpty(c []input.Cell) []input.Cell {
	if c == nil {
		return []input.Cell{}
	}
	return c
}

// TestRun plays a sequence of samples through the debounce: the first
// settled board, a magnet set down with a hand passing, a read error and
// the recovery, another disc.
func TestRun(t *testing.T) {
	leakcheck.Check(t)
	var s script
	s.open(0x20, 0, 1, 8)
	s.sample(0x20, 0xFF, 0xFF) // +0: empty board
	s.sample(0x20, 0xFF, 0xFF) // +50
	s.sample(0x20, 0xFF, 0xFF) // +100
	s.sample(0x20, 0xFF, 0xFF) // +150: settled, reported
	s.sample(0x20, 0xFD, 0xFF) // +200: pawn on 2-1
	s.sample(0x20, 0xFD, 0xFE) // +250: a hand over 1-2
	s.sample(0x20, 0xFD, 0xFF) // +300: hand gone
	s.sample(0x20, 0xFD, 0xFF) // +350
	s.sample(0x20, 0xFD, 0xFF) // +400
	s.sample(0x20, 0xFD, 0xFF) // +450: settled, reported
	failAt := len(s.ops)       // +500: the port A read is not acknowledged
	s.open(0x20, 0, 1, 8)      // +750: reopened after 250ms back-off
	s.sample(0x20, 0xFD, 0xFF) //       answers, board unchanged
	s.sample(0x20, 0xFC, 0xFF) // +800: a disc on 1-1
	s.sample(0x20, 0xFC, 0xFF) // +850
	s.sample(0x20, 0xFC, 0xFF) // +900
	s.sample(0x20, 0xFC, 0xFF) // +950: settled, reported
	pb := &i2ctest.Playback{Ops: s.ops, DontPanic: true}
	bus := &faultyBus{Playback: pb, fail: map[int]bool{failAt: true}}
	clk := clock.NewFake(t0)
	b, err := New(bus, []Expander{exp}, Opts{PollEvery: 50 * time.Millisecond, Settle: 150 * time.Millisecond, ActiveLow: true, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	events := b.Run(ctx)
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
	for i := range 16 {
		if !clk.WaitTimers(wctx, 1) {
			t.Fatalf("the sampler never slept after read %d", i+1)
		}
		if i < 15 {
			clk.AdvanceToNext()
		}
	}
	cancel()
	<-done
	want := []string{
		"+0ms sensors ok sensors ready",
		"+150ms sensed []",
		"+450ms sensed [2-1]",
		"+500ms sensors fault: sensors: reading MCP23017 at 0x20 port A: i2c: remote I/O error (no ACK)",
		"+750ms sensors ok sensors answer again",
		"+950ms sensed [1-1 2-1]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	b.Halt()
	if err := pb.Close(); err != nil {
		t.Errorf("playback: %v", err)
	}
}

func TestNewErrors(t *testing.T) {
	if _, err := New(&i2ctest.Playback{}, nil, DefaultOpts); err == nil {
		t.Error("New(no expander) = nil error")
	}
	// Nothing answers at the address: the first read is not acknowledged.
	bus := &faultyBus{Playback: &i2ctest.Playback{DontPanic: true}, fail: map[int]bool{0: true}}
	_, err := New(bus, []Expander{exp}, DefaultOpts)
	want := "sensors: MCP23017 at 0x20: i2c: remote I/O error (no ACK)"
	if err == nil || err.Error() != want {
		t.Errorf("New on a silent bus = %v, want %q", err, want)
	}
	_, err = New(&i2ctest.Playback{}, []Expander{{Address: 0x40, Cells: exp.Cells}}, DefaultOpts)
	if want := "sensors: expander address 0x40: an MCP23017 answers at 0x20 to 0x27"; err == nil || err.Error() != want {
		t.Errorf("New at address 0x40 = %v, want %q", err, want)
	}
}

// TestUnopenedRetries starts with expanders that do not answer: Run reports
// the fault, backs off, and picks the board up when it answers.
func TestUnopenedRetries(t *testing.T) {
	leakcheck.Check(t)
	var s script
	s.open(0x20, 0, 1, 8) // +250: answers at the second try
	s.sample(0x20, 0xFF, 0xFE)
	// Run may take one more sample before it sees the cancel: the bus
	// then answers with a playback error, which is not checked.
	pb := &i2ctest.Playback{Ops: s.ops, DontPanic: true}
	bus := &faultyBus{Playback: pb, fail: map[int]bool{0: true}}
	clk := clock.NewFake(t0)
	b, err := NewUnopened(bus, []Expander{exp}, Opts{Settle: 100 * time.Millisecond, ActiveLow: true, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events := b.Run(ctx)
	var got []string
	for e := range events {
		got = append(got, fmt.Sprintf("+%dms %s", e.When().Sub(t0).Milliseconds(), e))
		if len(got) == 1 {
			clk.WaitTimers(ctx, 1)
			clk.AdvanceToNext() // the back-off ends: the second try
		} else {
			cancel()
		}
	}
	want := []string{
		"+0ms sensors fault: sensors: MCP23017 at 0x20: i2c: remote I/O error (no ACK)",
		"+250ms sensors ok sensors ready",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n%s\nwant first:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	b.Halt()
}
