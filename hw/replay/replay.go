package replay

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"comptoir/hw/clock"
	"comptoir/input"
)

// ErrFormat is wrapped by every decoding error.
var ErrFormat = errors.New("bad recording")

// line is one recorded event as it is written.
type line struct {
	T          string   `json:"t"`
	Type       string   `json:"type"`
	UID        string   `json:"uid,omitempty"`
	Name       string   `json:"name,omitempty"`
	Cells      []string `json:"cells,omitempty"`
	Device     string   `json:"device,omitempty"`
	OK         *bool    `json:"ok,omitempty"`
	Detail     string   `json:"detail,omitempty"`
	Blue       int      `json:"blue,omitempty"`
	Red        int      `json:"red,omitempty"`
	Confidence *float64 `json:"confidence,omitempty"`
	Correction bool     `json:"correction,omitempty"`
	LatencyMS  *float64 `json:"latency_ms,omitempty"`
	Reason     string   `json:"reason,omitempty"`
	ReasonFR   string   `json:"reason_fr,omitempty"`
}

// Encode returns the recording line of e, without the newline.
func Encode(e input.Event) ([]byte, error) { return encode(e, e.When()) }

// encode writes e as a line stamped at.
func encode(e input.Event, at time.Time) ([]byte, error) {
	l := line{T: at.UTC().Format(time.RFC3339Nano)}
	switch e := e.(type) {
	case input.TagTapped:
		l.Type, l.UID = "tag", e.UID
	case input.UnknownTag:
		l.Type, l.UID = "unknown_tag", e.UID
	case input.Button:
		l.Type, l.Name = "button", e.Name
	case input.SquareSensed:
		l.Type, l.Cells = "sensed", make([]string, len(e.Cells))
		for i, c := range e.Cells {
			l.Cells[i] = c.String()
		}
		if len(e.Cells) == 0 {
			l.Cells = nil
			b, err := json.Marshal(l)
			if err != nil {
				return nil, err
			}
			// An empty board is "cells":[], which omitempty would drop.
			return append(b[:len(b)-1], []byte(`,"cells":[]}`)...), nil
		}
	case input.DeviceStatus:
		ok := e.OK
		l.Type, l.Device, l.OK, l.Detail = "status", e.Device, &ok, e.Detail
	case input.DiceRolled:
		c := e.Confidence
		l.Type, l.Blue, l.Red, l.Confidence, l.Correction = "dice", int(e.Blue), int(e.Red), &c, e.Correction
		if e.Latency != 0 {
			ms := float64(e.Latency) / float64(time.Millisecond)
			l.LatencyMS = &ms
		}
	case input.DiceUnreadable:
		l.Type, l.Reason, l.ReasonFR = "dice_unreadable", e.Reason, e.ReasonFR
	default:
		return nil, fmt.Errorf("replay: cannot record a %T", e)
	}
	return json.Marshal(l)
}

// Writer writes a recording.
type Writer struct {
	mu   sync.Mutex // guards w and last
	w    io.Writer
	last time.Time // time of the last line written
}

// NewWriter returns a writer of recording lines to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write appends one event. Events merged from several devices can arrive
// a little out of time order (a device stamps an event, another's is sent
// first); a recording is in the order the table received them, so an event
// stamped before the previous line is written at the previous line's time.
func (w *Writer) Write(e input.Event) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	at := e.When()
	if at.Before(w.last) {
		at = w.last
	}
	b, err := encode(e, at)
	if err != nil {
		return err
	}
	if _, err = w.w.Write(append(b, '\n')); err != nil {
		return err
	}
	w.last = at
	return nil
}

// Decode reads a whole recording; name names it in errors.
func Decode(r io.Reader, name string) ([]input.Event, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	var out []input.Event
	var last time.Time
	n := 0
	for sc.Scan() {
		n++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		e, err := decodeLine([]byte(text))
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w: %v", name, n, ErrFormat, err)
		}
		if e.When().Before(last) {
			return nil, fmt.Errorf("%s:%d: %w: time %s is before the line above (%s); a recording is in time order", name, n, ErrFormat, e.When().Format(time.RFC3339Nano), last.Format(time.RFC3339Nano))
		}
		last = e.When()
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w: %v", name, n+1, ErrFormat, err)
	}
	return out, nil
}

