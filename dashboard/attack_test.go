package dashboard

// The attack suite (issue 21): each test attacks a real dashboard served
// on 127.0.0.1 as the daemon serves it (LimitListener, NewHTTPServer) the
// way a client on the café's network would, and fails if the attack
// succeeds. The staff guard's waits run on a fake clock: the attacker
// "waits" by advancing it, so an hour of guessing takes a fraction of a
// second. Figures are printed with t.Logf (go test -v -run TestAttack).

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"math"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/games/genoa"
	"comptoir/hw/clock"
	"comptoir/table"
)

// attackRig is a dashboard served on a real loopback listener.
type attackRig struct {
	t    *testing.T
	srv  *Server
	sess *memSession
	clk  *clock.Fake
	hs   *http.Server
	addr string // host:port
	url  string // http://host:port
}

// attackPIN is the table's staff PIN: a weak four-digit one, to show the
// guard holds even then.
const attackPIN = "2468"

// newAttackRig serves a tally table; tune, if given, changes the HTTP
// server before it serves.
func newAttackRig(t *testing.T, opts Opts, tune ...func(*http.Server)) *attackRig {
	t.Helper()
	sess := newMemSession(t, enginetest.Rules{}, engine.Setup{Game: "tally", Players: []string{"Anna", "Bruno"}})
	clk := clock.NewFake(time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC))
	opts.Clock, opts.StaffPIN = clk, attackPIN
	srv, err := New(sess, opts)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := NewHTTPServer(srv.Handler(), log.New(io.Discard, "", 0))
	for _, f := range tune {
		f(hs)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); srv.Run(ctx) }()
	go func() {
		defer wg.Done()
		hs.Serve(LimitListener(ln, ListenerMaxConns, ListenerMaxConnsPerAddr))
	}()
	t.Cleanup(func() {
		hs.Close()
		cancel()
		wg.Wait()
	})
	for srv.latestUpdate() == nil {
		time.Sleep(time.Millisecond)
	}
	a := &attackRig{t: t, srv: srv, sess: sess, clk: clk, hs: hs, addr: ln.Addr().String()}
	a.url = "http://" + a.addr
	return a
}

// dialFrom opens a websocket from the local address from ("" for any),
// with the table's own Origin.
func (a *attackRig) dialFrom(from string) (*websocket.Conn, error) {
	d := websocket.Dialer{HandshakeTimeout: 10 * time.Second}
	if from != "" {
		nd := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
		d.NetDialContext = nd.DialContext
	}
	conn, _, err := d.Dial("ws://"+a.addr+"/ws", http.Header{"Origin": {a.url}})
	return conn, err
}

// readUntil reads messages until ok says one is the one, for at most 10 s.
func readUntil(t *testing.T, conn *websocket.Conn, ok func(m map[string]any, raw []byte) bool) map[string]any {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	defer conn.SetReadDeadline(time.Time{})
	for {
		_, data, err := conn.ReadMessage()
		if err != nil {
			t.Fatalf("reading: %v", err)
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("non-JSON %q", data)
		}
		if ok(m, data) {
			return m
		}
	}
}

func isReply(m map[string]any, _ []byte) bool { return m["type"] != "state" }

