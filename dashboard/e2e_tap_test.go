package dashboard

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/games"
	"comptoir/games/kit"
	"comptoir/games/negoce"
	"comptoir/games/tally"
	"comptoir/table"
)

// The tap-only browser tests (issue 16): every game is played from the
// phones by tapping only, as a first-time player would: the buttons of
// the prompt (data-action), the board's squares and the hand's cards
// (data-target), the fields of a sheet and the proposals' answers. No
// typed command, no card reader, no camera. On every page after every
// tap: no sideways overflow, no notation, every tap target at least 44
// px. The table's screen at 1280x800 shows its key panes without
// scrolling. Screenshots go to $COMPTOIR_SCREENSHOTS (default: a
// temporary directory).

// tapSetups are the players of each game's tap test.
var tapSetups = map[string]engine.Setup{
	"tally":    {Players: []string{"Anna", "Bruno"}},
	"genoa":    {Variant: "alea-2001", Players: []string{"Anna", "Bruno", "Chloé"}},
	"negoce":   {Players: []string{"Anna", "Bruno", "Chloé", "David"}},
	"dschunke": {Players: []string{"Anna", "Bruno", "Chloé", "David"}},
}

// tapRounds is the turn counter of a game whose BG Stats count no
// rounds, for its tap test, which taps until it moves: Négoce 2 has no
// rounds and a game of random taps seldom ends, but each sale is a turn
// (the seller's), after the deal and the auction.
var tapRounds = map[string]func(engine.State) int{
	"negoce": func(s engine.State) int { return s.View(engine.NoSeat).(negoce.View).Sales },
}

// maxTaps bounds a game's tap test when its round counter does not move.
const maxTaps = 240

// pageCheckJS reports what is wrong on a page: sideways overflow, the
// notation in its text or fields, tap targets under 44 px.
const pageCheckJS = `(() => {
	const out = { overflow: 0, notation: [], small: [], free: !!document.querySelector("form.command, input[name=line]") };
	if (document.documentElement.scrollWidth > window.innerWidth) out.overflow = document.documentElement.scrollWidth;
	const re = /\b[a-z]+=[^\s]/;
	const m = document.body.innerText.match(re);
	if (m) out.notation.push(m[0]);
	for (const el of document.querySelectorAll("option, input")) {
		if (el.type === "hidden") continue;
		if (re.test(el.value || "")) out.notation.push(el.value);
	}
	out.unlabelled = [];
	for (const el of document.querySelectorAll("select, input, textarea")) {
		if (el.type === "hidden" || el.getBoundingClientRect().width === 0) continue;
		if (!(el.labels && el.labels.length) && !el.getAttribute("aria-label") && !el.getAttribute("aria-labelledby")) out.unlabelled.push(el.tagName + "[name=" + el.name + "]");
	}
	for (const el of document.querySelectorAll("button, select, input")) {
		if (el.type === "hidden") continue;
		const r = el.getBoundingClientRect();
		if (r.width === 0 && r.height === 0) continue;
		if (getComputedStyle(el).visibility === "hidden") continue;
		if (r.width < 43.5 || r.height < 43.5) out.small.push(el.tagName + (el.id ? "#" + el.id : "") + "." + el.className + " " + Math.round(r.width) + "x" + Math.round(r.height) + " " + (el.textContent || "").trim().slice(0, 24));
	}
	return out;
})()`

// contrastJS lists the texts whose contrast with their background is
// under WCAG AA (4.5, or 3 for large text); disabled buttons are exempt.
const contrastJS = `(() => {
	const parse = (c) => { const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return null; const p = m[1].split(",").map(Number); return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 }; };
	const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }; return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
	const canvas = matchMedia("(prefers-color-scheme: dark)").matches ? { r: 18, g: 18, b: 18, a: 1 } : { r: 255, g: 255, b: 255, a: 1 };
	const bg = (el) => { for (let e = el; e; e = e.parentElement) { const c = parse(getComputedStyle(e).backgroundColor); if (c && c.a > 0.5) return c; } return canvas; };
	const bad = [], seen = new Set();
	const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	while (walker.nextNode()) {
		const n = walker.currentNode, el = n.parentElement;
		if (!n.textContent.trim() || seen.has(el)) continue;
		seen.add(el);
		if (el.closest("button:disabled, [hidden]")) continue;
		const r = el.getBoundingClientRect();
		if (r.width === 0 || r.height === 0) continue;
		const cs = getComputedStyle(el);
		if (cs.visibility === "hidden") continue;
		const fg = parse(cs.color), b = bg(el);
		if (!fg) continue;
		const l1 = lum(fg), l2 = lum(b), ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
		const size = parseFloat(cs.fontSize), bold = parseInt(cs.fontWeight, 10) >= 700;
		const need = size >= 24 || bold && size >= 18.66 ? 3 : 4.5;
		if (ratio < need) bad.push(el.tagName + "." + el.className + " " + JSON.stringify(n.textContent.trim().slice(0, 24)) + " " + ratio.toFixed(2) + " < " + need + " (" + cs.color + " on " + JSON.stringify(b) + ")");
	}
	return bad;
})()`

