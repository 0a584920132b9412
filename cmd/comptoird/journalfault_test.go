package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/journal"
	"comptoir/journal/faulttest"
)

// phone is a seat's phone on the daemon's websocket.
type phone struct {
	t    *testing.T
	conn *websocket.Conn
	id   int64
	last map[string]any // the last state frame read
}

func (d *daemon) phone(token string) *phone {
	d.t.Helper()
	h := map[string][]string{"Origin": {"http://" + d.addr}}
	conn, _, err := websocket.DefaultDialer.Dial("ws://"+d.addr+"/ws", h)
	if err != nil {
		d.t.Fatalf("websocket: %v", err)
	}
	d.t.Cleanup(func() { conn.Close() })
	p := &phone{t: d.t, conn: conn}
	if err := conn.WriteJSON(map[string]any{"type": "hello", "token": token}); err != nil {
		d.t.Fatal(err)
	}
	p.read(func(m map[string]any) bool { return m["type"] == "welcome" })
	return p
}

// read reads messages until done says so of one, keeping the last state
// frame.
func (p *phone) read(done func(map[string]any) bool) map[string]any {
	p.t.Helper()
	p.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		_, data, err := p.conn.ReadMessage()
		if err != nil {
			p.t.Fatalf("phone: websocket read: %v", err)
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			p.t.Fatalf("phone: frame %s: %v", data, err)
		}
		if _, ok := m["view"]; ok {
			p.last = m
		}
		if done(m) {
			return m
		}
	}
}

// command sends a command line and returns the daemon's reply.
func (p *phone) command(line string) map[string]any {
	p.t.Helper()
	p.id++
	id := p.id
	if err := p.conn.WriteJSON(map[string]any{"type": "command", "id": id, "line": line}); err != nil {
		p.t.Fatalf("phone: %v", err)
	}
	return p.read(func(m map[string]any) bool { id2, _ := m["id"].(float64); return int64(id2) == id && m["view"] == nil })
}

// journalShown returns the journal's status on the phone's screen, once
// one is shown.
func (p *phone) journalShown() map[string]any {
	p.t.Helper()
	find := func(m map[string]any) map[string]any {
		devs, _ := m["devices"].([]any)
		for _, d := range devs {
			if dm, _ := d.(map[string]any); dm["device"] == "journal" {
				return dm
			}
		}
		return nil
	}
	if p.last != nil && find(p.last) != nil {
		return find(p.last)
	}
	return find(p.read(func(m map[string]any) bool { return m["view"] != nil && find(m) != nil }))
}

// rawWords are SQLite's and the system's words, which never reach a phone.
var rawWords = []string{"disk I/O error", "(778)", "(13)", "(8)", "SQL", "errno", "operation not permitted", "no space left"}

func checkPhoneWords(t *testing.T, what string, m map[string]any) {
	t.Helper()
	en, _ := m["en"].(string)
	fr, _ := m["fr"].(string)
	if en == "" || fr == "" {
		t.Errorf("%s: %v, want words in English and French", what, m)
	}
	for _, raw := range rawWords {
		if strings.Contains(en, raw) || strings.Contains(fr, raw) {
			t.Errorf("%s carries the raw cause %q: %q / %q", what, raw, en, fr)
		}
	}
	if !strings.Contains(en, "staff") || !strings.Contains(fr, "personnel") {
		t.Errorf("%s does not say to call the staff: %q / %q", what, en, fr)
	}
}

func tallyConfig(t *testing.T, dir, journalPath string) string {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "table.yaml")
	body := fmt.Sprintf("version: 1\ngame: tally\nplayers: [Anna, Bruno]\noptions:\n  pile: \"100000\"\njournal: %s\nstaff_pin: \"1234\"\n", journalPath)
	if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestJournalFaults plays from two phones on a real daemon while the
