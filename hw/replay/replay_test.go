package replay

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"comptoir/hw/clock"
	"comptoir/hw/internal/leakcheck"
	"comptoir/hw/tagmap"
	"comptoir/input"
)

const demo = "../testdata/table-demo.jsonl"

func TestDemoRecording(t *testing.T) {
	s, err := Open(demo, DefaultOpts)
	if err != nil {
		t.Fatalf("Open(%s) = %v", demo, err)
	}
	ev := s.Events()
	if len(ev) != 15 {
		t.Fatalf("%d events, want 15", len(ev))
	}
	if d, ok := ev[1].(input.DiceRolled); !ok || d.Blue != 3 || d.Red != 2 || d.Latency != 140*time.Millisecond {
		t.Errorf("event 1 = %#v, want dice 3/2 latency 140ms", ev[1])
	}
	if ss, ok := ev[5].(input.SquareSensed); !ok || len(ss.Cells) != 3 || ss.Cells[2] != (input.Cell{X: 3, Y: 3}) {
		t.Errorf("event 5 = %#v, want sensed 2-2 3-2 3-3", ev[5])
	}
	// The demo's tag map knows every tag but one, which replays as unknown.
	m, err := tagmap.Load("../testdata/tags.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r := tagmap.NewResolver(m)
	var unknown []string
	for _, e := range ev {
		if u, ok := r.Resolve(e).(input.UnknownTag); ok {
			unknown = append(unknown, u.UID)
		}
	}
	if strings.Join(unknown, ",") != "04FFFFFFFFFF01" {
		t.Errorf("unknown tags in the demo = %v, want [04FFFFFFFFFF01]", unknown)
	}
}

// TestRoundTrip checks that every recorded line encodes back to the same
// event.
func TestRoundTrip(t *testing.T) {
	s, err := Open(demo, DefaultOpts)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for _, e := range s.Events() {
		if err := w.Write(e); err != nil {
			t.Fatal(err)
		}
	}
	w.Write(input.SquareSensed{At: s.Events()[14].When(), Cells: nil})
	again, err := Decode(&buf, "again.jsonl")
	if err != nil {
		t.Fatalf("Decode(written) = %v\n%s", err, buf.String())
	}
	want := append(s.Events(), input.SquareSensed{At: s.Events()[14].When(), Cells: []input.Cell{}})
	if len(again) != len(want) {
		t.Fatalf("%d events after the round trip, want %d", len(again), len(want))
	}
	for i := range want {
		if again[i].String() != want[i].String() || !again[i].When().Equal(want[i].When()) {
			t.Errorf("event %d = %v at %v, want %v at %v", i, again[i], again[i].When(), want[i], want[i].When())
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"unknown field", `{"t":"2026-11-21T20:00:00Z","type":"tag","uid":"DEADBEEF","colour":"red"}`, `r.jsonl:1: bad recording: json: unknown field "colour"`},
		{"field of another type", `{"t":"2026-11-21T20:00:00Z","type":"button","name":"confirm","uid":"DEADBEEF"}`, `r.jsonl:1: bad recording: field "uid" does not belong to a "button" event`},
		{"missing field", `{"t":"2026-11-21T20:00:00Z","type":"status","device":"nfc"}`, `r.jsonl:1: bad recording: a "status" event needs "ok"`},
		{"bad type", `{"t":"2026-11-21T20:00:00Z","type":"pawn"}`, `r.jsonl:1: bad recording: "type": "pawn" is not one of`},
		{"bad time", `{"t":"yesterday","type":"button","name":"undo"}`, `r.jsonl:1: bad recording: "t": "yesterday" is not an RFC 3339 time`},
		{"backwards", "{\"t\":\"2026-11-21T20:00:01Z\",\"type\":\"button\",\"name\":\"undo\"}\n# comment\n{\"t\":\"2026-11-21T20:00:00Z\",\"type\":\"button\",\"name\":\"undo\"}", `r.jsonl:3: bad recording: time 2026-11-21T20:00:00Z is before the line above`},
		{"bad cell", `{"t":"2026-11-21T20:00:00Z","type":"sensed","cells":["0-1"]}`, `r.jsonl:1: bad recording: "cells": "0-1" is not a cell X-Y`},
		{"bad uid", `{"t":"2026-11-21T20:00:00Z","type":"tag","uid":"04a2"}`, `r.jsonl:1: bad recording: "uid": "04a2" is not an upper-case hex UID`},
		{"bad dice", `{"t":"2026-11-21T20:00:00Z","type":"dice","blue":9,"red":1}`, `r.jsonl:1: bad recording: a "dice" event needs "blue" and "red", each 1 to 8`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(strings.NewReader(tt.in), "r.jsonl")
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) || !errors.Is(err, ErrFormat) {
				t.Errorf("Decode error = %v, want it to start with %q", err, tt.want)
			}
		})
	}
}

