package metrics

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/games/tally"
	"comptoir/input"
	"comptoir/journal"
	"comptoir/table"
)

// scrape returns the metrics' text.
func scrape(t *testing.T, m *Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /metrics: %d", rec.Code)
	}
	return rec.Body.String()
}

// TestObserveSession counts a real table session's steps, undo,
// refusals, device faults and dice reads, from its updates and inputs.
func TestObserveSession(t *testing.T) {
	st, err := journal.Open(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rules := enginetest.Rules{}
	g, err := st.Begin(rules, engine.Setup{Game: "tally", Players: []string{"Anna", "Bruno"}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	opts := table.DefaultOpts
	opts.Rules, opts.Game, opts.Store, opts.Kit = rules, g, st, tally.Game()
	sess, err := table.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	m := New(opts.MinConfidence)
	ctx, cancel := context.WithCancel(context.Background())
	in := make(chan input.Event)
	counted := make(chan input.Event)
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { defer wg.Done(); sess.Run(ctx, counted) }()
	go func() { // the daemon's tee: inputs counted on their way
		defer wg.Done()
		for e := range in {
			m.Input(e)
			counted <- e
		}
	}()
	updates := sess.Subscribe(ctx)
	// The state before any step is the observer's baseline: read it
	// here, before the steps are played (a subscriber's unread update is
	// replaced by the next, so an observer that starts late would take
	// the first step's state for its baseline and count one step less).
	m.Observe(<-updates)
	go func() {
		defer wg.Done()
		for u := range updates {
			m.Observe(u)
		}
	}()
	settle := func() {
		t.Helper()
		if _, err := sess.Current(ctx); err != nil {
			t.Fatal(err)
		}
	}
	play := func(by engine.Seat, n int) error {
		return sess.Submit(ctx, engine.Action{By: by, Cmd: enginetest.Take{N: n}})
	}
	if err := play(0, 3); err != nil {
		t.Fatal(err)
	}
	if err := play(1, 2); err != nil {
		t.Fatal(err)
	}
	if err := play(1, 1); err == nil { // not Bruno's turn
		t.Fatal("an out-of-turn step was accepted")
	}
	if err := sess.Staff(ctx, table.StaffRequest{Kind: table.StaffUndo, Reason: "wrong count"}); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	in <- input.DeviceStatus{At: now, Device: "nfc", OK: true}
	in <- input.DeviceStatus{At: now, Device: "nfc", OK: false, Detail: "no answer"}
	in <- input.DeviceStatus{At: now, Device: "nfc", OK: false, Detail: "still no answer"}
	in <- input.DiceRolled{At: now, Blue: 3, Red: 4, Confidence: 0.99}
	in <- input.DiceRolled{At: now, Blue: 3, Red: 4, Confidence: 0.5}
	in <- input.DiceUnreadable{At: now, Reason: "cocked"}
	settle()

	wants := []string{
		// Every step the journal wrote: the players' two, the undo,
		// and what the table made of the dice.
		fmt.Sprintf("comptoir_steps_total %d", g.Len()),
		`comptoir_refusals_total{reason="not-your-turn"} 1`,
		"comptoir_undos_total 1",
		`comptoir_device_faults_total{device="nfc"} 1`,
		`comptoir_device_up{device="nfc"} 0`,
		`comptoir_dice_reads_total{result="read"} 1`,
		`comptoir_dice_reads_total{result="unsure"} 1`,
		`comptoir_dice_reads_total{result="unreadable"} 1`,
		"comptoir_connections 0",
		"# TYPE go_goroutines gauge",
	}
	// The observer follows the session's updates: wait for the last.
	var text string
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		text = scrape(t, m)
		missing := ""
		for _, want := range wants {
			if !strings.Contains(text, want+"\n") {
				missing = want
			}
		}
		if missing == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("metrics lack %q:\n%s", missing, grep(text, "comptoir_"))
		}
	}
	if !strings.Contains(text, `comptoir_refusals_total{reason="`) {
		t.Errorf("no refusal counted:\n%s", text)
	}
	close(in)
	cancel()
	wg.Wait()
}

func TestConnections(t *testing.T) {
	m := New(0.9)
	inside := make(chan struct{})
	release := make(chan struct{})
	h := m.Connections("/ws", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/ws" {
			inside <- struct{}{}
			<-release
		}
	}))
	srv := httptest.NewServer(h)
	defer srv.Close()
	done := make(chan struct{})
	go func() {
		resp, err := http.Get(srv.URL + "/ws")
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		close(done)
	}()
	<-inside
	if text := scrape(t, m); !strings.Contains(text, "comptoir_connections 1\n") {
		t.Errorf("one connection open, metrics say:\n%s", grep(text, "comptoir_connections"))
	}
	http.Get(srv.URL + "/other")
	close(release)
	<-done
	if text := scrape(t, m); !strings.Contains(text, "comptoir_connections 0\n") {
		t.Errorf("connection closed, metrics say:\n%s", grep(text, "comptoir_connections"))
	}
}

func grep(text, prefix string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