type pageCheck struct {
	Overflow float64  `json:"overflow"`
	Notation []string `json:"notation"`
	Small    []string `json:"small"`
	Free     bool     `json:"free"`
	// Unlabelled are fields without a label.
	Unlabelled []string `json:"unlabelled"`
}

// tapStateJS says what a phone offers to tap now.
const tapStateJS = `(() => {
	const dlg = document.getElementById("dialog");
	if (dlg && !dlg.hidden) return { mode: "dialog", n: 1 };
	if (document.querySelector("#prompt .proposal button.accept")) return { mode: "accept", n: 1 };
	if (document.getElementById("sheet")) return { mode: "sheet", n: 1 };
	const n = document.querySelectorAll("#prompt button.action[data-action], [data-target].tappable").length;
	return { mode: n ? "buttons" : "none", n };
})()`

type tapState struct {
	Mode string `json:"mode"`
	N    int    `json:"n"`
}

// fillSheetJS fills the open sheet's fields by tapping (an option, a
// list's entry, the stepper's + some times), with the choices r, then
// taps its send button. It returns what it did.
const fillSheetJS = `((r) => {
	let i = 0;
	const pick = (n) => r[(i++) % r.length] % n;
	const did = [];
	const fields = () => Array.from(document.querySelectorAll("#sheet .field"));
	for (let k = 0; k < fields().length; k++) {
		const f = fields()[k];
		const opts = f.querySelectorAll("button.option");
		const sel = f.querySelector("select");
		const more = f.querySelector("button.step.more");
		if (opts.length) { const b = opts[pick(opts.length)]; b.click(); did.push("option " + b.textContent.trim()); }
		else if (sel) { const n = sel.options.length - 1; if (n > 0) { sel.selectedIndex = 1 + pick(n); sel.dispatchEvent(new Event("change")); did.push("list " + sel.value); } }
		else if (more) { const times = pick(3); for (let j = 0; j < times; j++) { const b = fields()[k].querySelector("button.step.more"); if (b && !b.disabled) b.click(); } did.push("+" + times); }
	}
	const send = document.getElementById("sheet-send");
	if (!send || send.disabled) return "sheet not ready: " + did.join(", ");
	send.click();
	return "sheet " + did.join(", ");
})`

// tapPage is a page of the test: the table's screen or a phone.
type tapPage struct {
	name string
	ctx  context.Context
}

func (p *tapPage) eval(t *testing.T, js string, out any) {
	t.Helper()
	if err := chromedp.Run(p.ctx, chromedp.Evaluate(js, out)); err != nil {
		t.Fatalf("%s: %v", p.name, err)
	}
}

func (p *tapPage) shot(t *testing.T, dir, name string) {
	t.Helper()
	var png []byte
	if err := chromedp.Run(p.ctx, chromedp.FullScreenshot(&png, 100)); err != nil {
		t.Errorf("%s: screenshot: %v", p.name, err)
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Error(err)
	}
}

// tapTable is a real table (journal, session, dashboard) and a Chromium
// per page.
type tapTable struct {
	t      *testing.T
	ctx    context.Context
	g      kit.Game
	sess   *table.Session
	url    string
	shots  string
	table  *tapPage
	phones []*tapPage
}

