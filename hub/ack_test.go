package hub

import (
	"path/filepath"
	"testing"
	"time"

	"comptoir/cafe"
)

// TestAcksSurviveRestart: an alert acknowledged on the floor is still
// acknowledged after the hub restarts on its history file; an alert not
// acknowledged is not.
func TestAcksSurviveRestart(t *testing.T) {
	r := newRig(t, "genoa-1")
	r.startHub()
	tb := r.addTable("genoa-1", 0, 61)
	r.play(3)
	tb.Pub.SetDevices([]cafe.Device{{Name: "camera", OK: false, Detail: "unplugged"}})
	tb.Pub.CallStaff(true)
	alerts := func() map[string]Alert {
		r.hub.Floor.Tick(time.Now())
		out := map[string]Alert{}
		for _, a := range r.hub.Floor.Snapshot().Alerts {
			if a.Table == "genoa-1" {
				out[a.Kind] = a
			}
		}
		return out
	}
	waitAlerts := func(what string) map[string]Alert {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for {
			a := alerts()
			// A device alert is dated by the game's start, which the
			// card may not know yet when the table's status comes first
			// (its id then changes once the steps arrive: see the note of
			// issue 17); the ack is taken on the dated one.
			if d, ok := a[AlertDevice]; ok && !d.Since.IsZero() {
				if _, ok := a[AlertStaff]; ok {
					return a
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: alerts %v, want a device and a staff alert", what, a)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	before := waitAlerts("before the restart")
	if err := r.hub.Ack(before[AlertDevice].ID); err != nil {
		t.Fatal(err)
	}
	if a := alerts(); !a[AlertDevice].Acked || a[AlertStaff].Acked {
		t.Fatalf("after the ack: device acked %v, staff acked %v; want true, false", a[AlertDevice].Acked, a[AlertStaff].Acked)
	}
	r.stop()
	r.startHub()
	after := waitAlerts("after the restart")
	for _, c := range []struct {
		kind  string
		acked bool
	}{{AlertDevice, true}, {AlertStaff, false}} {
		a := after[c.kind]
		if a.ID != before[c.kind].ID {
			t.Errorf("%s alert id = %q after the restart, want %q", c.kind, a.ID, before[c.kind].ID)
		}
		if a.Acked != c.acked {
			t.Errorf("%s alert acked = %v after the restart, want %v", c.kind, a.Acked, c.acked)
		}
	}
}

// TestAcksForgotten: acknowledgements older than AckKept are dropped
// from the history when it is read.
func TestAcksForgotten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.db")
	h, err := OpenHistory(path)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 25, 18, 0, 0, 0, time.UTC)
	for id, at := range map[string]time.Time{"old/device/1": now.Add(-AckKept - time.Hour), "new/device/2": now.Add(-time.Hour)} {
		if err := h.RecordAck(id, at); err != nil {
			t.Fatal(err)
		}
	}
	h.Close()
	if h, err = OpenHistory(path); err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	got, err := h.Acks(now.Add(-AckKept))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !got["new/device/2"] {
		t.Fatalf("Acks = %v, want only new/device/2", got)
	}
}
