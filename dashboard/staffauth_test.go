package dashboard

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/hw/clock"
)

func TestStaffDelay(t *testing.T) {
	tests := []struct {
		n    int
		want time.Duration
	}{
		{0, 0}, {1, 0}, {3, 0},
		{4, 2 * time.Second}, {5, 4 * time.Second}, {6, 8 * time.Second},
		{12, 512 * time.Second}, {13, staffPolicy.Max}, {100, staffPolicy.Max},
	}
	for _, tt := range tests {
		if got := staffPolicy.Delay(tt.n); got != tt.want {
			t.Errorf("staffPolicy.Delay(%d) = %v, want %v", tt.n, got, tt.want)
		}
	}
}

func TestStaffGuard(t *testing.T) {
	clk := clock.NewFake(time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC))
	changes := 0
	g := newStaffGuard("s3cret-word", clk, time.Hour, func() { changes++ })
	for i := 0; i < staffPolicy.Free; i++ {
		if _, err := g.login("guess", false); !errors.Is(err, ErrBadStaffSecret) {
			t.Fatalf("free try %d: %v, want ErrBadStaffSecret", i+1, err)
		}
	}
	if until, _ := g.lock(); !until.IsZero() || changes != 0 {
		t.Fatalf("locked after %d free tries (until %v, %d changes)", staffPolicy.Free, until, changes)
	}
	g.login("guess", false)
	until, n := g.lock()
	if until.IsZero() || n != staffPolicy.Free+1 || changes != 1 {
		t.Fatalf("after %d failures: lock until %v, %d failures, %d changes", staffPolicy.Free+1, until, n, changes)
	}
	// While locked, even the right secret is not compared.
	_, err := g.login("s3cret-word", false)
	var lock *StaffLockError
	if !errors.As(err, &lock) || !errors.Is(err, ErrStaffLocked) || !lock.Until.Equal(until) {
		t.Fatalf("right secret while locked: %v, want a StaffLockError until %v", err, until)
	}
	// The table's own screen is not made to wait.
	if _, err := g.login("guess", true); !errors.Is(err, ErrBadStaffSecret) {
		t.Fatalf("wrong secret from the screen while locked: %v, want it compared", err)
	}
	until, _ = g.lock()
	clk.Advance(until.Sub(clk.Now()))
	end, err := g.login("s3cret-word", false)
	if err != nil || !end.Equal(clk.Now().Add(time.Hour)) {
		t.Fatalf("after the wait: session until %v, %v; want an hour from now", end, err)
	}
	if until, n := g.lock(); !until.IsZero() || n != 0 || changes != 3 {
		t.Errorf("after a success: lock %v, %d failures, %d changes; want none", until, n, changes)
	}
	if _, err := newStaffGuard("", clk, 0, nil).login("", false); !errors.Is(err, ErrStaffOff) {
		t.Errorf("no secret set: %v, want ErrStaffOff", err)
	}
	if !g.useNonce("0123456789abcdef") || g.useNonce("0123456789abcdef") {
		t.Error("a nonce was not once only")
	}
}

func TestStaffSecretFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "table.staff-secret")
	s1, created, err := StaffSecret(path)
	if err != nil || !created || len(s1) != staffSecretLen+3 {
		t.Fatalf("first start: %q created=%v %v", s1, created, err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("secret file mode %v (%v), want 0600", fi.Mode().Perm(), err)
	}
	s2, created, err := StaffSecret(path)
	if err != nil || created || s2 != s1 {
		t.Fatalf("second start: %q created=%v %v, want %q kept", s2, created, err, s1)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := StaffSecret(path); err == nil {
		t.Error("a secret file others can read was accepted")
	}
	if WeakStaffSecret("1234") == "" || WeakStaffSecret(s1) != "" {
		t.Error("WeakStaffSecret: want 1234 weak and a generated secret not")
	}
	if GenerateStaffSecret() == s1 {
		t.Error("two generated secrets are equal")
	}
}

// TestStaffSessionExpires logs in as staff, lets the session run out:
// staff messages are refused and the connection gets the table's view.
func TestStaffSessionExpires(t *testing.T) {
	checkLeaks(t)
	defer func(p time.Duration) { sweepPeriod = p }(sweepPeriod)
	sweepPeriod = 10 * time.Millisecond
	clk := clock.NewFake(time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC))
	sess := newMemSession(t, enginetest.Rules{}, engine.Setup{Game: "tally", Players: []string{"Anna", "Bruno"}})
	opts := DefaultOpts
	opts.Clock, opts.StaffPIN, opts.StaffSession = clk, "2468", time.Hour
	r := newRig(t, sess, opts)
	staff := r.dial()
	staff.send(Message{Type: msgHello, Role: roleStaff, PIN: "2468"})
	if m := staff.reply(); m["type"] != "welcome" {
		t.Fatalf("staff hello: %v", m)
	}
	for f := staff.must("state"); f["role"] != roleStaff; f = staff.must("state") {
	}
	staff.send(Message{Type: msgStaff, Nonce: nonce(), Action: "undo", Reason: "misread die"})
	if m := staff.reply(); m["type"] != "accepted" {
		t.Fatalf("staff undo within the session: %v", m)
	}
	clk.Advance(time.Hour)
	for f := staff.must("state"); f["role"] != roleTable; f = staff.must("state") {
	}
	staff.send(Message{Type: msgStaff, Nonce: nonce(), Action: "undo", Reason: "misread die"})
	if m := staff.reply(); m["code"] != "staff-expired" {
		t.Errorf("staff undo after the session: %v, want staff-expired", m)
	}
}
