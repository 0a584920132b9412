package hub

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain runs the hub's command when the kill test starts this test
// binary as a child process.
func TestMain(m *testing.M) {
	if args := os.Getenv("COMPTOIR_HUB_CHILD"); args != "" {
		if err := Command(context.Background(), strings.Split(args, "\x1f"), os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// hubChild is the hub's command (its NATS server included) in a child
// process.
type hubChild struct {
	cmd  *exec.Cmd
	done chan struct{}
}

var floorRe = regexp.MustCompile(`floor on http://(\S+)`)

func startHubChild(t *testing.T, state, tables string, natsPort int) *hubChild {
	t.Helper()
	args := []string{"--state", state, "--tables", tables, "--listen", "127.0.0.1:0", "--nats-listen", fmt.Sprintf("127.0.0.1:%d", natsPort), "--ack-wait", testAckWait.String()}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "COMPTOIR_HUB_CHILD="+strings.Join(args, "\x1f"))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &hubChild{cmd: cmd, done: make(chan struct{})}
	up := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		seen := false
		for sc.Scan() {
			if !seen && floorRe.MatchString(sc.Text()) {
				seen = true
				close(up)
			}
		}
		cmd.Wait()
		close(c.done)
	}()
	select {
	case <-up:
	case <-c.done:
		t.Fatal("the hub child stopped before it served")
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the hub child did not start")
	}
	return c
}

func (c *hubChild) signal(sig syscall.Signal) {
	c.cmd.Process.Signal(sig)
	<-c.done
}

// TestHubKilled kills the hub's process (its NATS server with it) with
// SIGKILL while the tables play, starts it again on the same state: the
// history holds every step and play once.
func TestHubKilled(t *testing.T) {
	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	r := &rig{t: t, dir: dir, creds: map[string]string{"genoa-1": NewPassword(), "dschunke-1": NewPassword()}, port: port}
	tables := filepath.Join(dir, "tables.yaml")
	var b strings.Builder
	b.WriteString("version: 1\ntables:\n")
	for n, pw := range r.creds {
		fmt.Fprintf(&b, "  %s: %q\n", n, pw)
	}
	os.WriteFile(tables, []byte(b.String()), 0o600)
	state := filepath.Join(dir, "hub")
	child := startHubChild(t, state, tables, port)
	t.Cleanup(func() {
		for _, tb := range r.tables {
			tb.stopPub()
			tb.Close()
		}
		select {
		case <-child.done:
		default:
			child.signal(syscall.SIGKILL)
		}
	})
	r.addTable("genoa-1", 0, 81)
	r.addTable("dschunke-1", 2, 82)
	r.play(100)
	child.signal(syscall.SIGKILL)
	r.play(150)
	child = startHubChild(t, state, tables, port)
	r.play(50)
	// Wait for the history through a second reader of its file.
	hist, err := OpenHistory(filepath.Join(state, "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer hist.Close()
	r.hist = hist
	steps, ends := r.journalled()
	deadline := time.Now().Add(30 * time.Second)
	for {
		n, err := hist.StepCount()
		if err == nil && n == steps+int64(ends) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("history holds %d steps and ends, the journals %d", n, steps+int64(ends))
		}
		time.Sleep(50 * time.Millisecond)
	}
	child.signal(syscall.SIGTERM)
	plays, err := hist.Plays(Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(plays) != ends {
		t.Fatalf("history holds %d plays, the journals finished %d", len(plays), ends)
	}
}
