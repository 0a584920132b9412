package dicefeed

import (
	"errors"
	"fmt"
	"io/fs"
	"log"
	"os"
	"sync"
	"time"

	"comptoir/vision"
)

// What the reader learned of its camera, kept across its restarts
// (--learned FILE; vision.LearnedCamera): read when dicefeed starts,
// written again after each rest of the dice that taught the reader
// something.

// learnedFile is the file of what the reader learned of its camera:
// dicefeed's loop writes it after each rest, the stdin goroutine when the
// staff make the reader forget its camera; mu guards it.
type learnedFile struct {
	mu      sync.Mutex
	path    string
	now     func() time.Time
	logger  *log.Logger
	last    vision.LearnedCamera // as written last (or read)
	failing bool                 // the last write failed (logged once until one works)
}

// restore makes reader know what the file says, when there is one and it
// was learned with the calibration the reader reads with. A file that is
// not one is kept beside as FILE.bad and the reader starts afresh; a
// file learned with another calibration is left to be written over.
func (f *learnedFile) restore(reader *swapReader) {
	data, err := os.ReadFile(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		f.last = reader.learned()
		return
	}
	if err != nil {
		f.logger.Printf("learned: %v: the reader starts from its calibration alone", err)
		return
	}
	l, err := vision.DecodeLearnedCamera(data)
	if err != nil {
		bad := f.path + ".bad"
		if rerr := os.Rename(f.path, bad); rerr != nil {
			f.logger.Printf("learned: %s: %v; it could not be kept aside (%v): the reader starts from its calibration alone", f.path, err, rerr)
			return
		}
		f.logger.Printf("learned: %s: %v; kept as %s, the reader starts from its calibration alone and learns its camera again", f.path, err, bad)
		return
	}
	if err := reader.restore(l); err != nil {
		f.logger.Printf("learned: %s: %v: the reader starts from its calibration alone and learns its camera again", f.path, err)
		return
	}
	f.last = l
	f.logger.Printf("learned: %s: the reader knows %d flat dice and %d widths of dice at rest from before", f.path, l.Dice(), l.Sizes())
}

// save writes what the reader knows now, when it changed since the last
// write. An error is logged (once, until a write works again: a
// temporary file's name changes each time) and dicefeed goes on reading:
// the next rest tries again.
func (f *learnedFile) save(reader *swapReader) {
	f.mu.Lock()
	defer f.mu.Unlock()
	l := reader.learned()
	if l.Equal(f.last) {
		return
	}
	data, err := vision.EncodeLearnedCamera(l, f.now())
	if err == nil {
		err = writeFile(f.path, data)
	}
	if err != nil {
		if !f.failing {
			f.failing = true
			f.logger.Printf("learned: %v: what the reader learned of its camera is not kept (it still reads); trying again at the next rest", fmt.Errorf("writing %s: %w", f.path, err))
		}
		return
	}
	if f.failing {
		f.logger.Printf("learned: %s written again", f.path)
		f.failing = false
	}
	f.last = l
}
