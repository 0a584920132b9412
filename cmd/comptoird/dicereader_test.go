package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"comptoir/games/genoa"
	"comptoir/hw/replay"
	"comptoir/input"
	"comptoir/journal"
	"comptoir/tableconfig"
)

// fakeDiceEnv makes this test binary a fake `comptoir-dice dicefeed`, in the
// mode it names.
const fakeDiceEnv = "COMPTOIRD_FAKE_DICEFEED"

// fakeDicefeed is a dice reader child:
//   - echo: reports the camera, then each roll asked on stdin as read;
//     stops at the end of stdin;
//   - crash: reports a roll 1,1 and exits 3;
//   - stubborn: reports the camera, then ignores SIGTERM and its stdin;
//   - parent: a daemon running a stubborn reader; prints the reader's pid.
func fakeDicefeed(mode string) int {
	w := replay.NewWriter(os.Stdout)
	switch mode {
	case "echo":
		w.Write(input.DeviceStatus{At: time.Now(), Device: "camera", OK: true, Detail: "fake"})
		fmt.Fprintln(os.Stderr, "fake reader ready")
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			evs, err := replay.Decode(strings.NewReader(sc.Text()), "stdin")
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			for _, e := range evs {
				d := e.(input.DiceRolled)
				d.At, d.Confidence = time.Now(), 0.9
				w.Write(d)
			}
		}
		return 0
	case "readings":
		return fakeReadings(w)
	case "crash":
		w.Write(input.DiceRolled{At: time.Now(), Blue: 1, Red: 1, Confidence: 0.9})
		return 3
	case "stubborn":
		signal.Ignore(syscall.SIGTERM)
		w.Write(input.DeviceStatus{At: time.Now(), Device: "camera", OK: true, Detail: "fake"})
		time.Sleep(time.Hour)
		return 0
	case "parent":
		d := fakeReader("stubborn")
		events := make(chan input.Event)
		go d.Run(context.Background(), events)
		<-events // started
		<-events // the reader's own status: it writes nothing more
		fmt.Println(d.started()[0])
		for range events {
		}
	}
	return 2
}

// fakeReader is a dice reader supervisor running this test binary as a
// fake reader in mode.
func fakeReader(mode string) *diceReader {
	o := DefaultDiceReaderOpts
	o.MinBackoff, o.MaxBackoff, o.StopWait = 10*time.Millisecond, 40*time.Millisecond, 300*time.Millisecond
	return &diceReader{path: os.Args[0], args: []string{"dicefeed"}, env: append(os.Environ(), fakeDiceEnv+"="+mode), opts: o, logf: func(string, ...any) {}}
}

// gone reports whether process pid has exited (gone, or a zombie).
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(f) > 0 && f[0] == "Z"
}

// running runs d until the returned stop is called; stop waits for Run.
func running(t *testing.T, d *diceReader) (<-chan input.Event, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	events := make(chan input.Event, 16)
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx, events) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Run = %v", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("Run did not return after the cancel")
			}
		})
	}
	t.Cleanup(stop)
	return events, stop
}

func nextEvent(t *testing.T, events <-chan input.Event) input.Event {
	t.Helper()
	select {
	case e := <-events:
		return e
	case <-time.After(10 * time.Second):
		t.Fatal("no event from the dice reader")
		return nil
	}
}

