package dashboard

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"comptoir/engine"
	"comptoir/input"
	"comptoir/internal/browsertest"
	"comptoir/table"
)

// cardTable is the harness of the card games' browser tests, the same as
// TestBrowserGenoaTurn's: a real table session on a real journal, the
// dashboard over it, and headless Chromium browsers each with a profile of
// its own (the table's screen, one per phone), every one of them recording
// each websocket frame it receives. Card stickers are enrolled as
// "C-<card id>".
type cardTable struct {
	t      *testing.T
	ctx    context.Context
	dir    string
	sess   *table.Session
	setup  engine.Setup
	codec  *engine.Codec
	inputs chan input.Event
	url    string
	shots  string
}

// screen is one browser: the table's screen or a phone.
type screen struct {
	name string
	ctx  context.Context
	mu   sync.Mutex
	raw  []string // every websocket frame received, in order
}

// frames returns the frames received so far.
func (s *screen) frames() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.raw...)
}

// browserAvailable skips the test without Chromium (fails on CI) or with
// -short.
func browserAvailable(t *testing.T) {
	t.Helper()
	browsertest.Need(t)
}

func newCardTable(t *testing.T, rules engine.Rules, setup engine.Setup, cards []string) *cardTable {
	t.Helper()
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	tags := map[string]table.Target{}
	for _, id := range cards {
		tags["C-"+id] = table.Target{Kind: "card", ID: id}
	}
	store, sess := newSession(t, dir, rules, setup, func(o *table.Opts) {
		o.Tags = func(uid string) (table.Target, bool) { tg, ok := tags[uid]; return tg, ok }
	})
	ct := &cardTable{t: t, ctx: ctx, dir: dir, sess: sess, setup: setup, codec: rules.Codec(), inputs: make(chan input.Event), shots: t.ArtifactDir()}
	ct.url = serveTable(t, ctx, sess, ct.inputs, store, dir)
	return ct
}

// open starts a browser of its own on path and records its frames.
func (ct *cardTable) open(name, url string, waitFor string) *screen {
	ct.t.Helper()
	c := newChromium(ct.t, ct.ctx)
	s := &screen{name: name, ctx: c}
	chromedp.ListenTarget(c, func(ev any) {
		if e, ok := ev.(*network.EventWebSocketFrameReceived); ok {
			s.mu.Lock()
			s.raw = append(s.raw, e.Response.PayloadData)
			s.mu.Unlock()
		}
	})
	if err := chromedp.Run(c, network.Enable(), chromedp.Navigate(url), chromedp.WaitVisible(waitFor, chromedp.ByQuery)); err != nil {
		ct.t.Fatalf("%s opens %s: %v", name, url, err)
	}
	return s
}

// join opens the table's screen, then a phone per seat through the QR
// codes' join links; it checks each phone holds its seat.
func (ct *cardTable) join(gameClass string) (*screen, []*screen) {
	ct.t.Helper()
	tbl := ct.open("table", ct.url+"/", `.qr img`)
	var joins []string
	if err := chromedp.Run(tbl.ctx, chromedp.Evaluate(`Array.from(document.querySelectorAll('a.join')).map(a => a.href)`, &joins)); err != nil {
		ct.t.Fatal(err)
	}
	if len(joins) != len(ct.setup.Players) {
		ct.t.Fatalf("the table shows %d join links, want %d", len(joins), len(ct.setup.Players))
	}
	phones := make([]*screen, len(joins))
	for i, link := range joins {
		p := ct.open(fmt.Sprintf("phone-%d", i+1), link, "div."+gameClass)
		var who string
		if err := chromedp.Run(p.ctx, chromedp.Text(`#who`, &who, chromedp.ByQuery)); err != nil {
			ct.t.Fatal(err)
		}
		if !strings.Contains(who, ct.setup.Players[i]) {
			ct.t.Errorf("phone %d shows %q, want %s's seat", i+1, who, ct.setup.Players[i])
		}
		phones[i] = p
	}
	return tbl, phones
}

// tap lays a card on the reader and waits for the session to play it.
func (ct *cardTable) tap(card string) {
	ct.t.Helper()
	before := ct.sess.Latest().Seq
	ct.inputs <- input.TagTapped{At: time.Now(), UID: "C-" + card}
	ct.waitSeq(before+1, "the scan of "+card)
}

// submit plays a command from a seat straight to the session (steps the
// test does not play through a page).
func (ct *cardTable) submit(seat engine.Seat, line string) {
	ct.t.Helper()
	cmd, err := ct.codec.ParseCommand(line, ct.setup.Players)
	if err != nil {
		ct.t.Fatalf("%s: %v", line, err)
	}
	if err := ct.sess.Submit(ct.ctx, engine.Action{By: seat, Cmd: cmd}); err != nil {
		ct.t.Fatalf("%s: %s: %v", ct.setup.Players[seat], line, err)
	}
}

