package genoakit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"comptoir/engine"
	"comptoir/games/genoa"
	"comptoir/games/kit"
	"comptoir/internal/browsertest"
)

// The renderer alone in headless Chromium, under the dashboard's content
// policy: a page that loads genoa.js, draws one frame with the phone's
// actions as app.js's contract says (ctx.actions, ctx.tap, ctx.tv), and
// records the taps. A screenshot of each page is saved in
// $COMPTOIR_SCREENSHOTS (else the test's artifact directory).
const harnessHTML = `<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="/style.css"></head>
<body><main id="out"></main><script src="/h.js"></script><script src="/genoa.js"></script><script src="/harness.js"></script></body></html>`

const harnessJS = `"use strict";
window.tapped = [];
fetch("/data.json").then((r) => r.json()).then((d) => {
  const ctx = { h, lang: d.lang, info: d.info, tv: d.tv, actions: d.actions,
    playerName: (s) => d.players[s], tap: (t) => window.tapped.push(t), act: () => {}, say: () => {}, t: (k) => k };
  const out = window.RENDERERS.genoa(d.view, d.frame, ctx);
  const main = document.getElementById("out");
  for (const k of ["truth", "board", "side"]) if (out[k]) main.append(h("section", { id: k }, out[k]));
  window.drawn = true;
});`

type harnessData struct {
	Lang    string          `json:"lang"`
	Info    kit.Info        `json:"info"`
	TV      bool            `json:"tv"`
	Actions []kit.Action    `json:"actions"`
	Players []string        `json:"players"`
	View    any             `json:"view"`
	Frame   json.RawMessage `json:"frame"`
}

