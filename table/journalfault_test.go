package table

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/input"
	"comptoir/journal"
	"comptoir/journal/faulttest"
)

// journalStatus is the journal's status in u, if any.
func journalStatus(u Update) (input.DeviceStatus, bool) {
	for _, d := range u.Devices {
		if d.Device == journalDevice {
			return d, true
		}
	}
	return input.DeviceStatus{}, false
}

// until advances the fake clock past the journal's check and waits
// until cond holds of the latest update.
func (r *rig) until(what string, cond func(Update) bool) Update {
	r.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		r.clock.Advance(DefaultJournalCheck)
		r.sync()
		if u := r.latest(); cond(u) {
			return u
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("%s: not within 5 s; latest update: Seq %d devices %+v refusal %+v", what, r.latest().Seq, r.latest().Devices, r.latest().Refusal)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// checkWords fails if a refusal's words are SQLite's or say nothing to do.
func checkWords(t *testing.T, en, fr string) {
	t.Helper()
	for _, raw := range []string{"disk I/O error", "(778)", "(13)", "SQL", "errno", "operation not permitted"} {
		if strings.Contains(en, raw) || strings.Contains(fr, raw) {
			t.Errorf("the words shown carry the raw cause %q: %q / %q", raw, en, fr)
		}
	}
	if !strings.Contains(en, "staff") || !strings.Contains(fr, "personnel") {
		t.Errorf("the words shown do not say to call the staff: %q / %q", en, fr)
	}
}

// reopenSteps reopens the journal at path and returns its running game's
// steps.
func reopenSteps(t *testing.T, path string) []journal.Step {
	t.Helper()
	st, err := journal.Open(path)
	if err != nil {
		t.Fatalf("reopen after the fault: %v", err)
	}
	defer st.Close()
	g, err := st.Resume(enginetest.Rules{})
	if err != nil {
		t.Fatalf("resume after the fault: %v", err)
	}
	return g.Steps()
}

func sameSteps(t *testing.T, got, want []journal.Step) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("after a restart the journal has %d steps, %d were acknowledged", len(got), len(want))
	}
	for i := range want {
		if got[i].Seq != want[i].Seq || got[i].By != want[i].By || got[i].Command != want[i].Command {
			t.Errorf("step %d after a restart = %d %v %q, acknowledged %d %v %q", i+1, got[i].Seq, got[i].By, got[i].Command, want[i].Seq, want[i].By, want[i].Command)
		}
	}
}

// TestJournalImmutableHoldsTableInputs makes the journal's three files
// immutable during a game: a phone's step is refused in words, the
// journal shows "not recording", a roll and a tag are held and told to
// the table, and once the fault is gone they are played in order, by
// themselves, and every acknowledged step survives a restart.
func TestJournalImmutableHoldsTableInputs(t *testing.T) {
	checkLeaks(t)
	dir := t.TempDir()
	faulttest.NeedChattr(t, dir)
	path := filepath.Join(dir, "table.db")
	r := newRig(t, path)
	ctx := context.Background()
	if err := r.s.Submit(ctx, engine.Action{By: 0, Cmd: enginetest.Take{N: 1}}); err != nil {
		t.Fatal(err)
	}
	undo := faulttest.Immutable(t, path, path+"-wal", path+"-shm")

	err := r.s.Submit(ctx, engine.Action{By: 1, Cmd: enginetest.Take{N: 1}})
	ref, ok := engine.AsRefusal(err)
	if !ok || !errors.Is(err, ErrJournal) {
		t.Fatalf("Submit with the journal immutable = %v, want a refusal of %s", err, ErrJournal.Code)
	}
	checkWords(t, ref.EN, ref.FR)
	u := r.latest()
	if d, ok := journalStatus(u); !ok || d.OK || !strings.Contains(d.Detail, "not recording") || !strings.Contains(d.DetailFR, "n'enregistre plus") {
		t.Errorf("journal status = %+v, want not recording, in both languages", d)
	}
	if u.Refusal == nil || u.Refusal.Seat != 1 || u.Refusal.EN != ref.EN {
		t.Errorf("refusal shown = %+v, want Bruno's", u.Refusal)
	}

	r.input(input.DiceRolled{At: t0, Blue: 2, Red: 5, Confidence: 1})
	u = r.latest()
	if u.Seq != 1 || u.Refusal == nil || u.Refusal.Seat != engine.NoSeat || !strings.Contains(u.Refusal.EN, "The roll blue=2 red=5 is not recorded yet: it is held (1 waiting)") || !strings.Contains(u.Refusal.FR, "gardé") {
		t.Fatalf("after a roll the journal cannot take: Seq %d refusal %+v, want the roll held and told", u.Seq, u.Refusal)
	}
	r.input(input.TagTapped{At: t0, UID: "04CC"})
	if u = r.latest(); u.Seq != 1 || !strings.Contains(u.Refusal.EN, "held (2 waiting)") {
		t.Fatalf("after a tag: Seq %d refusal %+v, want it held behind the roll", u.Seq, u.Refusal)
	}
	// A phone does not go before the held inputs.
	if err := r.s.Submit(ctx, engine.Action{By: 1, Cmd: enginetest.Take{N: 1}}); !errors.Is(err, ErrJournal) {
		t.Fatalf("Submit while inputs are held = %v, want a journal refusal", err)
	}

	undo()
	u = r.until("the held inputs played", func(u Update) bool { return u.Seq == 3 })
	if pile, h := held(t, u.State); pile != 15 || h[1] != 2 || h[2] != 3 {
		t.Errorf("after the held roll and tag: pile %d held %v, want 15 with Bruno 2 (the roll) and Chloé 3 (the tag)", pile, h)
	}
	if d, ok := journalStatus(u); !ok || !d.OK {
		t.Errorf("journal status = %+v, want recording", d)
	}
	if err := r.s.Submit(ctx, engine.Action{By: 0, Cmd: enginetest.Take{N: 1}}); err != nil {
		t.Fatalf("Submit after the fault = %v", err)
	}
	acked := r.game.Steps()
	r.stop()
	sameSteps(t, reopenSteps(t, path), acked)
}

