package hub

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"comptoir/cafe"
	"comptoir/engine"
)

// TestHistoryEndpoints: a finished play in the history, with filters, as
// CSV, with its BG Stats link and QR code; the plots are SVG.
func TestHistoryEndpoints(t *testing.T) {
	hist, err := OpenHistory(filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer hist.Close()
	start := time.Date(2026, 11, 25, 19, 0, 0, 0, time.UTC)
	res := engine.Result{Over: true, Scores: []engine.Score{{Seat: 0, Player: "Anna", Total: 120, Rank: 1}, {Seat: 1, Player: "Bruno", Total: 90, Rank: 2}}, Winners: []engine.Seat{0}}
	end := cafe.Step{V: 1, Table: "t-1", Game: 4, End: true, Outcome: "over", At: start.Add(75 * time.Minute), Started: start, Name: "genoa", Variant: "alea-2001", Players: []string{"Anna", "Bruno"}, Result: &res}
	for i := 0; i < 2; i++ { // the second is a duplicate
		if _, err := hist.Record(end); err != nil {
			t.Fatal(err)
		}
	}
	h := &Hub{opts: Opts{History: hist, Now: time.Now, Logf: t.Logf}, Floor: NewFloor(time.Second, 1.5)}
	srv := httptest.NewServer(h.Handler(WebOpts{Location: "Café Rivoli"}))
	defer srv.Close()
	get := func(path string) (string, string) {
		t.Helper()
		r, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		b, _ := io.ReadAll(r.Body)
		if r.StatusCode != 200 {
			t.Fatalf("GET %s: %s %s", path, r.Status, b)
		}
		return string(b), r.Header.Get("Content-Type")
	}
	body, _ := get("/api/history?game=genoa&players=2")
	var rows []struct {
		Minutes int      `json:"minutes"`
		Winners []string `json:"winners"`
		BGStats string   `json:"bgstats"`
	}
	json.Unmarshal([]byte(body), &rows)
	if len(rows) != 1 || rows[0].Minutes != 75 || rows[0].Winners[0] != "Anna" || !strings.HasPrefix(rows[0].BGStats, BGStatsBase) {
		t.Fatalf("history = %s", body)
	}
	data, _ := url.QueryUnescape(strings.TrimPrefix(rows[0].BGStats, BGStatsBase))
	var play struct {
		SourceName  string `json:"sourceName"`
		DurationMin int    `json:"durationMin"`
		Location    struct{ Name string }
		Game        struct{ Name string }
		Players     []struct {
			Name   string
			Score  string
			Winner bool
		}
	}
	if err := json.Unmarshal([]byte(data), &play); err != nil || play.DurationMin != 75 || play.Location.Name != "Café Rivoli" || len(play.Players) != 2 || !play.Players[0].Winner || play.Players[1].Score != "90" || play.Game.Name != "The Traders of Genoa" {
		t.Fatalf("BG Stats play %s: %v", data, err)
	}
	if body, _ := get("/api/history?players=3"); strings.TrimSpace(body) != "[]" {
		t.Fatalf("filtered history = %s, want none", body)
	}
	csv, ctype := get("/api/history.csv")
	if !strings.HasPrefix(ctype, "text/csv") || !strings.Contains(csv, "t-1,genoa,alea-2001,Anna; Bruno,Anna 120; Bruno 90,Anna,over") {
		t.Fatalf("CSV (%s):\n%s", ctype, csv)
	}
	if png, ctype := get("/api/play/t-1/4/qr.png"); ctype != "image/png" || !strings.HasPrefix(png, "\x89PNG") {
		t.Fatalf("QR: %s", ctype)
	}
	for _, p := range Plots {
		if svg, ctype := get("/api/plot/" + p + ".svg?lang=fr"); ctype != "image/svg+xml" || !strings.Contains(svg, "<svg") {
			t.Fatalf("plot %s: %s %.100s", p, ctype, svg)
		}
	}
	if page, _ := get("/"); !strings.Contains(page, "app.js") {
		t.Fatal("no floor page")
	}
}

// TestFramesCoalesced: a busy floor (100 tables stepping as fast as they
// can) reaches a page as at most a frame per frameEvery, each with the
// tables' latest cards, and the page ends with every table's last step.
func TestFramesCoalesced(t *testing.T) {
	hist, err := OpenHistory(filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer hist.Close()
	h := &Hub{opts: Opts{History: hist, Now: time.Now, Logf: t.Logf}, Floor: NewFloor(time.Minute, 1.5)}
	srv := httptest.NewServer(h.Handler(WebOpts{}))
	defer srv.Close()
	c, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http")+"/ws", http.Header{"Origin": {srv.URL}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, _, err := c.ReadMessage(); err != nil { // the snapshot
		t.Fatal(err)
	}
	const tables, steps = 100, 20
	start := time.Now()
	go func() {
		for seq := int64(1); seq <= steps; seq++ {
			for i := 0; i < tables; i++ {
				now := time.Now()
				h.Floor.Step(cafe.Step{V: 1, Table: fmt.Sprintf("t-%03d", i), Game: 1, Seq: seq, At: now, Name: "genoa", Players: []string{"A", "B"}}, now)
				time.Sleep(50 * time.Microsecond)
			}
		}
	}()
	last := map[string]int64{}
	frames := 0
	c.SetReadDeadline(time.Now().Add(20 * time.Second))
	for len(last) < tables || slices.ContainsFunc(slices.Collect(maps.Values(last)), func(s int64) bool { return s < steps }) {
		_, data, err := c.ReadMessage()
		if err != nil {
			t.Fatalf("after %d frames, %d tables seen: %v", frames, len(last), err)
		}
		frames++
		var fr Frame
		if err := json.Unmarshal(data, &fr); err != nil {
			t.Fatal(err)
		}
		for _, card := range fr.Cards {
			last[card.Table] = max(last[card.Table], card.Seq)
		}
	}
	elapsed := time.Since(start)
	if most := int(elapsed/frameEvery) + 2; frames > most {
		t.Fatalf("%d frames in %v for %d steps, want at most %d (one per %v)", frames, elapsed, tables*steps, most, frameEvery)
	}
	t.Logf("%d steps of %d tables in %d frames over %v", tables*steps, tables, frames, elapsed)
}
