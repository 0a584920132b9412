package hub

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"comptoir/cafe"
	"comptoir/internal/browsertest"
)

// newChromium is a headless Chromium width pixels wide, in English. Its
// profile was in t.TempDir, removed while Chromium's helpers could still
// write there (the dashboard's browser test failed once in CI on that
// race): package browsertest closes and waits for the browser, and
// removes the profile on a best-effort basis.
func newChromium(t *testing.T, ctx context.Context, width int) context.Context {
	return browsertest.NewContext(t, ctx, chromedp.Flag("lang", "en-US"), chromedp.WindowSize(width, 1000))
}

// TestBrowserFloor opens the floor page in headless Chromium over a real
// hub and three tables: the floor asks for its secret, the three cards
// appear and move as the tables play, an unplugged camera raises an
// alert acknowledged, and a table's call for staff is answered from the
// floor, the answer reaching the table (the phone's side is comptoird's
// TestBrowserCallStaff).
func TestBrowserFloor(t *testing.T) {
	browsertest.Need(t)
	r := newRig(t, "genoa-1", "negoce-1", "dschunke-1")
	r.startHub()
	genoa := r.addTable("genoa-1", 0, 71)
	r.addTable("negoce-1", 1, 72)
	r.addTable("dschunke-1", 2, 73)
	r.play(3)
	floor := httptest.NewServer(r.hub.Handler(WebOpts{Secret: "floor-browser-7"}))
	defer floor.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	counter := newChromium(t, ctx, 1280)
	poll := func(c context.Context, what, js string) {
		t.Helper()
		if err := chromedp.Run(c, chromedp.Poll(js, nil, chromedp.WithPollingTimeout(15*time.Second))); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	// The floor asks for its secret: a wrong one is refused in words, the
	// right one opens it.
	if err := chromedp.Run(counter, chromedp.Navigate(floor.URL+"/"),
		chromedp.WaitVisible(`#login input`, chromedp.ByQuery),
		chromedp.SendKeys(`#login input`, "guess", chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	click(t, counter, `#login button`)
	poll(counter, "the wrong secret refused", `document.querySelector('#login .err').textContent.length > 0 && document.querySelector('main').hidden`)
	if err := chromedp.Run(counter, chromedp.SetValue(`#login input`, "floor-browser-7", chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	click(t, counter, `#login button`)
	poll(counter, "three cards", `document.querySelectorAll('.card').length === 3`)
	// Once in, the secret's form is gone from the screen, not only marked
	// hidden (a display rule of its own kept it drawn over the floor).
	poll(counter, "the login form gone", `getComputedStyle(document.querySelector('#login')).display === 'none'`)
	poll(counter, "each card's time since its last step", `[...document.querySelectorAll('.card .meta')].every(m => /\d+(\.\d)? (s|min|h) since the last step/.test(m.textContent))`)
	var seq string
	if err := chromedp.Run(counter, chromedp.AttributeValue(`.card[data-table="genoa-1"]`, "data-seq", &seq, nil, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	r.play(5)
	poll(counter, "the Genoa card moves", `Number(document.querySelector('.card[data-table="genoa-1"]').dataset.seq) > `+seq)

	genoa.Pub.SetDevices([]cafe.Device{{Name: "camera", OK: false, Detail: "unplugged"}})
	poll(counter, "the camera alert", `[...document.querySelectorAll('.alert.device')].some(a => a.textContent.includes('genoa-1') && a.textContent.includes('camera'))`)
	click(t, counter, `.alert.device button.ack`)
	poll(counter, "the camera alert acknowledged", `document.querySelector('.alert.device.acked') !== null`)

	// The table calls for staff (its dashboard's button: see comptoird's
	// TestBrowserCallStaff); the floor answers, the table hears it.
	genoa.Pub.CallStaff(true)
	poll(counter, "the staff alert", `document.querySelector('.alert.staff') !== null`)
	poll(counter, "the on-my-way button", `document.querySelector('.card[data-table="genoa-1"] button.answer') !== null`)
	click(t, counter, `.card[data-table="genoa-1"] button.answer`)
	poll(counter, "answered on the floor", `document.querySelector('.card[data-table="genoa-1"] .badge:not(.state)') !== null`)
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, answered := genoa.Pub.StaffCall(); !answered.IsZero() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the floor's answer never reached the table")
		}
		time.Sleep(20 * time.Millisecond)
	}

	// The history: the Genoa game abandoned, its play listed with its BG
	// Stats link.
	if err := genoa.Game().Finish(time.Now(), "abandoned"); err != nil {
		t.Fatal(err)
	}
	genoa.Pub.Notify()
	deadline = time.Now().Add(10 * time.Second)
	for {
		plays, err := r.hist.Plays(Filter{})
		if err != nil {
			t.Fatal(err)
		}
		if len(plays) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the abandoned play never reached the history")
		}
		time.Sleep(20 * time.Millisecond)
	}
	click(t, counter, `nav button[data-tab="history"]`)
	poll(counter, "the play in the history", `document.querySelectorAll('#plays tbody tr').length === 1 && document.querySelector('#plays tbody a').href.startsWith('`+BGStatsBase+`')`)
}

// click clicks the element in the page's own script: the floor redraws
// cards as the tables play, and a click by coordinates may land on a card
// just redrawn.
func click(t *testing.T, c context.Context, sel string) {
	t.Helper()
	var ok bool
	if err := chromedp.Run(c, chromedp.Evaluate(`(() => { const e = document.querySelector(`+"`"+sel+"`"+`); if (e) e.click(); return !!e; })()`, &ok)); err != nil || !ok {
		t.Fatalf("click %s: %v (found %v)", sel, err, ok)
	}
}
