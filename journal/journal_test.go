package journal

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/notation"
)

var t0 = time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC)

func setup(pile int) engine.Setup {
	return engine.Setup{Game: "tally", Players: []string{"Anna", "Bruno"}, Options: map[string]string{"pile": strconv.Itoa(pile)}}
}

// play decides a take on the game's state and appends it.
func play(t testing.TB, g *Game, n int) {
	t.Helper()
	playNoted(t, g, n, "")
}

// playNoted is play with the step's note (AppendNoted; "" is Append).
func playNoted(t testing.TB, g *Game, n int, note string) {
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
	if _, err := g.AppendNoted(t0, a, evs, note); err != nil {
		t.Fatal(err)
	}
}

func TestAppendResumeUndo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "table.db")
	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Resume(enginetest.Rules{}); !errors.Is(err, ErrNoGame) {
		t.Fatalf("Resume on a new store = %v, want ErrNoGame", err)
	}
	g, err := st.Begin(enginetest.Rules{}, setup(21), t0)
	if err != nil {
		t.Fatal(err)
	}
	play(t, g, 3)
	play(t, g, 2)
	play(t, g, 1)
	if _, err := g.Undo(t0, engine.Staff, "wrong count"); err != nil {
		t.Fatal(err)
	}
	play(t, g, 3)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	_, g = reopen(t, path)
	s, err := g.State()
	if err != nil {
		t.Fatal(err)
	}
	if got := s.(*enginetest.State).Pile; got != 21-3-2-3 {
		t.Errorf("pile after resume = %d, want %d", got, 21-3-2-3)
	}
	steps := g.Steps()
	if len(steps) != 5 {
		t.Fatalf("%d steps, want 5", len(steps))
	}
	if !steps[2].Undone || !steps[3].Undo || steps[3].Undoes != 3 || steps[3].Reason != "wrong count" {
		t.Errorf("undo not kept: %+v %+v", steps[2], steps[3])
	}
	var buf bytes.Buffer
	if err := notation.Write(&buf, g.Record()); err != nil {
		t.Fatal(err)
	}
	want := "take n=3\ntake n=2\ntake n=3\n"
	if !strings.HasSuffix(buf.String(), want) {
		t.Errorf("record =\n%s\nwant it to end with\n%s", buf.String(), want)
	}
	rec, err := notation.Read(&buf, "download")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := notation.Play(enginetest.Rules{}, rec); err != nil {
		t.Errorf("the downloaded record does not replay: %v", err)
	}
}

