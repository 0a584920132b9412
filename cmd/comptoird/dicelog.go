package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"comptoir/dashboard"
	"comptoir/games/kit"
	"comptoir/input"
	"comptoir/table"
)

// The dice camera of the staff page (dashboard.DiceCamera): the dice
// reader child runs with --readings, so that before each roll it reports
// its verdict die by die (a "reading" line), and it answers inspect
// requests on its stdin with the last frame it read. The session tells
// what became of each reading (table.Opts.DiceNote).

// maxThrows is how many of the last throws the staff page shows.
const maxThrows = 20

// readerLine is a line of the reader that is not a recording line: its
// verdict before a roll ("reading"), or its answer to an inspect request
// ("inspected").
type readerLine struct {
	Type string `json:"type"`
	input.DiceReading
	File  string `json:"file,omitempty"`
	Error string `json:"error,omitempty"`
	Code  string `json:"code,omitempty"`
}

// inspectDir is where a table keeps the frames sent for inspection:
// beside its journal.
func inspectDir(journal string) string { return filepath.Join(filepath.Dir(journal), "inspect") }

// calibrationFile is where a table keeps the calibration the staff make
// from its throws: beside its journal, named after it, as its staff
// secret is, so that tables whose journals share a folder keep theirs
// apart (table.db: table.calibration.json). The reader is started with
// it once it exists.
func calibrationFile(journal string) string {
	p := strings.TrimSuffix(journal, filepath.Ext(journal)) + ".calibration.json"
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	return p
}

// sharedCalibrationFile is where tables kept their calibration before
// calibrationFile named it after the journal: calibration.json in the
// journal's folder, which every table of that folder read and wrote.
func sharedCalibrationFile(journal string) string {
	return filepath.Join(filepath.Dir(calibrationFile(journal)), "calibration.json")
}

// adoptSharedCalibration gives a table that has no calibration file of
// its own a copy of the folder's shared one (sharedCalibrationFile), the
// calibration it read with before: a table upgraded keeps its
// calibration. The shared file is left as it was (nothing is lost; a
// table that shares the folder adopts it too) and the table saves to
// its own file from then on. It says what it did in logf; it does
// nothing when the table has a file of its own or there is no shared
// one. The copy is written to a temporary file, then renamed.
func adoptSharedCalibration(journal string, logf func(string, ...any)) error {
	own, shared := calibrationFile(journal), sharedCalibrationFile(journal)
	if _, err := os.Stat(own); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return nil // the table's own (or a file it cannot look at, which the reader will name)
	}
	data, err := os.ReadFile(shared)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("the shared calibration %s: %w (calibrate this table again from its staff page)", shared, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(own), ".calibration-*.tmp")
	if err != nil {
		return fmt.Errorf("copying the shared calibration %s to %s: %w", shared, own, err)
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), own)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("copying the shared calibration %s to %s: %w", shared, own, err)
	}
	logf("dice: this table now keeps its calibration in %s, a copy of %s, which tables of this folder shared before; if this table's camera is not the one it was made at, calibrate again from the staff page", own, shared)
	return nil
}

// cameraLearnedFile is where a table's reader keeps what it learned of
// its camera during play (where it shows a flat die's numeral, how large
// the dice look), so that a restart does not forget it: named after the
// journal, as its staff secret is, so that tables whose journals share a
// folder keep theirs apart (table.db: table.camera-learned.json).
func cameraLearnedFile(journal string) string {
	p := strings.TrimSuffix(journal, filepath.Ext(journal)) + ".camera-learned.json"
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	return p
}

// diceLog is the table's dice camera for the dashboard; safe for
// concurrent use.
type diceLog struct {
	reader  *diceReader
	changed chan struct{}
	// cafeChanged is changed's twin for the café's presence (the staff
	// page takes changed's signals)
	cafeChanged chan struct{}

	mu      sync.Mutex
	throws  []dashboard.DiceThrow      // oldest first, at most maxThrows; guarded by mu
	pending *input.DiceReading         // the verdict before the next roll; guarded by mu
	waits   map[string]chan readerLine // inspect requests by file; guarded by mu
	// The calibration from the table's throws (dicecalib.go).
	calibFile   string                              // where it is saved
	calibID     int64                               // the last request's id; guarded by mu
	calibWaits  map[int64]chan input.DiceCalibReply // learn and calibrate requests by id; guarded by mu
	calibration *dashboard.DiceCalibration          // as the reader last told it; guarded by mu
}