// TestJournalDeletedWhileRunning deletes the journal during a game: the
// periodic check finds it, the game is written again at its path, the
// staff are told on the journal's status, and nothing is lost.
func TestJournalDeletedWhileRunning(t *testing.T) {
	checkLeaks(t)
	for _, tc := range []struct {
		name string
		lose func(path string) error
		word string
	}{
		{"deleted", func(path string) error { return os.Remove(path) }, "deleted"},
		{"replaced", func(path string) error {
			if err := os.WriteFile(path+".new", []byte("a photo"), 0o644); err != nil {
				return err
			}
			return os.Rename(path+".new", path)
		}, "replaced"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "table.db")
			r := newRig(t, path)
			ctx := context.Background()
			for i := 0; i < 3; i++ {
				if err := r.s.Submit(ctx, engine.Action{By: engine.Seat(i), Cmd: enginetest.Take{N: 1}}); err != nil {
					t.Fatal(err)
				}
			}
			if err := tc.lose(path); err != nil {
				t.Fatal(err)
			}
			u := r.until("the journal written again", func(u Update) bool {
				d, _ := journalStatus(u)
				return strings.Contains(d.Detail, tc.word)
			})
			d, _ := journalStatus(u)
			if !d.OK || !strings.Contains(d.Detail, path) || !strings.Contains(d.DetailFR, "réécrite") {
				t.Errorf("journal status = %+v, want it recording again, telling what happened", d)
			}
			if err := r.s.Submit(ctx, engine.Action{By: 0, Cmd: enginetest.Take{N: 2}}); err != nil {
				t.Fatalf("Submit after the journal was written again = %v", err)
			}
			acked := r.game.Steps()
			r.stop()
			sameSteps(t, reopenSteps(t, path), acked)
		})
	}
}

// TestJournalHeldLimit: beyond MaxHeld, a table input is refused as not
// recorded, never dropped without a word.
func TestJournalHeldLimit(t *testing.T) {
	checkLeaks(t)
	r := newRig(t, "")
	r.store.Close()
	for i := 0; i < MaxHeld; i++ {
		r.input(input.TagTapped{At: t0, UID: "04AA"})
	}
	if u := r.latest(); !strings.Contains(u.Refusal.EN, fmt.Sprintf("held (%d waiting)", MaxHeld)) {
		t.Fatalf("refusal after %d tags = %+v", MaxHeld, u.Refusal)
	}
	r.input(input.DiceRolled{At: t0, Blue: 1, Red: 1, Confidence: 1})
	if u := r.latest(); !strings.Contains(u.Refusal.EN, "The roll blue=1 red=1 was NOT recorded") || !strings.Contains(u.Refusal.FR, "n'a PAS été enregistré") {
		t.Fatalf("refusal of one input too many = %+v, want it told as not recorded", u.Refusal)
	}
}
