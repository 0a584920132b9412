package main

import (
	"bytes"
	"context"
	"log"
	"net"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/games/tally"
	"comptoir/input"
	"comptoir/journal"
	"comptoir/sdnotify"
	"comptoir/table"
)

// stuckIndicator hangs the session's goroutine in Refused once armed,
// until released: a stuck table.
type stuckIndicator struct {
	mu      sync.Mutex
	armed   bool
	release chan struct{}
}

func (s *stuckIndicator) Waiting(bool) {}
func (s *stuckIndicator) Refused() {
	s.mu.Lock()
	armed := s.armed
	s.mu.Unlock()
	if armed {
		<-s.release
	}
}

// TestWatchdogStuckSession runs a real table session under the systemd
// notifier: READY=1, then watchdog pings while the session answers; once
// its goroutine hangs (a refusal that never returns), the pings stop, so
// systemd would restart the daemon.
func TestWatchdogStuckSession(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "notify")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 100)
	var readers sync.WaitGroup
	readers.Add(1)
	go func() {
		defer readers.Done()
		buf := make([]byte, 512)
		for {
			n, err := conn.Read(buf)
			if err != nil {
				return
			}
			got <- string(buf[:n])
		}
	}()
	defer func() { conn.Close(); readers.Wait() }()

	store, err := journal.Open(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	rules := enginetest.Rules{}
	game, err := store.Begin(rules, engine.Setup{Game: "tally", Players: []string{"Anna", "Bruno"}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	ind := &stuckIndicator{release: make(chan struct{})}
	opts := table.DefaultOpts
	opts.Rules, opts.Game, opts.Store, opts.Indicator, opts.Kit = rules, game, store, ind, tally.Game()
	sess, err := table.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); sess.Run(ctx, make(chan input.Event)) }()
	const timeout = 150 * time.Millisecond
	t.Setenv("WATCHDOG_USEC", "150000")
	var logs bytes.Buffer
	var logMu sync.Mutex
	logger := log.New(writerFunc(func(p []byte) (int, error) { logMu.Lock(); defer logMu.Unlock(); return logs.Write(p) }), "", 0)
	go func() { defer wg.Done(); notifySystemd(ctx, sdnotify.New(sock), sess, logger) }()

	if m := <-got; m != sdnotify.Ready {
		t.Fatalf("first notification %q, want %q", m, sdnotify.Ready)
	}
	count := func(d time.Duration) int {
		n := 0
		deadline := time.After(d)
		for {
			select {
			case m := <-got:
				if m == sdnotify.Alive {
					n++
				}
			case <-deadline:
				return n
			}
		}
	}
	if n := count(4 * timeout); n < 4 {
		t.Errorf("%d pings in %v from a live session, want about 12", n, 4*timeout)
	}
	// The table's device asks for something illegal: the session refuses
	// it and hangs in the indicator.
	ind.mu.Lock()
	ind.armed = true
	ind.mu.Unlock()
	wg.Add(1)
	go func() {
		defer wg.Done()
		sess.Submit(ctx, engine.Action{By: engine.NoSeat, Cmd: enginetest.Take{N: 99}})
	}()
	count(timeout / 2)
	if n := count(4 * timeout); n != 0 {
		t.Errorf("%d pings in %v from a stuck session, want none", n, 4*timeout)
	}
	close(ind.release)
	if n := count(4 * timeout); n < 4 {
		t.Errorf("%d pings in %v once the session answers again, want about 12", n, 4*timeout)
	}
	cancel()
	wg.Wait()
	for m := ""; m != sdnotify.Stopping; {
		select {
		case m = <-got:
		case <-time.After(time.Second):
			t.Fatalf("no %q once stopped", sdnotify.Stopping)
		}
	}
	logMu.Lock()
	defer logMu.Unlock()
	if !bytes.Contains(logs.Bytes(), []byte("watchdog: the probe failed")) {
		t.Errorf("log %q does not say the watchdog stopped", logs.String())
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