// TestRendererInChromium draws the merchant's phone at 390 px after a
// roll, Bruno's phone when an offer is possible, and the table's screen
// at 1280 px with the offer on the table: the squares and cards the
// phone's actions are about are tappable and a tap names them; nothing is
// wider than the screen; no notation, cell or card ID is shown.
func TestRendererInChromium(t *testing.T) {
	browsertest.Need(t)
	// A game after the deal of the hands: Anna rolls blue 2, red 2 (a
	// street), moves to a building next to it; Bruno offers for its
	// action.
	s := start(t, "alea-2001")
	s = tap(t, s, 0, "roll", map[string]string{"blue": "2", "red": "2"})
	rolled := s
	var to string
	for _, a := range play.Actions(s, 0) {
		if a.Group == "move" && !strings.Contains(a.Label.EN, "moves)") && !strings.Contains(a.Label.EN, "street") {
			to = a.ID
			break
		}
	}
	if to == "" {
		t.Fatalf("no building next to the pawn: %v", ids(s, 0))
	}
	s = tap(t, s, 0, to, nil)
	atBuilding := s
	offered := tap(t, s, 1, "offer", map[string]string{"ducats": "5"})

	info, err := Info(s.Setup(), genoa.New())
	if err != nil {
		t.Fatal(err)
	}
	js, err := web.ReadFile("genoa.js")
	if err != nil {
		t.Fatal(err)
	}
	css, err := os.ReadFile(filepath.Join("..", "..", "..", "dashboard", "web", "style.css"))
	if err != nil {
		t.Fatal(err)
	}
	srv := browsertest.Serve(t, "default-src 'self'; img-src 'self' data:; connect-src 'self' ws: wss:; frame-ancestors 'none'", map[string][]byte{
		"/":           []byte(harnessHTML),
		"/genoa.js":   js,
		"/style.css":  css, // the dashboard's page style, which the board's grid comes from
		"/harness.js": []byte(harnessJS),
		"/h.js":       browsertest.HScript(t), // ctx.h, app.js's
	})
	b := browsertest.Start(t, 60*time.Second)

	notation := `/\b[a-z]+=[^\s]|\b[1-8]-[1-8]\b|\b[LSMC][0-9][0-9]\b|\[object|undefined|NaN/`
	for _, tc := range []struct {
		name          string
		s             engine.State
		seat          engine.Seat
		lang          string
		width, height int64
		truth         string // a text the deal pane shows, "" when it has none
	}{
		{"merchant-after-roll", rolled, 0, "fr", 390, 844, ""},
		{"bruno-may-offer", atBuilding, 1, "en", 360, 780, ""},
		{"merchant-offer-made", offered, 0, "en", 430, 900, "Bruno made an offer"},
		{"table", offered, engine.NoSeat, "fr", 1280, 800, "Bruno a fait une offre"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := harnessData{Lang: tc.lang, Info: info, TV: tc.seat == engine.NoSeat, Players: tc.s.Setup().Players, View: tc.s.View(tc.seat)}
			role := "table"
			if tc.seat >= 0 {
				d.Actions = play.Actions(tc.s, tc.seat)
				role = "seat"
			}
			d.Frame, _ = json.Marshal(map[string]any{"role": role, "seat": tc.seat})
			data, err := json.Marshal(d)
			if err != nil {
				t.Fatal(err)
			}
			srv.Set("/data.json", data)
			var targets []string
			for _, a := range d.Actions {
				if a.Target != "" && !slices.Contains(targets, a.Target) {
					targets = append(targets, a.Target)
				}
			}
			var overflow bool
			var text, found string
			var shown []string
			b.Load(t, srv.URL+"/", tc.width, tc.height)
			b.Run(t,
				chromedp.Poll(`window.drawn === true`, nil, chromedp.WithPollingTimeout(10*time.Second)),
				chromedp.Evaluate(`document.documentElement.scrollWidth > window.innerWidth`, &overflow),
				chromedp.Evaluate(`document.body.innerText`, &text),
				chromedp.Evaluate(`(document.body.innerText.match(`+notation+`) || [""])[0]`, &found),
				chromedp.Evaluate(`[...new Set(Array.from(document.querySelectorAll('.tappable[data-target]')).map((e) => e.dataset.target))]`, &shown),
			)
			b.Screenshot(t, "genoa-renderer-"+tc.name)
			if errs := b.ConsoleErrors(); len(errs) > 0 {
				t.Errorf("the page's console errors: %q", errs)
			}
			if overflow {
				t.Errorf("the page is wider than the %d px screen", tc.width)
			}
			if found != "" {
				t.Errorf("the page shows notation %q:\n%s", found, text)
			}
			slices.Sort(shown)
			want := slices.Clone(targets)
			slices.Sort(want)
			if !slices.Equal(shown, want) {
				t.Errorf("tappable targets %v, want the actions' targets %v", shown, want)
			}
			if tc.truth != "" && !strings.Contains(text, tc.truth) {
				t.Errorf("the deal on the table does not show %q:\n%s", tc.truth, text)
			}
			if len(shown) == 0 {
				return
			}
			// A tap on the first tappable square or card names its target,
			// and the CSSOM styles apply under the page's policy.
			var tapped []string
			var shadow string
			b.Run(t,
				chromedp.Click(`.tappable[data-target]`, chromedp.ByQuery),
				chromedp.Evaluate(`window.tapped`, &tapped),
				chromedp.Evaluate(`getComputedStyle(document.querySelector('.tappable[data-target]')).boxShadow + getComputedStyle(document.querySelector('.tappable[data-target]')).cursor`, &shadow),
			)
			if errs := b.ConsoleErrors(); len(errs) > 0 {
				t.Errorf("the page's console errors after a tap: %q", errs)
			}
			if len(tapped) != 1 || !slices.Contains(targets, tapped[0]) {
				t.Errorf("a tap gave %v, want one of %v", tapped, targets)
			}
			if !strings.Contains(shadow, "pointer") {
				t.Errorf("the tappable square's style %q: the renderer's styles did not apply", shadow)
			}
		})
	}
}
