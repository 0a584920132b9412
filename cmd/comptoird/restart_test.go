package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"comptoir/dashboard"
)

// TestMain runs the daemon itself when the restart test starts this test
// binary as a child process, and a fake dice reader when the dice reader
// tests do.
func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeDiceEnv); mode != "" {
		os.Exit(fakeDicefeed(mode))
	}
	if os.Getenv("COMPTOIRD_CHILD") == "1" {
		os.Setenv(testGamesEnv, "1") // the tests' tables play Tally too
		main()
		return
	}
	os.Exit(m.Run())
}

// daemon is a comptoird child process.
type daemon struct {
	t    *testing.T
	cmd  *exec.Cmd
	addr string
	logs *logBuf
	done chan struct{}
}

// startDaemon starts this test binary as comptoird with args and waits
// until its dashboard answers.
func startDaemon(t *testing.T, addr string, args ...string) *daemon {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"--listen", addr}, args...)...)
	cmd.Env = append(os.Environ(), "COMPTOIRD_CHILD=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	d := &daemon{t: t, cmd: cmd, addr: addr, logs: &logBuf{}, done: make(chan struct{})}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			d.logs.WriteString(sc.Text() + "\n")
		}
		cmd.Wait()
		close(d.done)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-d.done
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return d
			}
		}
		select {
		case <-d.done:
			t.Fatalf("comptoird exited while starting:\n%s", d.logs)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("comptoird did not answer on %s:\n%s", addr, d.logs)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (d *daemon) get(path string) string {
	d.t.Helper()
	req, err := http.NewRequest("GET", "http://"+d.addr+path, nil)
	if err != nil {
		d.t.Fatal(err)
	}
	// The record of a game not over is the staff's only.
	req.Header.Set(dashboard.StaffPINHeader, "1234")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		d.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		d.t.Fatalf("GET %s: %d %v\n%s", path, resp.StatusCode, err, b)
	}
	return string(b)
}

// tableFrame connects to the dashboard's websocket as the table's screen
// and returns the first frame that holds the game's view.
func (d *daemon) tableFrame() map[string]any { return d.frame("", "table") }

// seatFrame connects as the phone holding token and returns the first
// frame of its seat's view.
func (d *daemon) seatFrame(token string) map[string]any { return d.frame(token, "seat") }

