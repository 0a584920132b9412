package dashboard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"comptoir/bgstats"
	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/games/kit"
	"comptoir/hw/clock"
	"comptoir/table"
)

func TestDecodeMessage(t *testing.T) {
	tests := []struct {
		name, in string
		ok       bool
		want     string // a piece of the error
	}{
		{"hello seat", `{"type":"hello","token":"abc"}`, true, ""},
		{"hello staff", `{"type":"hello","role":"staff","pin":"1234"}`, true, ""},
		{"command args", `{"type":"command","name":"take","args":{"n":2},"id":7}`, true, ""},
		{"command line", `{"type":"command","line":"take n=2"}`, true, ""},
		{"staff undo", `{"type":"staff","nonce":"0123456789abcdef","pin":"1","action":"undo","reason":"misread"}`, true, ""},
		{"staff on a staff connection", `{"type":"staff","nonce":"0123456789abcdef","action":"undo","reason":"misread"}`, true, ""},
		{"propose", `{"type":"propose","line":"deal from=2 to=harbour ducats=10"}`, true, ""},
		{"answer", `{"type":"answer","proposal":3,"accept":false}`, true, ""},
		{"act", `{"type":"act","seq":12,"action":"take","values":{"n":"2"}}`, true, ""},
		{"act without values", `{"type":"act","action":"end"}`, true, ""},
		{"act without action", `{"type":"act","seq":3}`, false, "action"},
		{"act with a line", `{"type":"act","action":"take","line":"take n=3"}`, false, "does not take line"},
		{"act with a seat", `{"type":"act","action":"take","seat":2}`, false, "does not take seat"},
		{"act with a number value", `{"type":"act","action":"take","values":{"n":2}}`, false, "cannot unmarshal"},
		{"takeback", `{"type":"takeback","seq":4}`, true, ""},
		{"takeback with an action", `{"type":"takeback","action":"take"}`, false, "does not take action"},
		{"propose no line", `{"type":"propose"}`, false, "line"},
		{"propose with pin", `{"type":"propose","line":"x","pin":"1"}`, false, "does not take pin"},
		{"answer no accept", `{"type":"answer","proposal":3}`, false, "accept"},
		{"answer bad id", `{"type":"answer","proposal":0,"accept":true}`, false, "proposal"},
		{"not json", `take n=2`, false, "invalid character"},
		{"two objects", `{"type":"command","line":"x"}{}`, false, "after the JSON"},
		{"unknown key", `{"type":"command","line":"x","seat":1}`, false, "does not take seat"},
		{"unknown field", `{"type":"command","line":"x","by":1}`, false, "unknown field"},
		{"no type", `{"line":"x"}`, false, "no \"type\""},
		{"bad type", `{"type":"hack"}`, false, "type \"hack\""},
		{"hello both", `{"type":"hello","token":"a","pin":"1"}`, false, "no pin"},
		{"hello nothing", `{"type":"hello"}`, false, "token"},
		{"hello role", `{"type":"hello","role":"god","token":"a"}`, false, "role \"god\""},
		{"command both", `{"type":"command","name":"take","line":"take n=1"}`, false, "either"},
		{"command none", `{"type":"command"}`, false, "either"},
		{"args array", `{"type":"command","name":"take","args":[1]}`, false, "JSON object"},
		{"line newline", `{"type":"command","line":"take n=1\ntake n=2"}`, false, "one line"},
		{"staff no nonce", `{"type":"staff","pin":"1","action":"undo","reason":"x"}`, false, "nonce"},
		{"staff short nonce", `{"type":"staff","nonce":"1234","action":"undo","reason":"x"}`, false, "nonce"},
		{"staff bad action", `{"type":"staff","nonce":"0123456789abcdef","pin":"1","action":"explode"}`, false, "explode"},
		{"long token", `{"type":"hello","token":"` + strings.Repeat("a", maxText+1) + `"}`, false, "at most"},
		{"too large", `{"type":"command","line":"` + strings.Repeat("a", maxMessage) + `"}`, false, "at most"},
		{"not utf8", "{\"type\":\"command\",\"line\":\"\xff\"}", false, "UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeMessage([]byte(tt.in))
			if tt.ok {
				if err != nil {
					t.Errorf("DecodeMessage(%q) = %v, want no error", tt.in, err)
				}
				return
			}
			if err == nil || !errors.Is(err, ErrBadMessage) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("DecodeMessage(%.60q) = %v, want an ErrBadMessage with %q", tt.in, err, tt.want)
			}
		})
	}
}