// TestDiceReaderShowsAndStops runs a reader child, asks it to show a
// roll, gets the roll back through its stdout, logs its stderr, and
// leaves no process behind when stopped.
func TestDiceReaderShowsAndStops(t *testing.T) {
	d := fakeReader("echo")
	var logs strings.Builder
	var mu sync.Mutex
	d.logf = func(f string, a ...any) { mu.Lock(); fmt.Fprintf(&logs, f+"\n", a...); mu.Unlock() }
	events, stop := running(t, d)
	if e, ok := nextEvent(t, events).(input.DeviceStatus); !ok || !e.OK || e.Detail != "dice reader started" {
		t.Fatalf("first event %v, want the reader started", e)
	}
	if e, ok := nextEvent(t, events).(input.DeviceStatus); !ok || e.Detail != "fake" {
		t.Fatalf("second event %v, want the child's camera status", e)
	}
	if !d.show(input.DiceRolled{At: time.Now(), Blue: 4, Red: 7, Confidence: 1}) {
		t.Fatal("show refused with a reader running")
	}
	if e, ok := nextEvent(t, events).(input.DiceRolled); !ok || e.Blue != 4 || e.Red != 7 || e.Confidence != 0.9 {
		t.Fatalf("event %v, want the roll 4,7 as the child read it", e)
	}
	stop()
	pids := d.started()
	if len(pids) != 1 || !gone(pids[0]) {
		t.Errorf("children %v: want one, gone after the stop", pids)
	}
	if d.show(input.DiceRolled{Blue: 1, Red: 1}) {
		t.Error("show took a roll with no reader running")
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(logs.String(), "dice reader: fake reader ready") {
		t.Errorf("the child's stderr is not in the log:\n%s", logs.String())
	}
}

// TestDiceReaderRestarts lets a reader crash again and again: each crash
// is reported as the camera down, and a new reader is started.
func TestDiceReaderRestarts(t *testing.T) {
	d := fakeReader("crash")
	events, stop := running(t, d)
	rolls, downs := 0, 0
	for rolls < 3 || downs < 3 {
		switch e := nextEvent(t, events).(type) {
		case input.DiceRolled:
			rolls++
		case input.DeviceStatus:
			if !e.OK {
				downs++
				if !strings.Contains(e.Detail, "exit status 3") || !strings.Contains(e.Detail, "restarting in") {
					t.Errorf("status %q does not say the reader stopped and is restarted", e.Detail)
				}
			}
		}
	}
	stop()
	pids := d.started()
	if len(pids) < 3 {
		t.Errorf("%d readers started for 3 crashes", len(pids))
	}
	for _, p := range pids {
		if !gone(p) {
			t.Errorf("reader %d still running", p)
		}
	}
}

// TestDiceReaderKillsStubborn stops a reader that ignores the end of its
// stdin and SIGTERM: it is killed after StopWait.
func TestDiceReaderKillsStubborn(t *testing.T) {
	d := fakeReader("stubborn")
	events, stop := running(t, d)
	nextEvent(t, events)
	nextEvent(t, events)
	start := time.Now()
	stop()
	if el := time.Since(start); el < d.opts.StopWait {
		t.Errorf("stopped in %v: the stubborn reader was not given StopWait", el)
	}
	if p := d.started()[0]; !gone(p) {
		t.Errorf("stubborn reader %d still running", p)
	}
}

// TestDiceReaderDiesWithDaemon kills -9 a daemon running a stubborn
// reader: the reader dies too, no orphan.
func TestDiceReaderDiesWithDaemon(t *testing.T) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), fakeDiceEnv+"=parent")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	var pid int
	if _, err := fmt.Fscan(bufio.NewReader(out), &pid); err != nil {
		t.Fatalf("no reader pid from the fake daemon: %v", err)
	}
	if gone(pid) {
		t.Fatalf("reader %d not running", pid)
	}
	cmd.Process.Kill()
	cmd.Wait()
	deadline := time.Now().Add(5 * time.Second)
	for !gone(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("reader %d outlived its daemon", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestFindDiceReader finds the reader program from the configuration,
// beside the daemon, or in PATH, comptoir-dice before comptoir, and says
// what to do when it is nowhere.
func TestFindDiceReader(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "comptoir")
	os.WriteFile(prog, []byte("#!/bin/sh\n"), 0o755)
	t.Run("configured", func(t *testing.T) {
		p, err := findDiceReader(&tableconfig.Config{File: "t.yaml", DiceReader: prog})
		if err != nil || p != prog {
			t.Errorf("= %q, %v; want %s", p, err, prog)
		}
		_, err = findDiceReader(&tableconfig.Config{File: "t.yaml", DiceReader: filepath.Join(dir, "nope")})
		if err == nil || !strings.Contains(err.Error(), "t.yaml: dice_reader:") {
			t.Errorf("missing configured reader: %v", err)
		}
	})
	t.Run("comptoir in PATH", func(t *testing.T) {
		t.Setenv("PATH", dir)
		p, err := findDiceReader(&tableconfig.Config{File: "t.yaml"})
		if err != nil || p != prog {
			t.Errorf("= %q, %v; want %s", p, err, prog)
		}
	})
	t.Run("comptoir-dice first", func(t *testing.T) {
		dice := filepath.Join(dir, "comptoir-dice")
		os.WriteFile(dice, []byte("#!/bin/sh\n"), 0o755)
		defer os.Remove(dice)
		t.Setenv("PATH", dir)
		p, err := findDiceReader(&tableconfig.Config{File: "t.yaml"})
		if err != nil || p != dice {
			t.Errorf("= %q, %v; want %s", p, err, dice)
		}
	})
	t.Run("nowhere", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		_, err := findDiceReader(&tableconfig.Config{File: "t.yaml"})
		if !errors.Is(err, ErrNoDiceReader) || !strings.Contains(err.Error(), "go build -o bin/ ./cmd/comptoird ./cmd/comptoir-dice") || !strings.Contains(err.Error(), "dice_reader: in t.yaml") || !strings.Contains(err.Error(), "comptoir-dice in PATH") {
			t.Errorf("err %v: want ErrNoDiceReader saying how to build it or name it", err)
		}
	})
}

