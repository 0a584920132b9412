package dashboard

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"comptoir/engine"
	"comptoir/engine/enginetest"
)

// TestBrowserPastGames opens the staff page in Chromium after the staff
// ended game 1 and began game 2: the list of the journal's games shows
// both, with BG Stats buttons on the finished one only.
func TestBrowserPastGames(t *testing.T) {
	browserAvailable(t)
	r, _ := realTable(t, enginetest.Rules{}, engine.Setup{Game: "tally", Players: []string{"Anna", "Bruno"}}, nil)
	staff := r.dial()
	staff.send(Message{Type: msgHello, Role: "staff", PIN: "2468"})
	staff.reply()
	for _, m := range []Message{
		{Type: msgStaff, Nonce: nonce(), PIN: "2468", Action: "end", Reason: "closing time"},
		{Type: msgStaff, Nonce: nonce(), PIN: "2468", Action: "new-game"},
	} {
		staff.send(m)
		if rep := staff.reply(); rep["type"] != "accepted" {
			t.Fatalf("%s: %v", m.Action, rep)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := newChromium(t, ctx)
	var rows []string
	if err := chromedp.Run(c,
		chromedp.Navigate(r.http.URL+"/staff"),
		chromedp.WaitVisible(`#conn[data-state=up]`, chromedp.ByQuery),
		chromedp.SendKeys(`#pin input`, "2468", chromedp.ByQuery),
		chromedp.Click(`#pin button`, chromedp.ByQuery),
		chromedp.WaitVisible(`#past-games button`, chromedp.ByQuery),
		chromedp.Click(`#past-games button`, chromedp.ByQuery),
		chromedp.WaitVisible(`#past-games table tr`, chromedp.ByQuery),
		chromedp.Evaluate(`[...document.querySelectorAll("#past-games tr")].map((tr) => tr.innerText.replace(/\s+/g, " ").trim())`, &rows),
	); err != nil {
		t.Fatalf("staff page: %v", err)
	}
	if len(rows) != 2 || !strings.HasPrefix(rows[0], "2 tally Anna, Bruno") || strings.Contains(rows[0], "BG Stats") ||
		!strings.HasPrefix(rows[1], "1 tally Anna, Bruno") || !strings.Contains(rows[1], "over") || !strings.Contains(rows[1], "BG Stats") {
		t.Errorf("past games = %q, want game 2 playing, then game 1 over with its BG Stats buttons", rows)
	}
}
