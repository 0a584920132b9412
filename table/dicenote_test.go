package table

import (
	"context"
	"sync"
	"testing"
	"time"

	"comptoir/engine/enginetest"
	"comptoir/input"
)

// TestDiceNotes checks what the session tells of each dice reading: an
// unreadable roll, a reading too unsure, a reading played as a step, a
// die knocked and read again, and a reading the players corrected.
func TestDiceNotes(t *testing.T) {
	checkLeaks(t)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	read := func(s int, blue, red input.Face, conf float64) input.DiceRolled {
		return input.DiceRolled{At: at(s), Blue: blue, Red: red, Confidence: conf}
	}
	type want struct {
		at   int
		fate DiceFate
		seq  bool // a step is named
	}
	for _, tc := range []struct {
		name string
		do   func(r *rig)
		want []want
	}{
		{"unreadable", func(r *rig) { r.input(input.DiceUnreadable{At: at(1), Reason: "red die: numeral unclear"}) }, []want{{1, DiceUnreadable, false}}},
		{"unsure", func(r *rig) { r.input(read(2, 2, 3, 0.5)) }, []want{{2, DiceRefused, false}}},
		{"accepted", func(r *rig) { r.input(read(3, 2, 3, 0.97)) }, []want{{3, DiceAccepted, true}}},
		{"knocked", func(r *rig) {
			r.input(read(4, 2, 3, 0.97))
			c := read(5, 2, 4, 0.97)
			c.Correction = true
			r.input(c)
		}, []want{{4, DiceAccepted, true}, {4, DiceCorrected, true}, {5, DiceAccepted, true}}},
		{"misread", func(r *rig) {
			r.input(read(6, 2, 3, 0.97))
			if err := r.s.Staff(context.Background(), StaffRequest{Kind: StaffDice, Blue: 3, Red: 3}); err != nil {
				t.Fatal(err)
			}
		}, []want{{6, DiceAccepted, true}, {6, DiceMisread, true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var notes []DiceNote
			r := newRigOpts(t, "", enginetest.Rules{}, tallySetup, lookup, func(o *Opts) {
				o.DiceNote = func(n DiceNote) { mu.Lock(); notes = append(notes, n); mu.Unlock() }
			})
			r.t = t
			tc.do(r)
			r.sync()
			mu.Lock()
			defer mu.Unlock()
			if len(notes) != len(tc.want) {
				t.Fatalf("notes %+v, want %+v", notes, tc.want)
			}
			for i, w := range tc.want {
				n := notes[i]
				if !n.At.Equal(at(w.at)) || n.Fate != w.fate || (n.Seq != 0) != w.seq {
					t.Errorf("note %d = %+v, want %+v", i, n, w)
				}
			}
			last := notes[len(notes)-1]
			switch last.Fate {
			case DiceRefused:
				if last.Why.EN == "" || last.Why.FR == "" {
					t.Errorf("a refusal without its words: %+v", last)
				}
			case DiceMisread:
				if last.Why.EN != "the players saw blue 3, red 3" || last.Seq != notes[0].Seq {
					t.Errorf("misread %+v, want the roll the players saw and the reading's step %d", last, notes[0].Seq)
				}
			}
		})
	}
}
