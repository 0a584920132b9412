package nfc

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"periph.io/x/conn/v3/conntest"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spitest"
	. "periph.io/x/devices/v3/mfrc522/commands"

	"comptoir/hw/internal/leakcheck"
)

// script builds the SPI transactions that periph's mfrc522 LowLevel makes,
// register by register, as the chip answers them. Each method documents the
// exchange it stands for; reading a test's script reads like the chip's
// datasheet conversation.
type script struct {
	ops []conntest.IO
	bf  byte // BitFramingReg as last written, echoed back by the chip
}

// read is one register read: address byte with the read bit, the chip
// answers on the second byte.
func (s *script) read(reg int, val byte) {
	s.ops = append(s.ops, conntest.IO{W: []byte{byte(reg<<1)&0x7E | 0x80, 0}, R: []byte{0, val}})
}

// write is one register write.
func (s *script) write(reg int, val byte) {
	s.ops = append(s.ops, conntest.IO{W: []byte{byte(reg<<1) & 0x7E, val}})
}

// version is the read of VersionReg: 0x92 for an MFRC522 v2.
func (s *script) version(v byte) { s.read(VersionReg, v) }

// init is LowLevel.Init: soft reset, timer and mode set-up, receiver gain,
// then the antenna switched on: SetAntenna reads TxControlReg (its reset
// value 0x80, antenna off) and SetBitmask reads it again before setting
// bits 0-1.
func (s *script) init(gain byte) {
	s.write(CommandReg, PCD_RESETPHASE)
	s.write(TModeReg, 0x8D)      // timer starts after each transmission
	s.write(TPrescalerReg, 0x3E) // ~2 kHz timer
	s.write(TReloadRegL, 30)     // 15 ms receive timeout
	s.write(TReloadRegH, 0)
	s.write(TxAutoReg, 0x40) // 100% ASK
	s.write(ModeReg, 0x3D)   // CRC preset 0x6363
	s.write(RFCfgReg, gain<<4)
	s.read(TxControlReg, 0x80)
	s.read(TxControlReg, 0x80)
	s.write(TxControlReg, 0x83)
	s.bf = 0
}

// framing is a write of BitFramingReg: 0x07 for a 7-bit short frame
// (REQA), 0x00 for whole bytes.
func (s *script) framing(v byte) {
	s.write(BitFramingReg, v)
	s.bf = v
}

// transceive is LowLevel.CardWrite(PCD_TRANSCEIVE, data): interrupts
// enabled, FIFO flushed, data queued, StartSend, then the interrupt wait.
// answer nil means the tag stayed silent until the chip's timer ran out.
func (s *script) transceive(data, answer []byte) {
	s.write(CommIEnReg, 0xF7)
	s.read(CommIrqReg, 0x14) // clear Set1
	s.write(CommIrqReg, 0x14)
	s.read(FIFOLevelReg, 0x00) // flush the FIFO
	s.write(FIFOLevelReg, 0x80)
	s.write(CommandReg, PCD_IDLE)
	for _, b := range data {
		s.write(FIFODataReg, b)
	}
	s.write(CommandReg, PCD_TRANSCEIVE)
	s.read(BitFramingReg, s.bf) // StartSend
	s.write(BitFramingReg, s.bf|0x80)
	if answer == nil {
		s.read(CommIrqReg, 0x01) // TimerIRq: nobody answered
	} else {
		s.read(CommIrqReg, 0x30) // RxIRq | IdleIRq
	}
	s.read(BitFramingReg, s.bf|0x80) // clear StartSend
	s.write(BitFramingReg, s.bf)
	s.read(ErrorReg, 0x00)
	if answer == nil {
		return
	}
	s.read(FIFOLevelReg, byte(len(answer)))
	s.read(ControlReg, 0x00) // whole bytes received
	for _, b := range answer {
		s.read(FIFODataReg, b)
	}
}

// crc is LowLevel.CRC: the chip's coprocessor computes CRC_A of data.
func (s *script) crc(data []byte) []byte {
	s.read(DivIrqReg, 0x00)
	s.write(DivIrqReg, 0x00)
	s.read(FIFOLevelReg, 0x00)
	s.write(FIFOLevelReg, 0x80)
	for _, b := range data {
		s.write(FIFODataReg, b)
	}
	s.write(CommandReg, PCD_CALCCRC)
	s.read(DivIrqReg, 0x04) // CRCIRq
	c := crcA(data)
	s.read(CRCResultRegL, c[0])
	s.read(CRCResultRegM, c[1])
	return c
}

