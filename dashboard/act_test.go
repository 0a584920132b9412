package dashboard

import (
	"encoding/json"
	"image/png"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/games/tally"
)

// notationRE matches a command's argument as the notation writes it
// ("n=2", "to=4-2"): a seat's frame never holds one.
var notationRE = regexp.MustCompile(`\b[a-zA-Z]+=[^\s"]`)

// consentRig is Tally with the consent option: a take of 3 coins needs
// the next player's acceptance. Anna and Bruno hold seats 1 and 2.
func consentRig(t *testing.T) (r *rig, sess *memSession, anna, bruno *wsClient) {
	t.Helper()
	sess = newMemSession(t, enginetest.Rules{}, engine.Setup{Game: "tally", Players: []string{"Anna", "Bruno"},
		Options: map[string]string{tally.ConsentOption: "yes"}})
	opts := DefaultOpts
	opts.StaffPIN = "2468"
	r = newRig(t, sess, opts)
	anna, bruno = r.dial(), r.dial()
	for i, c := range []*wsClient{anna, bruno} {
		c.send(Message{Type: msgHello, Token: r.join(i + 1)})
		if m := c.reply(); m["type"] != "welcome" {
			t.Fatalf("hello seat %d: %v", i+1, m)
		}
	}
	return r, sess, anna, bruno
}

// noNotation fails the test if a frame the phone received holds the
// notation.
func noNotation(t *testing.T, who string, c *wsClient) {
	t.Helper()
	for {
		select {
		case raw := <-c.raw:
			if s := string(raw); strings.Contains(s, `"role":"seat"`) && notationRE.MatchString(s) {
				t.Errorf("%s's frame holds the notation %q: %s", who, notationRE.FindString(s), s)
			}
		default:
			return
		}
	}
}

