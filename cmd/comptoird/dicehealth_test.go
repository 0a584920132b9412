package main

import (
	"encoding/json"
	"testing"

	"comptoir/cafe"
	"comptoir/dashboard"
	"comptoir/input"
)

// TestDiceHealth: the floor's summary of a table's dice camera counts
// the throws it read, those the players entered or corrected, leaves out
// what is not the camera's doing, and asks the staff for what the
// reader's last view and its record call for.
func TestDiceHealth(t *testing.T) {
	throw := func(fate string, view *input.ReaderView) dashboard.DiceThrow {
		th := dashboard.DiceThrow{Fate: fate}
		th.View = view
		return th
	}
	many := func(n int, fate string) []dashboard.DiceThrow {
		out := make([]dashboard.DiceThrow, n)
		for i := range out {
			out[i] = throw(fate, nil)
		}
		return out
	}
	glare := &input.ReaderView{Blank: 5, BlankOf: 16, Glare: true}
	small := &input.ReaderView{Across: 33, Small: true, SmallUnder: 40}
	for _, tc := range []struct {
		name       string
		throws     []dashboard.DiceThrow
		calibrated bool
		want       cafe.DiceHealth
	}{
		{"nothing yet", nil, false, cafe.DiceHealth{}},
		{"every fate", []dashboard.DiceThrow{
			throw("accepted", nil), throw("accepted", nil), throw("entered", nil), throw("misread", nil),
			throw("unreadable", nil), throw("refused", nil), throw("held", nil), throw("corrected", nil), throw("", nil),
		}, false, cafe.DiceHealth{Throws: 5, Read: 2, Entered: 1, Misread: 1}},
		{"the lamp, from the last view", []dashboard.DiceThrow{throw("accepted", small), throw("entered", glare), throw("", nil)}, false,
			cafe.DiceHealth{Throws: 2, Read: 1, Entered: 1, Advice: []cafe.Line{adviceGlare}}},
		{"the lamp and the height", []dashboard.DiceThrow{throw("accepted", &input.ReaderView{Glare: true, Small: true})}, false,
			cafe.DiceHealth{Throws: 1, Read: 1, Advice: []cafe.Line{adviceGlare, adviceLower}}},
		{"under half of 10 throws read", append(many(9, "entered"), throw("accepted", nil)), false,
			cafe.DiceHealth{Throws: 10, Read: 1, Entered: 9, Advice: []cafe.Line{adviceCalibrate}}},
		{"half read is enough", append(many(5, "entered"), many(5, "accepted")...), false,
			cafe.DiceHealth{Throws: 10, Read: 5, Entered: 5}},
		{"under half of 9 throws: not yet", many(9, "entered"), false, cafe.DiceHealth{Throws: 9, Entered: 9}},
		{"two misreads", append(many(2, "misread"), many(8, "accepted")...), false,
			cafe.DiceHealth{Throws: 10, Read: 8, Misread: 2, Advice: []cafe.Line{adviceCalibrate}}},
		{"calibrated already", append(many(2, "misread"), throw("accepted", small)), true,
			cafe.DiceHealth{Throws: 3, Read: 1, Misread: 2, Advice: []cafe.Line{adviceLower, adviceCheck}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := diceHealth(tc.throws, tc.calibrated)
			if !got.Equal(&tc.want) {
				t.Errorf("diceHealth = %+v, want %+v", *got, tc.want)
			}
		})
	}
	// every line of advice goes on the wire
	for _, l := range []cafe.Line{adviceGlare, adviceLower, adviceCalibrate, adviceCheck} {
		if _, err := cafe.DecodePresence(presenceWith(l)); err != nil {
			t.Errorf("advice %q: %v", l.EN, err)
		}
	}
}

// presenceWith is a table's presence whose dice health gives the advice l.
func presenceWith(l cafe.Line) []byte {
	data, _ := json.Marshal(cafe.Presence{V: cafe.Version, Table: "t", State: cafe.StatePlaying, Dice: &cafe.DiceHealth{Throws: 1, Advice: []cafe.Line{l}}})
	return data
}
