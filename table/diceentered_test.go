package table

import (
	"context"
	"sync"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/games/genoa"
	"comptoir/input"
)

// TestDiceEntered: when the camera could not read the roll (an
// unreadable reading, or one refused as too unsure) and the staff or a
// phone enter it before any other step (a refusal between does not
// matter), the session tells the reading's note as entered, with the
// faces entered and the step played: the dice as the table knows them,
// for the staff page's calibration. The camera reading the dice again, a
// step between, a step that is no roll, or one whose faces the command
// does not tell, tell nothing of the kind; a misread tells the faces
// entered too.
func TestDiceEntered(t *testing.T) {
	checkLeaks(t)
	at := t0.Add(time.Minute)
	staffDice := func(blue, red int) func(*rig) {
		return func(r *rig) {
			if err := r.s.Staff(context.Background(), StaffRequest{Kind: StaffDice, Blue: blue, Red: red}); err != nil {
				r.t.Fatal(err)
			}
		}
	}
	submit := func(a engine.Action) func(*rig) {
		return func(r *rig) {
			if err := r.s.Submit(context.Background(), a); err != nil {
				r.t.Fatal(err)
			}
		}
	}
	in := func(ev input.Event) func(*rig) { return func(r *rig) { r.input(ev) } }
	unreadable := in(input.DiceUnreadable{At: at, Reason: "red die: numeral unclear"})
	genoaSetup := engine.Setup{Game: "genoa", Variant: "alea-2001", Players: []string{"Anna", "Bruno", "Chloé"}}
	for _, tc := range []struct {
		name  string
		genoa bool
		do    []func(*rig)
		fate  DiceFate // of the last note about the reading at
		faces [2]input.Face
	}{
		{"unreadable, the staff enter it", false, []func(*rig){unreadable, staffDice(2, 3)}, DiceEntered, [2]input.Face{2, 3}},
		{"too unsure, the staff enter it", false, []func(*rig){in(input.DiceRolled{At: at, Blue: 2, Red: 3, Confidence: 0.3}), staffDice(3, 3)}, DiceEntered, [2]input.Face{3, 3}},
		{"a misread corrected", false, []func(*rig){in(input.DiceRolled{At: at, Blue: 2, Red: 3, Confidence: 1}), staffDice(3, 1)}, DiceMisread, [2]input.Face{3, 1}},
		{"unreadable, a refusal between, the staff enter it", false, []func(*rig){unreadable, func(r *rig) {
			if err := r.s.Submit(context.Background(), engine.Action{By: 0, Cmd: enginetest.Take{N: 99}}); err == nil {
				r.t.Fatal("taking 99 coins was accepted")
			}
		}, staffDice(2, 3)}, DiceEntered, [2]input.Face{2, 3}},
		{"unreadable, a step between, then the staff enter dice", false, []func(*rig){unreadable, submit(engine.Action{By: 0, Cmd: enginetest.Take{N: 1}}), staffDice(2, 3)}, DiceUnreadable, [2]input.Face{}},
		{"unreadable, a step that does not tell the faces", false, []func(*rig){unreadable, submit(engine.Action{By: 0, Cmd: enginetest.Take{N: 1}})}, DiceUnreadable, [2]input.Face{}},
		{"the staff enter dice nobody asked for", false, []func(*rig){in(input.DiceRolled{At: at, Blue: 2, Red: 3, Confidence: 1}), submit(engine.Action{By: 1, Cmd: enginetest.Take{N: 1}}), staffDice(3, 1)}, DiceAccepted, [2]input.Face{}},
		{"unreadable, the merchant's phone enters it", true, []func(*rig){unreadable, submit(engine.Action{By: 0, Cmd: genoa.Roll{Blue: 3, Red: 2}})}, DiceEntered, [2]input.Face{3, 2}},
		{"unreadable, the camera reads them again", true, []func(*rig){unreadable, in(input.DiceRolled{At: at.Add(time.Second), Blue: 3, Red: 2, Confidence: 1})}, DiceUnreadable, [2]input.Face{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var notes []DiceNote
			note := func(o *Opts) { o.DiceNote = func(n DiceNote) { mu.Lock(); notes = append(notes, n); mu.Unlock() } }
			var r *rig
			if tc.genoa {
				r = newRigOpts(t, "", genoa.New(), genoaSetup, nil, note)
				r.t = t
				drawGenoaHands(t, r)
			} else {
				r = newRigOpts(t, "", enginetest.Rules{}, tallySetup, lookup, note)
				r.t = t
			}
			for _, f := range tc.do {
				f(r)
			}
			r.sync()
			mu.Lock()
			defer mu.Unlock()
			var last *DiceNote
			for i := range notes {
				if notes[i].At.Equal(at) {
					last = &notes[i]
				}
			}
			if last == nil || last.Fate != tc.fate || last.Entered != tc.faces {
				t.Fatalf("last note of the reading %+v (all %+v), want %s with faces %v", last, notes, tc.fate, tc.faces)
			}
			if tc.fate == DiceEntered {
				if u := r.latest(); last.Seq != u.Seq || u.Refusal != nil {
					t.Errorf("entered as step %d, want the last step %d played (refusal %+v)", last.Seq, u.Seq, u.Refusal)
				}
			}
		})
	}
}

// drawGenoaHands scans the starting cards of a Genoa game at the table:
// the merchant's roll is next.
func drawGenoaHands(t *testing.T, r *rig) {
	t.Helper()
	for range 40 {
		var card string
		for _, a := range r.latest().State.Legal() {
			if d, ok := a.Cmd.(genoa.Draw); ok {
				card = d.Card
				break
			}
		}
		if card == "" {
			return
		}
		if err := r.s.Submit(context.Background(), engine.Action{By: engine.NoSeat, Cmd: genoa.Draw{Card: card}}); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("the draws never end")
}
