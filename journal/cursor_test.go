package journal

import (
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/engine/enginetest"
)

func TestCursorAndStepsAfter(t *testing.T) {
	st, err := Open(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if c, err := st.Cursor("cafe"); err != nil || c != (Cursor{}) {
		t.Fatalf("Cursor of a new journal = %+v, %v; want zero, nil", c, err)
	}
	want := Cursor{Game: 3, Seq: 7, Ended: true}
	if err := st.SetCursor("cafe", want); err != nil {
		t.Fatal(err)
	}
	if err := st.SetCursor("other", Cursor{Game: 1}); err != nil {
		t.Fatal(err)
	}
	if c, err := st.Cursor("cafe"); err != nil || c != want {
		t.Fatalf("Cursor = %+v, %v; want %+v", c, err, want)
	}
	rules := enginetest.Rules{}
	g, err := st.Begin(rules, engine.Setup{Game: "tally", Players: []string{"A", "B"}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	s, err := rules.Start(g.Setup())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		a := s.Legal()[0]
		var evs []engine.Event
		if s, evs, err = engine.Play(s, a); err != nil {
			t.Fatal(err)
		}
		if _, err := g.Append(time.Now(), a, evs); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := g.Undo(time.Now(), engine.Staff, "test"); err != nil {
		t.Fatal(err)
	}
	all := g.Steps()
	for _, after := range []int64{0, 2, 5} {
		got, err := st.StepsAfter(rules, g.ID(), after)
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(got)) != 5-after {
			t.Fatalf("StepsAfter(%d) = %d steps, want %d", after, len(got), 5-after)
		}
		for i, s := range got {
			w := all[after+int64(i)]
			if s.Seq != w.Seq || s.Command != w.Command || s.Undo != w.Undo || len(s.Events) != len(w.Events) {
				t.Fatalf("StepsAfter(%d)[%d] = %+v, want %+v", after, i, s, w)
			}
		}
	}
}

// TestCursorsMigration: a journal of schema version 1 (before the
// cursors) gets the cursors' table at Open, and one a follower made
// before schema versions existed keeps its cursors.
func TestCursorsMigration(t *testing.T) {
	for _, tt := range []struct {
		name string
		old  string // what makes the journal a version-1 one
		want Cursor
	}{
		{"no cursors", `DROP TABLE cursors; ALTER TABLE steps DROP COLUMN note; PRAGMA user_version = 1`, Cursor{}},
		{"cursors made on first need", `INSERT INTO cursors VALUES ('cafe', 2, 5, 0); ALTER TABLE steps DROP COLUMN note; PRAGMA user_version = 1`, Cursor{Game: 2, Seq: 5}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "t.db")
			st, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			st.Close()
			db, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(tt.old); err != nil {
				t.Fatal(err)
			}
			db.Close()
			if st, err = Open(path); err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			var version int
			if err := st.with(func(db *sql.DB) error { return db.QueryRow(`PRAGMA user_version`).Scan(&version) }); err != nil {
				t.Fatal(err)
			}
			if version != len(migrations) || version != 3 {
				t.Errorf("user_version = %d after Open, want 3 (%d migrations)", version, len(migrations))
			}
			if c, err := st.Cursor("cafe"); err != nil || c != tt.want {
				t.Fatalf("Cursor = %+v, %v; want %+v", c, err, tt.want)
			}
			if err := st.SetCursor("cafe", Cursor{Game: 3}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestCursorWhileDown: a follower reads no step while the journal is
// down, and the cursor's reads and writes return ErrClosed once it is
// closed, never touching a closed database.
func TestCursorWhileDown(t *testing.T) {
	st, err := Open(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	// Down with its file still open: a follower reads no step.
	st.mu.Lock()
	st.down = writeFault(st.path, errors.New("disk I/O error"))
	st.mu.Unlock()
	var f *Fault
	if _, err := st.StepsAfter(enginetest.Rules{}, 1, 0); !errors.As(err, &f) {
		t.Errorf("StepsAfter while down = %v, want the fault", err)
	}
	st.Close()
	if _, err := st.Cursor("cafe"); !errors.Is(err, ErrClosed) {
		t.Errorf("Cursor after Close = %v, want ErrClosed", err)
	}
	if err := st.SetCursor("cafe", Cursor{Game: 1}); !errors.Is(err, ErrClosed) {
		t.Errorf("SetCursor after Close = %v, want ErrClosed", err)
	}
	if _, err := st.StepsAfter(enginetest.Rules{}, 1, 0); !errors.Is(err, ErrClosed) {
		t.Errorf("StepsAfter after Close = %v, want ErrClosed", err)
	}
}
