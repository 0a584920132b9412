package dashboard

import (
	"strings"
	"testing"

	"comptoir/engine"
	"comptoir/games/genoa"
)

// TestProposals: a player proposes a deal to the merchant, who alone (with
// the proposer and the staff) sees it, and accepts or refuses it; a
// proposal may only commit its maker.
func TestProposals(t *testing.T) {
	checkLeaks(t)
	sess, phones := genoaAtMove(t)
	anna, bruno, chloe := phones[0], phones[1], phones[2]
	st, _ := sess.current()
	v := st.View(engine.NoSeat).(genoa.View)
	if v.Merchant != 0 || len(v.Reach) == 0 {
		t.Fatalf("want Anna moving the pawn, got merchant %d reach %v", v.Merchant, v.Reach)
	}
	to := string(v.Reach[0].Square)

	chloe.send(Message{Type: msgPropose, Line: "deal from=Bruno to=" + to + " ducats=5"})
	if m := chloe.reply(); m["code"] != "dashboard.propose-seat" {
		t.Errorf("Chloé proposes a deal paid by Bruno: %v, want propose-seat", m)
	}
	chloe.send(Message{Type: msgPropose, Line: "deal from=Chloé to=" + to + " ducats=5"})
	if m := chloe.reply(); m["type"] != "accepted" {
		t.Fatalf("Chloé proposes: %v", m)
	}
	var id float64
	for id == 0 {
		f := anna.must("state")
		for _, p := range asList(f["proposals"]) {
			if p["from"] == 2.0 && p["status"] == propPending {
				id = p["id"].(float64)
			}
		}
	}
	// Bruno neither sees it nor may answer it.
	bruno.send(Message{Type: msgAnswer, Proposal: int64(id), Accept: new(true)})
	if m := bruno.reply(); m["code"] != "dashboard.no-proposal" {
		t.Errorf("Bruno answers Chloé's proposal to Anna: %v, want no-proposal", m)
	}
	for len(bruno.states) > 0 || len(bruno.in) > 0 {
		if f := bruno.must("state"); f["proposals"] != nil {
			t.Errorf("Bruno is shown proposals: %v", f["proposals"])
		}
	}
	anna.send(Message{Type: msgAnswer, Proposal: int64(id), Accept: new(false)})
	if m := anna.reply(); m["type"] != "accepted" {
		t.Fatalf("Anna refuses: %v", m)
	}
	for done := false; !done; {
		f := chloe.must("state")
		for _, p := range asList(f["proposals"]) {
			if p["id"] == id && p["status"] == propRefused {
				done = true
			}
		}
	}
	sess.mu.Lock()
	for _, a := range sess.actions {
		if a.Cmd.Name() == "deal" {
			t.Error("a refused proposal was played")
		}
	}
	sess.mu.Unlock()
}

func asList(v any) []map[string]any {
	l, _ := v.([]any)
	var out []map[string]any
	for _, x := range l {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// TestProposalRefusedInPublicWords: when the rules refuse a deal the
// merchant accepted, the proposer learns it failed and the rule it broke,
// never the details (they may tell the merchant's holdings); the
// merchant, who played it, and the staff read the details.
func TestProposalRefusedInPublicWords(t *testing.T) {
	checkLeaks(t)
	sess, phones := genoaAtMove(t)
	anna, chloe := phones[0], phones[2]
	st, _ := sess.current()
	v := st.View(engine.NoSeat).(genoa.View)
	var to string
	for _, rt := range v.Reach {
		if len(rt.Path) == 1 {
			to = string(rt.Square)
		}
	}
	if v.Merchant != 0 || to == "" {
		t.Fatalf("want Anna moving the pawn next to a square, got merchant %d reach %v", v.Merchant, v.Reach)
	}
	id, m := chloeDealsWithAnna(t, chloe, anna, "deal from=Chloé to="+to+" ducats=1 merchantDucats=987")
	if m["code"] != engine.ErrCannotPay.Code {
		t.Fatalf("Anna accepts a deal where she pays 987 ducats: %v, want %s", m, engine.ErrCannotPay.Code)
	}
	if p := refusedProposal(chloe, id); p["en"] != engine.ErrCannotPay.EN || p["fr"] != engine.ErrCannotPay.FR {
		t.Errorf("Chloé reads the refusal %q / %q, want the rule's public words %q", p["en"], p["fr"], engine.ErrCannotPay.EN)
	}
	if p := refusedProposal(anna, id); !strings.Contains(p["en"].(string), "987") {
		t.Errorf("Anna, who played it, reads %q, want the details", p["en"])
	}
}

// genoaAtMove is a Genoa game of Anna, Bruno and Chloé played to its
// first move of the merchant, on a dashboard with a phone at each seat.
func genoaAtMove(t *testing.T) (*memSession, []*wsClient) {
	t.Helper()
	sess := newMemSession(t, genoa.New(), engine.Setup{Game: "genoa", Variant: "alea-2001", Players: []string{"Anna", "Bruno", "Chloé"}})
	for {
		st, _ := sess.current()
		if st.View(engine.NoSeat).(genoa.View).Phase == "move" {
			break
		}
		if err := sess.Submit(t.Context(), st.Legal()[0]); err != nil {
			t.Fatal(err)
		}
	}
	r := newRig(t, sess, DefaultOpts)
	phones := make([]*wsClient, 3)
	for i := range phones {
		tok := r.join(i + 1)
		phones[i] = r.dial()
		phones[i].send(Message{Type: msgHello, Token: tok})
		phones[i].reply()
	}
	return sess, phones
}

// chloeDealsWithAnna has Chloé propose the deal line to Anna, the
// merchant, and Anna accept it; it returns the proposal's id and Anna's
// reply.
func chloeDealsWithAnna(t *testing.T, chloe, anna *wsClient, line string) (float64, map[string]any) {
	t.Helper()
	chloe.send(Message{Type: msgPropose, Line: line})
	if m := chloe.reply(); m["type"] != "accepted" {
		t.Fatalf("Chloé proposes: %v", m)
	}
	var id float64
	for id == 0 {
		for _, p := range asList(anna.must("state")["proposals"]) {
			if p["from"] == 2.0 && p["status"] == propPending {
				id = p["id"].(float64)
			}
		}
	}
	anna.send(Message{Type: msgAnswer, Proposal: int64(id), Accept: new(true)})
	return id, anna.reply()
}

// refusedProposal waits for a frame of c that shows proposal id refused,
// and returns the proposal as c reads it.
func refusedProposal(c *wsClient, id float64) map[string]any {
	for {
		for _, p := range asList(c.must("state")["proposals"]) {
			if p["id"] == id && p["status"] == propRefused {
				return p
			}
		}
	}
}
