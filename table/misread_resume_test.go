package table

import (
	"context"
	"errors"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/input"
)

// TestCorrectDiceAfterRestart: the session that resumes a journal file
// (a daemon restarted) knows the camera's reading standing as the last
// step as the one that played it did: the update tells it with the seat
// that threw, and the thrower's CorrectDice is accepted and journalled as
// a misread. A roll entered by hand, a step after the reading, an undo
// since, a journal step without a note (written before notes existed)
// tell no reading, and the correction is refused as too late.
func TestCorrectDiceAfterRestart(t *testing.T) {
	checkLeaks(t)
	read := func(blue, red input.Face) func(*rig) {
		return func(r *rig) {
			r.input(input.DiceRolled{At: r.clock.Now().Add(-time.Second), Blue: blue, Red: red, Confidence: 1})
		}
	}
	submit := func(a engine.Action) func(*rig) {
		return func(r *rig) {
			if err := r.s.Submit(context.Background(), a); err != nil {
				r.t.Fatal(err)
			}
		}
	}
	staff := func(req StaffRequest) func(*rig) {
		return func(r *rig) {
			if err := r.s.Staff(context.Background(), req); err != nil {
				r.t.Fatal(err)
			}
		}
	}
	// unnoted journals a take by the table as a journal written before
	// notes existed holds a reading: with no note.
	unnoted := func(r *rig) {
		a := engine.Action{By: engine.NoSeat, Cmd: enginetest.Take{N: 2}}
		evs, err := r.latest().State.Decide(a)
		if err != nil {
			r.t.Fatal(err)
		}
		if _, err := r.game.Append(r.clock.Now(), a, evs); err != nil {
			r.t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name    string
		before  []func(*rig)
		reading *Reading // want after the restart; its Seq is the last step's
		want    error    // of Anna's correction to blue 3, red 3
	}{
		{"a reading", []func(*rig){read(2, 3)}, &Reading{Blue: 2, Red: 3, Thrower: 0}, nil},
		{"read again after a die moved", []func(*rig){read(2, 3), func(r *rig) {
			r.input(input.DiceRolled{At: r.clock.Now(), Blue: 5, Red: 1, Confidence: 1, Correction: true})
		}}, &Reading{Blue: 5, Red: 1, Thrower: 0}, nil},
		{"entered by the staff", []func(*rig){staff(StaffRequest{Kind: StaffDice, Blue: 2, Red: 3})}, nil, ErrMisreadLate},
		{"a misread corrected", []func(*rig){read(2, 3), staff(StaffRequest{Kind: StaffDice, Blue: 1, Red: 3})}, nil, ErrMisreadLate},
		{"a step after the reading", []func(*rig){read(2, 3), submit(engine.Action{By: 1, Cmd: enginetest.Take{N: 1}})}, nil, ErrMisreadLate},
		{"a step undone after the reading", []func(*rig){read(2, 3), submit(engine.Action{By: 1, Cmd: enginetest.Take{N: 1}}),
			staff(StaffRequest{Kind: StaffUndo, Reason: "wrong"})}, nil, ErrMisreadLate},
		{"a journal from before notes", []func(*rig){unnoted}, nil, ErrMisreadLate},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first := newRig(t, "")
			first.t = t
			for _, f := range tc.before {
				f(first)
			}
			if tc.reading != nil {
				// The session that played it tells the reading, as the
				// one after the restart must.
				want := *tc.reading
				want.Seq = first.latest().Seq
				if got := first.latest().Reading; got == nil || *got != want {
					t.Fatalf("before the restart: Reading %+v, want %+v", got, want)
				}
			}
			path, misreads := first.path, Misreads(first.game.Steps())
			first.stop()

			r := newRig(t, path)
			r.t = t
			u := r.latest()
			switch {
			case tc.reading == nil && u.Reading != nil:
				t.Errorf("after the restart: Reading %+v, want none", *u.Reading)
			case tc.reading != nil:
				want := *tc.reading
				want.Seq = u.Seq
				if u.Reading == nil || *u.Reading != want {
					t.Fatalf("after the restart: Reading %+v, want %+v", u.Reading, want)
				}
			}
			_, heldBefore := held(t, u.State)
			err := r.s.CorrectDice(context.Background(), 0, u.Seq, 3, 3)
			if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("CorrectDice after the restart = %v, want %v", err, tc.want)
			}
			steps := r.game.Steps()
			_, heldAfter := held(t, r.latest().State)
			if tc.want != nil {
				if got := Misreads(steps); got != misreads || len(steps) != int(u.Seq) {
					t.Errorf("refused, yet the journal has %d steps (%d misreads), want %d (%d)", len(steps), got, u.Seq, misreads)
				}
				return
			}
			undo := steps[len(steps)-2]
			if want := misreadReason(tc.reading.Blue, tc.reading.Red, "Anna", 3, 3); !undo.Undo || undo.By != 0 || undo.Reason != want || undo.Undoes != u.Seq {
				t.Errorf("undo %+v, want Anna's of step %d with reason %q", undo, u.Seq, want)
			}
			if got := Misreads(steps); got != misreads+1 {
				t.Errorf("Misreads = %d, want %d", got, misreads+1)
			}
			// Tally takes the blue face counted 1-3: blue 3 takes 3
			// where the reading took its own.
			if read := (int(tc.reading.Blue)-1)%3 + 1; heldAfter[0] != heldBefore[0]-read+3 {
				t.Errorf("Anna holds %d, want %d", heldAfter[0], heldBefore[0]-read+3)
			}
			if got := r.latest().Reading; got != nil {
				t.Errorf("Reading %+v after the correction, want none", *got)
			}
			// And after one more restart, the roll entered by hand is no
			// reading either.
			path = r.path
			r.stop()
			again := newRig(t, path)
			if got := again.latest().Reading; got != nil {
				t.Errorf("after the correction and a restart: Reading %+v, want none", *got)
			}
		})
	}
}