func FuzzDecodeMessage(f *testing.F) {
	for _, s := range []string{
		`{"type":"hello","token":"abc"}`,
		`{"type":"hello","role":"staff","pin":"1234"}`,
		`{"type":"command","name":"take","args":{"n":2},"id":7}`,
		`{"type":"command","line":"take n=2"}`,
		`{"type":"staff","nonce":"0123456789abcdef","pin":"1","action":"reassign","seat":2}`,
		`{"type":"staff","nonce":"0123456789abcdef","pin":"1","action":"cell","cell":"3-4","square":"harbour"}`,
		`{"type":"propose","line":"deal from=2 to=harbour ducats=10"}`,
		`{"type":"answer","proposal":3,"accept":true}`,
		`[]`, `null`, `{"type":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodeMessage(data)
		if err != nil {
			if !errors.Is(err, ErrBadMessage) {
				t.Fatalf("DecodeMessage(%q) = %v, not an ErrBadMessage", data, err)
			}
			return
		}
		// A message accepted once is accepted again after encoding, and
		// decodes to the same value.
		again, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := DecodeMessage(again)
		if err != nil {
			t.Fatalf("DecodeMessage(%q) ok, but its encoding %q: %v", data, again, err)
		}
		b1, _ := json.Marshal(m2)
		if !bytes.Equal(again, b1) {
			t.Fatalf("round trip changed the message: %s then %s", again, b1)
		}
	})
}

func TestJoinPlayAndSeats(t *testing.T) {
	checkLeaks(t)
	r, sess := tallyRig(t, "Anna", "Bruno")
	table := r.dial()
	f := table.must("state")
	if f["role"] != roleTable {
		t.Fatalf("first frame role = %v, want table", f["role"])
	}
	players := f["players"].([]any)
	for _, p := range players {
		p := p.(map[string]any)
		if p["free"] != true || !strings.HasPrefix(p["join"].(string), "/join?seat=") {
			t.Errorf("player %v: want free with a join link", p)
		}
	}
	tokA, tokB := r.join(1), r.join(2)
	anna, bruno := r.dial(), r.dial()
	anna.send(Message{Type: msgHello, Token: tokA})
	if m := anna.reply(); m["type"] != "welcome" || m["seat"] != 0.0 {
		t.Fatalf("hello Anna: %v", m)
	}
	bruno.send(Message{Type: msgHello, Token: tokB})
	if m := bruno.reply(); m["type"] != "welcome" || m["seat"] != 1.0 {
		t.Fatalf("hello Bruno: %v", m)
	}
	// Bruno plays out of turn: refused, in both languages, nothing changes.
	bruno.send(Message{Type: msgCommand, Line: "take n=1"})
	if m := bruno.reply(); m["type"] != "refused" || m["code"] != "not-your-turn" || m["fr"] == "" {
		t.Errorf("Bruno out of turn: %v, want refused not-your-turn", m)
	}
	anna.send(Message{Type: msgCommand, Name: "take", Args: json.RawMessage(`{"n":3}`)})
	if m := anna.reply(); m["type"] != "accepted" {
		t.Fatalf("Anna takes 3: %v", m)
	}
	fa := anna.stateAt(1)
	if v := fa["view"].(map[string]any); v["mine"] != 3.0 || v["pile"] != 18.0 {
		t.Errorf("Anna's view = %v, want mine 3 pile 18", v)
	}
	fb := bruno.stateAt(1)
	if v := fb["view"].(map[string]any); v["mine"] != 0.0 {
		t.Errorf("Bruno's view = %v, want mine 0", v)
	}
	// Bruno plays in words (kit.Play): one stepper "take 1 to 3 coins",
	// no notation in his frame.
	if acts, _ := fb["actions"].([]any); len(acts) != 1 || acts[0].(map[string]any)["id"] != "take" {
		t.Errorf("Bruno's actions = %v, want the one take stepper", fb["actions"])
	}
	if fb["legal"] != nil || fb["commands"] != nil {
		t.Errorf("Bruno's frame carries the notation: legal %v commands %v", fb["legal"], fb["commands"])
	}
	if p, _ := fb["prompt"].(map[string]any); p["en"] != "Take 1 to 3 coins" {
		t.Errorf("Bruno's prompt = %v, want Take 1 to 3 coins", fb["prompt"])
	}
	ft := table.stateAt(1)
	if _, ok := ft["view"].(map[string]any)["mine"]; ok {
		t.Errorf("the table's view holds a seat's coins: %v", ft["view"])
	}
	if _, ok := ft["legal"]; ok {
		t.Errorf("the table's frame lists actions: %v", ft["legal"])
	}
	for _, p := range ft["players"].([]any) {
		if p := p.(map[string]any); p["free"] != false || p["join"] != nil {
			t.Errorf("after both joined, player %v still free", p)
		}
	}
	if _, seq := sess.current(); seq != 1 {
		t.Errorf("seq = %d, want 1", seq)
	}
	// A second phone cannot take a taken seat, even with the code.
	code := r.srv.tok.code(0)
	req, _ := http.NewRequest("POST", r.http.URL+"/api/join", strings.NewReader(`{"seat":1,"code":"`+code+`"}`))
	req.Header.Set("Origin", r.http.URL)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusConflict {
		t.Errorf("join a taken seat: %s, want 409", resp.Status)
	}
}

// TestBadInputChangesNothing sends every kind of bad message; each gets an
// error reply, the connection goes on, and the game does not move.
func TestBadInputChangesNothing(t *testing.T) {
	checkLeaks(t)
	r, sess := tallyRig(t, "Anna", "Bruno")
	tokA := r.join(1)
	anna := r.dial()
	anna.send(Message{Type: msgHello, Token: tokA})
	anna.reply()
	stranger := r.dial()
	tests := []struct {
		name string
		c    *wsClient
		msg  string
		code string
	}{
		{"malformed", anna, `{"type":"command",`, "bad-message"},
		{"unknown field", anna, `{"type":"command","line":"take n=1","by":1}`, "bad-message"},
		{"claims a seat", anna, `{"type":"command","line":"take n=1","seat":2}`, "bad-message"},
		{"too large", anna, `{"type":"command","line":"` + strings.Repeat("x", 2*maxMessage) + `"}`, "message-too-large"},
		{"unknown token", stranger, `{"type":"hello","token":"` + strings.Repeat("ab", 32) + `"}`, "unknown-token"},
		{"no seat", stranger, `{"type":"command","line":"take n=1"}`, "no-seat"},
		{"staff without PIN", anna, `{"type":"staff","nonce":"0123456789abcdef","pin":"0000","action":"undo","reason":"x"}`, "bad-pin"},
		{"staff hello wrong PIN", stranger, `{"type":"hello","role":"staff","pin":"1111"}`, "bad-pin"},
		{"unknown command", anna, `{"type":"command","name":"steal","args":{}}`, "unknown-command"},
		{"bad argument", anna, `{"type":"command","name":"take","args":{"n":"many"}}`, "bad-argument"},
		{"illegal move", anna, `{"type":"command","line":"take n=7"}`, "tally.take-count"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.c.send(tt.msg)
			m := tt.c.reply()
			if (m["type"] != "error" && m["type"] != "refused") || m["code"] != tt.code || m["en"] == "" || m["fr"] == "" {
				t.Errorf("reply = %v, want error or refusal %q in both languages", m, tt.code)
			}
		})
	}
	if _, seq := sess.current(); seq != 0 {
		t.Fatalf("after bad input seq = %d, want 0", seq)
	}
	if n := len(sess.staff); n != 0 {
		t.Fatalf("%d staff requests reached the session", n)
	}
	// The connection goes on: a good command is accepted.
	anna.send(Message{Type: msgCommand, Line: "take n=2"})
	if m := anna.reply(); m["type"] != "accepted" {
		t.Fatalf("good command after bad ones: %v", m)
	}
}

func TestBinaryMessageRefused(t *testing.T) {
	checkLeaks(t)
	r, _ := tallyRig(t, "Anna", "Bruno")
	c := r.dial()
	if err := c.conn.WriteMessage(websocket.BinaryMessage, []byte(`{"type":"hello","token":"x"}`)); err != nil {
		t.Fatal(err)
	}
	if m := c.reply(); m["code"] != "bad-message" {
		t.Errorf("binary message: %v, want bad-message", m)
	}
}

func TestRateLimit(t *testing.T) {
	checkLeaks(t)
	clk := clock.NewFake(time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC))
	sess := newMemSession(t, enginetest.Rules{}, engine.Setup{Game: "tally", Players: []string{"Anna", "Bruno"}})
	opts := DefaultOpts
	opts.Clock, opts.Burst, opts.RatePerSecond = clk, 3, 1
	r := newRig(t, sess, opts)
	c := r.dial()
	bad := `{"type":"hello","token":"nope"}`
	for i := 0; i < 3; i++ {
		c.send(bad)
		if m := c.reply(); m["code"] != "unknown-token" {
			t.Fatalf("message %d: %v, want unknown-token", i+1, m)
		}
	}
	c.send(bad)
	if m := c.reply(); m["code"] != "rate-limited" {
		t.Fatalf("4th message at once: %v, want rate-limited", m)
	}
	clk.Advance(time.Second)
	c.send(bad)
	if m := c.reply(); m["code"] != "unknown-token" {
		t.Fatalf("after a second: %v, want the message handled", m)
	}
}

func TestOriginChecked(t *testing.T) {
	checkLeaks(t)
	r, _ := tallyRig(t, "Anna", "Bruno")
	url := "ws" + strings.TrimPrefix(r.http.URL, "http") + "/ws"
	_, resp, err := websocket.DefaultDialer.Dial(url, http.Header{"Origin": {"http://evil.example"}})
	if err == nil {
		t.Fatal("websocket from another origin accepted")
	}
	if resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("other origin: %v, want 403", resp)
	}
}

func TestStaff(t *testing.T) {
	checkLeaks(t)
	r, sess := tallyRig(t, "Anna", "Bruno")
	tokA := r.join(1)
	staff := r.dial()
	staff.send(Message{Type: msgHello, Role: roleStaff, PIN: "2468"})
	if m := staff.reply(); m["type"] != "welcome" || m["role"] != roleStaff {
		t.Fatalf("staff hello: %v", m)
	}
	f := staff.must("state")
	for f["role"] == roleTable { // the frame sent before the hello
		f = staff.must("state")
	}
	if f["role"] != roleStaff || f["legal"] == nil {
		t.Errorf("staff frame: role %v legal %v", f["role"], f["legal"])
	}
	staff.send(Message{Type: msgStaff, Nonce: nonce(), PIN: "2468", Action: "undo"})
	if m := staff.reply(); m["code"] != "bad-argument" {
		t.Errorf("undo without reason: %v, want bad-argument", m)
	}
	staff.send(Message{Type: msgStaff, Nonce: nonce(), PIN: "2468", Action: "undo", Reason: "misread die"})
	if m := staff.reply(); m["type"] != "accepted" {
		t.Errorf("undo: %v", m)
	}
	staff.send(Message{Type: msgStaff, Nonce: nonce(), PIN: "2468", Action: "correct", Line: "take n=1", Reason: "forgot"})
	staff.reply()
	staff.send(Message{Type: msgStaff, Nonce: nonce(), PIN: "2468", Action: "cell", Cell: "3-4"})
	if m := staff.reply(); m["code"] != "bad-argument" {
		t.Errorf("cell 3-4 given to no square: %v, want bad-argument", m)
	}
	// The game's editor judges the cell (genoakit's tests): the dashboard
	// passes the edit on.
	staff.send(Message{Type: msgStaff, Nonce: nonce(), PIN: "2468", Action: "cell", Cell: "9-1", Square: "harbour"})
	staff.reply()
	// The dice as the players see them (tally's dice are 1-8).
	for _, bad := range []map[string]string{{"blue": "9", "red": "2"}, {"blue": "3"}, {"blue": "x", "red": "2"}} {
		staff.send(Message{Type: msgStaff, Nonce: nonce(), PIN: "2468", Action: "dice", Values: bad})
		if m := staff.reply(); m["code"] != "bad-argument" || !strings.Contains(fmt.Sprint(m["en"]), "blue and red") {
			t.Errorf("dice %v: %v, want bad-argument naming the faces", bad, m)
		}
	}
	staff.send(Message{Type: msgStaff, Nonce: nonce(), PIN: "2468", Action: "undo", Reason: "x", Values: map[string]string{"blue": "3"}})
	if m := staff.reply(); m["type"] != "error" {
		t.Errorf("undo with values: %v, want an error", m)
	}
	staff.send(Message{Type: msgStaff, Nonce: nonce(), PIN: "2468", Action: "dice", Values: map[string]string{"blue": "3", "red": "7"}})
	staff.reply()
	if len(sess.staff) != 4 || sess.staff[0].Kind != table.StaffUndo || sess.staff[1].Cmd != (enginetest.Take{N: 1}) || sess.staff[2].Edit != (kit.Edit{Key: "9-1", Value: "harbour"}) ||
		sess.staff[3].Kind != table.StaffDice || sess.staff[3].Blue != 3 || sess.staff[3].Red != 7 {
		t.Errorf("staff requests = %+v", sess.staff)
	}
	// Reassign: Anna's phone loses its seat, the seat is free again.
	anna := r.dial()
	anna.send(Message{Type: msgHello, Token: tokA})
	anna.reply()
	two := 1
	staff.send(Message{Type: msgStaff, Nonce: nonce(), PIN: "2468", Action: "reassign", Seat: &two})
	if m := staff.reply(); m["type"] != "accepted" {
		t.Fatalf("reassign: %v", m)
	}
	// Anna's phone is told, then sees the table's view.
	if m := anna.reply(); m["type"] != "notice" || m["code"] != "seat-freed" || m["fr"] == "" {
		t.Errorf("Anna's phone after the reassign: %v, want the notice seat-freed", m)
	}
	for {
		f := anna.must("state")
		if f["role"] == roleTable {
			break
		}
	}
	anna.send(Message{Type: msgCommand, Line: "take n=1"})
	if m := anna.reply(); m["code"] != "unknown-token" {
		t.Errorf("command from a freed seat: %v, want unknown-token", m)
	}
	if !strings.Contains(r.get(r.qrPath(1)).Header.Get("Content-Type"), "image/png") {
		t.Error("the freed seat has no QR code")
	}
}

func (r *rig) get(path string) *http.Response {
	r.t.Helper()
	resp, err := http.Get(r.http.URL + path)
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func TestQRCode(t *testing.T) {
	checkLeaks(t)
	r, _ := tallyRig(t, "Anna", "Bruno")
	resp := r.get(r.qrPath(2))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", r.qrPath(2), resp.Status)
	}
	for _, p := range []string{"/qr/2.png", "/qr/2.png?c=/join?seat=2%26code=0123456789abcdef", "/qr/1.png?c=" + url.QueryEscape(joinPath(1, r.srv.tok.code(1)))} {
		if resp := r.get(p); resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s (not the seat's code): %s, want 404: the QR code is drawn only for who has its code", p, resp.Status)
		}
	}
	img, err := png.Decode(resp.Body)
	if err != nil {
		t.Fatalf("QR is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 256 {
		t.Errorf("QR is %v, want 256 px wide", b)
	}
	r.join(2)
	if resp := r.get("/qr/2.png"); resp.StatusCode != http.StatusGone {
		t.Errorf("QR of a taken seat: %s, want 410", resp.Status)
	}
	if resp := r.get("/qr/9.png"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("QR of seat 9: %s, want 404", resp.Status)
	}
}

func TestTokensSurviveRestart(t *testing.T) {
	checkLeaks(t)
	path := filepath.Join(t.TempDir(), "tokens.json")
	sess := newMemSession(t, enginetest.Rules{}, engine.Setup{Game: "tally", Players: []string{"Anna", "Bruno"}})
	opts := DefaultOpts
	opts.TokenFile = path
	r1 := newRig(t, sess, opts)
	tok := r1.join(2)
	r1.stop()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte(tok)) {
		t.Error("the token file holds the token itself, not its hash")
	}
	r2 := newRig(t, sess, opts)
	c := r2.dial()
	c.send(Message{Type: msgHello, Token: tok})
	if m := c.reply(); m["type"] != "welcome" || m["seat"] != 1.0 {
		t.Errorf("hello after restart: %v, want welcome seat 1", m)
	}
}

func TestPagesAndDownloads(t *testing.T) {
	checkLeaks(t)
	r, sess := tallyRig(t, "Anna", "Bruno")
	for _, p := range []string{"/", "/seat", "/staff", "/join?seat=1&code=x", "/static/app.js", "/static/style.css", "/static/i18n.js", "/static/tally.js"} {
		resp := r.get(p)
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK || len(body) == 0 {
			t.Errorf("GET %s: %s", p, resp.Status)
		}
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") {
			t.Errorf("GET %s: CSP %q", p, csp)
		}
		if bytes.Contains(body, []byte("https://")) || bytes.Contains(body, []byte("//cdn")) {
			t.Errorf("GET %s loads something from the internet", p)
		}
	}
	if resp := r.get("/download/bgsplay"); resp.StatusCode != http.StatusConflict {
		t.Errorf("bgsplay before the end: %s, want 409", resp.Status)
	}
	// Play Tally to the end: the pile of 21 goes 3 at a time; Anna takes
	// the last coin and loses, Bruno wins with 9.
	ctx := t.Context()
	for i := 0; i < 7; i++ {
		if err := sess.Submit(ctx, engine.Action{By: engine.Seat(i % 2), Cmd: enginetest.Take{N: 3}}); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for !r.srv.latestUpdate().State.Result().Over {
		if time.Now().After(deadline) {
			t.Fatal("the dashboard never saw the end")
		}
		time.Sleep(time.Millisecond)
	}
	resp := r.get("/download/bgsplay")
	var f bgstats.File
	if err := json.NewDecoder(resp.Body).Decode(&f); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("bgsplay: %s %v", resp.Status, err)
	}
	if len(f.Plays) != 1 || len(f.Plays[0].PlayerScores) != 2 || f.Plays[0].PlayerScores[1].Score != "9" || !f.Plays[0].PlayerScores[1].Winner || f.Plays[0].PlayerScores[0].Winner {
		t.Errorf("bgsplay play = %+v", f.Plays)
	}
	resp = r.get("/download/record")
	body, _ := io.ReadAll(resp.Body)
	if !strings.Contains(resp.Header.Get("Content-Disposition"), "attachment") || strings.Count(string(body), "take n=3") != 7 {
		t.Errorf("record download: %q", body)
	}
}
