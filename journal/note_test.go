package journal

import (
	"path/filepath"
	"testing"

	"comptoir/engine"
	"comptoir/engine/enginetest"
)

// TestAppendNoted: an action step's note (AppendNoted) is its Reason, in
// memory, after the journal is opened again and for a follower
// (StepsAfter); a step appended without one (Append, as before notes
// existed) has none.
func TestAppendNoted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "table.db")
	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	g, err := st.Begin(enginetest.Rules{}, setup(21), t0)
	if err != nil {
		t.Fatal(err)
	}
	notes := []string{"", "dice read: blue=2 red=3", ""}
	for i, note := range notes {
		s, err := g.State()
		if err != nil {
			t.Fatal(err)
		}
		a := engine.Action{By: engine.NoSeat, Cmd: enginetest.Take{N: 1}}
		evs, err := s.Decide(a)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			_, err = g.Append(t0, a, evs)
		} else {
			_, err = g.AppendNoted(t0, a, evs, note)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	check := func(t *testing.T, steps []Step) {
		t.Helper()
		if len(steps) != len(notes) {
			t.Fatalf("%d steps, want %d", len(steps), len(notes))
		}
		for i, s := range steps {
			if s.Reason != notes[i] || s.Undo {
				t.Errorf("step %d: reason %q undo %v, want %q, an action", s.Seq, s.Reason, s.Undo, notes[i])
			}
		}
	}
	t.Run("in memory", func(t *testing.T) { check(t, g.Steps()) })
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	st, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	t.Run("opened again", func(t *testing.T) {
		g, err := st.Resume(enginetest.Rules{})
		if err != nil {
			t.Fatal(err)
		}
		check(t, g.Steps())
	})
	t.Run("followed", func(t *testing.T) {
		steps, err := st.StepsAfter(enginetest.Rules{}, g.ID(), 0)
		if err != nil {
			t.Fatal(err)
		}
		check(t, steps)
	})
}
