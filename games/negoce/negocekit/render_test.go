package negocekit

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
	"comptoir/internal/browsertest"
)

// harness is a page with the dashboard's style sheets and this renderer,
// and render(), which calls it as app.js does with a ctx whose tap() is
// recorded in window.taps, lays board, side and truth out one below the
// other and returns what the test checks.
const harness = `<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/style.css"><link rel="stylesheet" href="/cards.css"></head>
<body><main id="out"></main>
<script src="/h.js"></script>
<script>
window.I18N = {fr: {players: "Joueurs"}, en: {players: "Players"}};
window.taps = [];
function render(view, frame, actions, tv, lang) {
  const t = (k) => I18N[lang][k] || I18N.en[k] || k;
  const names = ["Anna", "Bruno", "Chloé", "David"];
  const ctx = {h, t, lang, tv, actions, playerName: (s) => names[s], tap: (x) => window.taps.push(x), act: () => {}, say: (x) => x[lang]};
  const out = document.getElementById("out");
  out.replaceChildren();
  const r = window.RENDERERS.negoce(view, frame, ctx);
  for (const k of ["board", "side", "truth"]) if (r[k]) out.append(h("section", {id: "pane-" + k}, r[k]));
  return {
    keys: Object.keys(r).sort(), truth: r.truth !== null, text: document.body.innerText,
    targets: Array.from(document.querySelectorAll(".tappable[data-target]")).map((e) => e.dataset.target),
    untagged: document.querySelectorAll(".tappable:not([data-target]), [data-target]:not(.tappable)").length,
    small: Array.from(document.querySelectorAll(".tappable")).filter((e) => { const b = e.getBoundingClientRect(); return b.height < 44 || b.width < 44; }).length,
    overflow: document.documentElement.scrollWidth - window.innerWidth,
  };
}
</script>
<script src="/negoce.js"></script></body></html>`

type rendered struct {
	Keys     []string `json:"keys"`
	Truth    bool     `json:"truth"`
	Text     string   `json:"text"`
	Targets  []string `json:"targets"`
	Untagged int      `json:"untagged"`
	Small    int      `json:"small"`
	Overflow int      `json:"overflow"`
}

