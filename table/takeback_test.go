package table

import (
	"context"
	"errors"
	"testing"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/input"
)

func TestTakeBack(t *testing.T) {
	checkLeaks(t)
	r := newRig(t, "")
	ctx := context.Background()
	take := func(by engine.Seat, n int) {
		t.Helper()
		if err := r.s.Submit(ctx, engine.Action{By: by, Cmd: enginetest.Take{N: n}}); err != nil {
			t.Fatal(err)
		}
	}
	pile := func() int { p, _ := held(t, r.latest().State); return p }
	take(0, 2) // Anna
	if l := r.latest().Last; l == nil || l.By != 0 || !l.TakeBack || l.Command != "take n=2" || len(l.Log) != 1 {
		t.Fatalf("after Anna's take: Last %+v, want Anna's step, which she may take back", l)
	}
	for _, tc := range []struct {
		name string
		seat engine.Seat
		want error
		pile int
	}{
		{"another seat", 1, ErrNoTakeBack, 19},
		{"the table", engine.NoSeat, ErrBadRequest, 19},
		{"its player", 0, nil, 21},
		{"twice", 0, ErrNoTakeBack, 21},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := r.s.TakeBack(ctx, tc.seat)
			if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
				t.Errorf("TakeBack(%v) = %v, want %v", tc.seat, err, tc.want)
			}
			if pile() != tc.pile {
				t.Errorf("pile %d, want %d", pile(), tc.pile)
			}
		})
	}
	log := r.latest().Log
	if last := log[len(log)-1]; last.EN != "Anna took back their last step." || last.FR != "Anna reprend sa dernière étape." {
		t.Errorf("the log ends with %+v, want Anna's take back", last)
	}
	// Once another player acted, the step is theirs: Anna cannot.
	take(0, 1)
	take(1, 1)
	if err := r.s.TakeBack(ctx, 0); !errors.Is(err, ErrNoTakeBack) {
		t.Errorf("Anna takes back after Bruno acted: %v, want ErrNoTakeBack", err)
	}
	// A step from the table's dice is the table's: no seat takes it back.
	r.input(input.DiceRolled{Blue: 1, Red: 1, Confidence: 1})
	if l := r.latest().Last; l == nil || l.TakeBack {
		t.Errorf("after the dice: Last %+v, want no take back", l)
	}
	// After a restart the journal is read again: the step played before
	// cannot be taken back (its state before is not kept).
	take(0, 1)
	path := r.path
	r.stop()
	r2 := newRig(t, path)
	if l := r2.latest().Last; l == nil || l.TakeBack {
		t.Errorf("after a restart: Last %+v, want no take back", l)
	}
}

func TestUndoReasonWords(t *testing.T) {
	for _, tc := range []struct{ reason, fr, en string }{
		{"undo button", "bouton d'annulation de la table", "the table's undo button"},
		{"dice corrected to blue=3 red=8", "dés corrigés : bleu 3, rouge 8", "dice corrected: blue 3, red 8"},
		{"misread die", "misread die", "misread die"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			if fr, en := undoReason(tc.reason); fr != tc.fr || en != tc.en {
				t.Errorf("undoReason(%q) = %q, %q; want %q, %q", tc.reason, fr, en, tc.fr, tc.en)
			}
		})
	}
}