// crcA is the ISO 14443-3 type A CRC, as the chip computes it.
func crcA(data []byte) []byte {
	crc := uint16(0x6363)
	for _, b := range data {
		b ^= byte(crc)
		b ^= b << 4
		crc = crc>>8 ^ uint16(b)<<8 ^ uint16(b)<<3 ^ uint16(b)>>4
	}
	return []byte{byte(crc), byte(crc >> 8)}
}

// open is NewMFRC522: periph's NewSPI initialises the chip, then the
// version check.
func (s *script) open() {
	s.init(4)
	s.version(0x92)
}

// pollStart is the start of every ReadUID: the version check, the chip
// init, and the receive timeout cut to 3 ms (6 ticks of 0.5 ms).
func (s *script) pollStart() {
	s.version(0x92)
	s.init(4)
	s.write(TReloadRegL, 6)
}

// noTag is one ReadUID with an empty reader.
func (s *script) noTag() {
	s.pollStart()
	s.framing(0x07)
	s.transceive([]byte{PICC_REQIDL}, nil)
}

// tag is one ReadUID of a tag with a 4- or 7-byte uid.
func (s *script) tag(uid []byte) {
	s.pollStart()
	s.framing(0x07)
	s.transceive([]byte{PICC_REQIDL}, []byte{0x44, 0x00}) // ATQA
	cl1 := uid[:4]
	if len(uid) == 7 {
		cl1 = append([]byte{0x88}, uid[:3]...) // cascade tag
	}
	cl1 = append(cl1[:4:4], cl1[0]^cl1[1]^cl1[2]^cl1[3])
	s.framing(0x00)
	s.transceive([]byte{PICC_ANTICOLL, 0x20}, cl1)
	sel := append([]byte{PICC_SElECTTAG, 0x70}, cl1...)
	sel = append(sel, s.crc(sel)...)
	sak := byte(0x08)
	if len(uid) == 7 {
		sak = 0x04 // UID not complete
	}
	s.transceive(sel, append([]byte{sak}, crcA([]byte{sak})...))
	if len(uid) == 7 {
		cl2 := append(append([]byte(nil), uid[3:7]...), uid[3]^uid[4]^uid[5]^uid[6])
		s.framing(0x00)
		s.transceive([]byte{PICC_ANTICOLL2, 0x20}, cl2)
	}
}

// halt is Halt: the chip is put in power down.
func (s *script) halt() { s.write(CommandReg, 0x10) }

// faultyPort fails the transfers whose numbers (from 0) are in fail,
// without consuming the playback: an SPI error on the wire.
type faultyPort struct {
	*spitest.Playback
	mu   sync.Mutex
	n    int
	fail map[int]bool
}

func (p *faultyPort) Connect(f physic.Frequency, m spi.Mode, bits int) (spi.Conn, error) {
	c, err := p.Playback.Connect(f, m, bits)
	if err != nil {
		return nil, err
	}
	return &faultyConn{Conn: c, p: p}, nil
}

type faultyConn struct {
	spi.Conn
	p *faultyPort
}

func (c *faultyConn) Tx(w, r []byte) error {
	c.p.mu.Lock()
	n := c.p.n
	c.p.n++
	c.p.mu.Unlock()
	if c.p.fail[n] {
		return errors.New("spi: ioctl: remote I/O error")
	}
	return c.Conn.Tx(w, r)
}

func pins() (*gpiotest.Pin, *gpiotest.Pin) {
	return &gpiotest.Pin{N: "GPIO25", Num: 25}, &gpiotest.Pin{N: "GPIO24", Num: 24, EdgesChan: make(chan gpio.Level, 1)}
}

var (
	uid7 = []byte{0x04, 0xA2, 0xB3, 0xC4, 0xD5, 0xE6, 0x80}
	uid4 = []byte{0xDE, 0xAD, 0xBE, 0xEF}
)

