// Package nfc turns an NFC reader into tag taps: an MFRC522 on SPI read
// through periph.io, and a poller that makes one input.TagTapped per tap.
//
// # Reading
//
// A TagReader answers one question: which tag is on the reader now?
// MFRC522 is the real one. It is built with periph's mfrc522.NewSPI (which
// connects the SPI port, raises RST, sets up IRQ and initialises the chip)
// but it does not use mfrc522.Dev.ReadUID: that call waits for the IRQ pin
// in a goroutine that is never collected when the SPI bus fails, re-sends a
// request every 100 ms on the wall clock, and panics when no IRQ pin is
// wired. Instead each ReadUID makes one bounded cycle of the same
// transactions through periph's exported mfrc522/commands.LowLevel:
// version check, chip init (which switches the RF field off and on, so a
// tag resting on the reader wakes up again), REQA, anticollision and select
// of cascade level 1, and anticollision of level 2 for 7-byte UIDs (NTAG).
// The IRQ pin is therefore optional. Each cycle also cuts the chip's
// receive timeout from periph's 15 ms to Opts.ReceiveTimeout (3 ms):
// periph reads the interrupt register in a loop until a tag answers or the
// timeout, so an empty reader costs 3 ms of SPI traffic per poll, not 15.
// A poll of an empty reader is 28 SPI transfers, of a 7-byte tag 120.
//
// Its errors say what happened: ErrNoTag (nothing on the reader, or two
// tags at once), ErrBadRead (a garbled frame; try again), ErrNotAnswering
// (the version register reads 0x00 or 0xFF: unplugged or not powered),
// ErrBus (the SPI transfer itself failed).
//
// # Polling
//
// Poller calls ReadUID every Opts.PollEvery and emits input.TagTapped when
// a tag appears, once: a card resting on the reader gives one event; it is
// counted as lifted when it has not been read for Opts.LiftedAfter, and
// laying it again gives a new event. A different tag is a new event at
// once. The first answer of the reader is reported as
// input.DeviceStatus{OK: true, Detail: "reader ready"}. When the reader fails (ErrNotAnswering, ErrBus) the poller emits
// input.DeviceStatus{OK: false} once, retries with exponential back-off
// from Opts.BackoffMin to Opts.BackoffMax (package hw/backoff), and emits input.DeviceStatus{OK:
// true} when the reader answers again. Nothing here panics on a bad reader.
//
// # Concurrency
//
// Poller.Run starts one goroutine that owns the reader and stops, closing
// its channel, when the context is done. MFRC522 methods are serialised by
// a mutex; Halt may be called from another goroutine after Run stopped.
package nfc