// TestDiceUnreadableReasons checks an unreadable roll keeps its reason in
// both languages through a recording, and that a recording made before
// the French reason still decodes.
func TestDiceUnreadableReasons(t *testing.T) {
	at := time.Date(2026, 11, 21, 20, 0, 6, 0, time.UTC)
	for _, tc := range []struct {
		name, line string
		want       input.DiceUnreadable
		err        string
	}{
		{"english only, as before", `{"t":"2026-11-21T20:00:06Z","type":"dice_unreadable","reason":"red die cocked"}`,
			input.DiceUnreadable{At: at, Reason: "red die cocked"}, ""},
		{"both languages", `{"t":"2026-11-21T20:00:06Z","type":"dice_unreadable","reason":"red die: touching","reason_fr":"dé rouge : touche"}`,
			input.DiceUnreadable{At: at, Reason: "red die: touching", ReasonFR: "dé rouge : touche"}, ""},
		{"french without english", `{"t":"2026-11-21T20:00:06Z","type":"dice_unreadable","reason_fr":"dé rouge : touche"}`,
			input.DiceUnreadable{}, `r.jsonl:1: bad recording: a "dice_unreadable" event needs "reason"`},
		{"french on a roll", `{"t":"2026-11-21T20:00:06Z","type":"dice","blue":3,"red":2,"reason_fr":"dé rouge : touche"}`,
			input.DiceUnreadable{}, `r.jsonl:1: bad recording: field "reason_fr" does not belong to a "dice" event`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs, err := Decode(strings.NewReader(tc.line), "r.jsonl")
			if tc.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
					t.Errorf("Decode(%s) = %v, want an error starting %q", tc.line, err, tc.err)
				}
				return
			}
			if err != nil || len(evs) != 1 || evs[0] != input.Event(tc.want) {
				t.Fatalf("Decode(%s) = %#v, %v, want %#v", tc.line, evs, err, tc.want)
			}
			b, err := Encode(evs[0])
			if err != nil || string(b) != tc.line {
				t.Errorf("Encode(%#v) = %s, %v, want %s", evs[0], b, err, tc.line)
			}
		})
	}
}

