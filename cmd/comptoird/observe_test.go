package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/input"
	"comptoir/table"
	"comptoir/tableconfig"
)

// TestLogUpdate logs each change once: device faults and recoveries,
// new steps in their public words, refusals, the end of a game and the
// next one; nothing again for an update that changes nothing.
func TestLogUpdate(t *testing.T) {
	st, _ := enginetest.Rules{}.Start(engine.Setup{Game: "tally", Players: []string{"Anna", "Bruno"}})
	u0 := table.Update{Game: 1, State: st, Seq: 3, Log: []table.LogLine{{Seq: 1, EN: "old step"}}, Devices: []input.DeviceStatus{{Device: "nfc", OK: true}, {Device: "camera", Detail: "no such device"}}}
	u1 := u0
	u1.Seq, u1.Log = 4, append(u0.Log, table.LogLine{Seq: 4, EN: "Anna takes 3 coins"})
	u1.Devices = []input.DeviceStatus{{Device: "nfc", Detail: "no answer"}, {Device: "camera", OK: true, Detail: "back"}}
	u2 := u1
	u2.Refusal = &table.Refused{Seat: 1, Code: "not-your-turn", EN: "it is Anna's turn"}
	u2.Outcome = "over"
	u3 := u2
	u3.Game = 2
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}}))
	logUpdate(log, nil, &u0)
	logUpdate(log, &u0, &u1)
	logUpdate(log, &u1, &u1) // nothing new
	logUpdate(log, &u1, &u2)
	logUpdate(log, &u2, &u3)
	want := `level=WARN msg="device fault" device=camera detail="no such device"
level=WARN msg="device fault" device=nfc detail="no answer"
level=INFO msg="device recovered" device=camera detail=back
level=INFO msg=step game=1 seq=4 en="Anna takes 3 coins"
level=INFO msg=refused game=1 seat="seat 2" reason=not-your-turn en="it is Anna's turn"
level=INFO msg="game ends" game=1 outcome=over
level=INFO msg="game begins" game=2 rules=tally variant="" players="[Anna Bruno]"
`
	if buf.String() != want {
		t.Errorf("log:\n%s\nwant:\n%s", buf.String(), want)
	}
}

// TestHealthAndMetrics runs the daemon and reads its /healthz and
// /metrics beside the dashboard.
func TestHealthAndMetrics(t *testing.T) {
	t.Setenv(testGamesEnv, "1") // a tally table
	dir := t.TempDir()
	cfg := filepath.Join(dir, "t.yaml")
	os.WriteFile(cfg, []byte("version: 1\ngame: tally\nplayers: [A, B]\njournal: t.db\nlog:\n  format: json\n  level: debug\n"), 0o644)
	if _, err := tableconfig.Load(cfg); err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var stderr syncBuf
	go func() { done <- run(ctx, []string{"--config", cfg, "--listen", addr}, io.Discard, &stderr) }()
	defer func() { cancel(); <-done }()
	var resp *http.Response
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var err error
		if resp, err = http.Get("http://" + addr + "/healthz"); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no /healthz: %v", err)
		}
	}
	var rep struct {
		Status  string            `json:"status"`
		Journal struct{ OK bool } `json:"journal"`
		Session struct{ OK bool } `json:"session"`
	}
	json.NewDecoder(resp.Body).Decode(&rep)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || rep.Status != "ok" || !rep.Journal.OK || !rep.Session.OK {
		t.Errorf("/healthz: %d %+v", resp.StatusCode, rep)
	}
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{"comptoir_steps_total 0", "comptoir_connections 0", `comptoir_dice_reads_total{result="read"} 0`} {
		if !strings.Contains(string(body), want+"\n") {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	// The log is JSON, as configured.
	first, _, _ := strings.Cut(stderr.String(), "\n")
	var rec map[string]any
	if err := json.Unmarshal([]byte(first), &rec); err != nil || rec["level"] == nil || rec["msg"] == nil {
		t.Errorf("first log line %q is not a JSON record: %v", first, err)
	}
}
