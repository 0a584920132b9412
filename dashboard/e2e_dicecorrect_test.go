package dashboard

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"comptoir/engine"
	"comptoir/games/genoa"
	"comptoir/input"
)

// TestBrowserDiceCorrect opens Genoa's table screen and both phones in
// Chromium (the phones 390x844) over a real session and journal. The
// camera reads blue 3 · red 5; the merchant's phone, and hers only, says
// what the camera read and offers to correct it, in English and in
// French; she taps "Correct the roll", taps the faces the dice show
// (blue 4, red 5) and sends: the table's screen shows the roll corrected
// and the misread's undo, the journal holds the roll entered, and the
// offer is gone. The screenshots dice-correct-phone.png (the sheet, faces
// chosen) and dice-correct-table.png (the table after) are saved in the
// test's artifact directory (go test -artifacts).
func TestBrowserDiceCorrect(t *testing.T) {
	browserAvailable(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	rules := genoa.New()
	setup := engine.Setup{Game: "genoa", Variant: "alea-2001", Players: []string{"Anna", "Bruno"}}
	store, sess := newSession(t, dir, rules, setup)
	inputs := make(chan input.Event)
	url := serveTable(t, ctx, sess, inputs, store, dir)
	drawGenoaHands(t, ctx, sess, rules, setup.Players)

	tv := newChromium(t, ctx)
	var joins []string
	if err := chromedp.Run(tv,
		chromedp.EmulateViewport(1280, 800),
		chromedp.Navigate(url+"/"),
		chromedp.WaitVisible(`.qr img`, chromedp.ByQuery),
		chromedp.Evaluate(`Array.from(document.querySelectorAll('a.join')).map(a => a.href)`, &joins),
	); err != nil || len(joins) != 2 {
		t.Fatalf("table view: %v, %d join links", err, len(joins))
	}
	var phones []context.Context
	for i, link := range joins {
		c := newChromium(t, ctx)
		if err := chromedp.Run(c, chromedp.EmulateViewport(390, 844), chromedp.Navigate(link), chromedp.WaitVisible(`#prompt`, chromedp.ByQuery)); err != nil {
			t.Fatalf("%s's phone: %v", setup.Players[i], err)
		}
		phones = append(phones, c)
	}
	anna, bruno := phones[0], phones[1]
	language := func(c context.Context, lang string) {
		t.Helper()
		pollPage(t, c, "language "+lang, `(() => { if (document.documentElement.lang !== `+jsString(lang)+`) document.getElementById('lang').click(); return document.documentElement.lang === `+jsString(lang)+`; })()`)
	}

	inputs <- input.DiceRolled{At: time.Now(), Blue: 3, Red: 5, Confidence: 1}
	u, err := sess.Current(ctx)
	if err != nil {
		t.Fatal(err)
	}
	read := u.Seq
	for _, c := range append([]context.Context{tv}, phones...) {
		pageAt(t, c, "the camera's reading", read)
	}
	for _, tc := range []struct{ lang, want string }{
		{"fr", "La caméra a lu bleu 3 · rouge 5 — ce n'est pas ce que montrent les dés\u00a0?"},
		{"en", "Camera read blue 3 · red 5 — not what the dice show?"},
	} {
		language(anna, tc.lang)
		pollPage(t, anna, "the offer", `!!document.querySelector('#dice-correct #dice-correct-open')`)
		if got := pageText(anna, `#dice-correct`); !strings.Contains(strings.ReplaceAll(got, "\u00a0", " "), strings.ReplaceAll(tc.want, "\u00a0", " ")) {
			t.Errorf("%s: the offer says %q, want %q", tc.lang, got, tc.want)
		}
	}
	if got := pageText(bruno, `#dice-correct`) + pageText(tv, `#dice-correct`); got != "" {
		t.Errorf("an offer on Bruno's phone or the table's screen: %q", got)
	}

	pollPage(t, anna, "tap the offer's button", `(document.querySelector('#dice-correct-open').click(), true)`)
	pollPage(t, anna, "the sheet: a row of eight faces per die", `(() => { const s = document.querySelector('#sheet[data-action=dice-correct]'); if (!s) return false; const o = s.querySelectorAll('.options.dice'); return o.length === 2 && o[0].querySelectorAll('button.option').length === 8 && o[1].querySelectorAll('button.option').length === 8; })()`)
	pollPage(t, anna, "tap blue 4", `(document.querySelectorAll('#sheet .options.dice')[0].querySelector('[data-value="4"]').click(), true)`)
	pollPage(t, anna, "tap red 5", `(document.querySelectorAll('#sheet .options.dice')[1].querySelector('[data-value="5"]').click(), true)`)
	pollPage(t, anna, "both faces chosen", `document.querySelector('#sheet .sheet-title').textContent.includes('blue 4 · red 5') && !document.querySelector('#sheet-send').disabled`)
	pageShot(t, anna, "dice-correct-phone.png")
	pollPage(t, anna, "send", `(document.querySelector('#sheet-send').click(), true)`)

	// The undo and the roll entered: two steps, seen everywhere.
	for _, c := range append([]context.Context{tv}, phones...) {
		pageAt(t, c, "the correction", read+2)
	}
	language(tv, "en")
	log := pageText(tv, `#log`)
	if !strings.Contains(log, "blue 4, red 5: the pawn starts on") || !strings.Contains(log, "dice misread: the camera read blue 3, red 5; Anna saw blue 4, red 5") {
		t.Errorf("the table's log shows %q, want the roll corrected and the misread's undo", log)
	}
	pageShot(t, tv, "dice-correct-table.png")
	if s := sess.Record().Lines; s[len(s)-1].By != engine.NoSeat || s[len(s)-1].Command != "roll blue=4 red=5" {
		t.Errorf("last step %+v, want the table's roll blue=4 red=5", s[len(s)-1])
	}
	pollPage(t, anna, "the offer gone", `!document.querySelector('#dice-correct') && !document.querySelector('#sheet')`)
}