// TestDiceReaderArgs checks which tables start a reader, with what.
func TestDiceReaderArgs(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  tableconfig.Config
		want string
	}{
		{"no camera", tableconfig.Config{}, ""},
		{"camera", tableconfig.Config{Camera: &tableconfig.Camera{Device: "/dev/video0"}}, "dicefeed --readings --camera /dev/video0"},
		{"recording", tableconfig.Config{Camera: &tableconfig.Camera{Device: "/dev/video0"}, Replay: &tableconfig.Replay{Inputs: "x"}}, ""},
		{"pictured rolls", tableconfig.Config{Replay: &tableconfig.Replay{Inputs: "x", Frames: "pics"}}, "dicefeed --readings --pictures pics"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := strings.Join(diceReaderArgs(&tc.cfg), " "); got != tc.want {
				t.Errorf("= %q, want %q", got, tc.want)
			}
		})
	}
}

// TestDaemonDiceReader runs the daemon on the demo's recording with
// pictured rolls and a fake dice reader (this test binary) named by
// dice_reader:: every recorded roll goes to the reader and comes back
// from it into the game; at the stop, no reader and no goroutine is left.
func TestDaemonDiceReader(t *testing.T) {
	before := runtime.NumGoroutine()
	t.Setenv(fakeDiceEnv, "echo") // inherited by the reader child
	dir := t.TempDir()
	repo, _ := filepath.Abs("../..")
	cfg := genoaConfig(t, dir, "t.db", "dice_reader: "+os.Args[0]+"\nreplay:\n  inputs: %R/configs/demo/genoa-inputs.jsonl\n  frames: %R/configs/demo/dice\n  speed: 20\n")
	ctx, cancel := context.WithCancel(context.Background())
	var stderr syncBuf
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"--config", cfg, "--listen", freeAddr(t)}, io.Discard, &stderr) }()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(stderr.String(), "the recording has ended") {
		if time.Now().After(deadline) {
			t.Fatalf("the recording did not end:\n%s", stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond) // the last roll's way back
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("run = %v\n%s", err, stderr.String())
	}
	logs := stderr.String()
	if !strings.Contains(logs, "dice reader: started "+os.Args[0]+" dicefeed --readings --pictures "+repo+"/configs/demo/dice") || !strings.Contains(logs, "fake reader ready") {
		t.Errorf("the log does not show the reader started with the pictures:\n%s", logs)
	}
	if strings.Contains(logs, "goes through") {
		t.Errorf("a recorded roll went past the reader:\n%s", logs)
	}
	deadline = time.Now().Add(3 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("goroutine leak: %d running, %d before\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(20 * time.Millisecond)
	}

	store, err := journal.Open(filepath.Join(dir, "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	g, err := store.Resume(genoa.New())
	if err != nil {
		t.Fatal(err)
	}
	rolls := 0
	for _, s := range g.Steps() {
		if strings.HasPrefix(s.Command, "roll ") {
			rolls++
		}
	}
	if rolls != 6 {
		t.Errorf("%d rolls in the journal, want the recording's 6", rolls)
	}
	for _, p := range pidsIn(logs) {
		if !gone(p) {
			t.Errorf("dice reader %d left running", p)
		}
	}
}

// pidsIn returns the pids of the readers the log says were started.
func pidsIn(logs string) []int {
	var out []int
	for _, l := range strings.Split(logs, "\n") {
		if i := strings.LastIndex(l, "(pid "); i >= 0 && strings.Contains(l, "dice reader: started") {
			var p int
			fmt.Sscanf(l[i:], "(pid %d)", &p)
			out = append(out, p)
		}
	}
	return out
}

// syncBuf is a log buffer written and read from several goroutines.
type syncBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