// hubAt waits until the dashboard's hub has the session's last step, as
// a phone's frames do before the player taps.
func hubAt(t *testing.T, r *rig, sess *memSession) {
	t.Helper()
	_, seq := sess.current()
	deadline := time.Now().Add(10 * time.Second)
	for u := r.srv.latestUpdate(); u == nil || u.Seq < seq; u = r.srv.latestUpdate() {
		if time.Now().After(deadline) {
			t.Fatalf("the dashboard's hub never had step %d", seq)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestAct(t *testing.T) {
	checkLeaks(t)
	r, sess, anna, bruno := consentRig(t)
	for _, tc := range []struct {
		name  string
		c     *wsClient
		msg   Message
		reply string
		code  string
		pile  int
	}{
		{"unknown action", anna, Message{Type: msgAct, Action: "move:inn"}, "refused", "dashboard.stale-action", 21},
		{"not the seat's turn", bruno, Message{Type: msgAct, Action: "take"}, "refused", "dashboard.stale-action", 21},
		{"out of range", anna, Message{Type: msgAct, Action: "take", Values: map[string]string{"n": "4"}}, "refused", "tally.take-count", 21},
		{"not a number", anna, Message{Type: msgAct, Action: "take", Values: map[string]string{"n": "two"}}, "refused", "tally.take-count", 21},
		{"two coins", anna, Message{Type: msgAct, Seq: 0, Action: "take", Values: map[string]string{"n": "2"}}, "accepted", "", 19},
		{"the default value: one coin", bruno, Message{Type: msgAct, Action: "take"}, "accepted", "", 18},
		{"a stale action after the turn passed", bruno, Message{Type: msgAct, Action: "take"}, "refused", "dashboard.stale-action", 18},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A phone acts on the frame it has, the hub's: the hub has
			// the last step first. Without it the act could be judged on
			// the step before: Bruno's take refused as stale when his
			// turn had come, or the stale one refused by the session as
			// not his turn (which failed once in CI).
			hubAt(t, r, sess)
			tc.c.send(tc.msg)
			m := tc.c.reply()
			if m["type"] != tc.reply || tc.code != "" && m["code"] != tc.code {
				t.Errorf("reply %v, want %s %s", m, tc.reply, tc.code)
			}
			if tc.reply == "refused" && (m["en"] == "" || m["fr"] == "" || m["en"] == m["fr"]) {
				t.Errorf("refusal %v: want English and French words", m)
			}
			if st, _ := sess.current(); st.(*enginetest.State).Pile != tc.pile {
				t.Errorf("pile %d, want %d", st.(*enginetest.State).Pile, tc.pile)
			}
		})
	}
	noNotation(t, "Anna", anna)
	noNotation(t, "Bruno", bruno)
}

func TestActConsent(t *testing.T) {
	checkLeaks(t)
	r, sess, anna, bruno := consentRig(t)
	s := r.srv
	staff := r.dial()
	staff.send(Message{Type: msgHello, Role: roleStaff, PIN: "2468"})
	if m := staff.reply(); m["type"] != "welcome" {
		t.Fatalf("staff hello: %v", m)
	}
	pile := func() int { st, _ := sess.current(); return st.(*enginetest.State).Pile }
	// proposalOf waits for a frame of c with a proposal newer than the
	// one numbered after whose status is status. Frames of an earlier
	// case may still be queued, its proposal pending in them: without
	// after, the next case's answer went to that one (no-proposal).
	proposalOf := func(c *wsClient, status string, after float64) map[string]any {
		t.Helper()
		for {
			f := c.must("state")
			ps, _ := f["proposals"].([]any)
			for _, p := range ps {
				if p := p.(map[string]any); p["status"] == status && p["id"].(float64) > after {
					return p
				}
			}
		}
	}
	var last float64 // the last case's proposal
	for _, tc := range []struct {
		name   string
		msg    Message
		accept bool
		pile   int
	}{
		{"act refused", Message{Type: msgAct, Action: "take", Values: map[string]string{"n": "3"}}, false, 21},
		{"act accepted", Message{Type: msgAct, Action: "take", Values: map[string]string{"n": "3"}}, true, 18},
		{"typed command accepted", Message{Type: msgCommand, Line: "take n=3"}, true, 15},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proposer, other, proposerSeat := anna, bruno, engine.Seat(0)
			if st, _ := sess.current(); st.(*enginetest.State).Turn == 1 {
				proposer, other, proposerSeat = bruno, anna, 1
			}
			before := pile()
			// The proposer acts on the last step (see TestAct): judged
			// on the step before, its take was out of turn.
			hubAt(t, r, sess)
			proposer.send(tc.msg)
			if m := proposer.reply(); m["type"] != "proposed" {
				t.Fatalf("take 3: %v, want proposed", m)
			}
			if pile() != before {
				t.Fatalf("the pile moved to %d before the other seat accepted", pile())
			}
			mine := proposalOf(proposer, propPending, last)
			theirs := proposalOf(other, propPending, last)
			if theirs["id"] != mine["id"] {
				t.Fatalf("the proposer's proposal %v, the other seat's %v: want the same", mine, theirs)
			}
			last = mine["id"].(float64)
			label, _ := theirs["label"].(map[string]any)
			wantEN, wantFR := "Take 3 coins", "Prendre 3 pièces"
			if tc.msg.Type == msgCommand { // in the log's words
				wantEN, wantFR = s.name(proposerSeat)+" takes 3 coin(s)", s.name(proposerSeat)+" prend 3 pièce(s)"
			}
			if label["en"] != wantEN || label["fr"] != wantFR || theirs["line"] != nil || mine["line"] != nil {
				t.Errorf("the seats' proposal %v: want the words Take 3 coins and no notation", theirs)
			}
			if p := proposalOf(staff, propPending, last-1); p["line"] != "take n=3" || p["id"] != last {
				t.Errorf("the staff's proposal %v: want its line take n=3", p)
			}
			// The proposer cannot accept their own proposal.
			proposer.send(Message{Type: msgAnswer, Proposal: int64(mine["id"].(float64)), Accept: &tc.accept})
			if m := proposer.reply(); m["code"] != "dashboard.no-proposal" {
				t.Errorf("the proposer answered their own proposal: %v", m)
			}
			other.send(Message{Type: msgAnswer, Proposal: int64(theirs["id"].(float64)), Accept: &tc.accept})
			if m := other.reply(); m["type"] != "accepted" {
				t.Fatalf("answer: %v", m)
			}
			want := propRefused
			if tc.accept {
				want = propAccepted
			}
			proposalOf(proposer, want, last-1)
			if pile() != tc.pile {
				t.Errorf("pile %d, want %d", pile(), tc.pile)
			}
		})
	}
	noNotation(t, "Anna", anna)
	noNotation(t, "Bruno", bruno)
}

