package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"comptoir/dashboard"
	"comptoir/games/kit"
	"comptoir/input"
)

// The staff page's calibration from the table's throws
// (dashboard.DiceCamera's Learn, Calibrate and Calibration): the dice
// reader child learns its last frame as a throw on a "learn" request and
// saves the calibration to the table's calibration file on a "calibrate"
// request, reading with it at once; the daemon starts the next child
// with that file (diceReader.calibration). What the child learns adds to
// the calibration it reads with, which it tells at its start (a
// "calibration" line), unless the staff start again (a "reset" request).

// input.DiceCalibReply takes the reader's "learned", "calibrated",
// "reset", "camera-forgotten", "calibration" and "error" lines; false for
// any other.
func (l *diceLog) calibLine(text string) bool {
	if !strings.Contains(text, `"learned"`) && !strings.Contains(text, `"calibrated"`) && !strings.Contains(text, `"reset"`) &&
		!strings.Contains(text, `"camera-forgotten"`) && !strings.Contains(text, `"calibration"`) && !strings.Contains(text, `"error"`) {
		return false
	}
	var cl input.DiceCalibReply
	if json.Unmarshal([]byte(text), &cl) != nil {
		return false
	}
	switch cl.Type {
	case "calibration":
		// the calibration the new child reads with, saved earlier
		state := calibState(cl)
		state.Saved, state.Faces = true, cl.Faces
		l.mu.Lock()
		l.calibration = &state
		l.mu.Unlock()
		l.signal()
		return true
	case "learned", "calibrated", "reset", "camera-forgotten":
		l.mu.Lock()
		if w, ok := l.calibWaits[cl.ID]; ok {
			delete(l.calibWaits, cl.ID)
			w <- cl
		}
		l.mu.Unlock()
		return true
	case "error":
		l.reader.logf("dice reader: %s", cl.Error)
		return true
	}
	return false
}

// restarted forgets the calibration learned: a new reader child starts
// from nothing (with the calibration saved, if any).
func (l *diceLog) restarted() {
	l.mu.Lock()
	had := l.calibration != nil
	l.calibration = nil
	l.mu.Unlock()
	if had {
		l.signal()
	}
}

// Calibration is the calibration as the reader last told it (nil before
// the first throw learned).
func (l *diceLog) Calibration() *dashboard.DiceCalibration {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.calibration == nil {
		return nil
	}
	c := *l.calibration
	return &c
}

// Learn asks the reader to learn its last frame as a throw of blue and
// red.
func (l *diceLog) Learn(ctx context.Context, blue, red int) (dashboard.DiceCalibration, error) {
	return l.ask(ctx, map[string]any{"type": "learn", "blue": blue, "red": red})
}

// Calibrate asks the reader to save the calibration learned to the
// table's calibration file and read with it.
func (l *diceLog) Calibrate(ctx context.Context) (dashboard.DiceCalibration, error) {
	return l.ask(ctx, map[string]any{"type": "calibrate", "file": l.calibFile})
}

// Reset asks the reader to start the calibration again from nothing.
func (l *diceLog) Reset(ctx context.Context) (dashboard.DiceCalibration, error) {
	return l.ask(ctx, map[string]any{"type": "reset"})
}

// ForgetCamera asks the reader to forget what it knows of its camera (the
// staff moved it); the last throw's view then says what it knows now, so
// that the staff page says at once that it learns the camera afresh.
func (l *diceLog) ForgetCamera(ctx context.Context) (dashboard.DiceCalibration, error) {
	cl, err := l.askReply(ctx, map[string]any{"type": "forget-camera"})
	if err != nil {
		return dashboard.DiceCalibration{}, err
	}
	if cl.Error != "" {
		return dashboard.DiceCalibration{}, fmt.Errorf("the dice reader: %s", cl.Error)
	}
	if cl.View != nil {
		l.mu.Lock()
		if n := len(l.throws); n > 0 {
			v := *cl.View
			l.throws[n-1].View = &v
		}
		l.mu.Unlock()
		l.signal()
	}
	state := calibState(cl)
	if c := l.Calibration(); c != nil {
		state = *c // what it learned of the dice stands
	}
	return state, nil
}

// calibState is the calibration a reply of the reader tells, not saved
// (no Faces) until the caller says so.
func calibState(cl input.DiceCalibReply) dashboard.DiceCalibration {
	state := dashboard.DiceCalibration{DiceCalibState: cl.DiceCalibState}
	state.Faces = nil
	if state.Blue == nil {
		state.Blue = []int{}
	}
	if state.Red == nil {
		state.Red = []int{}
	}
	return state
}

// ask sends a request to the reader and waits for its answer.
func (l *diceLog) ask(ctx context.Context, req map[string]any) (dashboard.DiceCalibration, error) {
	cl, err := l.askReply(ctx, req)
	if err != nil {
		return dashboard.DiceCalibration{}, err
	}
	state := calibState(cl)
	if cl.Type == "calibrated" && cl.Error == "" {
		state.Saved, state.Faces = true, cl.Faces
	}
	if state.Dice > 0 || state.Saved || cl.Type == "reset" {
		l.mu.Lock()
		if prev := l.calibration; prev != nil && prev.Saved && !state.Saved && state.Dice == prev.Dice {
			state.Saved, state.Faces = true, prev.Faces // a refused throw: what is saved is still in use
		}
		s := state
		l.calibration = &s
		l.mu.Unlock()
		l.signal()
	}
	switch cl.Code {
	case "":
		return state, nil
	case "no-frame":
		return state, fmt.Errorf("%w: %s", dashboard.ErrNoFrame, cl.Error)
	case "refused", "too-few", "bad-request":
		return state, &dashboard.CalibrationRefused{Text: kit.Text{EN: cl.Error, FR: cl.ErrorFR}, State: state}
	}
	return state, fmt.Errorf("the dice reader: %s", cl.Error)
}

// askReply sends a request to the reader and waits for its reply.
func (l *diceLog) askReply(ctx context.Context, req map[string]any) (input.DiceCalibReply, error) {
	l.mu.Lock()
	l.calibID++
	id := l.calibID
	l.mu.Unlock()
	req["id"] = id
	b, _ := json.Marshal(req)
	return askReader(ctx, l, l.calibWaits, id, b)
}

// askReader sends msg to the reader and waits for the answer that its
// stdout reader hands over under key in waits (a map of l's, guarded by
// l.mu), or for ctx.
func askReader[K comparable, V any](ctx context.Context, l *diceLog, waits map[K]chan V, key K, msg []byte) (V, error) {
	var zero V
	w := make(chan V, 1)
	l.mu.Lock()
	waits[key] = w
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		delete(waits, key)
		l.mu.Unlock()
	}()
	if !l.reader.send(msg) {
		return zero, fmt.Errorf("%w: the camera's reader is restarting or stopped", dashboard.ErrNoCamera)
	}
	select {
	case v := <-w:
		return v, nil
	case <-ctx.Done():
		return zero, fmt.Errorf("%w: it did not answer (%w)", dashboard.ErrNoCamera, ctx.Err())
	}
}
