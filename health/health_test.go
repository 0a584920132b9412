package health

import (
	"context"
	"database/sql"
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

// TestJournalNotWritable: /healthz turns 503 while the journal cannot
// take a write (another writer holds it; then the file is gone), and
// back to 200 once it can.
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
	c, err := New(Opts{Journal: path, Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if code, r := get(t, c); code != http.StatusOK || r.Status != "ok" || !r.Journal.OK {
		t.Fatalf("healthy journal: %d %+v", code, r)
	}

	// Another writer locks the journal.
	other, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	code, r := get(t, c)
	if code != http.StatusServiceUnavailable || r.Status != "unhealthy" || r.Journal.OK || !strings.Contains(r.Journal.Detail, "is not writable") {
		t.Errorf("locked journal: %d %+v, want 503 and the journal not writable", code, r)
	}
	conn.ExecContext(context.Background(), "ROLLBACK")
	conn.Close()
	if code, r := get(t, c); code != http.StatusOK || !r.Journal.OK {
		t.Errorf("released journal: %d %+v, want 200", code, r)
	}
	// The session still writes to it while checked.
	if _, err := g.Append(time.Now(), engine.Action{By: 0, Cmd: enginetest.Take{N: 1}}, nil); err != nil {
		t.Errorf("a step after the checks: %v", err)
	}

	// The journal's file is gone (its disk unmounted, or removed).
	os.Remove(path)
	c2, err := New(Opts{Journal: path, Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if code, r := get(t, c2); code != http.StatusServiceUnavailable || r.Journal.OK {
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
