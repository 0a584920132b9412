package dashboard

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gorilla/websocket"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/games"
	"comptoir/games/kit"
	"comptoir/games/tally"
	"comptoir/input"
	"comptoir/journal"
	"comptoir/table"
)

// checkLeaks fails the test if goroutines it started are still running
// ten seconds after it ended. Call it first.
func checkLeaks(t testing.TB) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		deadline := time.Now().Add(10 * time.Second)
		for runtime.NumGoroutine() > before {
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<16)
				buf = buf[:runtime.Stack(buf, true)]
				t.Errorf("goroutine leak: %d running after the test, %d before\n%s", runtime.NumGoroutine(), before, buf)
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	})
}

// memSession is a session in memory for the dashboard's unit tests: it
// plays the engine's rules with the same contract as the table session
// (coalescing updates, refusals published). The end-to-end tests use the
// real table session.
type memSession struct {
	rules engine.Rules
	kit   kit.Game

	mu      sync.Mutex
	state   engine.State           // guarded by mu
	seq     int64                  // guarded by mu
	log     []LogLine              // guarded by mu
	refusal *table.Refused         // guarded by mu
	subs    map[chan Update]bool   // guarded by mu
	staff   []table.StaffRequest   // guarded by mu
	history map[int64]engine.State // state after each step; guarded by mu
	actions []engine.Action        // guarded by mu
	// named are the words of every command each seat submitted, accepted
	// or not (the leak tests' oracle: a seat knows what it wrote); guarded
	// by mu.
	named map[engine.Seat]map[string]bool
}

func newMemSession(t testing.TB, rules engine.Rules, setup engine.Setup) *memSession {
	t.Helper()
	st, err := rules.Start(setup)
	if err != nil {
		t.Fatal(err)
	}
	k, err := games.Find(testGames(), rules.Name())
	if err != nil {
		t.Fatal(err)
	}
	return &memSession{rules: rules, kit: k, state: st, subs: map[chan Update]bool{}, history: map[int64]engine.State{0: st}}
}

func (m *memSession) Kit() kit.Game { return m.kit }

func (m *memSession) Submit(ctx context.Context, a engine.Action) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.named == nil {
		m.named = map[engine.Seat]map[string]bool{}
	}
	if m.named[a.By] == nil {
		m.named[a.By] = map[string]bool{}
	}
	for _, w := range strings.FieldsFunc(m.rules.Codec().FormatCommand(a.Cmd, m.state.Setup().Players), func(r rune) bool { return r == ' ' || r == '=' || r == ',' || r == ':' }) {
		m.named[a.By][w] = true
	}
	next, evs, err := engine.Play(m.state, a)
	if err != nil {
		if r, ok := engine.AsRefusal(err); ok {
			m.refusal = table.NewRefused(a.By, r, m.seq)
			m.publishLocked()
		}
		return err
	}
	m.seq++
	for _, ev := range evs {
		if d, ok := m.state.(engine.Describer); ok {
			m.log = append(m.log, LogLine{Seq: m.seq, FR: d.Describe(ev, "fr"), EN: d.Describe(ev, "en")})
		}
	}
	m.state, m.refusal = next, nil
	m.history[m.seq] = next
	m.actions = append(m.actions, a)
	m.publishLocked()
	return nil
}

func (m *memSession) Staff(ctx context.Context, r table.StaffRequest) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.staff = append(m.staff, r)
	return nil
}

// TakeBack is refused: the memory session keeps no journal (the table
// session's is tested in package table and by the browser tests).
func (m *memSession) TakeBack(ctx context.Context, seat engine.Seat) error {
	return engine.Refuse(table.ErrNoTakeBack, "", "")
}

// CorrectDice is refused: the memory session has no dice camera.
func (m *memSession) CorrectDice(ctx context.Context, seat engine.Seat, seq int64, blue, red int) error {
	return engine.Refuse(table.ErrMisreadLate, "", "")
}

func (m *memSession) Record() ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var b strings.Builder
	for _, a := range m.actions {
		b.WriteString(m.rules.Codec().FormatCommand(a.Cmd, m.state.Setup().Players) + "\n")
	}
	return []byte(b.String()), nil
}

func (m *memSession) Subscribe(ctx context.Context) <-chan Update {
	ch := make(chan Update, 1)
	m.mu.Lock()
	m.subs[ch] = true
	ch <- m.updateLocked()
	m.mu.Unlock()
	go func() {
		<-ctx.Done()
		m.mu.Lock()
		delete(m.subs, ch)
		close(ch)
		m.mu.Unlock()
	}()
	return ch
}

