package journal

import (
	"database/sql"
	"path/filepath"
	"testing"

	"comptoir/engine/enginetest"
)

// TestAppendNoted: an action step's note (AppendNoted) is its Note, in
// memory, after the journal is opened again and for a follower
// (StepsAfter); a step appended without one (Append, as before notes
// existed) has none.
func TestAppendNoted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "table.db")
	notes := []string{"", "dice read: blue=2 red=3", ""}
	st, g := notedGame(t, path, notes, -1)
	check := func(t *testing.T, steps []Step) {
		t.Helper()
		if len(steps) != len(notes) {
			t.Fatalf("%d steps, want %d", len(steps), len(notes))
		}
		for i, s := range steps {
			if s.Note != notes[i] || s.Reason != "" || s.Undo {
				t.Errorf("step %d: note %q reason %q undo %v, want note %q, no reason, an action", s.Seq, s.Note, s.Reason, s.Undo, notes[i])
			}
		}
	}
	t.Run("in memory", func(t *testing.T) { check(t, g.Steps()) })
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := Open(path)
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

// TestNotesMigration: a journal of schema version 2, which kept an action
// step's note in the reason column (an undo's reason), gets a note column
// at Open: the notes move there, the undos keep their reasons.
func TestNotesMigration(t *testing.T) {
	path := filepath.Join(t.TempDir(), "table.db")
	st, g := notedGame(t, path, []string{"dice read: blue=2 red=3 thrower=0", "", "dice entered: blue=5 red=1 thrower=1"}, 0)
	want := g.Steps()
	st.Close()
	// the journal as the day before wrote it: the notes in reason, no
	// note column, schema version 2
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE steps SET reason = note WHERE kind = 'action';
ALTER TABLE steps DROP COLUMN note; PRAGMA user_version = 2`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, g = reopen(t, path)
	got := g.Steps()
	if len(got) != len(want) || len(got) != 4 {
		t.Fatalf("%d steps after the migration, want %d (4)", len(got), len(want))
	}
	for i, s := range got {
		if s.Note != want[i].Note || s.Reason != want[i].Reason || s.Undo != want[i].Undo {
			t.Errorf("step %d: note %q reason %q undo %v, want note %q reason %q undo %v", s.Seq, s.Note, s.Reason, s.Undo, want[i].Note, want[i].Reason, want[i].Undo)
		}
	}
	if got[1].Reason != "misread" || got[0].Note == "" {
		t.Errorf("steps %+v: want a noted action and an undo with its reason", got[:2])
	}
}

// notedGame begins a game in a new journal at path and appends a step
// (take one) for each of notes with that note (Append for ""), the one of
// index undo undone by seat 0 for "misread" right after it (-1: none).
func notedGame(t *testing.T, path string, notes []string, undo int) (*Store, *Game) {
	t.Helper()
	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	g, err := st.Begin(enginetest.Rules{}, setup(21), t0)
	if err != nil {
		t.Fatal(err)
	}
	for i, note := range notes {
		playNoted(t, g, 1, note)
		if i == undo {
			if _, err := g.Undo(t0, 0, "misread"); err != nil {
				t.Fatal(err)
			}
		}
	}
	return st, g
}