func screenshotDir(t *testing.T) string {
	if d := os.Getenv("COMPTOIR_SCREENSHOTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

func newTapTable(t *testing.T, g kit.Game, setup engine.Setup) *tapTable {
	t.Helper()
	setup.Game = g.Name
	r, sess := realTable(t, g.Rules(), setup, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	t.Cleanup(cancel)
	tt := &tapTable{t: t, ctx: ctx, g: g, sess: sess, url: r.http.URL, shots: screenshotDir(t)}
	// A browser of its own for each page, as on separate devices (their
	// own local storage, so their own seat token).
	open := func(name, url, waitFor string, w, h int64) *tapPage {
		c := newChromium(t, ctx)
		if err := chromedp.Run(c, chromedp.EmulateViewport(w, h), chromedp.Navigate(url), chromedp.WaitReady(waitFor, chromedp.ByQuery)); err != nil {
			t.Fatalf("%s opens %s: %v", name, url, err)
		}
		return &tapPage{name: name, ctx: c}
	}
	tt.table = open("table", tt.url+"/", "#prompt", 1280, 800)
	var joins []string
	if err := chromedp.Run(tt.table.ctx, chromedp.Poll(`(() => { const l = Array.from(document.querySelectorAll('a.join')).map(a => a.href); return l.length ? l : false; })()`, &joins, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatal(err)
	}
	if len(joins) != len(setup.Players) {
		t.Fatalf("the table shows %d join links, want %d", len(joins), len(setup.Players))
	}
	for i, link := range joins {
		tt.phones = append(tt.phones, open(fmt.Sprintf("phone-%d", i+1), link, "#prompt", 390, 844))
		var who string
		if err := chromedp.Run(tt.phones[i].ctx, chromedp.Text(`#who`, &who, chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(who, setup.Players[i]) {
			t.Errorf("phone %d shows %q, want %s's seat", i+1, who, setup.Players[i])
		}
	}
	return tt
}

func (tt *tapTable) pages() []*tapPage { return append([]*tapPage{tt.table}, tt.phones...) }

// settle waits until every page shows the session's latest step.
func (tt *tapTable) settle() {
	tt.t.Helper()
	seq := tt.sess.Latest().Seq
	for _, p := range tt.pages() {
		js := fmt.Sprintf(`document.body.dataset.seq === '%d'`, seq)
		if err := chromedp.Run(p.ctx, chromedp.Poll(js, nil, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
			tt.t.Fatalf("%s never showed step %d: %v", p.name, seq, err)
		}
	}
}

// check checks every page: no overflow, no notation, no small target.
func (tt *tapTable) check(when string) {
	tt.t.Helper()
	for _, p := range tt.pages() {
		var c pageCheck
		p.eval(tt.t, pageCheckJS, &c)
		if c.Overflow > 0 {
			tt.t.Errorf("%s, %s: the page is %v px wide, wider than the screen", when, p.name, c.Overflow)
		}
		if len(c.Notation) > 0 {
			tt.t.Errorf("%s, %s: notation shown: %q", when, p.name, c.Notation)
		}
		if len(c.Unlabelled) > 0 {
			tt.t.Errorf("%s, %s: fields without a label: %q", when, p.name, c.Unlabelled)
		}
		if c.Free && p != tt.table {
			tt.t.Errorf("%s, %s: a free command field on a seat's page", when, p.name)
		}
		if len(c.Small) > 0 {
			tt.t.Errorf("%s, %s: tap targets under 44 px: %q", when, p.name, c.Small)
		}
	}
}

// contrast checks every page's text contrast in the light and the dark
// colour scheme.
func (tt *tapTable) contrast(when string) {
	tt.t.Helper()
	for _, scheme := range []string{"light", "dark"} {
		for _, p := range tt.pages() {
			var bad []string
			if err := chromedp.Run(p.ctx,
				emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}),
				chromedp.Sleep(50*time.Millisecond),
				chromedp.Evaluate(contrastJS, &bad)); err != nil {
				tt.t.Fatal(err)
			}
			if len(bad) > 0 {
				tt.t.Errorf("%s, %s, %s scheme: texts under WCAG AA contrast: %q", when, p.name, scheme, bad)
			}
			if scheme == "dark" && when == "the end of the test" {
				p.shot(tt.t, tt.shots, tt.g.Name+"-dark-"+p.name)
			}
		}
	}
	for _, p := range tt.pages() {
		if err := chromedp.Run(p.ctx, emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "light"}})); err != nil {
			tt.t.Fatal(err)
		}
	}
}

// tvFits checks the table's screen at w x h: no scrolling, and the
// prompt, the board, the log and the holdings (when the game draws
// them) inside the screen.
func (tt *tapTable) tvFits(w, h int64) {
	tt.t.Helper()
	var out struct {
		Scroll  bool     `json:"scroll"`
		Outside []string `json:"outside"`
	}
	if err := chromedp.Run(tt.table.ctx, chromedp.EmulateViewport(w, h), chromedp.Sleep(200*time.Millisecond), chromedp.Evaluate(`(() => {
		const out = { scroll: document.scrollingElement.scrollHeight > window.innerHeight + 1 || document.scrollingElement.scrollWidth > window.innerWidth + 1, outside: [] };
		for (const sel of ["#prompt", "#view", "#log", "#side"]) {
			const el = document.querySelector(sel);
			if (!el) { if (sel !== "#side") out.outside.push(sel + " missing"); continue; }
			const r = el.getBoundingClientRect();
			if (r.width < 50 || r.height < 20 || r.top < 0 || r.left < 0 || r.bottom > window.innerHeight + 1 || r.right > window.innerWidth + 1) out.outside.push(sel + " " + JSON.stringify(r));
		}
		return out;
	})()`, &out)); err != nil {
		tt.t.Fatal(err)
	}
	if out.Scroll || len(out.Outside) > 0 {
		tt.t.Errorf("the table's screen at %dx%d: scrolls %v, panes out of the screen: %v", w, h, out.Scroll, out.Outside)
	}
}

// tap makes one tap (or a sheet's taps) on a phone with something to
// tap, chosen with rng; false when no phone has anything.
func (tt *tapTable) tap(rng *rand.Rand) (string, bool) {
	tt.t.Helper()
	type cand struct {
		p  *tapPage
		st tapState
	}
	var cands []cand
	for _, p := range tt.phones {
		var st tapState
		p.eval(tt.t, tapStateJS, &st)
		if st.Mode == "dialog" || st.Mode == "accept" {
			cands = []cand{{p, st}} // answer what is asked first
			break
		}
		if st.Mode != "none" {
			cands = append(cands, cand{p, st})
		}
	}
	if len(cands) == 0 {
		return "", false
	}
	c := cands[rng.IntN(len(cands))]
	var did string
	switch c.st.Mode {
	case "dialog":
		c.p.eval(tt.t, `(document.getElementById("dialog-ok").click(), "confirm")`, &did)
	case "accept":
		c.p.eval(tt.t, `(document.querySelector("#prompt .proposal button.accept").click(), "accept")`, &did)
	case "sheet":
		r := fmt.Sprintf("[%d,%d,%d,%d,%d,%d]", rng.IntN(1000), rng.IntN(1000), rng.IntN(1000), rng.IntN(1000), rng.IntN(1000), rng.IntN(1000))
		c.p.eval(tt.t, fillSheetJS+"("+r+")", &did)
	default:
		i := rng.IntN(c.st.N)
		c.p.eval(tt.t, fmt.Sprintf(`(() => { const b = document.querySelectorAll("#prompt button.action[data-action], [data-target].tappable")[%d]; b.click(); return (b.dataset.action || "target " + b.dataset.target) + ": " + b.textContent.trim().slice(0, 60); })()`, i), &did)
	}
	return c.p.name + " " + did, true
}

func TestBrowserTapOnly(t *testing.T) {
	browserAvailable(t)
	for _, g := range append(games.All(), tally.Game()) {
		t.Run(g.Name, func(t *testing.T) {
			setup, ok := tapSetups[g.Name]
			if !ok {
				setup = engine.Setup{Players: []string{"Anna", "Bruno", "Chloé"}}
			}
			tapGame(t, g, setup)
		})
	}
}

// tapGame plays g from the opening by tapping only, until its round
// counter moves, the game ends or maxTaps.
func tapGame(t *testing.T, g kit.Game, setup engine.Setup) {
	tt := newTapTable(t, g, setup)
	counter := g.BGStats.Rounds
	if counter == nil {
		counter = tapRounds[g.Name]
	}
	rounds := func() int {
		if counter == nil {
			return 0
		}
		return counter(tt.sess.Latest().State)
	}
	start := rounds()
	tt.settle()
	tt.check("the opening")
	tt.contrast("the opening")
	tt.tvFits(1280, 800)
	for _, p := range tt.pages() {
		p.shot(t, tt.shots, g.Name+"-opening-"+p.name)
	}
	rng := rand.New(rand.NewPCG(16, uint64(len(g.Name))))
	taps, idle := 0, 0
	for taps < maxTaps {
		u := tt.sess.Latest()
		if u.State.Result().Over || counter != nil && rounds() > start {
			break
		}
		did, ok := tt.tap(rng)
		if !ok {
			idle++
			if idle > 20 {
				t.Fatalf("after %d taps no phone has anything to tap while the game waits for %v", taps, u.State.Waiting())
			}
			time.Sleep(150 * time.Millisecond)
			continue
		}
		idle = 0
		taps++
		time.Sleep(120 * time.Millisecond)
		tt.settle()
		tt.check(fmt.Sprintf("tap %d (%s)", taps, did))
		if t.Failed() {
			for _, p := range tt.pages() {
				p.shot(t, tt.shots, g.Name+"-failed-"+p.name)
			}
			t.Fatalf("stopped at tap %d: screenshots in %s", taps, tt.shots)
		}
		if taps == 6 {
			for _, p := range tt.pages() {
				p.shot(t, tt.shots, g.Name+"-playing-"+p.name)
			}
		}
	}
	u := tt.sess.Latest()
	if !u.State.Result().Over && (counter == nil || rounds() <= start) {
		t.Errorf("after %d taps the game is neither over nor a round further (round %d)", taps, rounds())
	}
	t.Logf("%s: %d taps, %d steps, round %d → %d; screenshots in %s", g.Name, taps, u.Seq, start, rounds(), tt.shots)
	tt.settle()
	tt.check("the end of the test")
	tt.contrast("the end of the test")
	tt.tvFits(1280, 800)
	tt.tvFits(1920, 1080)
	tt.tvFits(1280, 800)
	// The phones from 360 to 430 px wide.
	for _, w := range []int64{360, 430, 390} {
		for _, p := range tt.phones {
			if err := chromedp.Run(p.ctx, chromedp.EmulateViewport(w, 844), chromedp.Sleep(100*time.Millisecond)); err != nil {
				t.Fatal(err)
			}
		}
		tt.check(fmt.Sprintf("phones %d px wide", w))
	}
	for _, p := range tt.pages() {
		p.shot(t, tt.shots, g.Name+"-after-"+p.name)
	}
}

// TestBrowserConsent: in Tally with the consent option a take of 3 coins
// needs the next player's acceptance: tapped on Anna's phone it moves no
// coin until Bruno taps Accept on his.
func TestBrowserConsent(t *testing.T) {
	browserAvailable(t)
	tt := newTapTable(t, tally.Game(), engine.Setup{Players: []string{"Anna", "Bruno"}, Options: map[string]string{tally.ConsentOption: "yes"}})
	pile := func() int { return tt.sess.Latest().State.(*enginetest.State).Pile }
	anna, bruno := tt.phones[0], tt.phones[1]
	// Anna taps the pile, takes + twice (3 coins) and sends.
	var did string
	anna.eval(t, `(() => { document.querySelector('[data-target="pile"]').click(); return "pile"; })()`, &did)
	if err := chromedp.Run(anna.ctx, chromedp.WaitVisible(`#sheet`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		anna.eval(t, `(() => { document.querySelector('#sheet button.step.more').click(); return "+"; })()`, &did)
	}
	var n string
	anna.eval(t, `document.querySelector('#sheet input[name=n]').value`, &n)
	if n != "3" {
		t.Fatalf("the stepper shows %q after two +, want 3", n)
	}
	tt.check("the sheet")
	anna.shot(t, tt.shots, "consent-sheet-anna")
	anna.eval(t, `(() => { document.getElementById('sheet-send').click(); return "send"; })()`, &did)
	if err := chromedp.Run(bruno.ctx, chromedp.WaitVisible(`#prompt .proposal button.accept`, chromedp.ByQuery)); err != nil {
		t.Fatalf("Bruno's phone shows no proposal to accept: %v", err)
	}
	var status string
	if err := chromedp.Run(anna.ctx, chromedp.WaitVisible(`#proposals .proposal.pending`, chromedp.ByQuery), chromedp.Text(`#proposals .proposal.pending`, &status, chromedp.ByQuery)); err != nil {
		t.Fatalf("Anna's phone does not show her proposal waiting: %v", err)
	}
	time.Sleep(300 * time.Millisecond)
	if pile() != 21 {
		t.Fatalf("the pile is %d before Bruno accepted, want 21", pile())
	}
	tt.check("the proposal")
	anna.shot(t, tt.shots, "consent-proposed-anna")
	bruno.shot(t, tt.shots, "consent-asked-bruno")
	bruno.eval(t, `(() => { document.querySelector('#prompt .proposal button.accept').click(); return "accept"; })()`, &did)
	deadline := time.Now().Add(10 * time.Second)
	for pile() != 18 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if pile() != 18 {
		t.Fatalf("after Bruno accepted the pile is %d, want 18", pile())
	}
	if err := chromedp.Run(anna.ctx, chromedp.WaitVisible(`#proposals .proposal.accepted`, chromedp.ByQuery)); err != nil {
		t.Errorf("Anna's phone does not show the proposal accepted: %v", err)
	}
	tt.settle()
	tt.check("after the acceptance")
	// Take back: Anna's step was played as hers; she may take it back.
	if err := chromedp.Run(anna.ctx, chromedp.WaitVisible(`#take-back`, chromedp.ByQuery), chromedp.Click(`#take-back`, chromedp.ByQuery)); err != nil {
		t.Fatalf("Anna's phone has no take back: %v", err)
	}
	deadline = time.Now().Add(10 * time.Second)
	for pile() != 21 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if pile() != 21 {
		t.Errorf("after Anna took back the pile is %d, want 21", pile())
	}
	tt.settle()
	var log string
	tt.table.eval(t, `document.querySelector('#log').innerText`, &log)
	if !strings.Contains(log, "Anna") || !(strings.Contains(log, "took back") || strings.Contains(log, "reprend")) {
		t.Errorf("the table's log does not tell Anna's take back: %q", log)
	}
	tt.table.shot(t, tt.shots, "consent-table")

	// Anna takes 1 coin (no consent needed).
	anna.eval(t, `(() => { document.querySelector('[data-target="pile"]').click(); return "pile"; })()`, &did)
	if err := chromedp.Run(anna.ctx, chromedp.WaitVisible(`#sheet-send`, chromedp.ByQuery), chromedp.Click(`#sheet-send`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	deadline = time.Now().Add(10 * time.Second)
	for pile() != 20 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	// The staff page: the undo says which step it undoes and asks; End
	// asks too. Both cancelled: nothing changes.
	staff := &tapPage{name: "staff", ctx: newChromium(t, tt.ctx)}
	var text string
	if err := chromedp.Run(staff.ctx, chromedp.EmulateViewport(390, 844), chromedp.Navigate(tt.url+"/staff"),
		chromedp.WaitVisible(`#pin input`, chromedp.ByQuery),
		chromedp.SendKeys(`#pin input`, "2468", chromedp.ByQuery),
		chromedp.Click(`#pin button`, chromedp.ByQuery),
		chromedp.WaitVisible(`#last-step`, chromedp.ByQuery),
		chromedp.Text(`#last-step`, &text, chromedp.ByQuery)); err != nil {
		t.Fatalf("staff page: %v", err)
	}
	if !strings.Contains(text, "Anna takes 1 coin") && !strings.Contains(text, "Anna prend 1 pièce") {
		t.Errorf("the staff's undo shows %q, want Anna's take of 1 coin, the last step", text)
	}
	seq := tt.sess.Latest().Seq
	if err := chromedp.Run(staff.ctx,
		chromedp.SendKeys(`#staff form:first-of-type input[name=reason]`, "test", chromedp.ByQuery),
		chromedp.Click(`#staff form:first-of-type button[type=submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#dialog-text`, chromedp.ByQuery),
		chromedp.Text(`#dialog-text`, &text, chromedp.ByQuery),
	); err != nil {
		t.Fatalf("staff undo: %v", err)
	}
	if !strings.Contains(text, "Anna") {
		t.Errorf("the undo's confirmation says %q, want the step it undoes", text)
	}
	staff.shot(t, tt.shots, "staff-undo-confirm")
	if err := chromedp.Run(staff.ctx, chromedp.Click(`#dialog-cancel`, chromedp.ByQuery), chromedp.WaitNotVisible(`#dialog`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	var ended bool
	if err := chromedp.Run(staff.ctx, chromedp.Evaluate(`(() => {
		const f = Array.from(document.querySelectorAll("#staff form")).find((f) => f.querySelector("h3").textContent === T("end"));
		f.querySelector("input[name=reason]").value = "test"; f.requestSubmit(); return true; })()`, &ended),
		chromedp.WaitVisible(`#dialog-text`, chromedp.ByQuery),
		chromedp.Click(`#dialog-cancel`, chromedp.ByQuery),
		chromedp.Sleep(300*time.Millisecond)); err != nil {
		t.Fatalf("staff end: %v", err)
	}
	if u := tt.sess.Latest(); u.Seq != seq || u.Outcome != "" {
		t.Errorf("after the cancelled undo and end: step %d outcome %q, want step %d and the game running", u.Seq, u.Outcome, seq)
	}

	// The older tests' way to play a line on a page in words: Bruno
	// takes 2 coins by the taps wordsTap finds.
	js, ok := wordsTap(tt.g, tt.sess.Latest().State, 1, enginetest.Take{N: 2})
	if !ok {
		t.Fatal("wordsTap finds no action of Bruno's for take n=2")
	}
	if err := chromedp.Run(bruno.ctx, chromedp.Poll(`(() => {`+js+`})()`, nil, chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		t.Fatal(err)
	}
	deadline = time.Now().Add(10 * time.Second)
	for pile() != 18 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if pile() != 18 {
		t.Errorf("after Bruno's take of 2 by wordsTap the pile is %d, want 18", pile())
	}
}

// wordsTap is the JavaScript that plays a line of the notation on a seat's
// page played in words (kit.Play): the taps on the button of the action
// whose command it is and on its sheet's fields, found on the server's
// side by findAction. It returns false while the page is not ready. The
// older browser tests click a line's button (data-line) through it once
// their game has its Play.
func wordsTap(k kit.Game, st engine.State, seat engine.Seat, cmd engine.Command) (string, bool) {
	a, values, ok := findAction(k, st, seat, cmd)
	if !ok {
		return "", false
	}
	id, _ := json.Marshal(a.ID)
	vals, _ := json.Marshal(values)
	return `const id = ` + string(id) + `, vals = ` + string(vals) + `;
		const b = Array.from(document.querySelectorAll("#prompt button.action[data-action]")).find((x) => x.dataset.action === id);
		if (!b) return false;
		b.click();
		if (document.getElementById("sheet")) {
			for (const [k, v] of Object.entries(vals)) {
				const opt = Array.from(document.querySelectorAll("#sheet button.option")).find((x) => x.dataset.value === v && x.closest(".field").querySelector("input[type=hidden]").name === k);
				if (opt) { opt.click(); continue; }
				const el = document.querySelector("#sheet [name='" + k + "']");
				if (!el) throw new Error("no field " + k);
				el.value = v;
				el.dispatchEvent(new Event(el.tagName === "SELECT" ? "change" : "input"));
			}
			document.getElementById("sheet-send").click();
		}
		const ok = document.getElementById("dialog-ok");
		if (ok && !document.getElementById("dialog").hidden) ok.click();
		return true;`, true
}

// findAction returns seat's action and the fields' values whose command
// is cmd, trying every value of its fields (a few thousand at most).
func findAction(k kit.Game, st engine.State, seat engine.Seat, cmd engine.Command) (kit.Action, map[string]string, bool) {
	if k.Play == nil || k.Play.Actions == nil {
		return kit.Action{}, nil, false
	}
	for _, a := range k.Play.Actions(st, seat) {
		combos := []map[string]string{{}}
		for _, f := range a.Fields {
			var vals []string
			if len(f.Options) > 0 {
				for _, o := range f.Options {
					vals = append(vals, o.Value)
				}
			} else {
				for n := f.Min; n <= f.Max; n++ {
					vals = append(vals, strconv.Itoa(n))
				}
			}
			var next []map[string]string
			for _, c := range combos {
				for _, v := range vals {
					m := maps.Clone(c)
					m[f.Key] = v
					next = append(next, m)
				}
			}
			if combos = next; len(combos) > 20000 {
				break
			}
		}
		for _, values := range combos {
			if c, err := a.Build(values); err == nil && reflect.DeepEqual(c, cmd) {
				return a, values, true
			}
		}
	}
	return kit.Action{}, nil, false
}