func decodeLine(b []byte) (input.Event, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var l line
	if err := dec.Decode(&l); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("more than one JSON value on the line")
	}
	if l.T == "" {
		return nil, errors.New(`missing "t"`)
	}
	at, err := time.Parse(time.RFC3339Nano, l.T)
	if err != nil {
		return nil, fmt.Errorf(`"t": %q is not an RFC 3339 time like 2026-11-21T20:00:00.120Z`, l.T)
	}
	// need lists the fields a type requires, and allowed every field it may have.
	check := func(allowed ...string) error {
		set := map[string]bool{"t": true, "type": true}
		for _, a := range allowed {
			set[a] = true
		}
		have := map[string]bool{
			"uid": l.UID != "", "name": l.Name != "", "cells": l.Cells != nil, "device": l.Device != "",
			"ok": l.OK != nil, "detail": l.Detail != "", "blue": l.Blue != 0, "red": l.Red != 0,
			"confidence": l.Confidence != nil, "correction": l.Correction, "latency_ms": l.LatencyMS != nil, "reason": l.Reason != "",
			"reason_fr": l.ReasonFR != "",
		}
		var extra []string
		for k, v := range have {
			if v && !set[k] {
				extra = append(extra, k)
			}
		}
		if len(extra) > 0 {
			sort.Strings(extra)
			return fmt.Errorf("field %q does not belong to a %q event", extra[0], l.Type)
		}
		return nil
	}
	need := func(field string, ok bool) error {
		if !ok {
			return fmt.Errorf("a %q event needs %q", l.Type, field)
		}
		return nil
	}
	switch l.Type {
	case "tag", "unknown_tag":
		if err := errors.Join(check("uid"), need("uid", l.UID != "")); err != nil {
			return nil, err
		}
		if !isUID(l.UID) {
			return nil, fmt.Errorf(`"uid": %q is not an upper-case hex UID like 04A2B3C4D5E680`, l.UID)
		}
		if l.Type == "tag" {
			return input.TagTapped{At: at, UID: l.UID}, nil
		}
		return input.UnknownTag{At: at, UID: l.UID}, nil
	case "button":
		if err := errors.Join(check("name"), need("name", l.Name != "")); err != nil {
			return nil, err
		}
		return input.Button{At: at, Name: l.Name}, nil
	case "sensed":
		if err := errors.Join(check("cells"), need("cells", l.Cells != nil)); err != nil {
			return nil, err
		}
		cells := make([]input.Cell, 0, len(l.Cells))
		for _, s := range l.Cells {
			c, err := parseCell(s)
			if err != nil {
				return nil, err
			}
			cells = append(cells, c)
		}
		return input.SquareSensed{At: at, Cells: cells}, nil
	case "status":
		if err := errors.Join(check("device", "ok", "detail"), need("device", l.Device != ""), need("ok", l.OK != nil)); err != nil {
			return nil, err
		}
		return input.DeviceStatus{At: at, Device: l.Device, OK: *l.OK, Detail: l.Detail}, nil
	case "dice":
		if err := check("blue", "red", "confidence", "correction", "latency_ms"); err != nil {
			return nil, err
		}
		if l.Blue < 1 || l.Blue > 8 || l.Red < 1 || l.Red > 8 {
			return nil, fmt.Errorf(`a "dice" event needs "blue" and "red", each 1 to 8`)
		}
		e := input.DiceRolled{At: at, Blue: input.Face(l.Blue), Red: input.Face(l.Red), Confidence: 1, Correction: l.Correction}
		if l.Confidence != nil {
			if *l.Confidence < 0 || *l.Confidence > 1 || math.IsNaN(*l.Confidence) {
				return nil, fmt.Errorf(`"confidence": %v is not between 0 and 1`, *l.Confidence)
			}
			e.Confidence = *l.Confidence
		}
		if l.LatencyMS != nil {
			if *l.LatencyMS < 0 || *l.LatencyMS > 1e7 {
				return nil, fmt.Errorf(`"latency_ms": %v is out of range`, *l.LatencyMS)
			}
			e.Latency = time.Duration(*l.LatencyMS * float64(time.Millisecond))
		}
		return e, nil
	case "dice_unreadable":
		if err := errors.Join(check("reason", "reason_fr"), need("reason", l.Reason != "")); err != nil {
			return nil, err
		}
		return input.DiceUnreadable{At: at, Reason: l.Reason, ReasonFR: l.ReasonFR}, nil
	case "":
		return nil, errors.New(`missing "type"`)
	}
	return nil, fmt.Errorf(`"type": %q is not one of tag, unknown_tag, button, sensed, status, dice, dice_unreadable`, l.Type)
}