// TestPace checks the playback pace on a fake clock: the gaps of the
// recording divided by the speed, and the events stamped with clock time.
func TestPace(t *testing.T) {
	leakcheck.Check(t)
	rec := `{"t":"2026-11-21T20:00:00.000Z","type":"tag","uid":"DEADBEEF"}
{"t":"2026-11-21T20:00:02.000Z","type":"button","name":"confirm"}
{"t":"2026-11-21T20:00:02.000Z","type":"button","name":"undo"}
{"t":"2026-11-21T20:00:03.000Z","type":"tag","uid":"DEADBEEF"}
`
	start := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	clk := clock.NewFake(start)
	s, err := Read(strings.NewReader(rec), "r.jsonl", Opts{Speed: 2, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out := s.Run(ctx)
	var offsets []time.Duration
	var steps []time.Duration
	for {
		select {
		case e, ok := <-out:
			if !ok {
				want := []time.Duration{0, time.Second, time.Second, 1500 * time.Millisecond}
				if len(offsets) != len(want) {
					t.Fatalf("emitted at %v, want %v", offsets, want)
				}
				for i := range want {
					if offsets[i] != want[i] {
						t.Errorf("event %d at +%v, want +%v", i, offsets[i], want[i])
					}
				}
				if len(steps) != 2 || steps[0] != time.Second || steps[1] != 500*time.Millisecond {
					t.Errorf("waits = %v, want [1s 500ms]", steps)
				}
				return
			}
			offsets = append(offsets, e.When().Sub(start))
		default:
			if clk.Pending() > 0 {
				steps = append(steps, clk.AdvanceToNext())
			} else if ctx.Err() != nil {
				t.Fatal("playback stalled")
			} else {
				time.Sleep(time.Millisecond)
			}
		}
	}
}

func TestStopsOnCancel(t *testing.T) {
	leakcheck.Check(t)
	s, err := Open(demo, Opts{Clock: clock.NewFake(time.Unix(0, 0))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	out := s.Run(ctx)
	<-out // the first event comes at once; the second waits on the fake clock
	cancel()
	for range out {
	}
}

func TestInstantPlayback(t *testing.T) {
	leakcheck.Check(t)
	s, err := Open(demo, Opts{Speed: inf(), KeepTimes: true, Clock: clock.NewFake(time.Unix(0, 0))})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for e := range s.Run(context.Background()) {
		if !e.When().Equal(s.Events()[n].When()) {
			t.Errorf("event %d at %v, want its recorded time %v", n, e.When(), s.Events()[n].When())
		}
		n++
	}
	if n != 15 {
		t.Errorf("%d events, want 15", n)
	}
}

func inf() float64 { var z float64; return 1 / z }

func TestRecord(t *testing.T) {
	leakcheck.Check(t)
	in := make(chan input.Event, 2)
	at := time.Date(2026, 11, 21, 20, 0, 0, 120e6, time.UTC)
	in <- input.TagTapped{At: at, UID: "04A2B3C4D5E680"}
	in <- input.Button{At: at.Add(time.Second), Name: "confirm"}
	close(in)
	var buf bytes.Buffer
	if err := Record(context.Background(), NewWriter(&buf), in); err != nil {
		t.Fatal(err)
	}
	want := `{"t":"2026-11-21T20:00:00.12Z","type":"tag","uid":"04A2B3C4D5E680"}
{"t":"2026-11-21T20:00:01.12Z","type":"button","name":"confirm"}
`
	if buf.String() != want {
		t.Errorf("recorded:\n%s\nwant:\n%s", buf.String(), want)
	}
}

func FuzzDecode(f *testing.F) {
	seed, err := os.ReadFile(demo)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(`{"t":"2026-11-21T20:00:00Z","type":"sensed","cells":[]}`))
	f.Add([]byte(`{"t":"2026-11-21T20:00:00Z","type":"dice_unreadable","reason":"red die: touching","reason_fr":"dé rouge : touche"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ev, err := Decode(bytes.NewReader(data), "fuzz.jsonl")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.jsonl:") {
				t.Errorf("error %q does not name the file and line", err)
			}
			return
		}
		var buf bytes.Buffer
		w := NewWriter(&buf)
		for _, e := range ev {
			if err := w.Write(e); err != nil {
				t.Fatalf("Write(%v) = %v", e, err)
			}
		}
		again, err := Decode(&buf, "again.jsonl")
		if err != nil {
			t.Fatalf("decoded events do not decode after writing: %v\n%s", err, buf.String())
		}
		if len(again) != len(ev) {
			t.Fatalf("round trip: %d events, want %d", len(again), len(ev))
		}
	})
}

// Events merged from several devices may arrive out of time order; the
// recording keeps the order received and stays readable.
func TestWriterKeepsTimeOrder(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	t0 := time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC)
	for _, e := range []input.Event{
		input.TagTapped{At: t0.Add(2 * time.Millisecond), UID: "04A1B2C3"},
		input.DeviceStatus{At: t0.Add(1 * time.Millisecond), Device: "sensors", Detail: "no answer"},
		input.Button{At: t0.Add(3 * time.Millisecond), Name: "confirm"},
	} {
		if err := w.Write(e); err != nil {
			t.Fatal(err)
		}
	}
	evs, err := Decode(&buf, "merged")
	if err != nil {
		t.Fatalf("Decode = %v", err)
	}
	if len(evs) != 3 || evs[1].When() != t0.Add(2*time.Millisecond) || evs[1].(input.DeviceStatus).Device != "sensors" {
		t.Errorf("events = %v", evs)
	}
}
