package dicefeed

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"comptoir/hw/clock"
	"comptoir/input"
	"comptoir/vision"
)

// With --readings, dicefeed tells its parent more than the recording
// lines: before each roll or unreadable roll, the reader's verdict die by
// die (a line of type "reading": each die's face, confidence and reason),
// for the staff page; and on a stdin line {"type":"inspect","file":PATH}
// it writes the last frame the reader read as a JPEG to PATH and answers
// {"type":"inspected","file":PATH,...} with the reader's verdict on that
// frame, or with "error".

// readingLine is a "reading" or an "inspected" line on stdout.
type readingLine struct {
	Type string `json:"type"`
	input.DiceReading
	File  string `json:"file,omitempty"`
	Error string `json:"error,omitempty"`
	// Code names the error: "no-frame" when no frame was read yet.
	Code string `json:"code,omitempty"`
}

// inspectRequest is a stdin line asking for the last frame.
type inspectRequest struct {
	Type string `json:"type"`
	File string `json:"file"`
}

// ErrNoFrame is an inspection asked before the reader read any frame.
var ErrNoFrame = errors.New("the dice reader has read no frame yet: wait until the tray has been still a moment")

// matPtr is a pointer to the frames' type (OpenCV's matrix, which only
// package vision names): what the tap does with a frame.
type matPtr[M any] interface {
	*M
	Clone() M
	Close() error
	ToImage() (image.Image, error)
}

// readingTap sits between the settler and the reader: it keeps the last
// few readings, to give the verdict of each rest reported die by die, and
// a copy of the last frame read with its reading, for inspection.
type readingTap[M any, P matPtr[M]] struct {
	keep  int
	clock clock.Clock

	mu      sync.Mutex
	recent  []vision.Roll // read since the last report, oldest first, at most keep; guarded by mu
	frame   M             // a copy of the last frame read; guarded by mu
	hasLast bool          // frame holds a frame; guarded by mu
	lastAt  time.Time     // when frame was read; guarded by mu
	last    vision.Roll   // the reading of frame; guarded by mu
}

// tap is what dicefeed asks of a readingTap.
type tap interface {
	// verdict is the reading of the rest that e reports.
	verdict(e input.Event) input.DiceReading
	// inspect writes the last frame read as a JPEG to path and returns
	// the reader's verdict on it.
	inspect(path string) (input.DiceReading, error)
	close()
}

// tapReader returns a tap of read and the read function to give Watch.
func tapReader[M any, P matPtr[M]](read func(M) vision.Roll, keep int, clk clock.Clock) (*readingTap[M, P], func(M) vision.Roll) {
	t := &readingTap[M, P]{keep: max(keep, 1), clock: clk}
	return t, func(m M) vision.Roll {
		r := read(m)
		c := P(&m).Clone()
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.hasLast {
			P(&t.frame).Close()
		}
		t.frame, t.hasLast, t.lastAt, t.last = c, true, t.clock.Now(), r
		t.recent = append(t.recent, r)
		if len(t.recent) > t.keep {
			t.recent = t.recent[len(t.recent)-t.keep:]
		}
		return r
	}
}

func (t *readingTap[M, P]) close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.hasLast {
		P(&t.frame).Close()
		t.hasLast = false
	}
}

