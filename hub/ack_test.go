package hub

import (
	"path/filepath"
	"slices"
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
			if _, ok := a[AlertDevice]; ok {
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

// TestDeviceAlertDatedWhenFirstSeenDown: a device alert is dated by when
// the floor first saw the device down, whatever the order in which the
// table's status and its steps arrive, so an acknowledgement given
// before the steps holds after them; a device up then down again is a
// new alert, not acknowledged.
func TestDeviceAlertDatedWhenFirstSeenDown(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	down := []cafe.Device{{Name: "camera", OK: false, Detail: "unplugged"}, {Name: "dice", OK: true}}
	presence := func(devs []cafe.Device) cafe.Presence {
		return cafe.Presence{V: 1, Table: "t1", State: cafe.StatePlaying, Devices: devs}
	}
	step := cafe.Step{V: 1, Table: "t1", Game: 4, Seq: 1, At: t0.Add(2 * time.Second), Started: t0.Add(-time.Hour), Name: "genoa", Players: []string{"A", "B"}}
	device := func(f *Floor) (Alert, bool) {
		for _, a := range f.Snapshot().Alerts {
			if a.Kind == AlertDevice {
				return a, true
			}
		}
		return Alert{}, false
	}
	for _, order := range []string{"status first", "steps first"} {
		t.Run(order, func(t *testing.T) {
			f := NewFloor(time.Minute, 1.5)
			if order == "steps first" {
				f.Step(step, t0)
			}
			changes := f.Presence(presence(down), t0.Add(time.Second))
			if want := []DeviceDown{{"t1", "camera", t0.Add(time.Second)}}; !slices.Equal(changes, want) {
				t.Fatalf("Presence changes = %v, want %v", changes, want)
			}
			a, ok := device(f)
			if !ok || !a.Since.Equal(t0.Add(time.Second)) {
				t.Fatalf("device alert %+v (found %v), want one dated %v", a, ok, t0.Add(time.Second))
			}
			f.Ack(a.ID, t0.Add(time.Second))
			if order == "status first" {
				f.Step(step, t0.Add(3*time.Second))
			}
			if changes := f.Presence(presence(down), t0.Add(4*time.Second)); len(changes) != 0 {
				t.Fatalf("a heartbeat with the camera still down changed %v, want nothing", changes)
			}
			f.Tick(t0.Add(4 * time.Second))
			if b, ok := device(f); !ok || b.ID != a.ID || !b.Acked {
				t.Fatalf("after the steps: device alert %+v (found %v), want id %q acknowledged", b, ok, a.ID)
			}
			up := f.Presence(presence([]cafe.Device{{Name: "camera", OK: true}, {Name: "dice", OK: true}}), t0.Add(5*time.Second))
			if want := []DeviceDown{{Table: "t1", Device: "camera"}}; !slices.Equal(up, want) {
				t.Fatalf("camera back: changes %v, want %v", up, want)
			}
			if b, ok := device(f); ok {
				t.Fatalf("camera back: device alert %+v, want none", b)
			}
			f.Presence(presence(down), t0.Add(6*time.Second))
			if b, ok := device(f); !ok || b.ID == a.ID || b.Acked || !b.Since.Equal(t0.Add(6*time.Second)) {
				t.Fatalf("camera down again: device alert %+v (found %v), want a new one dated %v, not acknowledged", b, ok, t0.Add(6*time.Second))
			}
		})
	}
}

// TestStatusBeforeSteps: through NATS, a table whose camera is down
// before any step is published has its device alert acknowledged at
// once; the steps that come after keep it acknowledged, and so does a
// restart of the hub, which reads the date kept in the history.
func TestStatusBeforeSteps(t *testing.T) {
	r := newRig(t, "genoa-1")
	r.startHub()
	tb := r.addTable("genoa-1", 0, 62)
	tb.Pub.SetDevices([]cafe.Device{{Name: "camera", OK: false, Detail: "unplugged"}})
	device := func(what string) Alert {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for {
			for _, a := range r.hub.Floor.Snapshot().Alerts {
				if a.Table == "genoa-1" && a.Kind == AlertDevice {
					return a
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: no device alert", what)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	first := device("before the steps")
	if c, _ := r.hub.Floor.Detail("genoa-1"); c.Seq != 0 {
		t.Fatalf("the floor has step %d before any was played; the test needs the status first", c.Seq)
	}
	if err := r.hub.Ack(first.ID); err != nil {
		t.Fatal(err)
	}
	r.play(5)
	r.waitAll(15 * time.Second)
	if a := device("after the steps"); a.ID != first.ID || !a.Acked {
		t.Fatalf("after the steps: device alert %q acked %v, want %q acknowledged", a.ID, a.Acked, first.ID)
	}
	r.stop()
	r.startHub()
	// The date kept to the nanosecond (an id names only the second).
	if a := device("after a restart"); a.ID != first.ID || !a.Acked || !a.Since.Equal(first.Since) {
		t.Fatalf("after a restart: device alert %q since %v acked %v, want %q since %v acknowledged", a.ID, a.Since, a.Acked, first.ID, first.Since)
	}
}

// TestDownsKept: the history keeps when devices were first seen down,
// forgets one up again, and forgets those older than AckKept.
func TestDownsKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.db")
	h, err := OpenHistory(path)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 25, 18, 0, 0, 123456789, time.UTC)
	if err := h.RecordDowns([]DeviceDown{
		{"t1", "camera", now.Add(-time.Hour)},
		{"t1", "dice", now.Add(-time.Minute)},
		{"t2", "nfc", now.Add(-AckKept - time.Hour)},
	}); err != nil {
		t.Fatal(err)
	}
	if err := h.RecordDowns([]DeviceDown{{Table: "t1", Device: "dice"}}); err != nil { // up again
		t.Fatal(err)
	}
	h.Close()
	if h, err = OpenHistory(path); err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	got, err := h.Downs(now.Add(-AckKept))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || len(got["t1"]) != 1 || !got["t1"]["camera"].Equal(now.Add(-time.Hour)) {
		t.Fatalf("Downs = %v, want only t1's camera since %v", got, now.Add(-time.Hour))
	}
}