// TestRenderer draws positions of every phase in headless Chromium, on a
// 390 px phone and on a 1280x800 table screen, and checks what the page
// relies on: {board, side, truth}; a card or an offer tappable exactly
// when an action is about it, every card of a good standing for the one
// the actions name; taps reaching ctx.tap; no notation in the text; no
// sideways overflow on the phone; the sale as the table screen's truth.
func TestRenderer(t *testing.T) {
	browsertest.Need(t)
	files := map[string][]byte{"/": []byte(harness), "/h.js": browsertest.HScript(t)}
	js, err := web.ReadFile("negoce.js")
	if err != nil {
		t.Fatal(err)
	}
	files["/negoce.js"] = js
	for _, css := range []string{"style.css", "cards.css"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "..", "dashboard", "web", css))
		if err != nil {
			t.Fatal(err)
		}
		files["/"+css] = b
	}
	srv := browsertest.Serve(t, "", files)
	b := browsertest.Start(t, 60*time.Second)

	bad := notationIn(start(t).Catalog())
	tests := []struct {
		name   string
		lines  []string
		viewer engine.Seat
		tv     bool
		lang   string
		// want: the targets tapped cards carry (each once per card), the
		// text the page must show, whether a truth pane is drawn.
		targets []string
		text    string
		truth   bool
	}{
		{"deal-anna", nil, 0, false, "en", nil, "Each player records the two goods", false},
		{"lay-anna", auction, 0, false, "en", []string{"jade-1", "jade-1", "jade-1", "jade-1", "jewels-1", "jewels-1", "jewels-1", "jewels-1", "contraband"}, "Your hand (9)", false},
		{"lay-bruno", auction, 1, false, "fr", nil, "Votre main (8)", false},
		{"offers-anna", offers, 0, false, "fr", []string{"offer-1", "offer-2", "offer-3", "jade-1", "jade-1", "jade-1", "jade-1", "jewels-1", "jewels-1", "jewels-1", "jewels-1"}, "carte face cachée", false},
		{"offers-bruno", offers, 1, false, "en", []string{"perfume-1", "perfume-1", "perfume-1", "perfume-1", "spices-1", "spices-1", "spices-1", "spices-1"}, "offered", false},
		{"named-anna", named, 0, false, "en", []string{"tea-1"}, "Good asked for: Tea (8)", false},
		{"offers-table", offers, engine.NoSeat, true, "en", nil, "Offers", true},
		{"lay-table", auction, engine.NoSeat, true, "fr", nil, "Ventes", false},
		{"auction-table", opened, engine.NoSeat, true, "en", nil, "Contraband auction", true},
		{"named-table", named, engine.NoSeat, true, "fr", nil, "Cartes montrées", true},
		{"offers-staff", offers, engine.Staff, false, "en", nil, "Every hand (staff)", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := script(t, tt.lines)
			view, _ := json.Marshal(s.View(tt.viewer))
			acts := []byte("[]")
			if tt.viewer >= 0 {
				acts, _ = json.Marshal(play.Actions(s, tt.viewer))
			}
			role := map[engine.Seat]string{engine.NoSeat: "table", engine.Staff: "staff"}[tt.viewer]
			if role == "" {
				role = "seat"
			}
			frame, _ := json.Marshal(map[string]any{"role": role, "seat": tt.viewer})
			w, hgt := int64(390), int64(844)
			if tt.tv {
				w, hgt = 1280, 800
			}
			var got rendered
			b.Load(t, srv.URL+"/", w, hgt)
			b.Run(t, chromedp.Evaluate(`render(`+string(view)+`, `+string(frame)+`, `+string(acts)+`, `+jsBool(tt.tv)+`, "`+tt.lang+`")`, &got))
			b.Screenshot(t, "negoce-renderer-"+tt.name)
			if errs := b.ConsoleErrors(); len(errs) > 0 {
				t.Errorf("the page's console errors: %q", errs)
			}
			if want := []string{"board", "side", "truth"}; !slices.Equal(got.Keys, want) {
				t.Errorf("the renderer returns %v, want %v", got.Keys, want)
			}
			if got.Truth != tt.truth {
				t.Errorf("truth drawn: %v, want %v", got.Truth, tt.truth)
			}
			slices.Sort(got.Targets)
			want := slices.Clone(tt.targets)
			slices.Sort(want)
			if !slices.Equal(got.Targets, want) {
				t.Errorf("tappable targets %v, want %v", got.Targets, want)
			}
			if got.Untagged != 0 || got.Small != 0 {
				t.Errorf("%d tappable elements without a target or targets not tappable, %d smaller than 44 px", got.Untagged, got.Small)
			}
			if !strings.Contains(got.Text, tt.text) {
				t.Errorf("the page does not say %q:\n%s", tt.text, got.Text)
			}
			if m := bad.FindString(got.Text); m != "" {
				t.Errorf("the page shows notation %q:\n%s", m, got.Text)
			}
			if got.Overflow > 0 {
				t.Errorf("the page is %d px wider than the screen", got.Overflow)
			}
		})
	}
	// A tap on the third Jewels card of Anna's hand opens the actions
	// about the Jewels card they name.
	s := script(t, auction)
	view, _ := json.Marshal(s.View(0))
	acts, _ := json.Marshal(play.Actions(s, 0))
	var taps []string
	b.Run(t, chromedp.Navigate(srv.URL+"/"),
		chromedp.Evaluate(`render(`+string(view)+`, {"role":"seat","seat":0}, `+string(acts)+`, false, "en")`, nil),
		chromedp.Click(`#ng-hand li[data-card="jewels-3"]`, chromedp.ByQuery),
		chromedp.Evaluate(`window.taps`, &taps))
	if errs := b.ConsoleErrors(); len(errs) > 0 {
		t.Errorf("the page's console errors after a tap: %q", errs)
	}
	if !slices.Equal(taps, []string{"jewels-1"}) {
		t.Errorf("tapping jewels-3 called tap(%v), want tap(jewels-1)", taps)
	}
}

func jsBool(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