// journal's file system fails in each way an operator's bad day brings:
// the daemon stays up, the phones are told in words (a refusal, and the
// journal's status on their screens), the journal records again by itself
// once the fault is gone, and after a kill -9 and a restart every
// acknowledged step is in the journal.
func TestJournalFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the daemon twice per fault")
	}
	for _, tc := range []struct {
		name    string
		chattr  bool
		disk    bool // the journal on a small tmpfs
		fault   func(t *testing.T, path string) (undo func())
		refused bool   // steps are refused while the fault lasts
		logged  string // what the daemon's log says
	}{
		{"wal-index-immutable", true, false, func(t *testing.T, path string) func() { return faulttest.Immutable(t, path+"-shm") }, false, ""},
		{"main-file-immutable", true, false, func(t *testing.T, path string) func() { return faulttest.Immutable(t, path) }, true, "can no longer be written"},
		{"wal-immutable", true, false, func(t *testing.T, path string) func() { return faulttest.Immutable(t, path+"-wal") }, true, "can no longer be written"},
		{"all-three-immutable", true, false, func(t *testing.T, path string) func() {
			return faulttest.Immutable(t, path, path+"-wal", path+"-shm")
		}, true, "operation not permitted"},
		{"deleted", false, false, func(t *testing.T, path string) func() { os.Remove(path); return nil }, false, "was deleted while the game ran: the game was written again"},
		{"replaced", false, false, func(t *testing.T, path string) func() {
			other := path + ".other"
			db, err := sql.Open("sqlite", other)
			if err != nil {
				t.Fatal(err)
			}
			db.Exec(`CREATE TABLE photos (name TEXT)`)
			db.Close()
			if err := os.Rename(other, path); err != nil {
				t.Fatal(err)
			}
			return nil
		}, false, "was replaced by another file while the game ran"},
		{"disk-full", false, true, func(t *testing.T, path string) func() {
			filler := filepath.Join(filepath.Dir(path), "filler")
			faulttest.Fill(t, filler)
			return func() { os.Remove(filler) }
		}, true, "database or disk is full"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.chattr {
				faulttest.NeedChattr(t, dir)
			}
			if tc.disk {
				dir = faulttest.SmallDisk(t, 1<<20)
			}
			path := filepath.Join(dir, "t.db")
			cfg := tallyConfig(t, dir, path)
			addr := freeAddr(t)
			d := startDaemon(t, addr, "--config", cfg)
			tf := d.tableFrame()
			phones := []*phone{d.phone(d.join(tf, 0)), d.phone(d.join(tf, 1))}
			acked := 0
			take := func() map[string]any { return phones[acked%2].command("take n=1") }
			for i := 0; i < 4; i++ {
				if r := take(); r["type"] != "accepted" {
					t.Fatalf("step %d before the fault: %v", i, r)
				}
				acked++
			}

			undo := tc.fault(t, path)
			refused := 0
			for i := 0; i < 60 && (refused < 2 || !tc.refused) && (i < 4 || tc.refused); i++ {
				r := take()
				switch r["type"] {
				case "accepted":
					acked++
				case "refused":
					refused++
					checkPhoneWords(t, "the refusal", r)
				default:
					t.Fatalf("reply during the fault: %v, want accepted or refused", r)
				}
			}
			if tc.refused && refused == 0 {
				t.Fatalf("no step refused during the fault")
			}
			if !tc.refused && refused > 0 {
				t.Fatalf("%d steps refused: this fault must not stop the journal", refused)
			}
			if tc.refused {
				shown := phones[acked%2].journalShown()
				if shown["ok"] != false {
					t.Errorf("the seat's screen shows the journal %v, want not recording", shown)
				}
				checkPhoneWords(t, "the journal's status on the seat", map[string]any{"en": shown["detail"], "fr": shown["fr"]})
			}
			select {
			case <-d.done:
				t.Fatalf("comptoird died during the fault:\n%s", d.logs)
			default:
			}
			if undo != nil {
				undo()
			}
			deadline := time.Now().Add(10 * time.Second)
			for {
				r := take()
				if r["type"] == "accepted" {
					acked++
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the journal did not record again after the fault: %v\n%s", r, d.logs)
				}
				time.Sleep(100 * time.Millisecond)
			}
			for i := 0; i < 2; i++ {
				if r := take(); r["type"] != "accepted" {
					t.Fatalf("step %d after the fault: %v", i, r)
				}
				acked++
			}
			if tc.logged != "" && !strings.Contains(d.logs.String(), tc.logged) {
				t.Errorf("the daemon's log does not say %q:\n%s", tc.logged, d.logs)
			}

			d.cmd.Process.Signal(syscall.SIGKILL)
			<-d.done
			d2 := startDaemon(t, addr, "--config", cfg)
			record := d2.get("/download/record")
			if n := strings.Count(record, "take n=1"); n != acked {
				t.Errorf("after the fault and a restart the record holds %d steps, %d were acknowledged:\n%s\nlogs:\n%s", n, acked, record, d2.logs)
			}
		})
	}
}

