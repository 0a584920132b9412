package dashboard

import (
	"encoding/json"
	"image/png"
	"net/http"
	"strings"
	"testing"
	"time"

	"comptoir/bgstats"
	"comptoir/engine"
	"comptoir/engine/enginetest"
)

// TestBGStatsEarlierGame downloads the BG Stats play of a game that is
// no longer the latest: the staff ended game 1 and began game 2.
func TestBGStatsEarlierGame(t *testing.T) {
	r, _ := realTable(t, enginetest.Rules{}, engine.Setup{Game: "tally", Players: []string{"Anna", "Bruno"}}, nil)
	staff := r.dial()
	staff.send(Message{Type: msgHello, Role: "staff", PIN: "2468"})
	staff.reply()
	staff.must("state")
	for _, m := range []Message{
		{Type: msgStaff, Nonce: nonce(), PIN: "2468", Action: "end", Reason: "closing time"},
		{Type: msgStaff, Nonce: nonce(), PIN: "2468", Action: "new-game"},
	} {
		staff.send(m)
		if rep := staff.reply(); rep["type"] != "accepted" {
			t.Fatalf("%s: %v", m.Action, rep)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for u := r.srv.latestUpdate(); u == nil || u.Game != 2; u = r.srv.latestUpdate() {
		if time.Now().After(deadline) {
			t.Fatal("the dashboard never saw game 2")
		}
		time.Sleep(time.Millisecond)
	}
	get := func(path, pin string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest("GET", r.http.URL+path, nil)
		if pin != "" {
			req.Header.Set(StaffPINHeader, pin)
		}
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	for _, tc := range []struct {
		path, pin string
		code      int
	}{
		{"/download/bgsplay", "", http.StatusConflict},         // game 2 runs
		{"/download/bgsplay?game=1", "", http.StatusForbidden}, // an earlier game: staff only
		{"/download/bgsplay?game=1", "1111", http.StatusForbidden},
		{"/download/bgsplay?game=9", "2468", http.StatusNotFound},
		{"/download/bgsplay?game=x", "2468", http.StatusBadRequest},
		{"/download/bgsplay?game=1", "2468", http.StatusOK},
		{"/bgstats?game=1", "2468", http.StatusSeeOther},
		{"/qr/bgstats.png", "", http.StatusConflict}, // game 2 runs
	} {
		if resp := get(tc.path, tc.pin); resp.StatusCode != tc.code {
			t.Errorf("GET %s (PIN %q) = %s, want %d", tc.path, tc.pin, resp.Status, tc.code)
		}
	}
	resp := get("/download/bgsplay?game=1", "2468")
	var f bgstats.File
	if err := json.NewDecoder(resp.Body).Decode(&f); err != nil {
		t.Fatal(err)
	}
	if len(f.Plays) != 1 || len(f.Plays[0].PlayerScores) != 2 || f.Games[0].Name != "Tally" || f.Locations[0].Name != "Comptoir" {
		t.Errorf("game 1's file = %+v", f)
	}
	if cd := resp.Header.Get("Content-Disposition"); !strings.Contains(cd, "tally-1-") {
		t.Errorf("Content-Disposition %q does not name game 1", cd)
	}
	if loc := get("/bgstats?game=1", "2468").Header.Get("Location"); !strings.HasPrefix(loc, bgstats.LinkBase+"?data=") {
		t.Errorf("/bgstats redirects to %q, want the app's import link", loc)
	}
	// The staff page's list of the journal's games, newest first.
	if resp := get("/api/plays", ""); resp.StatusCode != http.StatusForbidden {
		t.Errorf("/api/plays without the PIN: %s, want 403", resp.Status)
	}
	var list []playInfo
	if err := json.NewDecoder(get("/api/plays", "2468").Body).Decode(&list); err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Game != 2 || list[0].Outcome != "" || list[1].Game != 1 || list[1].Outcome != "over" || list[1].Rules != "tally" || strings.Join(list[1].Players, ",") != "Anna,Bruno" {
		t.Errorf("/api/plays = %+v, want game 2 playing then game 1 over", list)
	}
}

// TestBGStatsEndScreen plays Tally to the end and follows the end
// screen's BG Stats link and QR code.
func TestBGStatsEndScreen(t *testing.T) {
	checkLeaks(t)
	r, sess := tallyRig(t, "Anna", "Bruno")
	for i := 0; i < 7; i++ {
		if err := sess.Submit(t.Context(), engine.Action{By: engine.Seat(i % 2), Cmd: enginetest.Take{N: 3}}); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for u := r.srv.latestUpdate(); u == nil || !u.State.Result().Over; u = r.srv.latestUpdate() {
		if time.Now().After(deadline) {
			t.Fatal("the dashboard never saw the end")
		}
		time.Sleep(time.Millisecond)
	}
	resp := r.get("/qr/bgstats.png")
	if _, err := png.Decode(resp.Body); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("QR: %s %v", resp.Status, err)
	}
	resp = r.get("/bgstats?format=json")
	var body struct{ Link string }
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || !strings.HasPrefix(body.Link, bgstats.LinkBase+"?data=") {
		t.Fatalf("link: %s %q %v", resp.Status, body.Link, err)
	}
	if !strings.Contains(body.Link, "%22winner%22%3Atrue") {
		t.Errorf("link %q names no winner", body.Link)
	}
}
