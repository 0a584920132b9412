package journal

import (
	"bytes"
	"database/sql"
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/journal/faulttest"
)

// try decides a take on the game's state and appends it, returning the
// journal's error.
func try(t testing.TB, g *Game, n int) error {
	t.Helper()
	s, err := g.State()
	if err != nil {
		t.Fatal(err)
	}
	a := engine.Action{By: engine.NoSeat, Cmd: enginetest.Take{N: n}}
	evs, err := s.Decide(a)
	if err != nil {
		t.Fatal(err)
	}
	_, err = g.Append(t0, a, evs)
	return err
}

// reopened checks that the journal at path, reopened, holds exactly the
// acknowledged steps of want (same commands, same order) and the games
// of the history before it.
func reopened(t *testing.T, path string, want []Step, history int) {
	t.Helper()
	st, g := reopen(t, path)
	got := g.Steps()
	if len(got) != len(want) {
		t.Fatalf("after the fault and a restart the journal has %d steps, %d were acknowledged", len(got), len(want))
	}
	for i := range want {
		if got[i].Seq != want[i].Seq || got[i].Command != want[i].Command || len(got[i].Events) != len(want[i].Events) {
			t.Fatalf("step %d after the restart = %+v, acknowledged %+v", i+1, got[i], want[i])
		}
	}
	if _, err := g.State(); err != nil {
		t.Fatal(err)
	}
	games, err := st.Games()
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != history+1 {
		t.Errorf("history after the restart has %d games, want %d", len(games), history+1)
	}
}

// started opens a journal at path with one finished game in its history
// and a running game of five steps.
func started(t *testing.T, path string) (*Store, *Game) {
	t.Helper()
	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	old, err := st.Begin(enginetest.Rules{}, setup(50), t0)
	if err != nil {
		t.Fatal(err)
	}
	play(t, old, 2)
	if err := old.Finish(t0, "abandoned"); err != nil {
		t.Fatal(err)
	}
	g, err := st.Begin(enginetest.Rules{}, setup(1000), t0)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		play(t, g, 1+i%3)
	}
	return st, g
}

func TestNoMappedWALIndex(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	_, g := started(t, path)
	if _, err := os.Stat(path + "-shm"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("stat %s-shm = %v: the WAL index is in a file (memory-mapped), want it in memory", path, err)
	}
	if _, err := os.Stat(path + "-wal"); err != nil {
		t.Errorf("no WAL: %v", err)
	}
	var mode string
	g.st.with(func(db *sql.DB) error { return db.QueryRow(`PRAGMA locking_mode`).Scan(&mode) })
	if mode != "exclusive" {
		t.Errorf("locking_mode = %q, want exclusive", mode)
	}
}

// TestImmutable makes the journal's files immutable while a game runs:
// no crash, each step refused with words while the fault lasts, the
// journal records again by itself once it is gone, and a restart finds
// every acknowledged step.
func TestImmutable(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files []string // suffixes of the journal's path
		// refused: the steps are refused while the fault lasts (else the
		// fault does not touch the journal: the WAL index lives in
		// memory).
		refused bool
	}{
		{"wal-index", []string{"-shm"}, false},
		{"main-file", []string{""}, true},
		{"wal", []string{"-wal"}, true},
		{"all-three", []string{"", "-wal", "-shm"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			faulttest.NeedChattr(t, dir)
			path := filepath.Join(dir, "t.db")
			st, g := started(t, path)
			var files []string
			for _, s := range tc.files {
				files = append(files, path+s)
			}
			undo := faulttest.Immutable(t, files...)
			acked := g.Steps()
			for i := 0; i < 3; i++ {
				err := try(t, g, 1)
				if !tc.refused {
					if err != nil {
						t.Fatalf("step with an immutable %v: %v", tc.files, err)
					}
					continue
				}
				f, ok := AsFault(err)
				if !ok || !errors.Is(err, ErrNotRecording) || f.Kind != FaultReadOnly {
					t.Fatalf("step %d with an immutable %v = %v, want a read-only fault", i, tc.files, err)
				}
				if !strings.Contains(f.EN, "Call the staff") || !strings.Contains(f.FR, "Appelez le personnel") || strings.Contains(f.EN, "(") && strings.Contains(f.EN, "errno") {
					t.Errorf("words of the fault: %q / %q", f.EN, f.FR)
				}
				if g.Len() != int64(len(acked)) {
					t.Fatalf("a refused step is in memory: %d steps, %d acknowledged", g.Len(), len(acked))
				}
				if st.Down() == nil {
					t.Errorf("Down() = nil while the fault lasts")
				}
			}
			if tc.refused {
				if err := g.Check(); err == nil {
					t.Errorf("Check() = nil while the files are immutable")
				}
			}
			undo()
			if err := g.Check(); err != nil {
				t.Fatalf("Check() after the fault = %v, want nil", err)
			}
			if st.Down() != nil {
				t.Errorf("Down() = %v after the fault", st.Down())
			}
			for i := 0; i < 3; i++ {
				if err := try(t, g, 2); err != nil {
					t.Fatalf("step after the fault: %v", err)
				}
			}
			acked = g.Steps()
			st.Close()
			reopened(t, path, acked, 1)
		})
	}
}