func newDiceLog(r *diceReader) *diceLog {
	return &diceLog{reader: r, changed: make(chan struct{}, 1), cafeChanged: make(chan struct{}, 1), waits: map[string]chan readerLine{}, calibWaits: map[int64]chan input.DiceCalibReply{}}
}

func (l *diceLog) Changed() <-chan struct{} { return l.changed }

func (l *diceLog) Throws() []dashboard.DiceThrow {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]dashboard.DiceThrow(nil), l.throws...)
}

func (l *diceLog) signal() {
	for _, c := range []chan struct{}{l.changed, l.cafeChanged} {
		select {
		case c <- struct{}{}:
		default:
		}
	}
}

// line takes a reader's line that is not a recording line; false when
// it is not one of these either.
func (l *diceLog) line(text string) bool {
	if l.calibLine(text) {
		return true
	}
	if !strings.Contains(text, `"reading"`) && !strings.Contains(text, `"inspected"`) {
		return false
	}
	var rl readerLine
	if json.Unmarshal([]byte(text), &rl) != nil {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch rl.Type {
	case "reading":
		r := rl.DiceReading
		l.pending = &r
	case "inspected":
		if w, ok := l.waits[rl.File]; ok {
			delete(l.waits, rl.File)
			w <- rl
		}
	default:
		return false
	}
	return true
}

// event records a roll or unreadable roll of the reader, with the
// verdict it gave before it, before the session sees it.
func (l *diceLog) event(e input.Event) {
	var t dashboard.DiceThrow
	l.mu.Lock()
	switch e := e.(type) {
	case input.DiceRolled:
		if p := l.pending; p != nil && p.Blue.Face == e.Blue && p.Red.Face == e.Red {
			t.DiceReading = *p
		} else {
			// A reader without verdicts: the roll as reported.
			d := input.DieReading{Confidence: e.Confidence, Found: true}
			t.Blue, t.Red = d, d
			t.Blue.Face, t.Red.Face = e.Blue, e.Red
		}
		t.At = e.At
	case input.DiceUnreadable:
		if p := l.pending; p != nil {
			t.DiceReading = *p
		}
		t.At, t.Reason, t.ReasonFR = e.At, e.Reason, e.ReasonFR
	default:
		l.mu.Unlock()
		return
	}
	l.pending = nil
	l.throws = append(l.throws, t)
	if len(l.throws) > maxThrows {
		l.throws = l.throws[len(l.throws)-maxThrows:]
	}
	l.mu.Unlock()
	l.signal()
}

// note records what the session did with a reading (table.Opts.DiceNote).
func (l *diceLog) note(n table.DiceNote) {
	l.mu.Lock()
	found := false
	for i := len(l.throws) - 1; i >= 0; i-- {
		t := &l.throws[i]
		if !t.At.Equal(n.At) {
			continue
		}
		if n.Fate == table.DiceUnreadable || n.Fate == table.DiceEntered || (t.Blue.Face == n.Blue && t.Red.Face == n.Red) {
			t.Fate, t.Seq, t.Why = string(n.Fate), n.Seq, nil
			if n.Entered != ([2]input.Face{}) {
				t.Entered = []int{int(n.Entered[0]), int(n.Entered[1])}
			}
			if n.Why != (kit.Text{}) {
				why := n.Why
				t.Why = &why
			}
			found = true
			break
		}
	}
	l.mu.Unlock()
	if found {
		l.signal()
	}
}

// Snapshot asks the reader for the last frame it read (dashboard.DiceCamera).
func (l *diceLog) Snapshot(ctx context.Context, path string) (input.DiceReading, error) {
	req, _ := json.Marshal(map[string]string{"type": "inspect", "file": path})
	rl, err := askReader(ctx, l, l.waits, path, req)
	switch {
	case err != nil:
		return input.DiceReading{}, err
	case rl.Code == "no-frame":
		return rl.DiceReading, fmt.Errorf("%w: %s", dashboard.ErrNoFrame, rl.Error)
	case rl.Error != "":
		return rl.DiceReading, fmt.Errorf("the dice reader: %s", rl.Error)
	}
	return rl.DiceReading, nil
}
