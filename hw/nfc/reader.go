package nfc

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/devices/v3/mfrc522"
	"periph.io/x/devices/v3/mfrc522/commands"
)

// Errors of a TagReader. ErrNoTag and ErrBadRead are part of normal
// polling; ErrNotAnswering and ErrBus are faults.
var (
	ErrNoTag        = errors.New("nfc: no tag on the reader")
	ErrBadRead      = errors.New("nfc: garbled answer from the tag")
	ErrNotAnswering = errors.New("nfc: the reader does not answer")
	ErrBus          = errors.New("nfc: SPI transfer failed")
	ErrHalted       = errors.New("nfc: reader halted")
)

// TagReader reads the UID of the tag on the reader, if any. It returns
// ErrNoTag when there is none.
type TagReader interface {
	ReadUID() ([]byte, error)
}

// UIDString formats a UID the way input.TagTapped carries it: upper-case
// hex without separators.
func UIDString(uid []byte) string {
	return strings.ToUpper(hex.EncodeToString(uid))
}

// Opts configures an MFRC522.
type Opts struct {
	// AntennaGain is the receiver gain, 0 (18 dB) to 7 (48 dB). Raise it
	// when stickers under thick card are not read; 4 (33 dB) is the chip's
	// default.
	AntennaGain int
	// Name is shown by String, for example "nfc on SPI0.0".
	Name string
	// ReceiveTimeout is how long the chip waits for a tag's answer, from
	// 0.5 ms to 127 ms in steps of 0.5 ms. periph's init sets 15 ms; the
	// driver reads the interrupt register over SPI in a loop until the
	// answer or the timeout, so with no tag on the reader every poll keeps
	// the bus and a CPU busy this long. Tags answer within a millisecond;
	// 3 ms leaves margin and cuts that cost by five.
	ReceiveTimeout time.Duration
}

// DefaultOpts are the options of the reference build.
var DefaultOpts = Opts{AntennaGain: 4, Name: "MFRC522", ReceiveTimeout: 3 * time.Millisecond}

// timerTick is the period of the chip's timer as periph's init sets it up
// (TModeReg 0x8D, TPrescalerReg 0x3E: 13.56 MHz / (2*0xD3E+1), 2 kHz).
const timerTick = 500 * time.Microsecond

// MFRC522 is a TagReader on an MFRC522 chip.
type MFRC522 struct {
	name string
	bus  *watchedPort

	reload byte // TReloadRegL: the receive timeout in timer ticks

	mu     sync.Mutex   // guards dev and halted
	dev    *mfrc522.Dev // periph's driver
	halted bool
}

var _ conn.Resource = (*MFRC522)(nil)
var _ TagReader = (*MFRC522)(nil)

// Chip versions of the MFRC522 and of common clones, read from VersionReg.
var knownVersions = map[byte]string{0x91: "MFRC522 v1", 0x92: "MFRC522 v2", 0x88: "FM17522 clone", 0x12: "clone"}

// NewMFRC522 opens the reader on port, with its RST pin (required) and its
// IRQ pin (nil when not wired). It initialises the chip and checks that it
// answers.
func NewMFRC522(port spi.Port, reset gpio.PinOut, irq gpio.PinIn, opts Opts) (*MFRC522, error) {
	if opts.AntennaGain < 0 || opts.AntennaGain > 7 {
		return nil, fmt.Errorf("nfc: antenna gain %d: want 0 to 7", opts.AntennaGain)
	}
	if opts.Name == "" {
		opts.Name = DefaultOpts.Name
	}
	if opts.ReceiveTimeout == 0 {
		opts.ReceiveTimeout = DefaultOpts.ReceiveTimeout
	}
	ticks := (opts.ReceiveTimeout + timerTick - 1) / timerTick
	if ticks < 1 || ticks > 255 {
		return nil, fmt.Errorf("nfc: receive timeout %v: want 0.5ms to 127ms", opts.ReceiveTimeout)
	}
	wp := &watchedPort{Port: port}
	// periph's LowLevel.String dereferences the IRQ pin: pass a nil
	// interface, not a nil *Pin, and never call dev.String.
	var irqIn gpio.PinIn
	if irq != nil {
		irqIn = irq
	}
	dev, err := mfrc522.NewSPI(wp, reset, irqIn)
	if err != nil {
		return nil, fmt.Errorf("nfc: opening %s: %w", opts.Name, err)
	}
	if err := dev.SetAntennaGain(opts.AntennaGain); err != nil {
		return nil, fmt.Errorf("nfc: %w", err)
	}
	r := &MFRC522{name: opts.Name, bus: wp, dev: dev, reload: byte(ticks)}
	if _, err := r.Version(); err != nil {
		return nil, err
	}
	return r, nil
}

// Version reads the chip version register and names the chip.
func (r *MFRC522) Version() (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.halted {
		return "", ErrHalted
	}
	return r.versionLocked()
}

func (r *MFRC522) versionLocked() (string, error) {
	r.bus.clear()
	v, err := r.dev.LowLevel.DevRead(commands.VersionReg)
	if err != nil {
		return "", fmt.Errorf("%w: %s: %v", ErrBus, r.name, err)
	}
	name, ok := knownVersions[v]
	if !ok {
		return "", fmt.Errorf("%w: %s: version register reads %#02x; check the wiring (SDA/CS, SCK, MOSI, MISO, 3.3 V) and that SPI is enabled", ErrNotAnswering, r.name, v)
	}
	return name, nil
}