// TestLostFile deletes or replaces the journal's file while a game runs:
// the next step (or the periodic check) finds it, the whole journal is
// written again at its path, staff are told, and a restart finds every
// acknowledged step and the history.
func TestLostFile(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lose  func(t *testing.T, path string)
		check bool // found by Check, else by the next step
		kind  FaultKind
	}{
		{"deleted", func(t *testing.T, path string) { os.Remove(path) }, false, FaultDeleted},
		{"deleted-all", func(t *testing.T, path string) {
			os.Remove(path)
			os.Remove(path + "-wal")
		}, true, FaultDeleted},
		{"wal-deleted", func(t *testing.T, path string) { os.Remove(path + "-wal") }, false, FaultDeleted},
		{"replaced", func(t *testing.T, path string) {
			other := filepath.Join(filepath.Dir(path), "other.db")
			os.WriteFile(other, []byte("SQLite format 3\x00 but not ours"), 0o644)
			if err := os.Rename(other, path); err != nil {
				t.Fatal(err)
			}
		}, true, FaultReplaced},
		{"overwritten-in-place", func(t *testing.T, path string) {
			if err := os.WriteFile(path, bytes.Repeat([]byte("not ours "), 1000), 0o644); err != nil {
				t.Fatal(err)
			}
		}, false, FaultReplaced},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "t.db")
			st, g := started(t, path)
			tc.lose(t, path)
			if tc.check {
				if err := g.Check(); err != nil {
					t.Fatalf("Check() = %v, want the journal written again", err)
				}
			}
			for i := 0; i < 4; i++ {
				if err := try(t, g, 1); err != nil {
					t.Fatalf("step %d after the loss: %v", i, err)
				}
			}
			rs := st.TakeRescues()
			if len(rs) != 1 || rs[0].Kind != tc.kind {
				t.Fatalf("rescues = %+v, want one %v", rs, tc.kind)
			}
			history := 0
			if rs[0].History {
				history = 1
			} else if tc.name != "overwritten-in-place" {
				t.Errorf("the history was not copied: %v", rs[0].Cause)
			}
			if !strings.Contains(rs[0].EN, path) || !strings.Contains(rs[0].FR, "réécrite") {
				t.Errorf("rescue words: %q / %q", rs[0].EN, rs[0].FR)
			}
			if tc.kind == FaultReplaced {
				b, err := os.ReadFile(rs[0].Aside)
				if err != nil || !bytes.Contains(b[:100], []byte("not ours")) {
					t.Errorf("the other file moved to %q: %q, %v", rs[0].Aside, b, err)
				}
			}
			acked := g.Steps()
			if len(acked) != 9 {
				t.Fatalf("%d steps in memory, want 9", len(acked))
			}
			st.Close()
			reopened(t, path, acked, history)
		})
	}
}

// TestDiskFull fills a small disk under the journal: steps are refused
// with words, then taken again once space is freed.
func TestDiskFull(t *testing.T) {
	dir := faulttest.SmallDisk(t, 1<<20)
	path := filepath.Join(dir, "t.db")
	st, g := started(t, path)
	filler := filepath.Join(dir, "filler")
	faulttest.Fill(t, filler)
	var refused int
	for i := 0; i < 40 && refused == 0; i++ {
		// Steps go on while the WAL has free pages, then are refused.
		if err := try(t, g, 1); err != nil {
			f, ok := AsFault(err)
			if !ok || f.Kind != FaultFull || !strings.Contains(f.EN, "full") || !strings.Contains(f.FR, "plein") {
				t.Fatalf("step on a full disk = %v, want a disk-full fault", err)
			}
			refused++
		}
	}
	if refused == 0 {
		t.Fatal("no step refused on a full disk")
	}
	if st.Down() == nil {
		t.Error("Down() = nil after a step refused on a full disk")
	}
	os.Remove(filler)
	if err := g.Check(); err != nil {
		t.Fatalf("Check() after freeing space = %v", err)
	}
	for i := 0; i < 3; i++ {
		if err := try(t, g, 1); err != nil {
			t.Fatalf("step after freeing space: %v", err)
		}
	}
	acked := g.Steps()
	st.Close()
	reopened(t, path, acked, 1)
}

