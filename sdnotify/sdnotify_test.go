package sdnotify

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// listen is systemd's end: a datagram socket whose notifications arrive
// on the returned channel.
func listen(t *testing.T, name string) <-chan string {
	t.Helper()
	addr := name
	if addr[0] == '@' {
		addr = "\x00" + addr[1:]
	}
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: addr, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	out := make(chan string, 100)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(out)
		buf := make([]byte, 4096)
		for {
			n, err := conn.Read(buf)
			if err != nil {
				return
			}
			out <- string(buf[:n])
		}
	}()
	t.Cleanup(func() { conn.Close(); wg.Wait() })
	return out
}

func TestSend(t *testing.T) {
	for _, name := range []string{filepath.Join(t.TempDir(), "notify"), fmt.Sprintf("@comptoir-test-%d", os.Getpid())} {
		got := listen(t, name)
		t.Setenv("NOTIFY_SOCKET", name)
		n := FromEnv()
		if err := n.Send(Ready + "\nSTATUS=serving"); err != nil {
			t.Fatalf("Send to %q: %v", name, err)
		}
		if m := <-got; m != "READY=1\nSTATUS=serving" {
			t.Errorf("%q received %q", name, m)
		}
	}
	t.Setenv("NOTIFY_SOCKET", "")
	if n := FromEnv(); n != nil || n.Send(Ready) != nil {
		t.Errorf("FromEnv without NOTIFY_SOCKET = %v, want nil, a Notifier that sends nothing", n)
	}
}

func TestWatchdogInterval(t *testing.T) {
	for _, tc := range []struct {
		usec, pid string
		want      time.Duration
	}{
		{"", "", 0},
		{"30000000", "", 30 * time.Second},
		{"30000000", strconv.Itoa(os.Getpid()), 30 * time.Second},
		{"30000000", "1", 0}, // another process's watchdog
		{"nonsense", "", 0},
	} {
		t.Setenv("WATCHDOG_USEC", tc.usec)
		t.Setenv("WATCHDOG_PID", tc.pid)
		if got := WatchdogInterval(); got != tc.want {
			t.Errorf("WatchdogInterval(WATCHDOG_USEC=%q WATCHDOG_PID=%q) = %v, want %v", tc.usec, tc.pid, got, tc.want)
		}
	}
}

// TestWatchdogStopsWhenStuck: the pings stop while the probe hangs (a
// stuck session) and come back once it answers.
func TestWatchdogStopsWhenStuck(t *testing.T) {
	name := filepath.Join(t.TempDir(), "notify")
	got := listen(t, name)
	var mu sync.Mutex
	stuck := make(chan struct{}) // closed: the probe hangs until unstuck
	unstuck := make(chan struct{})
	probe := func(ctx context.Context) error {
		mu.Lock()
		s, u := stuck, unstuck
		mu.Unlock()
		select {
		case <-s:
		default:
			return nil
		}
		select {
		case <-u:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	const timeout = 150 * time.Millisecond
	go func() { done <- Watchdog(ctx, New(name), timeout, probe, t.Logf) }()
	count := func(d time.Duration) int {
		n := 0
		deadline := time.After(d)
		for {
			select {
			case m := <-got:
				if m != Alive {
					t.Errorf("received %q, want %q", m, Alive)
				}
				n++
			case <-deadline:
				return n
			}
		}
	}
	if n := count(4 * timeout); n < 4 {
		t.Errorf("%d pings in %v while the probe answers, want about 12", n, 4*timeout)
	}
	close(stuck)
	count(timeout / 2) // a ping may be on its way
	if n := count(4 * timeout); n != 0 {
		t.Errorf("%d pings in %v while the probe hangs, want none (systemd would not restart a stuck service)", n, 4*timeout)
	}
	close(unstuck)
	if n := count(4 * timeout); n < 4 {
		t.Errorf("%d pings in %v once the probe answers again, want about 12", n, 4*timeout)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Watchdog = %v, want nil after cancel", err)
	}
	if err := Watchdog(ctx, nil, 0, probe, nil); !errors.Is(err, ErrNoWatchdog) {
		t.Errorf("Watchdog without a timeout = %v, want ErrNoWatchdog", err)
	}
}