// waitSeq waits until the session has played step seq.
func (ct *cardTable) waitSeq(seq int64, what string) {
	ct.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for ct.sess.Latest().Seq < seq {
		if time.Now().After(deadline) {
			u := ct.sess.Latest()
			ct.t.Fatalf("%s: the game is at step %d, want %d (refusal %+v)", what, u.Seq, seq, u.Refusal)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// click clicks a listed action's button on a phone and waits for the step.
func (ct *cardTable) click(p *screen, line string) {
	ct.t.Helper()
	sel, _ := json.Marshal(fmt.Sprintf(`button.action[data-line=%q]`, line))
	body := `const b = document.querySelector(` + string(sel) + `); if (!b) return false; b.click(); return true;`
	// A game played in words (kit.Play) has no line's button on a seat's
	// page: the line is played by tapping its action and its fields.
	var seat int
	if k := ct.sess.Kit(); k.Play != nil {
		if _, err := fmt.Sscanf(p.name, "phone-%d", &seat); err == nil {
			cmd, err := ct.codec.ParseCommand(line, ct.setup.Players)
			if err != nil {
				ct.t.Fatalf("%s: %v", line, err)
			}
			js, ok := wordsTap(k, ct.sess.Latest().State, engine.Seat(seat-1), cmd)
			if !ok {
				ct.t.Fatalf("%s: no action of %s's page plays %s", p.name, ct.setup.Players[seat-1], line)
			}
			body = js
		}
	}
	ct.act(p, line, body)
}

// act runs body (a function body returning false while the page is not
// ready) in the page as one task, so that a frame re-rendering the page
// between two steps cannot lose a field or stale a node, then waits for
// the session's next step.
func (ct *cardTable) act(p *screen, what, body string) {
	ct.t.Helper()
	before := ct.sess.Latest().Seq
	if err := chromedp.Run(p.ctx, chromedp.Poll(`(() => {`+body+`})()`, nil, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		ct.t.Fatalf("%s: %s: %v", p.name, what, err)
	}
	ct.waitSeq(before+1, p.name+": "+what)
}

// settle waits until every screen shows the session's latest step.
func (ct *cardTable) settle(screens ...*screen) {
	ct.t.Helper()
	seq := ct.sess.Latest().Seq
	for _, s := range screens {
		js := fmt.Sprintf(`document.body.dataset.seq === '%d'`, seq)
		if err := chromedp.Run(s.ctx, chromedp.Poll(js, nil, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
			ct.t.Fatalf("%s never showed step %d: %v", s.name, seq, err)
		}
	}
}

// fitsScreen checks that nothing on the page is wider than the phone's
// screen (a wide table scrolls in its .scroll box).
func (ct *cardTable) fitsScreen(s *screen) {
	ct.t.Helper()
	var wide []string
	if err := chromedp.Run(s.ctx, chromedp.Evaluate(`(() => { const W = document.documentElement.clientWidth;
		return Array.from(document.querySelectorAll('*')).filter(e => e.getBoundingClientRect().right > W + 1 && !e.closest('.scroll')).map(e => e.tagName + '.' + e.className); })()`, &wide)); err != nil {
		ct.t.Fatal(err)
	}
	if len(wide) > 0 {
		ct.t.Errorf("%s: elements wider than the screen: %v", s.name, wide)
	}
}

// french switches a screen to French (the language toggle) and checks the
// renderer's texts changed with it.
func (ct *cardTable) french(s *screen, sel string) {
	ct.t.Helper()
	var lang, before, after string
	if err := chromedp.Run(s.ctx, chromedp.Evaluate(`document.documentElement.lang`, &lang), chromedp.Text(sel, &before, chromedp.ByQuery)); err != nil {
		ct.t.Fatal(err)
	}
	if lang == "fr" {
		return
	}
	if err := chromedp.Run(s.ctx, chromedp.Click(`#lang`, chromedp.ByQuery), chromedp.Text(sel, &after, chromedp.ByQuery)); err != nil {
		ct.t.Fatal(err)
	}
	if before == after || after == "" {
		ct.t.Errorf("%s: the language toggle left %q as %q", s.name, before, after)
	}
}

// text is the visible text of a screen's page.
func (ct *cardTable) text(s *screen) string {
	ct.t.Helper()
	var body string
	if err := chromedp.Run(s.ctx, chromedp.Text(`body`, &body, chromedp.ByQuery)); err != nil {
		ct.t.Fatal(err)
	}
	return body
}

// shot saves a screenshot of a screen in the test's artifact directory.
func (ct *cardTable) shot(s *screen, name string) {
	ct.t.Helper()
	var png []byte
	if err := chromedp.Run(s.ctx, chromedp.FullScreenshot(&png, 100)); err != nil {
		ct.t.Errorf("screenshot %s: %v", name, err)
		return
	}
	if err := os.WriteFile(filepath.Join(ct.shots, name), png, 0o644); err != nil {
		ct.t.Error(err)
	}
}

// stateFrame is the part of a state frame the card tests read.
type stateFrame struct {
	Type  string          `json:"type"`
	Seq   int64           `json:"seq"`
	Role  string          `json:"role"`
	Seat  *engine.Seat    `json:"seat"`
	View  json.RawMessage `json:"view"`
	Legal json.RawMessage `json:"legal"`
}

// publicPart is a state frame's text without the seat's own parts: its
// listed actions and, in the view, the key mine (its secrets), so that
// what remains is what the seat was told of the others.
func publicPart(raw string, mine string) (stateFrame, string, bool) {
	var f stateFrame
	if json.Unmarshal([]byte(raw), &f) != nil || f.Type != "state" {
		return f, "", false
	}
	var all map[string]any
	json.Unmarshal([]byte(raw), &all)
	delete(all, "legal")
	if v, ok := all["view"].(map[string]any); ok && mine != "" {
		delete(v, mine)
	}
	rest, _ := json.Marshal(all)
	return f, string(rest), true
}