// runDaemon runs the daemon to its end and returns its exit code and
// output.
func runDaemon(t *testing.T, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], append([]string{"--listen", freeAddr(t)}, args...)...)
	cmd.Env = append(os.Environ(), "COMPTOIRD_CHILD=1")
	out, _ := cmd.CombinedOutput()
	return cmd.ProcessState.ExitCode(), string(out)
}

// TestJournalStartupFaults: the daemon refuses to start on a journal it
// cannot use, and says which file, what is wrong and what to do.
func TestJournalStartupFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the daemon")
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "good.db")
	st, err := journal.Open(good)
	if err != nil {
		t.Fatal(err)
	}
	g, err := st.Begin(enginetest.Rules{}, engine.Setup{Game: "tally", Players: []string{"A", "B"}, Options: map[string]string{"pile": "1000"}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 30; i++ {
		s, _ := g.State()
		a := s.Legal()[0]
		evs, _ := s.Decide(a)
		if _, err := g.Append(time.Now(), a, evs); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	b, _ := os.ReadFile(good)
	rng := rand.New(rand.NewSource(1))
	for i := 4096 + 64; i < len(b); i++ {
		b[i] = byte(rng.Intn(256))
	}
	damaged := filepath.Join(dir, "damaged.db")
	os.WriteFile(damaged, b, 0o644)
	junk := filepath.Join(dir, "junk.db")
	os.WriteFile(junk, []byte(strings.Repeat("random bytes ", 400)), 0o644)
	repo, _ := filepath.Abs("../..")
	negoce := filepath.Join(repo, "configs", "tables", "demo-negoce.yaml")

	for _, tc := range []struct {
		name    string
		config  string
		journal string
		words   []string
	}{
		{"missing-folder", "", filepath.Join(dir, "nowhere", "t.db"), []string{"the folder " + filepath.Join(dir, "nowhere") + " does not exist", "mkdir -p", "n'existe pas"}},
		{"folder", "", dir, []string{"is a folder, not a file", "est un dossier"}},
		{"random-bytes", "", junk, []string{"is not a Comptoir journal", "n'est pas un journal Comptoir"}},
		{"damaged", "", damaged, []string{"is damaged", "restore a backup", "abîmé"}},
		{"other-game", negoce, good, []string{"holds an unfinished game 1 of tally", "comptoir journal abandon --journal " + good + " --game 1", "comptoir journal end --journal " + good + " --game 1", "non terminée"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.config
			if cfg == "" {
				cfg = tallyConfig(t, dir, tc.journal)
			}
			code, out := runDaemon(t, "--config", cfg, "--journal", tc.journal, "--no-replay")
			if code != 1 {
				t.Fatalf("exit code %d, want 1:\n%s", code, out)
			}
			if !strings.Contains(out, tc.journal) {
				t.Errorf("the error does not name the journal %s:\n%s", tc.journal, out)
			}
			for _, w := range tc.words {
				if !strings.Contains(out, w) {
					t.Errorf("the error does not say %q:\n%s", w, out)
				}
			}
			for _, raw := range []string{"out of memory (14)", "malformed (11)\n"} {
				if strings.Contains(out, raw) && !strings.Contains(out, "cause:") {
					t.Errorf("SQLite's raw words without context: %s", out)
				}
			}
		})
	}
}
