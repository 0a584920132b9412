// Package backoff follows the health of a device that a loop polls (the
// NFC reader, the board sensors): it says when to report the device
// faulty, ready or answering again, as input.DeviceStatus events, and how
// long to wait before the next try of a failing device.
//
// # Back-off
//
// After a failed try the loop waits Opts.Min, then twice that after each
// further failure, up to Opts.Max; the first try that answers resets the
// wait to Min. A fault is reported once, when it starts, not at every
// failed try; the first answer is reported ("ready"), and so is the first
// answer after a fault ("answers again").
//
// # Time
//
// A Health holds no clock and starts no goroutine: the loop passes the
// time of each try, read from its own injectable clock (package
// hw/clock), and sleeps the wait it is given on that clock.
//
// # Concurrency
//
// A Health belongs to the one loop that polls its device; it is not safe
// for concurrent use.
package backoff