func isUID(s string) bool {
	if len(s) != 8 && len(s) != 14 && len(s) != 20 {
		return false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'A' && r <= 'F') {
			return false
		}
	}
	return true
}

func parseCell(s string) (input.Cell, error) {
	if len(s) == 3 && s[1] == '-' {
		x, errx := strconv.Atoi(s[:1])
		y, erry := strconv.Atoi(s[2:])
		if errx == nil && erry == nil && x >= 1 && x <= 8 && y >= 1 && y <= 8 {
			return input.Cell{X: x, Y: y}, nil
		}
	}
	return input.Cell{}, fmt.Errorf(`"cells": %q is not a cell X-Y, each 1 to 8`, s)
}

// Opts configures a Source.
type Opts struct {
	// Speed divides the recorded gaps between events: 1 plays at the
	// recorded pace, 10 ten times faster, +Inf without waiting. 0 means 1.
	Speed float64
	// KeepTimes keeps the recorded times in the events; otherwise each
	// event carries the clock's time when it is emitted.
	KeepTimes bool
	// Clock times the playback; nil means the real clock.
	Clock clock.Clock
}

// DefaultOpts plays at the recorded pace on the real clock.
var DefaultOpts = Opts{Speed: 1}

// Source plays a recording back.
type Source struct {
	name   string
	events []input.Event
	opts   Opts
}

// Open reads a recording file.
func Open(path string, opts Opts) (*Source, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	defer f.Close()
	return Read(f, filepath.Base(path), opts)
}

// Read reads a recording from r; name names it in errors.
func Read(r io.Reader, name string, opts Opts) (*Source, error) {
	if opts.Speed == 0 {
		opts.Speed = 1
	}
	if opts.Speed < 0 || math.IsNaN(opts.Speed) {
		return nil, fmt.Errorf("replay: speed %v: want a positive factor, 1 for the recorded pace", opts.Speed)
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real()
	}
	events, err := Decode(r, name)
	if err != nil {
		return nil, err
	}
	return &Source{name: name, events: events, opts: opts}, nil
}

// Events returns the recorded events, with their recorded times.
func (s *Source) Events() []input.Event { return append([]input.Event(nil), s.events...) }

// String names the recording.
func (s *Source) String() string { return "replay of " + s.name }

// Run plays the recording until its end or until ctx is done, then closes
// the channel. The first event comes at once.
func (s *Source) Run(ctx context.Context) <-chan input.Event {
	out := make(chan input.Event)
	go func() {
		defer close(out)
		for i, e := range s.events {
			if i > 0 && !math.IsInf(s.opts.Speed, 1) {
				gap := e.When().Sub(s.events[i-1].When())
				if gap > 0 {
					if clock.Sleep(ctx, s.opts.Clock, time.Duration(float64(gap)/s.opts.Speed)) != nil {
						return
					}
				}
			}
			if !s.opts.KeepTimes {
				e = input.WithTime(e, s.opts.Clock.Now())
			}
			select {
			case out <- e:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

// Record writes every event of in to w until in is closed or ctx is done.
func Record(ctx context.Context, w *Writer, in <-chan input.Event) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case e, ok := <-in:
			if !ok {
				return nil
			}
			if err := w.Write(e); err != nil {
				return fmt.Errorf("replay: recording: %w", err)
			}
		}
	}
}