// TestOpenFaults: every start-up error names the journal's path and says
// what to do.
func TestOpenFaults(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.db")
	st, g := started(t, good)
	_ = g
	st.Close()
	damaged := filepath.Join(dir, "damaged.db")
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(1))
	for i := 4096 + 100; i < len(b); i++ {
		b[i] = byte(rng.Intn(256))
	}
	os.WriteFile(damaged, b, 0o644)
	junk := filepath.Join(dir, "junk.db")
	os.WriteFile(junk, bytes.Repeat([]byte("random bytes "), 500), 0o644)
	foreign := filepath.Join(dir, "foreign.db")
	db, err := sql.Open("sqlite", foreign)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, tc := range []struct {
		name  string
		path  string
		kind  FaultKind
		words []string
	}{
		{"missing-folder", filepath.Join(dir, "nowhere", "t.db"), FaultNoFolder, []string{"folder " + filepath.Join(dir, "nowhere") + " does not exist", "mkdir -p", "n'existe pas"}},
		{"folder", dir, FaultIsFolder, []string{"is a folder", "est un dossier"}},
		{"random-bytes", junk, FaultNotJournal, []string{"not a Comptoir journal", "n'est pas un journal Comptoir"}},
		{"other-database", foreign, FaultNotJournal, []string{"not a Comptoir journal", "n'est pas un journal Comptoir"}},
		{"damaged", damaged, FaultDamaged, []string{"is damaged", "restore a backup", "abîmé"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := Open(tc.path)
			if err == nil {
				st.Close()
				t.Fatalf("Open(%q) = nil, want a %v fault", tc.path, tc.kind)
			}
			f, ok := AsFault(err)
			if !ok || f.Kind != tc.kind {
				t.Fatalf("Open(%q) = %v, want a %v fault", tc.path, err, tc.kind)
			}
			if !strings.Contains(f.EN, tc.path) || !strings.Contains(f.FR, tc.path) {
				t.Errorf("the words do not name the journal %s: %q / %q", tc.path, f.EN, f.FR)
			}
			for _, w := range tc.words {
				if !strings.Contains(f.Error(), w) {
					t.Errorf("Open(%q) = %q, want it to say %q", tc.path, f.Error(), w)
				}
			}
		})
	}
	t.Run("other-game", func(t *testing.T) {
		st, err := Open(good)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		_, err = st.Resume(otherRules{})
		f, ok := AsFault(err)
		want := "comptoir journal abandon --journal " + good + " --game 2"
		if !ok || f.Kind != FaultOtherGame || !strings.Contains(f.EN, want) || !strings.Contains(f.FR, want) || !strings.Contains(f.EN, "comptoir journal end --journal "+good+" --game 2") {
			t.Fatalf("Resume with the rules of another game = %v, want the commands that end it (%s)", err, want)
		}
		if err := st.FinishGame(2, "abandoned", t0); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Resume(otherRules{}); !errors.Is(err, ErrNoGame) {
			t.Errorf("Resume after abandoning = %v, want ErrNoGame", err)
		}
	})
}

// otherRules are Tally's rules under another game's name.
type otherRules struct{ enginetest.Rules }

func (otherRules) Name() string { return "other" }

// TestDeletedWhileDown: a journal closed by a fault and deleted before
// the fault is gone is written again from memory (its history is lost,
// and the rescue says so).
func TestDeletedWhileDown(t *testing.T) {
	dir := t.TempDir()
	faulttest.NeedChattr(t, dir)
	path := filepath.Join(dir, "t.db")
	st, g := started(t, path)
	undo := faulttest.Immutable(t, path)
	if err := try(t, g, 1); !errors.Is(err, ErrNotRecording) {
		t.Fatalf("step with the journal immutable = %v, want a fault", err)
	}
	undo()
	os.Remove(path)
	os.Remove(path + "-wal")
	if err := g.Check(); err != nil {
		t.Fatalf("Check() = %v, want the game written again", err)
	}
	rs := st.TakeRescues()
	if len(rs) != 1 || rs[0].Kind != FaultDeleted || rs[0].History || !strings.Contains(rs[0].EN, "earlier games of its history could not be copied") {
		t.Fatalf("rescues = %+v, want one deleted without history", rs)
	}
	if err := try(t, g, 3); err != nil {
		t.Fatal(err)
	}
	acked := g.Steps()
	st.Close()
	reopened(t, path, acked, 0)
}