func TestMFRC522ReadUID(t *testing.T) {
	tests := []struct {
		name    string
		build   func(s *script)
		fail    []int // transfers, counted from the first ReadUID, that fail
		want    string
		wantErr error
	}{
		{"no tag", func(s *script) { s.noTag() }, nil, "", ErrNoTag},
		{"NTAG 7-byte UID", func(s *script) { s.tag(uid7) }, nil, "04A2B3C4D5E680", nil},
		{"MIFARE 4-byte UID", func(s *script) { s.tag(uid4) }, nil, "DEADBEEF", nil},
		{"garbled anticollision", func(s *script) {
			s.pollStart()
			s.framing(0x07)
			s.transceive([]byte{PICC_REQIDL}, []byte{0x44, 0x00})
			s.framing(0x00)
			s.transceive([]byte{PICC_ANTICOLL, 0x20}, []byte{0xDE, 0xAD, 0xBE, 0xEF, 0x00}) // wrong check byte
		}, nil, "", ErrBadRead},
		{"unplugged: version reads 0x00", func(s *script) { s.version(0x00) }, nil, "", ErrNotAnswering},
		{"SPI error during request", func(s *script) {
			s.pollStart()
			s.framing(0x07)
			// the CommIEnReg write of the request fails on the wire: the
			// 15th transfer of the cycle, not in the script.
		}, []int{14}, "", ErrBus},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var open, cycle script
			open.open()
			tt.build(&cycle)
			cycle.halt()
			pb := &spitest.Playback{Playback: conntest.Playback{Ops: append(open.ops, cycle.ops...), DontPanic: true}}
			fail := map[int]bool{}
			for _, f := range tt.fail {
				fail[len(open.ops)+f] = true
			}
			port := &faultyPort{Playback: pb, fail: fail}
			reset, irq := pins()
			r, err := NewMFRC522(port, reset, irq, DefaultOpts)
			if err != nil {
				t.Fatalf("NewMFRC522 = %v", err)
			}
			if reset.Read() != gpio.High {
				t.Error("RST pin is low after opening: the chip stays in reset")
			}
			uid, err := r.ReadUID()
			if got := UIDString(uid); got != tt.want || !errors.Is(err, tt.wantErr) {
				t.Errorf("ReadUID() = %q, %v; want %q, %v", got, err, tt.want, tt.wantErr)
			}
			if errors.Is(err, ErrBus) && !strings.Contains(err.Error(), "remote I/O error") {
				t.Errorf("ReadUID() = %v: a bus error that is not the injected one (a script mismatch?)", err)
			}
			if err := r.Halt(); err != nil {
				t.Errorf("Halt() = %v", err)
			}
			if err := r.Halt(); err != nil {
				t.Errorf("second Halt() = %v, want nil", err)
			}
			if _, err := r.ReadUID(); !errors.Is(err, ErrHalted) {
				t.Errorf("ReadUID after Halt = %v, want ErrHalted", err)
			}
			if err := pb.Close(); err != nil {
				t.Errorf("playback: %v", err)
			}
		})
	}
}

func TestMFRC522OpenRefusesSilentChip(t *testing.T) {
	var s script
	s.init(4)
	s.version(0xFF) // MISO floating high: nothing on the bus
	pb := &spitest.Playback{Playback: conntest.Playback{Ops: s.ops, DontPanic: true}}
	reset, irq := pins()
	_, err := NewMFRC522(pb, reset, irq, DefaultOpts)
	if !errors.Is(err, ErrNotAnswering) {
		t.Fatalf("NewMFRC522 on a silent bus = %v, want ErrNotAnswering", err)
	}
	want := "nfc: the reader does not answer: MFRC522: version register reads 0xff"
	if got := err.Error(); len(got) < len(want) || got[:len(want)] != want {
		t.Errorf("error = %q, want it to start with %q", got, want)
	}
	if err := pb.Close(); err != nil {
		t.Errorf("playback: %v", err)
	}
}