func TestUndoNothing(t *testing.T) {
	st, err := Open(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	g, err := st.Begin(enginetest.Rules{}, setup(21), t0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Undo(t0, engine.Staff, "x"); !errors.Is(err, ErrNothingToUndo) {
		t.Errorf("Undo on an empty game = %v, want ErrNothingToUndo", err)
	}
}

func TestFinishAndHistory(t *testing.T) {
	st, err := Open(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	g, err := st.Begin(enginetest.Rules{}, setup(21), t0)
	if err != nil {
		t.Fatal(err)
	}
	play(t, g, 1)
	if err := g.Finish(t0.Add(time.Hour), "abandoned"); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Append(t0, engine.Action{Cmd: enginetest.Take{N: 1}}, nil); !errors.Is(err, ErrFinished) {
		t.Errorf("Append after Finish = %v, want ErrFinished", err)
	}
	if _, err := st.Resume(enginetest.Rules{}); !errors.Is(err, ErrNoGame) {
		t.Errorf("Resume after the only game ended = %v, want ErrNoGame", err)
	}
	if _, err := st.Begin(enginetest.Rules{}, setup(9), t0); err != nil {
		t.Fatal(err)
	}
	games, err := st.Games()
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 2 || games[0].Outcome != "abandoned" || !games[1].Finished.IsZero() {
		t.Errorf("history = %+v", games)
	}
}

func TestBeginRefusesBadSetup(t *testing.T) {
	st, err := Open(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Begin(enginetest.Rules{}, engine.Setup{Game: "tally", Players: []string{"solo"}}, t0); err == nil || !strings.Contains(err.Error(), "play with 2 to 4") {
		t.Errorf("Begin with one player = %v", err)
	}
}

func TestOpenNotAJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "junk.db")
	if err := os.WriteFile(path, bytes.Repeat([]byte("not a database "), 200), 0o644); err != nil {
		t.Fatal(err)
	}
	if st, err := Open(path); err == nil {
		st.Close()
		t.Fatal("Open of a junk file succeeded")
	} else if !strings.Contains(err.Error(), path) {
		t.Errorf("error %q does not name the file", err)
	}
}

// The kill test: a child process appends steps and acknowledges each one
// on stdout once Append has returned; it is killed with SIGKILL at random
// moments. Reopening must always give a valid journal holding every
// acknowledged step.

const childEnv = "JOURNAL_KILL_CHILD"

func TestMain(m *testing.M) {
	if path := os.Getenv(childEnv); path != "" {
		os.Exit(child(path))
	}
	os.Exit(m.Run())
}

func child(path string) int {
	st, err := Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	g, err := st.Resume(enginetest.Rules{})
	if errors.Is(err, ErrNoGame) {
		g, err = st.Begin(enginetest.Rules{}, setup(1<<30), t0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	s, err := g.State()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	out := bufio.NewWriter(os.Stdout)
	for i := 0; ; i++ {
		a := engine.Action{By: engine.NoSeat, Cmd: enginetest.Take{N: 1 + i%3}}
		next, evs, err := engine.Play(s, a)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		step, err := g.Append(t0, a, evs)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		s = next
		fmt.Fprintf(out, "ack %d\n", step.Seq)
		out.Flush()
	}
}

func TestKill(t *testing.T) {
	if testing.Short() {
		t.Skip("kill test in -short mode")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "kill.db")
	rng := rand.New(rand.NewSource(1))
	var acked int64
	const runs = 25
	for run := 0; run < runs; run++ {
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"="+path)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Let it write for a random number of acknowledged steps (and so
		// a random time), then kill it without warning.
		want := 1 + rng.Intn(40)
		sc := bufio.NewScanner(stdout)
		got := 0
		for got < want && sc.Scan() {
			seq, err := strconv.ParseInt(strings.TrimPrefix(sc.Text(), "ack "), 10, 64)
			if err != nil {
				t.Fatalf("child said %q", sc.Text())
			}
			acked = seq
			got++
		}
		// A few more microseconds of writing, mid-transaction at times.
		time.Sleep(time.Duration(rng.Intn(3000)) * time.Microsecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		// Acknowledgements that arrived before the kill count too.
		for sc.Scan() {
			if seq, err := strconv.ParseInt(strings.TrimPrefix(sc.Text(), "ack "), 10, 64); err == nil {
				acked = seq
			}
		}
		cmd.Wait()
		if got < want {
			t.Fatalf("run %d: child stopped after %d steps: %s", run, got, stderr.String())
		}

		st, err := Open(path)
		if err != nil {
			t.Fatalf("run %d: reopen: %v", run, err)
		}
		g, err := st.Resume(enginetest.Rules{})
		if err != nil {
			t.Fatalf("run %d: resume: %v", run, err)
		}
		if g.Len() < acked {
			t.Fatalf("run %d: journal has %d steps, %d were acknowledged", run, g.Len(), acked)
		}
		s, err := g.State()
		if err != nil {
			t.Fatalf("run %d: replay: %v", run, err)
		}
		if err := s.(engine.Checker).Check(); err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		for i, step := range g.Steps() {
			if step.Seq != int64(i+1) || len(step.Events) != 1 {
				t.Fatalf("run %d: step %d = %+v: not a whole step", run, i+1, step)
			}
		}
		st.Close()
	}
	t.Logf("%d kills, %d steps acknowledged and found", runs, acked)
}

// A power cut can tear the end of the WAL file: the journal reopens at the
// last whole step before the tear.
func TestTornWAL(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "torn.db")
	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	g, err := st.Begin(enginetest.Rules{}, setup(1000), t0)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 30; i++ {
		play(t, g, 1)
	}
	// Copy the database and its WAL as a power cut would leave them,
	// before SQLite checkpoints on close.
	db, _ := os.ReadFile(path)
	wal, err := os.ReadFile(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	rng := rand.New(rand.NewSource(2))
	for i := 0; i < 20; i++ {
		cut := filepath.Join(dir, fmt.Sprintf("cut%d.db", i))
		os.WriteFile(cut, db, 0o644)
		os.WriteFile(cut+"-wal", wal[:rng.Intn(len(wal))], 0o644)
		st, err := Open(cut)
		if err != nil {
			t.Fatalf("cut %d: %v", i, err)
		}
		g, err := st.Resume(enginetest.Rules{})
		if err != nil && !errors.Is(err, ErrNoGame) {
			t.Fatalf("cut %d: %v", i, err)
		}
		if err == nil {
			if _, err := g.State(); err != nil {
				t.Fatalf("cut %d: %v", i, err)
			}
		}
		st.Close()
	}
}

func BenchmarkAppend(b *testing.B) {
	st, err := Open(filepath.Join(b.TempDir(), "b.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	g, err := st.Begin(enginetest.Rules{}, setup(1<<30), t0)
	if err != nil {
		b.Fatal(err)
	}
	ev := []engine.Event{enginetest.Taken{By: 0, N: 1}}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := g.Append(t0, engine.Action{Cmd: enginetest.Take{N: 1}}, ev); err != nil {
			b.Fatal(err)
		}
	}
}

// reopen opens the journal at path again (closed when the test ends) and
// resumes its game.
func reopen(t *testing.T, path string) (*Store, *Game) {
	t.Helper()
	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	g, err := st.Resume(enginetest.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	return st, g
}