// verdict picks the reading the settler reported: for a roll, the last
// reading of its faces and confidence; for an unreadable roll, the best
// one as the settler ranks them (dice found, then read, then confidence).
func (t *readingTap[M, P]) verdict(e input.Event) input.DiceReading {
	t.mu.Lock()
	defer t.mu.Unlock()
	recent := t.recent
	t.recent = nil
	var pick vision.Roll
	switch e := e.(type) {
	case input.DiceRolled:
		found := false
		for i := len(recent) - 1; i >= 0 && !found; i-- {
			r := recent[i]
			if r.Blue.Face == int(e.Blue) && r.Red.Face == int(e.Red) && min(r.Blue.Confidence, r.Red.Confidence) == e.Confidence {
				pick, found = r, true
			}
		}
		for i := len(recent) - 1; i >= 0 && !found; i-- {
			if r := recent[i]; r.Blue.Face == int(e.Blue) && r.Red.Face == int(e.Red) {
				pick, found = r, true
			}
		}
		if !found {
			// Not seen (cannot happen but for a race with the next
			// rest): the roll as reported.
			pick = vision.Roll{Blue: vision.Die{Face: int(e.Blue), Confidence: e.Confidence, Found: true}, Red: vision.Die{Face: int(e.Red), Confidence: e.Confidence, Found: true}}
		}
		out := rollReading(pick)
		out.At, out.Reason, out.ReasonFR = e.At, "", ""
		return out
	case input.DiceUnreadable:
		for i, r := range recent {
			if i == 0 || rollScore(r) > rollScore(pick) {
				pick = r
			}
		}
		out := rollReading(pick)
		out.At, out.Reason, out.ReasonFR = e.At, e.Reason, e.ReasonFR
		return out
	}
	return input.DiceReading{}
}

// rollScore ranks readings of one rest as the settler does: dice found,
// then read, then confidence.
func rollScore(r vision.Roll) float64 {
	score := 0.0
	for _, d := range []vision.Die{r.Blue, r.Red} {
		if d.Found {
			score++
		}
		if d.Face != 0 {
			score += 2 + d.Confidence
		}
	}
	return score
}

// rollReading is r die by die; its Reason and ReasonFR say why a die was
// not read.
func rollReading(r vision.Roll) input.DiceReading {
	die := func(d vision.Die) input.DieReading {
		why := d.Unread(0)
		return input.DieReading{Face: input.Face(d.Face), Confidence: d.Confidence, Found: d.Found, Reason: why.EN(), ReasonFR: why.FR()}
	}
	out := input.DiceReading{Blue: die(r.Blue), Red: die(r.Red)}
	out.Reason, out.ReasonFR = r.Unread(0)
	return out
}

// withLast calls fn with a copy of the last frame read (the tap is not
// held meanwhile), or returns ErrNoFrame.
func (t *readingTap[M, P]) withLast(fn func(M) error) error {
	t.mu.Lock()
	if !t.hasLast {
		t.mu.Unlock()
		return ErrNoFrame
	}
	c := P(&t.frame).Clone()
	t.mu.Unlock()
	defer P(&c).Close()
	return fn(c)
}

// inspect writes the last frame read to path (through a temporary file:
// the parent never sees half a picture).
func (t *readingTap[M, P]) inspect(path string) (input.DiceReading, error) {
	t.mu.Lock()
	if !t.hasLast {
		t.mu.Unlock()
		return input.DiceReading{}, ErrNoFrame
	}
	img, err := P(&t.frame).ToImage()
	out := rollReading(t.last)
	out.At = t.lastAt
	t.mu.Unlock()
	if err != nil {
		return out, fmt.Errorf("the last frame: %w", err)
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}); err != nil {
		return out, fmt.Errorf("the last frame: %w", err)
	}
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp")
	if err := os.WriteFile(tmp, b.Bytes(), 0o644); err != nil {
		return out, err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return out, err
	}
	return out, nil
}

// lineWriter writes whole lines to w, one at a time (the recording's
// writer and the tap's lines share stdout).
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// writeLine writes v as one JSON line.
func writeLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// inspectLine answers an inspect request read on stdin; ok is false when
// the line is not one.
func inspectLine(line string, t tap, out io.Writer) (ok bool, err error) {
	if t == nil || !strings.Contains(line, `"inspect"`) {
		return false, nil
	}
	var req inspectRequest
	if json.Unmarshal([]byte(line), &req) != nil || req.Type != "inspect" {
		return false, nil
	}
	reply := readingLine{Type: "inspected", File: req.File}
	switch {
	case !filepath.IsAbs(req.File):
		reply.Error = fmt.Sprintf("inspect: %q is not an absolute path", req.File)
	default:
		v, err := t.inspect(req.File)
		reply.DiceReading = v
		if err != nil {
			reply.Error = err.Error()
		}
		if errors.Is(err, ErrNoFrame) {
			reply.Code = "no-frame"
		}
	}
	return true, writeLine(out, reply)
}
