package nfc

import (
	"errors"
	"fmt"
	"io"
	"sync"
)

// OpenFunc opens a reader and returns it with the closer of its port.
type OpenFunc func() (*MFRC522, io.Closer, error)

// Reopening is a TagReader that opens its reader on first use and opens it
// anew after a fault, so that a reader unplugged at start or reset by a
// power glitch comes back without restarting the daemon. Its faults are
// ErrNotAnswering or ErrBus, which the Poller retries with back-off.
type Reopening struct {
	open OpenFunc

	mu sync.Mutex // guards r and c
	r  *MFRC522
	c  io.Closer
}

// NewReopening returns a reader that calls open when it needs a reader.
func NewReopening(open OpenFunc) *Reopening { return &Reopening{open: open} }

// ReadUID implements TagReader.
func (l *Reopening) ReadUID() ([]byte, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.r == nil {
		r, c, err := l.open()
		if err != nil {
			if errors.Is(err, ErrNotAnswering) || errors.Is(err, ErrBus) {
				return nil, err
			}
			return nil, fmt.Errorf("%w: %v", ErrNotAnswering, err)
		}
		l.r, l.c = r, c
	}
	uid, err := l.r.ReadUID()
	if errors.Is(err, ErrNotAnswering) || errors.Is(err, ErrBus) {
		l.closeLocked()
	}
	return uid, err
}

// String names the reader.
func (l *Reopening) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.r == nil {
		return "MFRC522 (not open)"
	}
	return l.r.String()
}

// Halt halts the reader and closes its port. A later ReadUID opens it
// again.
func (l *Reopening) Halt() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.closeLocked()
}

func (l *Reopening) closeLocked() error {
	if l.r == nil {
		return nil
	}
	err := l.r.Halt()
	if l.c != nil {
		if cerr := l.c.Close(); err == nil {
			err = cerr
		}
	}
	l.r, l.c = nil, nil
	return err
}
