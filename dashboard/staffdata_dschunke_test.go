package dashboard

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"comptoir/engine"
	"comptoir/games/dschunke"
	"comptoir/games/dschunke/dschunkekit"
	"comptoir/games/kit"
	"comptoir/journal"
	"comptoir/table"
)

// dschunkeStaffTable runs a real four-player Dschunke session with the
// dashboard on it, the staff's edits going through Dschunke's editor to
// the session as the daemon sends them (without its file: see
// cmd/comptoird's TestDschunkeDataEditor).
func dschunkeStaffTable(t *testing.T) (*rig, *table.Session) {
	t.Helper()
	rules := dschunke.New()
	setup := engine.Setup{Game: dschunke.Name, Players: []string{"Anna", "Bruno", "Chloé", "David"}}
	store, err := journal.Open(filepath.Join(t.TempDir(), "table.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	game, err := store.Begin(rules, setup, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	k := dschunkekit.Game()
	topts := table.DefaultOpts
	topts.Rules, topts.Game, topts.Store, topts.Kit = rules, game, store, k
	sess, stop := runSession(t, topts)
	t.Cleanup(stop)
	// The daemon's editor without its file: the kit's editor, then the
	// rules swapped in the session.
	edit := func(e kit.Edit) error {
		next, err := k.Edit.Apply(sess.Rules(), []kit.Edit{e})
		if err != nil {
			return err
		}
		return sess.Staff(context.Background(), table.StaffRequest{Kind: table.StaffRules, Rules: next})
	}
	opts := DefaultOpts
	opts.StaffPIN = "2468"
	r := newRig(t, FromTable(sess, TableOpts{Store: store, Edit: edit}), opts)
	t.Cleanup(r.stop)
	return r, sess
}

// TestStaffCorrectsDschunkeStandIn: from the staff page, a staff message
// corrects a stand-in market card of a running Dschunke game (RULES-NOTES:
// "staff can correct them like the Genoa board"). The correction goes
// through Dschunke's editor to the session, which swaps the rules under
// the game; the page data (/api/game) list the corrected value and the
// frames name a new version of them; a value that is not a stand-in is
// refused in both languages; and the game goes on with the corrected
// card. The daemon's side (draft, file) is cmd/comptoird's
// TestDschunkeDataEditor.
func TestStaffCorrectsDschunkeStandIn(t *testing.T) {
	checkLeaks(t)
	r, sess := dschunkeStaffTable(t)
	ctx := context.Background()
	for seat, goods := range []map[string]int{
		{"fish": 2, "rice": 2, "spices": 2, "vegetables": 2},
		{"rice": 3, "spices": 3, "vegetables": 2},
		{"rice": 3, "spices": 3, "vegetables": 2},
		{"fish": 6, "vegetables": 2},
	} {
		if err := sess.Submit(ctx, engine.Action{By: engine.Seat(seat), Cmd: dschunke.Hand{Goods: goods}}); err != nil {
			t.Fatal(err)
		}
	}
	items := func() []kit.EditItem {
		t.Helper()
		resp := r.get("/api/game")
		defer resp.Body.Close()
		var info kit.Info
		if err := json.NewDecoder(resp.Body).Decode(&info); err != nil {
			t.Fatal(err)
		}
		return info.Edit
	}
	if !slices.Contains(items(), kit.EditItem{Key: "market-05.fish", Value: "4"}) {
		t.Fatalf("/api/game does not offer market-05.fish at 4: %v", items())
	}

	staff := r.dial()
	staff.send(Message{Type: msgHello, Role: roleStaff, PIN: "2468"})
	if m := staff.reply(); m["type"] != "welcome" {
		t.Fatalf("staff hello: %v", m)
	}
	first := staff.must("state")
	staff.send(Message{Type: msgStaff, Nonce: nonce(), PIN: "2468", Action: "cell", Cell: "market-01.fish", Square: "3"})
	if m := staff.reply(); m["type"] != "refused" || m["code"] != dschunke.ErrNotStandIn.Code || m["fr"] == "" || m["fr"] == m["en"] {
		t.Errorf("correcting market-01 (printed in the rules): %v, want a not-a-stand-in refusal in both languages", m)
	}
	staff.send(Message{Type: msgStaff, Nonce: nonce(), PIN: "2468", Action: "cell", Cell: "market-05.fish", Square: "1"})
	if m := staff.reply(); m["type"] != "accepted" {
		t.Fatalf("correcting market-05.fish: %v", m)
	}
	// The swap publishes the game again, with a new version of its data.
	f := staff.must("state")
	for f["info"] == first["info"] {
		f = staff.must("state")
	}
	if !slices.Contains(items(), kit.EditItem{Key: "market-05.fish", Value: "1"}) {
		t.Errorf("/api/game after the correction: %v, want market-05.fish at 1", items())
	}
	if err := sess.Submit(ctx, engine.Action{By: engine.NoSeat, Cmd: dschunke.Reveal{Market: "market-05"}}); err != nil {
		t.Fatal(err)
	}
	f = staff.stateAt(int64(first["seq"].(float64)) + 1)
	view := f["view"].(map[string]any)
	if p := view["prices"].(map[string]any); p["fish"] != "1" || p["vegetables"] != "S" {
		t.Errorf("market-05 in play: %v, want fish 1, vegetables S", p)
	}
}

// TestBrowserStaffCorrectsDschunke corrects a stand-in from the staff
// page in headless Chromium: the page lists the stand-in values (not the
// Genoa cell form), the staff pick market-05's fish price, type the
// box's and send; the running game's rules carry it.
func TestBrowserStaffCorrectsDschunke(t *testing.T) {
	browserAvailable(t)
	checkLeaks(t)
	r, sess := dschunkeStaffTable(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second) // as the other browser tests: Chromium starts slowly on a loaded machine
	defer cancel()
	c := newChromium(t, ctx)
	var options []string
	var cellForm bool
	if err := chromedp.Run(c,
		chromedp.Navigate(r.http.URL+"/staff"),
		chromedp.WaitVisible(`#conn[data-state=up]`, chromedp.ByQuery),
		chromedp.SendKeys(`#pin input`, "2468", chromedp.ByQuery),
		chromedp.Click(`#pin button`, chromedp.ByQuery),
		chromedp.WaitVisible(`#edit-item`, chromedp.ByQuery),
		chromedp.Evaluate(`Array.from(document.querySelectorAll('#edit-item option'), (o) => o.textContent)`, &options),
		chromedp.Evaluate(`!!document.querySelector('input[name=cell]')`, &cellForm),
	); err != nil {
		t.Fatalf("staff page: %v", err)
	}
	if !slices.Contains(options, "market-05.fish = 4") || slices.Contains(options, "market-01.fish = 2") || cellForm {
		t.Fatalf("the staff page offers %d items (market-05.fish = 4: %v), cell form %v", len(options), slices.Contains(options, "market-05.fish = 4"), cellForm)
	}
	pick := slices.Index(options, "market-05.fish = 4")
	var value string
	if err := chromedp.Run(c,
		chromedp.SetValue(`#edit-item`, strconv.Itoa(pick), chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector('#edit-item').dispatchEvent(new Event('change'))`, nil),
		chromedp.Value(`#edit-value`, &value, chromedp.ByQuery),
		chromedp.SetValue(`#edit-value`, "2", chromedp.ByQuery),
		chromedp.Click(`#edit-value ~ button[type=submit]`, chromedp.ByQuery),
		chromedp.WaitReady(`#edit-item`, chromedp.ByQuery),
	); err != nil {
		t.Fatalf("correcting market-05.fish: %v", err)
	}
	if value != "4" {
		t.Errorf("the value field shows %q for market-05.fish, want its value now, 4", value)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		d, err := sess.Rules().(dschunke.Rules).Data()
		if err != nil {
			t.Fatal(err)
		}
		if i, _ := d.MarketIndex("market-05"); d.Market[i].Prices[0] == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the running game's market-05 never got fish 2 from the staff page")
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The page lists the corrected value once the frames name the new data.
	if err := chromedp.Run(c, chromedp.Poll(`Array.from(document.querySelectorAll('#edit-item option')).some((o) => o.textContent === 'market-05.fish = 2')`, nil, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		t.Errorf("the staff page does not show market-05.fish = 2: %v", err)
	}
}