func (m *memSession) updateLocked() Update {
	return Update{Update: table.Update{Seq: m.seq, State: m.state, Rules: m.rules, Codec: m.rules.Codec(),
		Log: append([]LogLine(nil), m.log...), Refusal: m.refusal}}
}

func (m *memSession) publishLocked() {
	u := m.updateLocked()
	for ch := range m.subs {
		select {
		case <-ch:
		default:
		}
		ch <- u
	}
}

func (m *memSession) current() (engine.State, int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state, m.seq
}

// testGames are the games the tests play: the production list and Tally.
func testGames() []kit.Game { return append(games.All(), tally.Game(), countKit()) }

// kitOf is the kit of the rules' game among testGames.
func kitOf(t testing.TB, rules engine.Rules) kit.Game {
	t.Helper()
	k, err := games.Find(testGames(), rules.Name())
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// rig is a dashboard over a session, served by httptest.
type rig struct {
	t    testing.TB
	srv  *Server
	http *httptest.Server
	stop func()
}

func newRig(t testing.TB, sess Session, opts Opts) *rig {
	t.Helper()
	srv, err := New(sess, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	hs := httptest.NewServer(srv.Handler())
	r := &rig{t: t, srv: srv, http: hs}
	var once sync.Once
	r.stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Run: %v", err)
			}
			hs.Close()
		})
	}
	t.Cleanup(r.stop)
	// Wait for the hub to have the session's first update.
	deadline := time.Now().Add(5 * time.Second)
	for srv.latestUpdate() == nil {
		if time.Now().After(deadline) {
			t.Fatal("the dashboard never got the session's first update")
		}
		time.Sleep(time.Millisecond)
	}
	return r
}

func tallyRig(t testing.TB, players ...string) (*rig, *memSession) {
	sess := newMemSession(t, enginetest.Rules{}, engine.Setup{Game: "tally", Players: players})
	opts := DefaultOpts
	opts.StaffPIN = "2468"
	return newRig(t, sess, opts), sess
}

