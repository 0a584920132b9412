package health

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/input"
	"comptoir/journal"
)

// get asks the checker for /healthz and returns the status and report.
func get(t *testing.T, c *Checker) (int, Report) {
	t.Helper()
	rec := httptest.NewRecorder()
	c.ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
	var r Report
	if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil {
		t.Fatalf("body %q: %v", rec.Body.String(), err)
	}
	return rec.Code, r
}

// TestJournalNotWritable: /healthz turns 503 when the journal no longer
// records where it should (its file replaced by another, then deleted),
// from the journal's own check, and is 200 while it records.
func TestJournalNotWritable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "table.db")
	st, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	g, err := st.Begin(enginetest.Rules{}, engine.Setup{Game: "tally", Players: []string{"A", "B"}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(Opts{Journal: path, Verify: st.Verify, Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if code, r := get(t, c); code != http.StatusOK || r.Status != "ok" || !r.Journal.OK {
		t.Fatalf("healthy journal: %d %+v", code, r)
	}
	// The session still writes to it while checked.
	if _, err := g.Append(time.Now(), engine.Action{By: 0, Cmd: enginetest.Take{N: 1}}, nil); err != nil {
		t.Errorf("a step after the checks: %v", err)
	}
	if code, r := get(t, c); code != http.StatusOK || !r.Journal.OK {
		t.Errorf("after a step: %d %+v, want 200", code, r)
	}

	// Another file put at the journal's path.
	other := filepath.Join(t.TempDir(), "other")
	if err := os.WriteFile(other, []byte("not a journal"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, path); err != nil {
		t.Fatal(err)
	}
	if code, r := get(t, c); code != http.StatusServiceUnavailable || r.Status != "unhealthy" || r.Journal.OK || !strings.Contains(r.Journal.Detail, path) {
		t.Errorf("replaced journal: %d %+v, want 503 naming %s", code, r, path)
	}

	// The journal's file is gone (its disk unmounted, or removed).
	os.Remove(path)
	if code, r := get(t, c); code != http.StatusServiceUnavailable || r.Journal.OK {
		t.Errorf("missing journal: %d %+v, want 503", code, r)
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("the check created the missing journal")
	}
}

func TestSessionAndDevices(t *testing.T) {
	path := filepath.Join(t.TempDir(), "table.db")
	st, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	stuck := false
	devices := []input.DeviceStatus{{Device: "nfc", OK: true}}
	c, err := New(Opts{
		Journal: path, Timeout: 100 * time.Millisecond,
		Session: func(ctx context.Context) error {
			if stuck {
				<-ctx.Done()
				return ctx.Err()
			}
			return nil
		},
		Devices: func() []input.DeviceStatus { return devices },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, tc := range []struct {
		name    string
		stuck   bool
		devices []input.DeviceStatus
		code    int
		status  string
	}{
		{"well", false, []input.DeviceStatus{{Device: "nfc", OK: true}}, 200, "ok"},
		{"camera at fault", false, []input.DeviceStatus{{Device: "nfc", OK: true}, {Device: "camera", Detail: "no frame"}}, 200, "degraded"},
		{"journal fault seen by the session", false, []input.DeviceStatus{{Device: "journal", Detail: "disk I/O error"}}, 503, "unhealthy"},
		{"stuck session", true, nil, 503, "unhealthy"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stuck, devices = tc.stuck, tc.devices
			code, r := get(t, c)
			if code != tc.code || r.Status != tc.status {
				t.Errorf("%d %q (%+v), want %d %q", code, r.Status, r, tc.code, tc.status)
			}
		})
	}
}