// TestJoinTakenSeat: scanning again the code of a seat another phone
// took says the seat is taken, not that the code is out of date.
func TestJoinTakenSeat(t *testing.T) {
	checkLeaks(t)
	r, _ := tallyRig(t, "Anna", "Bruno")
	code := r.srv.tok.code(0)
	r.join(1)
	for _, tc := range []struct {
		name, code string
		status     int
		en         string
	}{
		{"the code scanned before", code, http.StatusConflict, "another phone already holds this seat"},
		{"a wrong code", "nope", http.StatusConflict, "another phone already holds this seat"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", r.http.URL+"/api/join", strings.NewReader(`{"seat":1,"code":"`+tc.code+`"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Origin", r.http.URL)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var body struct{ EN, FR string }
			json.NewDecoder(resp.Body).Decode(&body)
			if resp.StatusCode != tc.status || !strings.HasPrefix(body.EN, tc.en) || body.FR == "" {
				t.Errorf("join: %s %+v, want %d %q", resp.Status, body, tc.status, tc.en)
			}
		})
	}
}

// TestManifest: the web app manifest names the game and its icons, and
// each icon is a PNG of its size.
func TestManifest(t *testing.T) {
	checkLeaks(t)
	r, _ := tallyRig(t, "Anna", "Bruno")
	resp := r.get("/manifest.webmanifest")
	var m struct {
		Name     string `json:"name"`
		StartURL string `json:"start_url"`
		Icons    []struct{ Src, Sizes, Type string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil || resp.Header.Get("Content-Type") != "application/manifest+json" {
		t.Fatalf("manifest: %v %s", err, resp.Header.Get("Content-Type"))
	}
	if m.Name != "Comptoir · Tally" || m.StartURL != "/seat" || len(m.Icons) != 2 {
		t.Errorf("manifest %+v", m)
	}
	for _, ic := range m.Icons {
		t.Run(ic.Src, func(t *testing.T) {
			img, err := png.Decode(r.get(ic.Src).Body)
			if err != nil {
				t.Fatal(err)
			}
			if b := img.Bounds(); itoa(b.Dx())+"x"+itoa(b.Dy()) != ic.Sizes {
				t.Errorf("icon %s is %v, want %s", ic.Src, b, ic.Sizes)
			}
		})
	}
}

// TestNoticeNewGame: a phone whose seat goes with the game the staff
// replace is told so, then sees the table's view.
func TestNoticeNewGame(t *testing.T) {
	r, _ := realTable(t, enginetest.Rules{}, engine.Setup{Game: "tally", Players: []string{"Anna", "Bruno"}}, nil)
	anna := r.dial()
	anna.send(Message{Type: msgHello, Token: r.join(1)})
	if m := anna.reply(); m["type"] != "welcome" {
		t.Fatalf("hello: %v", m)
	}
	staff := r.dial()
	staff.send(Message{Type: msgHello, Role: "staff", PIN: "2468"})
	staff.reply()
	for _, m := range []Message{
		{Type: msgStaff, Nonce: nonce(), Action: "abandon", Reason: "they left"},
		{Type: msgStaff, Nonce: nonce(), Action: "new-game"},
	} {
		staff.send(m)
		if rep := staff.reply(); rep["type"] != "accepted" {
			t.Fatalf("%s: %v", m.Action, rep)
		}
	}
	if m := anna.reply(); m["type"] != "notice" || m["code"] != "game-replaced" || m["en"] == "" || m["fr"] == "" {
		t.Errorf("Anna's phone after the new game: %v, want the notice game-replaced", m)
	}
	for {
		if f := anna.must("state"); f["role"] == roleTable {
			break
		}
	}
}