// ReadUID makes one read cycle and returns the UID of the tag on the
// reader: 4 bytes (MIFARE Classic) or 7 bytes (NTAG, MIFARE Ultralight).
func (r *MFRC522) ReadUID() ([]byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.halted {
		return nil, ErrHalted
	}
	if _, err := r.versionLocked(); err != nil {
		return nil, err
	}
	ll := r.dev.LowLevel
	// Init soft-resets the chip: the field goes off and on, so a tag that
	// rests on the reader is back in its idle state and answers REQA.
	if err := ll.Init(); err != nil {
		return nil, r.fault(err)
	}
	if err := ll.DevWrite(commands.TReloadRegL, r.reload); err != nil {
		return nil, r.fault(err)
	}
	// REQA, a 7-bit frame; a tag answers with its 16-bit ATQA.
	if err := ll.DevWrite(commands.BitFramingReg, 0x07); err != nil {
		return nil, r.fault(err)
	}
	_, bits, err := ll.CardWrite(commands.PCD_TRANSCEIVE, []byte{commands.PICC_REQIDL})
	if err != nil || bits != 0x10 {
		if r.bus.failed() {
			return nil, r.fault(err)
		}
		return nil, ErrNoTag
	}
	cl1, err := r.anticollision(commands.PICC_ANTICOLL)
	if err != nil {
		return nil, err
	}
	if err := r.selectCL1(cl1); err != nil {
		return nil, err
	}
	if cl1[0] != 0x88 { // no cascade tag: a 4-byte UID
		return append([]byte(nil), cl1[:4]...), nil
	}
	cl2, err := r.anticollision(commands.PICC_ANTICOLL2)
	if err != nil {
		return nil, err
	}
	uid := append([]byte(nil), cl1[1:4]...)
	return append(uid, cl2[:4]...), nil
}

// anticollision runs the anticollision command of one cascade level and
// returns its 4 UID bytes and check byte.
func (r *MFRC522) anticollision(sel byte) ([]byte, error) {
	ll := r.dev.LowLevel
	if err := ll.DevWrite(commands.BitFramingReg, 0x00); err != nil {
		return nil, r.fault(err)
	}
	data, _, err := ll.CardWrite(commands.PCD_TRANSCEIVE, []byte{sel, 0x20})
	if err != nil {
		if r.bus.failed() {
			return nil, r.fault(err)
		}
		return nil, fmt.Errorf("%w: anticollision: %v", ErrBadRead, err)
	}
	if len(data) != 5 {
		return nil, fmt.Errorf("%w: anticollision answered %d bytes, want 5", ErrBadRead, len(data))
	}
	if data[0]^data[1]^data[2]^data[3] != data[4] {
		return nil, fmt.Errorf("%w: anticollision check byte %#02x does not match", ErrBadRead, data[4])
	}
	return data, nil
}

// selectCL1 selects the tag at cascade level 1, which a 7-byte UID needs
// before its level 2 answers.
func (r *MFRC522) selectCL1(cl1 []byte) error {
	ll := r.dev.LowLevel
	buf := append([]byte{commands.PICC_SElECTTAG, 0x70}, cl1...)
	crc, err := ll.CRC(buf)
	if err != nil {
		return r.fault(err)
	}
	buf = append(buf, crc...)
	if _, _, err := ll.CardWrite(commands.PCD_TRANSCEIVE, buf); err != nil {
		if r.bus.failed() {
			return r.fault(err)
		}
		return fmt.Errorf("%w: select: %v", ErrBadRead, err)
	}
	return nil
}

func (r *MFRC522) fault(err error) error {
	if r.bus.failed() {
		return fmt.Errorf("%w: %s: %v", ErrBus, r.name, r.bus.err())
	}
	return fmt.Errorf("%w: %s: %v", ErrBadRead, r.name, err)
}

// String implements conn.Resource.
func (r *MFRC522) String() string { return r.name }

// Halt powers the chip down. The reader is unusable afterwards; a second
// Halt does nothing.
func (r *MFRC522) Halt() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.halted {
		return nil
	}
	r.halted = true
	if err := r.dev.Halt(); err != nil {
		return fmt.Errorf("nfc: halting %s: %w", r.name, err)
	}
	return nil
}

// watchedPort passes an SPI port through and remembers whether a transfer
// failed, so that ReadUID can tell a dead bus from a tag that did not
// answer: periph's LowLevel reports both as plain errors.
type watchedPort struct {
	spi.Port
	mu      sync.Mutex
	lastErr error // guarded by mu; first transfer error since clear
}

func (w *watchedPort) Connect(f physic.Frequency, mode spi.Mode, bits int) (spi.Conn, error) {
	c, err := w.Port.Connect(f, mode, bits)
	if err != nil {
		return nil, err
	}
	return &watchedConn{Conn: c, w: w}, nil
}

func (w *watchedPort) clear() {
	w.mu.Lock()
	w.lastErr = nil
	w.mu.Unlock()
}

func (w *watchedPort) failed() bool { return w.err() != nil }

func (w *watchedPort) err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.lastErr
}

type watchedConn struct {
	spi.Conn
	w *watchedPort
}

func (c *watchedConn) Tx(w, r []byte) error {
	err := c.Conn.Tx(w, r)
	if err != nil {
		c.w.mu.Lock()
		if c.w.lastErr == nil {
			c.w.lastErr = err
		}
		c.w.mu.Unlock()
	}
	return err
}