// request sends a request with the table's Origin and returns its status.
func (a *attackRig) request(method, path, body string, header map[string]string) (int, string) {
	a.t.Helper()
	req, err := http.NewRequest(method, a.url+path, strings.NewReader(body))
	if err != nil {
		a.t.Fatal(err)
	}
	req.Header.Set("Origin", a.url)
	for k, v := range header {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestAttackStaffPINGuessing guesses the staff PIN as fast as the table
// lets it for an hour, a new connection for every guess, alternating the
// websocket's staff hello and the record download's header. Before: five
// tries per connection, none counted across connections, no limit on the
// header: a four-digit PIN fell in 0.1 s (10,000 guesses in well under a
// second). After: the guard compares a few, then makes every attempt wait
// longer, across all connections and routes.
func TestAttackStaffPINGuessing(t *testing.T) {
	a := newAttackRig(t, Opts{ScreenAddrs: []string{"127.0.0.2"}}) // the attacker is on 127.0.0.1
	screen, err := a.dialFrom("127.0.0.2")
	if err != nil {
		t.Fatal(err)
	}
	defer screen.Close()
	start := a.clk.Now()
	hour := start.Add(time.Hour)
	compared, locked, guess := 0, 0, 0
	for a.clk.Now().Before(hour) {
		pin := fmt.Sprintf("%04d", 9999-guess) // never the right one within an hour: the guard must hold anyway
		var outcome string
		if guess%2 == 0 {
			conn, err := a.dialFrom("")
			if err != nil {
				t.Fatal(err)
			}
			conn.WriteJSON(Message{Type: msgHello, Role: roleStaff, PIN: pin})
			m := readUntil(t, conn, isReply)
			conn.Close()
			outcome, _ = m["code"].(string)
			if m["type"] == "welcome" {
				t.Fatalf("PIN %s let in", pin)
			}
		} else {
			code, body := a.request("GET", "/download/record", "", map[string]string{StaffPINHeader: pin})
			switch code {
			case http.StatusForbidden:
				outcome = "bad-pin"
			case http.StatusTooManyRequests:
				outcome = "staff-locked"
			default:
				t.Fatalf("record with a wrong PIN: %d %s", code, body)
			}
		}
		switch outcome {
		case "bad-pin":
			compared++
			guess++
		case "staff-locked":
			locked++
			until, _ := a.srv.guard.lock()
			if until.IsZero() {
				t.Fatal("refused as locked, but the guard tells no lockout")
			}
			a.clk.Advance(until.Sub(a.clk.Now())) // the attacker waits, then tries again
		default:
			t.Fatalf("guess %s: reply %q", pin, outcome)
		}
	}
	perHour := compared
	// The next hours: one guess per lockout.
	day := start.Add(24 * time.Hour)
	for a.clk.Now().Before(day) {
		code, _ := a.request("GET", "/download/record", "", map[string]string{StaffPINHeader: "0000"})
		switch code {
		case http.StatusForbidden:
			compared++
		case http.StatusTooManyRequests:
			until, _ := a.srv.guard.lock()
			a.clk.Advance(until.Sub(a.clk.Now()))
		default:
			t.Fatalf("record with a wrong PIN: %d", code)
		}
	}
	perDay := compared
	t.Logf("staff PIN guessing over websocket and HTTP, a new connection per guess: %d guesses compared in the first hour (%d attempts refused as locked), %d in a day; a 4-digit PIN lasts ~%.0f days on average, the generated 16-character secret (80 bits) ~%.0e years",
		perHour, locked, perDay, 5000/float64(perDay), math.Pow(2, 79)/float64(perDay)/365)
	if perHour > 60 || perDay > 200 {
		t.Errorf("%d guesses an hour, %d a day: want at most 60 and 200", perHour, perDay)
	}
	a.request("GET", "/download/record", "", map[string]string{StaffPINHeader: "0000"})
	// During the lockout even the right PIN is not compared: the lock
	// holds across connections and routes.
	if until, _ := a.srv.guard.lock(); until.IsZero() {
		t.Fatalf("no lockout after %d wrong guesses", compared)
	}
	code, _ := a.request("GET", "/download/record", "", map[string]string{StaffPINHeader: attackPIN})
	if code != http.StatusTooManyRequests {
		t.Errorf("the right PIN during the lockout: %d, want 429", code)
	}
	// The table's screen shows the lockout.
	f := readUntil(t, screen, func(m map[string]any, _ []byte) bool { return m["type"] == "state" && m["staff_lock"] != nil })
	if lk := f["staff_lock"].(map[string]any); lk["until"] == nil {
		t.Errorf("the table's frame's staff_lock %v has no end", lk)
	}
	// The table's own screen is not locked out: the staff log in there.
	onScreen, err := a.dialFrom("127.0.0.2")
	if err != nil {
		t.Fatal(err)
	}
	defer onScreen.Close()
	onScreen.WriteJSON(Message{Type: msgHello, Role: roleStaff, PIN: attackPIN})
	if m := readUntil(t, onScreen, isReply); m["type"] != "welcome" {
		t.Errorf("the staff on the table's screen during the lockout: %v, want welcome", m)
	}
	// Elsewhere, once the wait is over, the staff get in.
	for i := 0; i < staffPolicy.Free+1; i++ {
		a.request("GET", "/download/record", "", map[string]string{StaffPINHeader: "0000"})
	}
	until, _ := a.srv.guard.lock()
	a.clk.Advance(until.Sub(a.clk.Now()))
	staff, err := a.dialFrom("")
	if err != nil {
		t.Fatal(err)
	}
	defer staff.Close()
	staff.WriteJSON(Message{Type: msgHello, Role: roleStaff, PIN: attackPIN})
	if m := readUntil(t, staff, isReply); m["type"] != "welcome" {
		t.Errorf("the staff after the lockout: %v, want welcome", m)
	}
}

// TestAttackSeatSniping watches the table's frames and asks for the QR
// codes from a device that is not the table's screen, while a seat is
// freed. Before: every socket that had not joined got the free seats' join
// links, /qr/N drew them for anyone, and a freed seat was taken in 2 ms.
// After: the codes go to the screen only (here 127.0.0.2), /qr/N draws
// only the code its caller has, codes serve once and expire.
func TestAttackSeatSniping(t *testing.T) {
	defer func(p time.Duration) { sweepPeriod = p }(sweepPeriod)
	sweepPeriod = 20 * time.Millisecond // the screen gets a new code soon after one expires
	a := newAttackRig(t, Opts{ScreenAddrs: []string{"127.0.0.2"}})
	screen, err := a.dialFrom("127.0.0.2")
	if err != nil {
		t.Fatal(err)
	}
	defer screen.Close()
	attacker, err := a.dialFrom("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	defer attacker.Close()
	var mu sync.Mutex
	var seen [][]byte
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			_, data, err := attacker.ReadMessage()
			if err != nil {
				return
			}
			mu.Lock()
			seen = append(seen, data)
			mu.Unlock()
		}
	}()
	joinLink := func(seat int) string {
		f := readUntil(t, screen, func(m map[string]any, _ []byte) bool {
			if m["type"] != "state" {
				return false
			}
			p := m["players"].([]any)[seat].(map[string]any)
			return p["join"] != nil
		})
		return f["players"].([]any)[seat].(map[string]any)["join"].(string)
	}
	joinWith := func(link string) (int, string) {
		u, _ := url.Parse(link)
		body := fmt.Sprintf(`{"seat":%s,"code":%q}`, u.Query().Get("seat"), u.Query().Get("code"))
		return a.request("POST", "/api/join", body, nil)
	}
	// Anna joins with the screen's code; it serves once.
	anna := joinLink(0)
	if code, body := joinWith(anna); code != http.StatusOK {
		t.Fatalf("Anna joins: %d %s", code, body)
	}
	if code, _ := joinWith(anna); code == http.StatusOK {
		t.Error("a join code served twice")
	}
	// The staff free Anna's seat; the attacker tries to take it.
	staff, err := a.dialFrom("127.0.0.2")
	if err != nil {
		t.Fatal(err)
	}
	defer staff.Close()
	staff.WriteJSON(Message{Type: msgHello, Role: roleStaff, PIN: attackPIN})
	readUntil(t, staff, isReply)
	one := 1
	staff.WriteJSON(Message{Type: msgStaff, Nonce: nonce(), Action: string(table.StaffReassign), Seat: &one})
	if m := readUntil(t, staff, isReply); m["type"] != "accepted" {
		t.Fatalf("free seat 1: %v", m)
	}
	sniped := 0
	for i := 0; i < 200; i++ {
		if code, _ := joinWith(fmt.Sprintf("/join?seat=1&code=%016x", i)); code == http.StatusOK {
			sniped++
		}
		for _, p := range []string{"/qr/1.png", "/qr/1.png?c=/join%3Fseat%3D1%26code%3D0", "/qr/2.png"} {
			if code, _ := a.request("GET", p, "", nil); code == http.StatusOK {
				t.Fatalf("GET %s from the attacker drew a join code", p)
			}
		}
	}
	if sniped > 0 {
		t.Fatalf("the attacker took the freed seat %d times", sniped)
	}
	// The freed seat has a new code on the screen; Bruno takes it.
	bruno := joinLink(0)
	if bruno == anna {
		t.Error("the freed seat kept its old code")
	}
	// An expired code is refused.
	a.clk.Advance(DefaultJoinCodeTTL + time.Second)
	if code, _ := joinWith(bruno); code != http.StatusForbidden {
		t.Errorf("an expired join code: %d, want 403", code)
	}
	if code, body := joinWith(joinLink(1)); code != http.StatusOK {
		t.Errorf("seat 2 with a fresh code: %d %s", code, body)
	}
	attacker.Close()
	<-done
	mu.Lock()
	defer mu.Unlock()
	for _, data := range seen {
		if strings.Contains(string(data), "code=") || strings.Contains(string(data), `"join"`) {
			t.Fatalf("the attacker's socket got a join code: %s", data)
		}
	}
	t.Logf("seat sniping: %d frames seen by the attacker, 0 join codes; 200 guessed codes and 600 QR requests refused", len(seen))
}

// TestAttackRebindingAndOrigin drives the table as a page of another site
// would after DNS rebinding (Host is the attacker's name) or with a
// forged or missing Origin. Before: no Host check, no Origin accepted.
func TestAttackRebindingAndOrigin(t *testing.T) {
	a := newAttackRig(t, Opts{})
	evil := "http://evil.example:" + strings.Split(a.addr, ":")[1]
	tests := []struct {
		name, method, path string
		header             map[string]string
		want               int
	}{
		{"rebound page", "GET", "/", map[string]string{"Host": "evil.example"}, http.StatusMisdirectedRequest},
		{"rebound record", "GET", "/download/record", map[string]string{"Host": "evil.example", StaffPINHeader: attackPIN}, http.StatusMisdirectedRequest},
		{"rebound game data", "GET", "/api/game", map[string]string{"Host": "evil.example:80"}, http.StatusMisdirectedRequest},
		{"join without Origin", "POST", "/api/join", map[string]string{"Origin": ""}, http.StatusForbidden},
		{"join from another site", "POST", "/api/join", map[string]string{"Origin": evil}, http.StatusForbidden},
		{"join, Origin null", "POST", "/api/join", map[string]string{"Origin": "null"}, http.StatusForbidden},
		{"pair without Origin", "POST", "/api/pair", map[string]string{"Origin": "", StaffPINHeader: attackPIN}, http.StatusForbidden},
		{"pair from another site", "POST", "/api/pair", map[string]string{"Origin": evil, StaffPINHeader: attackPIN}, http.StatusForbidden},
		{"cross-site record", "GET", "/download/record", map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"static listing", "GET", "/static/", nil, http.StatusNotFound},
		{"games listing", "GET", "/static/games/", nil, http.StatusNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, a.url+tt.path, strings.NewReader(`{"seat":1,"code":"x"}`))
			req.Header.Set("Origin", a.url)
			for k, v := range tt.header {
				switch {
				case k == "Host":
					req.Host = v
				case v == "":
					req.Header.Del(k)
				default:
					req.Header.Set(k, v)
				}
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.want {
				t.Errorf("%s %s: %d %q, want %d", tt.method, tt.path, resp.StatusCode, body, tt.want)
			}
			if strings.Contains(string(body), "app.js") {
				t.Errorf("%s: the directory was listed", tt.path)
			}
		})
	}
	for _, ws := range []struct {
		name   string
		header http.Header
		host   string
	}{
		{"websocket without Origin", http.Header{}, ""},
		{"websocket from another site", http.Header{"Origin": {evil}}, ""},
		{"rebound websocket", http.Header{"Origin": {evil}}, "evil.example"},
	} {
		t.Run(ws.name, func(t *testing.T) {
			h := ws.header
			if ws.host != "" {
				h.Set("Host", ws.host)
			}
			conn, resp, err := websocket.DefaultDialer.Dial("ws://"+a.addr+"/ws", h)
			if err == nil {
				conn.Close()
				t.Fatal("websocket accepted")
			}
			if resp == nil || (resp.StatusCode != http.StatusForbidden && resp.StatusCode != http.StatusMisdirectedRequest) {
				t.Errorf("%v: want 403 or 421", resp)
			}
		})
	}
	// The table's own pages still work, by address and by localhost.
	if code, _ := a.request("GET", "/", "", nil); code != http.StatusOK {
		t.Errorf("GET / by address: %d", code)
	}
	if code, _ := a.request("GET", "/", "", map[string]string{"Host": "localhost"}); code != http.StatusOK {
		t.Errorf("GET / as localhost: %d", code)
	}
}

