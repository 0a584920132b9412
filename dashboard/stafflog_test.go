package dashboard

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"comptoir/engine"
	"comptoir/engine/enginetest"
)

// TestStaffActionsLogged: every staff action is logged once with its
// outcome, a wrong PIN too, and never the PIN itself.
func TestStaffActionsLogged(t *testing.T) {
	checkLeaks(t)
	var mu sync.Mutex
	var lines []string
	opts := DefaultOpts
	opts.StaffPIN = "2468"
	opts.Logf = func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, fmt.Sprintf(format, args...))
	}
	sess := newMemSession(t, enginetest.Rules{}, engine.Setup{Game: "tally", Players: []string{"Anna", "Bruno"}})
	r := newRig(t, sess, opts)
	staff := r.dial()
	staff.send(Message{Type: msgHello, Role: "staff", PIN: "2468"})
	staff.reply()
	two := 1
	for _, m := range []Message{
		{Type: msgStaff, Nonce: nonce(), PIN: "1111", Action: "end", Reason: "closing"},
		{Type: msgStaff, Nonce: nonce(), PIN: "2468", Action: "undo", Reason: "misread die"},
		{Type: msgStaff, Nonce: nonce(), PIN: "2468", Action: "reassign", Seat: &two},
	} {
		staff.send(m)
		staff.reply()
	}
	mu.Lock()
	defer mu.Unlock()
	all := strings.Join(lines, "\n")
	for _, want := range []string{
		`dashboard: staff action "end" refused: wrong PIN (1 on this connection)`,
		"dashboard: staff undo (misread die): done",
		"dashboard: staff reassign seat 1: done", // the message names seats from 1
	} {
		if strings.Count(all, want) != 1 {
			t.Errorf("log has %q %d times, want once:\n%s", want, strings.Count(all, want), all)
		}
	}
	if strings.Contains(all, "2468") || strings.Contains(all, "1111") {
		t.Errorf("the log shows a PIN:\n%s", all)
	}
}
