package dschunkekit

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"comptoir/engine"
	"comptoir/games/dschunke"
	"comptoir/internal/browsertest"
)

// harness draws one case with the renderer alone, as app.js would: the
// panes board, side and truth one under the other in a page of the
// dashboard's style, ctx.tap recording the targets tapped. It answers
// what the test measures.
const harness = `"use strict";
(function () {
  window.tapped = [];
  window.draw = function (c) {
    const lang = c.lang;
    const t = (k) => (window.I18N[lang][k] !== undefined ? window.I18N[lang][k] : k);
    const frame = { role: c.seat >= 0 ? "seat" : "table", seat: c.seat, game: "dschunke" };
    const out = window.RENDERERS.dschunke(c.view, frame, { h, t, lang, info: c.info, actions: c.actions, tv: c.tv,
      playerName: (s) => c.view.players[s].name, tap: (key) => window.tapped.push(key), act: () => {}, say: () => {} });
    const main = document.querySelector("main");
    main.replaceChildren();
    if (c.tv) main.classList.add("tv");
    for (const k of ["board", "side", "truth"]) {
      if (!out[k]) continue;
      main.append(h("section", { id: "pane-" + k }, out[k]));
    }
    const tappables = Array.from(document.querySelectorAll(".tappable")).map((el) => {
      const r = el.getBoundingClientRect();
      return { target: el.getAttribute("data-target"), w: r.width, h: r.height };
    });
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth,
      text: document.body.innerText, tappables, truth: !!out.truth,
      wide: Array.from(document.querySelectorAll("main *")).filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5).map((el) => el.tagName + "." + el.className).slice(0, 5) };
  };
})();`

// renderCase is one state drawn for one viewer.
type renderCase struct {
	Name    string          `json:"-"`
	View    any             `json:"view"`
	Info    any             `json:"info"`
	Actions json.RawMessage `json:"actions"`
	Seat    engine.Seat     `json:"seat"`
	Lang    string          `json:"lang"`
	TV      bool            `json:"tv"`
	targets []string
}

// renderCases picks states of a seeded four-player game: the starting
// hands, an action turn, a special card to play, the sealed bidding, the
// bids revealed, the end.
func renderCases(t *testing.T) []renderCase {
	t.Helper()
	var out []renderCase
	want := map[string]func(s *dschunke.State, v dschunke.View) bool{
		"hands":   func(s *dschunke.State, v dschunke.View) bool { return v.Phase == "hands" },
		"actions": func(s *dschunke.State, v dschunke.View) bool { return v.Phase == "actions" && v.Round > 2 },
		"card": func(s *dschunke.State, v dschunke.View) bool {
			if v.Phase != "actions" {
				return false
			}
			for _, a := range actions(s, v.Turn) {
				if a.Group == "card" {
					return true
				}
			}
			return false
		},
		"sealed": func(s *dschunke.State, v dschunke.View) bool {
			return v.Phase == "bidding" && v.Round > 1 && len(v.Waiting) == 2
		},
		"revealed": func(s *dschunke.State, v dschunke.View) bool { return len(v.Biddings) > 0 && v.Phase == "market" },
		"over":     func(s *dschunke.State, v dschunke.View) bool { return v.Over },
	}
	info, err := Info(engine.Setup{Game: dschunke.Name, Players: players4}, dschunke.New())
	if err != nil {
		t.Fatal(err)
	}
	for _, seed := range []int64{42, 43, 44} {
		randomStates(t, players4, seed, func(s *dschunke.State) {
			pub := s.View(engine.NoSeat).(dschunke.View)
			for name, ok := range want {
				if !ok(s, pub) {
					continue
				}
				delete(want, name)
				seat := pub.Turn
				if seat < 0 && len(pub.Waiting) > 0 {
					seat = pub.Waiting[0]
				}
				if seat < 0 {
					seat = 0
				}
				acts := actions(s, seat)
				raw, err := json.Marshal(acts)
				if err != nil {
					t.Fatal(err)
				}
				var targets []string
				for _, a := range acts {
					if a.Target != "" {
						targets = append(targets, a.Target)
					}
				}
				for _, lang := range []string{"en", "fr"} {
					out = append(out, renderCase{Name: name + "-" + lang, View: s.View(seat), Info: info, Actions: raw, Seat: seat, Lang: lang, targets: targets})
				}
				out = append(out, renderCase{Name: name + "-table", View: pub, Info: info, Actions: json.RawMessage("[]"), Seat: engine.NoSeat, Lang: "fr", TV: true})
			}
		})
	}
	for name := range want {
		t.Errorf("no state for the case %q", name)
	}
	return out
}