// TestAttackConnectionFlood makes 5,000 connection attempts and keeps
// every one that gets through. Before: 3,000 websockets were accepted
// (memory 20 → 110 MB). After: the listener holds ListenerMaxConnsPerAddr
// from one address, the dashboard DefaultMaxConnsPerAddr websockets.
func TestAttackConnectionFlood(t *testing.T) {
	a := newAttackRig(t, Opts{})
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	const attempts = 5008 // 16 workers × 313
	var (
		mu      sync.Mutex
		held    []*websocket.Conn
		refused int
		wg      sync.WaitGroup
	)
	start := time.Now()
	const workers = 16
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < attempts/workers; i++ {
				conn, err := a.dialFrom("")
				mu.Lock()
				if err != nil {
					refused++
				} else {
					held = append(held, conn)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	open := a.srv.wsLimit.open()
	t.Logf("connection flood: %d attempts in %v, %d websockets held (server counts %d), %d refused; heap %.1f → %.1f MB (client and server in this process), %d goroutines",
		attempts, elapsed.Round(time.Millisecond), len(held), open, refused, float64(before.HeapInuse)/1e6, float64(after.HeapInuse)/1e6, runtime.NumGoroutine())
	if len(held) > DefaultMaxConnsPerAddr || open > DefaultMaxConnsPerAddr {
		t.Errorf("%d websockets held from one address, want at most %d", len(held), DefaultMaxConnsPerAddr)
	}
	if grown := float64(after.HeapInuse) - float64(before.HeapInuse); grown > 30e6 {
		t.Errorf("the flood grew the heap by %.0f MB", grown/1e6)
	}
	for _, c := range held {
		c.Close()
	}
	// Once they are closed, a phone gets in again.
	deadline := time.Now().Add(10 * time.Second)
	for {
		conn, err := a.dialFrom("")
		if err == nil {
			conn.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the flood, no connection: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestAttackSlowAndIdle holds connections open without finishing a
// request: a body sent one byte at a time, and a connection that says
// nothing. Before: held without limit. After: the server's timeouts close
// them (made short here; NewHTTPServer's are checked to be set).
func TestAttackSlowAndIdle(t *testing.T) {
	hs := NewHTTPServer(http.NotFoundHandler(), nil)
	if hs.ReadTimeout == 0 || hs.ReadHeaderTimeout == 0 || hs.WriteTimeout == 0 || hs.IdleTimeout == 0 || hs.MaxHeaderBytes == 0 {
		t.Fatalf("NewHTTPServer leaves a timeout unset: %+v", hs)
	}
	a := newAttackRig(t, Opts{}, func(hs *http.Server) {
		hs.ReadTimeout, hs.ReadHeaderTimeout, hs.IdleTimeout = 300*time.Millisecond, 300*time.Millisecond, 300*time.Millisecond
	})
	closedWithin := func(name string, c net.Conn) {
		t.Helper()
		start := time.Now()
		c.SetReadDeadline(time.Now().Add(3 * time.Second))
		rd := bufio.NewReader(c)
		for {
			if _, err := rd.ReadByte(); err != nil {
				if ne, ok := err.(net.Error); ok && ne.Timeout() {
					t.Errorf("%s: still open after 3 s", name)
				}
				break
			}
		}
		t.Logf("%s: closed by the server after %v", name, time.Since(start).Round(10*time.Millisecond))
	}
	// Slow body.
	c, err := net.Dial("tcp", a.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /api/join HTTP/1.1\r\nHost: %s\r\nOrigin: %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{", a.addr, a.url)
	go func() {
		for i := 0; i < 30; i++ {
			if _, err := c.Write([]byte(" ")); err != nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}()
	closedWithin("slow body", c)
	// Idle: nothing at all, and nothing after a kept-alive request.
	idle, err := net.Dial("tcp", a.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	closedWithin("idle connection", idle)
	kept, err := net.Dial("tcp", a.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer kept.Close()
	fmt.Fprintf(kept, "GET /api/game HTTP/1.1\r\nHost: %s\r\n\r\n", a.addr)
	closedWithin("kept-alive idle connection", kept)
}

// TestAttackReplayedStaff sends a staff message again, as one who
// captured it on the network would. Before: done again. After: refused.
func TestAttackReplayedStaff(t *testing.T) {
	a := newAttackRig(t, Opts{})
	staff, err := a.dialFrom("")
	if err != nil {
		t.Fatal(err)
	}
	defer staff.Close()
	msg := Message{Type: msgStaff, PIN: attackPIN, Nonce: nonce(), Action: string(table.StaffUndo), Reason: "misread die"}
	staff.WriteJSON(msg)
	if m := readUntil(t, staff, isReply); m["type"] != "accepted" {
		t.Fatalf("the staff's undo: %v", m)
	}
	for i, from := range []string{"same connection", "another connection"} {
		conn := staff
		if i == 1 {
			if conn, err = a.dialFrom(""); err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
		}
		conn.WriteJSON(msg)
		if m := readUntil(t, conn, isReply); m["code"] != "replayed" {
			t.Errorf("replayed on the %s: %v, want replayed", from, m)
		}
	}
	a.sess.mu.Lock()
	n := len(a.sess.staff)
	a.sess.mu.Unlock()
	if n != 1 {
		t.Errorf("the session got %d staff requests, want 1", n)
	}
}

// TestAttackHostileNames seats players whose names would break the game
// record (and a restart that reads it back), and sends free texts with a
// newline. Before: accepted. After: refused with a message.
func TestAttackHostileNames(t *testing.T) {
	a := newAttackRig(t, Opts{})
	staff, err := a.dialFrom("")
	if err != nil {
		t.Fatal(err)
	}
	defer staff.Close()
	staff.WriteJSON(Message{Type: msgHello, Role: roleStaff, PIN: attackPIN})
	readUntil(t, staff, isReply)
	tests := []struct {
		name string
		msg  Message
	}{
		{"colon", Message{Action: "new-game", Line: "Anna, Eve: take n=3"}},
		{"hash", Message{Action: "new-game", Line: "Anna, #Eve"}},
		{"quote", Message{Action: "new-game", Line: `Anna, Eve"] [Result "1-0`}},
		{"equals", Message{Action: "new-game", Line: "Anna, from=Eve"}},
		{"control", Message{Action: "new-game", Line: "Anna, Eve\x07"}},
		{"newline", Message{Action: "new-game", Line: "Anna, Eve\nx"}},
		{"line separator", Message{Action: "new-game", Line: "Anna, Eve\u2028x"}},
		{"long", Message{Action: "new-game", Line: "Anna, " + strings.Repeat("E", 40)}},
		{"reserved", Message{Action: "new-game", Line: "Anna, Staff"}},
		{"reason newline", Message{Action: "undo", Reason: "x\nstaff: correct player=Anna ducats=+99"}},
		{"reason long", Message{Action: "undo", Reason: strings.Repeat("x", 300)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := tt.msg
			m.Type, m.Nonce = msgStaff, nonce()
			staff.WriteJSON(m)
			r := readUntil(t, staff, isReply)
			if r["type"] != "refused" && r["type"] != "error" {
				t.Fatalf("accepted: %v", r)
			}
			if r["en"] == "" || r["fr"] == "" || r["en"] == r["fr"] {
				t.Errorf("reply %v: want a message in French and English", r)
			}
		})
	}
	a.sess.mu.Lock()
	n := len(a.sess.staff)
	a.sess.mu.Unlock()
	if n != 0 {
		t.Errorf("the session got %d staff requests with hostile texts", n)
	}
}

// TestAttackDealRefusalLeak proposes a deal the proposer cannot pay and
// has the merchant accept it: the engine refuses it, and the refusal must
// not tell the merchant the proposer's money. Before: the engine's text
// ("Chloé has only N ducats") went verbatim to both; refusals are now
// built for their viewer (issue 14), and a leak fails.
func TestAttackDealRefusalLeak(t *testing.T) {
	sess, phones := genoaAtMove(t)
	anna, chloe := phones[0], phones[2]
	st, _ := sess.current()
	v := st.View(engine.NoSeat).(genoa.View)
	money, err := json.Marshal(st.View(2))
	if err != nil {
		t.Fatal(err)
	}
	var own struct {
		Mine struct {
			Ducats *int `json:"ducats"`
		} `json:"mine"`
	}
	if err := json.Unmarshal(money, &own); err != nil || own.Mine.Ducats == nil {
		t.Fatalf("Chloé's money is not in her view %s (%v)", money, err)
	}
	ducats := *own.Mine.Ducats
	id, reply := chloeDealsWithAnna(t, chloe, anna, fmt.Sprintf("deal from=Chloé to=%s ducats=%d", v.Reach[0].Square, ducats+1))
	if reply["type"] == "accepted" {
		t.Fatalf("a deal Chloé cannot pay was played: %v", reply)
	}
	p := refusedProposal(anna, id)
	texts := []string{fmt.Sprint(reply["en"]), fmt.Sprint(reply["fr"]), fmt.Sprint(p["en"]), fmt.Sprint(p["fr"])}
	t.Logf("deal refused, the merchant is told: %q", texts)
	for _, s := range texts {
		if strings.Contains(s, fmt.Sprint(ducats)) {
			t.Errorf("the merchant's refusal %q tells Chloé's %d ducats", s, ducats)
		}
	}
}