// join takes a seat (1-based) through the join API, as the join page does.
func (r *rig) join(seat int) string {
	r.t.Helper()
	code := r.srv.tok.code(engine.Seat(seat - 1))
	req, _ := http.NewRequest("POST", r.http.URL+"/api/join", strings.NewReader(`{"seat":`+itoa(seat)+`,"code":"`+code+`"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", r.http.URL) // as the join page, from the table's own origin
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Token string `json:"token"`
		EN    string `json:"en"`
	}
	json.NewDecoder(resp.Body).Decode(&body)
	if resp.StatusCode != http.StatusOK {
		r.t.Fatalf("join seat %d: %s %s", seat, resp.Status, body.EN)
	}
	return body.Token
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// nonce is a new staff message nonce.
func nonce() string { return randomHex(16) }

// qrPath is the path of seat's QR code (1-based) as the table's screen
// asks for it: with the join link it was given.
func (r *rig) qrPath(seat int) string {
	return "/qr/" + itoa(seat) + ".png?c=" + url.QueryEscape(joinPath(engine.Seat(seat-1), r.srv.tok.code(engine.Seat(seat-1))))
}

// wsClient is a test phone: it reads every message into a channel.
type wsClient struct {
	t    testing.TB
	conn *websocket.Conn
	in   chan map[string]any
	raw  chan []byte
	done chan struct{}
	// states are frames reply read while it waited, for next to return.
	states []map[string]any
}

func (r *rig) dial() *wsClient {
	r.t.Helper()
	url := "ws" + strings.TrimPrefix(r.http.URL, "http") + "/ws"
	h := http.Header{"Origin": {r.http.URL}}
	conn, _, err := websocket.DefaultDialer.Dial(url, h)
	if err != nil {
		r.t.Fatal(err)
	}
	c := &wsClient{t: r.t, conn: conn, in: make(chan map[string]any, 1024), raw: make(chan []byte, 1024), done: make(chan struct{})}
	go func() {
		defer close(c.done)
		defer close(c.in)
		for {
			_, data, err := conn.ReadMessage()
			if err != nil {
				return
			}
			var m map[string]any
			if err := json.Unmarshal(data, &m); err != nil {
				r.t.Errorf("server sent non-JSON %q", data)
				return
			}
			c.raw <- data
			c.in <- m
		}
	}()
	r.t.Cleanup(c.close)
	return c
}

func (c *wsClient) close() {
	c.conn.Close()
	<-c.done
}

func (c *wsClient) send(v any) {
	c.t.Helper()
	var data []byte
	switch v := v.(type) {
	case string:
		data = []byte(v)
	default:
		data, _ = json.Marshal(v)
	}
	if err := c.conn.WriteMessage(websocket.TextMessage, data); err != nil {
		c.t.Fatal(err)
	}
}

var errClosed = errors.New("connection closed")

// next returns the next message of the given type, skipping others.
func (c *wsClient) next(typ string) (map[string]any, error) {
	if typ == "state" && len(c.states) > 0 {
		m := c.states[0]
		c.states = c.states[1:]
		return m, nil
	}
	timeout := time.After(10 * time.Second)
	for {
		select {
		case m, ok := <-c.in:
			if !ok {
				return nil, errClosed
			}
			if m["type"] == typ {
				return m, nil
			}
		case <-timeout:
			return nil, errors.New("timeout waiting for " + typ)
		}
	}
}

func (c *wsClient) must(typ string) map[string]any {
	c.t.Helper()
	m, err := c.next(typ)
	if err != nil {
		c.t.Fatal(err)
	}
	return m
}

// reply waits for the reply to a message (welcome, accepted, refused or
// error); the frames it reads meanwhile are kept for next.
func (c *wsClient) reply() map[string]any {
	c.t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case m, ok := <-c.in:
			if !ok {
				c.t.Fatal(errClosed)
			}
			if m["type"] != "state" {
				return m
			}
			c.states = append(c.states, m)
		case <-timeout:
			c.t.Fatal("timeout waiting for a reply")
		}
	}
}

// stateAt waits for a frame with seq at least seq.
func (c *wsClient) stateAt(seq int64) map[string]any {
	c.t.Helper()
	for {
		m := c.must("state")
		if int64(m["seq"].(float64)) >= seq {
			return m
		}
	}
}

// runSession makes the table session of topts and runs it, without table
// inputs, until stop is called.
func runSession(t *testing.T, topts table.Opts) (sess *table.Session, stop func()) {
	t.Helper()
	sess, err := table.New(topts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); sess.Run(ctx, make(chan input.Event)) }()
	return sess, func() { cancel(); wg.Wait() }
}

// newSession opens the journal dir/table.db, begins a game of rules with
// setup in it and returns a session over that game, with the kit of the
// test games; adjust, when given, changes the session's options first.
// The caller closes the store.
func newSession(t testing.TB, dir string, rules engine.Rules, setup engine.Setup, adjust ...func(*table.Opts)) (*journal.Store, *table.Session) {
	t.Helper()
	store, err := journal.Open(filepath.Join(dir, "table.db"))
	if err != nil {
		t.Fatal(err)
	}
	game, err := store.Begin(rules, setup, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	topts := table.DefaultOpts
	topts.Rules, topts.Game, topts.Store, topts.Kit = rules, game, store, kitOf(t, rules)
	for _, f := range adjust {
		f(&topts)
	}
	sess, err := table.New(topts)
	if err != nil {
		t.Fatal(err)
	}
	return store, sess
}

// drawGenoaHands draws the cards of Genoa's setup for Anna and Bruno
// (four each), after which the game waits for the merchant's dice.
func drawGenoaHands(t *testing.T, ctx context.Context, sess *table.Session, rules engine.Rules, players []string) {
	t.Helper()
	for _, card := range []string{"L01", "S01", "M01", "C01", "L05", "S03", "M02", "C02"} {
		cmd, err := rules.Codec().ParseCommand("draw card="+card, players)
		if err != nil {
			t.Fatal(err)
		}
		if err := sess.Submit(ctx, engine.Action{By: engine.NoSeat, Cmd: cmd}); err != nil {
			t.Fatal(err)
		}
	}
}

// pollPage waits up to 10 s for js to be true in the page c, and fails
// the test with what and the page's HTML if it never is.
func pollPage(t *testing.T, c context.Context, what, js string) {
	t.Helper()
	if err := chromedp.Run(c, chromedp.Poll(js, nil, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		var html string
		chromedp.Run(c, chromedp.OuterHTML(`#app`, &html, chromedp.ByQuery))
		t.Fatalf("%s: %v\n%s", what, err, html)
	}
}

// pageText returns the text of the page's first element matching sel,
// "" if none.
func pageText(c context.Context, sel string) string {
	var s string
	chromedp.Run(c, chromedp.Evaluate(`(document.querySelector(`+jsString(sel)+`)||{}).textContent||""`, &s))
	return s
}

// pageShot saves a screenshot of the page c as name in the test's
// artifact directory (go test -artifacts).
func pageShot(t *testing.T, c context.Context, name string) {
	t.Helper()
	var png []byte
	if err := chromedp.Run(c, chromedp.FullScreenshot(&png, 100)); err != nil {
		t.Errorf("screenshot %s: %v", name, err)
		return
	}
	if err := os.WriteFile(filepath.Join(t.ArtifactDir(), name), png, 0o644); err != nil {
		t.Error(err)
	}
}