// TestRendererSmoke draws Dschunke's renderer alone in Chromium, on
// phones 360 and 390 px wide and on the table's screen at 1280x800, for
// states of a game: nothing wider than the screen, no notation in the
// page's text, every tappable element an action's target at least 44 px
// high, a tap giving its target to ctx.tap, the bidding as the truth pane.
// Screenshots go to $COMPTOIR_SCREENSHOTS (else the test's artifact
// directory).
func TestRendererSmoke(t *testing.T) {
	browsertest.Need(t)
	style, err := os.ReadFile("../../../dashboard/web/style.css")
	if err != nil {
		t.Fatal(err)
	}
	i18n, err := os.ReadFile("../../../dashboard/web/i18n.js")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"/style.css": style, "/i18n.js": i18n, "/harness.js": []byte(harness), "/h.js": browsertest.HScript(t)}
	for _, n := range []string{"dschunke.js", "dschunke.css"} {
		b, err := web.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		files["/"+n] = b
	}
	files["/"] = []byte(`<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/style.css"><link rel="stylesheet" href="/dschunke.css"></head>
<body><main></main><script src="/i18n.js"></script><script src="/h.js"></script><script src="/harness.js"></script><script src="/dschunke.js"></script></body></html>`)
	// The dashboard's policy: no inline script or style attribute.
	srv := browsertest.Serve(t, "default-src 'self'; img-src 'self' data:", files)
	browser := browsertest.Start(t, 2*time.Minute)
	browser.Run(t, chromedp.Navigate(srv.URL+"/"))
	if errs := browser.ConsoleErrors(); len(errs) > 0 {
		t.Errorf("the page's console errors: %q", errs)
	}
	notation := regexp.MustCompile(`\b[a-z]+=[^\s]|market-\d|\b(restock-plus|place-palette|take-goods|move-palette|bonus)-\w|\w+:\d`)
	for _, c := range renderCases(t) {
		sizes := [][2]int64{{390, 844}, {360, 740}}
		if c.TV {
			sizes = [][2]int64{{1280, 800}, {1920, 1080}}
		}
		for _, size := range sizes {
			t.Run(fmt.Sprintf("%s-%d", c.Name, size[0]), func(t *testing.T) {
				arg, err := json.Marshal(c)
				if err != nil {
					t.Fatal(err)
				}
				var got struct {
					ScrollWidth, InnerWidth float64
					Text                    string
					Tappables               []struct {
						Target string
						W, H   float64
					}
					Truth bool
					Wide  []string
				}
				browser.Run(t, chromedp.EmulateViewport(size[0], size[1]),
					chromedp.Evaluate(`window.tapped = []; draw(`+string(arg)+`)`, &got))
				browser.Screenshot(t, fmt.Sprintf("dschunke-%s-%d", c.Name, size[0]))
				if errs := browser.ConsoleErrors(); len(errs) > 0 {
					t.Errorf("the page's console errors: %q", errs)
				}
				if got.ScrollWidth > got.InnerWidth {
					t.Errorf("page %v px wide in a %v px screen; too wide: %v", got.ScrollWidth, got.InnerWidth, got.Wide)
				}
				if m := notation.FindString(got.Text); m != "" {
					t.Errorf("notation %q in the page:\n%s", m, got.Text)
				}
				if strings.Contains(got.Text, "dj.") {
					t.Errorf("an untranslated key in the page:\n%s", got.Text)
				}
				for _, tp := range got.Tappables {
					if !containsString(c.targets, tp.Target) {
						t.Errorf("tappable %q is no action's target (%v)", tp.Target, c.targets)
					}
					if tp.H < 44 || tp.W < 44 {
						t.Errorf("tappable %q is %vx%v px, under 44", tp.Target, tp.W, tp.H)
					}
				}
				if !c.TV && (strings.HasPrefix(c.Name, "actions") || strings.HasPrefix(c.Name, "card")) {
					if len(got.Tappables) == 0 {
						t.Errorf("nothing tappable, targets %v", c.targets)
					}
				}
				if (strings.HasPrefix(c.Name, "sealed") || strings.HasPrefix(c.Name, "revealed")) && !got.Truth {
					t.Errorf("no truth pane in the bidding")
				}
				if len(got.Tappables) > 0 {
					var tapped []string
					browser.Run(t, chromedp.Click(`.tappable`, chromedp.ByQuery),
						chromedp.Evaluate(`window.tapped`, &tapped))
					if errs := browser.ConsoleErrors(); len(errs) > 0 {
						t.Errorf("the page's console errors after a tap: %q", errs)
					}
					if len(tapped) != 1 || tapped[0] != got.Tappables[0].Target {
						t.Errorf("a tap on %q gave ctx.tap %v", got.Tappables[0].Target, tapped)
					}
				}
			})
		}
	}
}

func containsString(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