// TestPollerOverPlayback drives the real reader through the poller: a tag
// laid, held, removed, laid again, then a read error and the recovery.
func TestPollerOverPlayback(t *testing.T) {
	leakcheck.Check(t)
	var open, polls script
	open.open()
	polls.tag(uid7) // +0: laid
	polls.tag(uid7) // +100: held
	for range 5 {   // +200..+600: removed
		polls.noTag()
	}
	polls.tag(uid7) // +700: laid again
	n := len(polls.ops)
	polls.noTag() // +800: the version read fails on the wire (not consumed)
	polls.halt()
	pb := &spitest.Playback{Playback: conntest.Playback{Ops: append(open.ops, polls.ops...), DontPanic: true}}
	port := &faultyPort{Playback: pb, fail: map[int]bool{len(open.ops) + n: true}}
	reset, irq := pins()
	r, err := NewMFRC522(port, reset, irq, DefaultOpts)
	if err != nil {
		t.Fatal(err)
	}
	got := runPoller(t, r, 10, PollOpts{})
	want := []string{
		"+0ms nfc ok reader ready",
		"+0ms tag 04A2B3C4D5E680",
		"+700ms tag 04A2B3C4D5E680",
		"+800ms nfc fault: nfc: SPI transfer failed: MFRC522: spi: ioctl: remote I/O error",
		"+1050ms nfc ok reader answers again",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("events:\n%q\nwant:\n%q", got, want)
	}
	if err := r.Halt(); err != nil {
		t.Errorf("Halt() = %v", err)
	}
	if err := pb.Close(); err != nil {
		t.Errorf("playback: %v", err)
	}
}

// TestReopening opens the reader on first use, and opens it anew on a
// second port after the first stops answering.
func TestReopening(t *testing.T) {
	var first, second script
	first.open()
	first.tag(uid4)
	first.version(0x00) // unplugged
	first.halt()
	second.open()
	second.tag(uid4)
	second.halt()
	ports := []*spitest.Playback{
		{Playback: conntest.Playback{Ops: first.ops, DontPanic: true}},
		{Playback: conntest.Playback{Ops: second.ops, DontPanic: true}},
	}
	opened := 0
	r := NewReopening(func() (*MFRC522, io.Closer, error) {
		if opened == len(ports) {
			return nil, nil, errors.New("no more ports")
		}
		p := ports[opened]
		opened++
		reset, irq := pins()
		m, err := NewMFRC522(p, reset, irq, DefaultOpts)
		return m, p, err
	})
	steps := []struct {
		want    string
		wantErr error
	}{{"DEADBEEF", nil}, {"", ErrNotAnswering}, {"DEADBEEF", nil}}
	for i, s := range steps {
		uid, err := r.ReadUID()
		if UIDString(uid) != s.want || !errors.Is(err, s.wantErr) {
			t.Errorf("read %d = %q, %v; want %q, %v", i, UIDString(uid), err, s.want, s.wantErr)
		}
	}
	if err := r.Halt(); err != nil {
		t.Errorf("Halt() = %v", err)
	}
	for i, p := range ports {
		if err := p.Close(); err != nil {
			t.Errorf("port %d: %v", i, err)
		}
	}
	if _, err := r.ReadUID(); !errors.Is(err, ErrNotAnswering) {
		t.Errorf("ReadUID with no port left = %v, want ErrNotAnswering", err)
	}
}

// TestTransfersPerPoll counts the SPI transfers of one poll, the cost of
// polling on the Pi's bus, and checks the counts the scripts are built on.
func TestTransfersPerPoll(t *testing.T) {
	for _, tt := range []struct {
		name  string
		build func(*script)
		want  int
	}{
		{"empty reader", func(s *script) { s.noTag() }, 28},
		{"4-byte tag", func(s *script) { s.tag(uid4) }, 97},
		{"7-byte tag", func(s *script) { s.tag(uid7) }, 120},
	} {
		var s script
		tt.build(&s)
		if len(s.ops) != tt.want {
			t.Errorf("%s: %d transfers, want %d", tt.name, len(s.ops), tt.want)
		}
	}
}

func TestReceiveTimeoutBounds(t *testing.T) {
	reset, irq := pins()
	for _, d := range []time.Duration{-time.Millisecond, 200 * time.Millisecond} {
		_, err := NewMFRC522(&spitest.Playback{}, reset, irq, Opts{ReceiveTimeout: d})
		if err == nil || !strings.Contains(err.Error(), "receive timeout") {
			t.Errorf("NewMFRC522(ReceiveTimeout %v) = %v, want a receive timeout error", d, err)
		}
	}
}