func (d *daemon) frame(token, role string) map[string]any {
	d.t.Helper()
	h := http.Header{"Origin": {"http://" + d.addr}}
	conn, _, err := websocket.DefaultDialer.Dial("ws://"+d.addr+"/ws", h)
	if err != nil {
		d.t.Fatalf("websocket: %v", err)
	}
	defer conn.Close()
	if token != "" {
		if err := conn.WriteJSON(map[string]string{"type": "hello", "token": token}); err != nil {
			d.t.Fatalf("websocket hello: %v", err)
		}
	}
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		_, data, err := conn.ReadMessage()
		if err != nil {
			d.t.Fatalf("websocket read: %v", err)
		}
		var f map[string]any
		if err := json.Unmarshal(data, &f); err != nil {
			d.t.Fatalf("websocket frame %s: %v", data, err)
		}
		if _, ok := f["view"]; ok && f["role"] == role {
			return f
		}
	}
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestRestartAfterKill plays the demo's recording fast into a daemon,
// kills it with SIGKILL in the middle of the game, starts it again on the
// same journal, and checks over HTTP and the websocket that the game
// stands exactly where it stood.
func TestRestartAfterKill(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the daemon twice")
	}
	dir := t.TempDir()
	cfg := genoaConfig(t, dir, "table.db", `staff_pin: "1234"
replay:
  inputs: %R/configs/demo/genoa-inputs.jsonl
  speed: 40
`)
	addr := freeAddr(t)
	d := startDaemon(t, addr, "--config", cfg)

	// Wait until the recording has played out: the record stops growing.
	var record string
	deadline := time.Now().Add(30 * time.Second)
	for stable := 0; stable < 4; {
		time.Sleep(250 * time.Millisecond)
		r := d.get("/download/record")
		if r == record && strings.Contains(r, "roll") {
			stable++
		} else {
			stable = 0
		}
		record = r
		if time.Now().After(deadline) {
			t.Fatalf("the recording did not settle; record so far:\n%s\nlogs:\n%s", record, d.logs)
		}
	}
	before := d.tableFrame()
	if strings.Count(record, "\n") < 20 {
		t.Fatalf("record before the kill is short:\n%s", record)
	}
	// Anna's phone joins by the link of the table's QR code.
	token := d.join(before, 0)
	beforeSeat := d.seatFrame(token)
	if v := mustJSON(t, beforeSeat["view"]); !strings.Contains(v, `"mine":{`) || !strings.Contains(v, `"ducats":`) {
		t.Fatalf("Anna's view holds no money of hers: %s", mustJSON(t, beforeSeat["view"]))
	}

	// kill -9: no shutdown at all.
	if err := d.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-d.done

	// Start again on the same journal, without the recording.
	d2 := startDaemon(t, addr, "--config", cfg, "--no-replay")
	if !strings.Contains(d2.logs.String(), "resumes at step") {
		t.Errorf("the daemon did not resume the game; logs:\n%s", d2.logs)
	}
	after := d2.get("/download/record")
	if after != record {
		t.Errorf("record after the restart differs:\n%s\nwant:\n%s", after, record)
	}
	got := d2.tableFrame()
	for _, k := range []string{"view", "log", "seq", "game"} {
		if before[k] == nil {
			t.Fatalf("the table frame has no %q: keys %v", k, keys(before))
		}
		b1, _ := json.Marshal(before[k])
		b2, _ := json.Marshal(got[k])
		if string(b1) != string(b2) {
			t.Errorf("table frame %q after the restart:\n%s\nwant:\n%s", k, b2, b1)
		}
	}

	// Anna's phone reconnects with its token and sees what it saw.
	if got, want := mustJSON(t, d2.seatFrame(token)["view"]), mustJSON(t, beforeSeat["view"]); got != want {
		t.Errorf("Anna's view after the restart:\n%s\nwant:\n%s", got, want)
	}

	// SIGTERM: a clean stop, exit status 0.
	if err := d2.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-d2.done:
	case <-time.After(ShutdownTimeout + 5*time.Second):
		t.Fatal("comptoird did not stop on SIGTERM")
	}
	if code := d2.cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("exit status after SIGTERM = %d, want 0; logs:\n%s", code, d2.logs)
	}
}

// logBuf collects a child's log lines; it is safe for concurrent use.
type logBuf struct {
	mu sync.Mutex
	b  strings.Builder // guarded by mu
}

func (l *logBuf) WriteString(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.WriteString(s)
}

func (l *logBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// join takes seat (0-based) with the join link the table frame shows for
// it, as a phone that scanned the QR code, and returns the seat's token.
func (d *daemon) join(tableFrame map[string]any, seat int) string {
	d.t.Helper()
	players, _ := tableFrame["players"].([]any)
	if len(players) <= seat {
		d.t.Fatalf("table frame players %v: no seat %d", tableFrame["players"], seat)
	}
	link, _ := players[seat].(map[string]any)["join"].(string)
	u, err := url.Parse(link)
	if err != nil || u.Query().Get("code") == "" {
		d.t.Fatalf("seat %d's join link %q has no code", seat, link)
	}
	body := fmt.Sprintf(`{"seat":%d,"code":%q}`, seat+1, u.Query().Get("code"))
	req, _ := http.NewRequest("POST", "http://"+d.addr+"/api/join", strings.NewReader(body))
	req.Header.Set("Origin", "http://"+d.addr) // the join page's own origin
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		d.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct{ Token string }
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.Token == "" || resp.StatusCode != http.StatusOK {
		d.t.Fatalf("join seat %d: %d %v %+v", seat, resp.StatusCode, err, out)
	}
	return out.Token
}
