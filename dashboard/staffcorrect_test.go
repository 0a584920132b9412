package dashboard

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/games/genoa"
)

// TestStaffCorrectGenoa corrects a Genoa holding from the staff page over
// a real table session, the reason typed in the page's reason field: the
// player's phone shows the new money and the correction, the table's log
// says what was corrected without the money, and a player cannot send the
// same correction.
func TestStaffCorrectGenoa(t *testing.T) {
	r, _ := realTable(t, genoa.New(), engine.Setup{Game: "genoa", Variant: "filosofia-2008", Players: []string{"Anna", "Bruno", "Chloé"}}, nil)
	staff := r.dial()
	staff.send(Message{Type: msgHello, Role: "staff", PIN: "2468"})
	staff.reply()
	anna := r.dial()
	anna.send(Message{Type: msgHello, Token: r.join(1)})
	if m := anna.reply(); m["type"] != "welcome" {
		t.Fatalf("Anna's hello: %v", m)
	}
	table := r.dial()

	anna.send(Message{Type: msgCommand, Line: `correct player=Anna ducats=+10 reason="please"`})
	if m := anna.reply(); m["code"] != "genoa.staff-only" {
		t.Errorf("Anna corrects her own money: %v, want genoa.staff-only", m)
	}
	staff.send(Message{Type: msgStaff, Nonce: nonce(), PIN: "2468", Action: "correct", Line: "correct player=Anna ducats=+10 goods=silk:+1", Reason: "deal paid twice"})
	if m := staff.reply(); m["type"] != "accepted" {
		t.Fatalf("staff correction: %v", m)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		f := anna.must("state")
		b, _ := json.Marshal(f["view"])
		if strings.Contains(string(b), `"corrections":[{"ducats":10,"reason":"deal paid twice"}]`) {
			if !strings.Contains(string(b), `"ducats":140`) {
				t.Errorf("Anna's view after +10: %s", b)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Anna's phone never showed the correction; last view %s", b)
		}
	}
	for {
		f := table.must("state")
		b, _ := json.Marshal(f)
		if strings.Contains(string(b), "the staff corrected Anna") {
			// the money is looked for in the view and the log only: the
			// frame's join codes and info are random hex, where "140"
			// turns up one frame in a few hundred
			vl, _ := json.Marshal([]any{f["view"], f["log"]})
			if strings.Contains(string(b), "deal paid twice") || strings.Contains(string(vl), "140") || strings.Contains(string(vl), "+10") {
				t.Errorf("the table's frame tells Anna's money or its reason: %s", b)
			}
			if !strings.Contains(string(b), "ducats, +1 silk") {
				t.Errorf("the table's log does not say what was corrected: %s", b)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the table's log never told the correction; last frame %s", b)
		}
	}
}
