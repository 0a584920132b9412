package hub

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// fakeNow is a clock the test moves.
type fakeNow struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeNow) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeNow) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

const testSecret = "floor-secret-7"

// floorServer is a floor behind testSecret, on a clock the test moves.
func floorServer(t *testing.T) (*httptest.Server, *fakeNow) {
	t.Helper()
	hist, err := OpenHistory(filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hist.Close() })
	clk := &fakeNow{t: time.Date(2026, 11, 25, 18, 0, 0, 0, time.UTC)}
	h := &Hub{opts: Opts{History: hist, Now: clk.now, Logf: t.Logf}, Floor: NewFloor(time.Second, 1.5)}
	srv := httptest.NewServer(h.Handler(WebOpts{Secret: testSecret}))
	t.Cleanup(srv.Close)
	return srv, clk
}

// do makes a request with the floor's own Origin (origin "" for none) and
// the cookie, if any; it returns the status.
func do(t *testing.T, srv *httptest.Server, method, path, origin string, cookie *http.Cookie, form url.Values) (int, *http.Response) {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, srv.URL+path, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	if path == "/ws" {
		req.Header.Set("Upgrade", "websocket")
		req.Header.Set("Connection", "Upgrade")
		req.Header.Set("Sec-WebSocket-Version", "13")
		req.Header.Set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
	}
	if cookie != nil {
		req.AddCookie(cookie)
	}
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	return r.StatusCode, r
}

func login(t *testing.T, srv *httptest.Server, secret string) (int, *http.Cookie) {
	t.Helper()
	code, r := do(t, srv, http.MethodPost, "/api/login", srv.URL, nil, url.Values{"secret": {secret}})
	for _, c := range r.Cookies() {
		if c.Name == floorCookie {
			return code, c
		}
	}
	return code, nil
}

// TestFloorBehindSecret: without a session only the page's files and the
// login answer; with one, every route does; a POST or websocket from
// another site, or with no Origin, is refused even with a session.
func TestFloorBehindSecret(t *testing.T) {
	srv, _ := floorServer(t)
	routes := []struct {
		method, path string
		open         bool // served without a session
	}{
		{"GET", "/", true},
		{"GET", "/app.js", true},
		{"GET", "/api/session", false},
		{"GET", "/ws", false},
		{"GET", "/api/table/genoa-1", false},
		{"GET", "/api/stats", false},
		{"GET", "/api/history", false},
		{"GET", "/api/history.csv", false},
		{"GET", "/api/play/genoa-1/1/qr.png", false},
		{"GET", "/api/plot/per-day.svg", false},
		{"POST", "/api/ack", false},
		{"POST", "/api/answer/genoa-1", false},
	}
	for _, r := range routes {
		t.Run("no session "+r.method+" "+r.path, func(t *testing.T) {
			code, _ := do(t, srv, r.method, r.path, srv.URL, nil, url.Values{"id": {"x"}})
			if got := code != http.StatusUnauthorized; got != r.open {
				t.Errorf("%s %s without a session = %d, want open %v", r.method, r.path, code, r.open)
			}
		})
	}
	if code, c := login(t, srv, "wrong"); code != http.StatusForbidden || c != nil {
		t.Fatalf("login with a wrong secret = %d (cookie %v), want 403 and no cookie", code, c)
	}
	code, cookie := login(t, srv, testSecret)
	if code != http.StatusNoContent || cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode {
		t.Fatalf("login = %d, cookie %+v; want 204 and an HttpOnly, SameSite=Strict cookie", code, cookie)
	}
	t.Run("session websocket", func(t *testing.T) {
		d := websocket.Dialer{}
		c, resp, err := d.Dial("ws"+strings.TrimPrefix(srv.URL, "http")+"/ws", http.Header{"Origin": {srv.URL}, "Cookie": {cookie.String()}})
		if err != nil {
			t.Fatalf("websocket with a session: %v (%v)", err, resp)
		}
		c.Close()
	})
	for _, r := range routes {
		if r.path == "/ws" {
			continue
		}
		t.Run("session "+r.method+" "+r.path, func(t *testing.T) {
			code, _ := do(t, srv, r.method, r.path, srv.URL, cookie, url.Values{"id": {"x"}})
			if code == http.StatusUnauthorized || code == http.StatusForbidden {
				t.Errorf("%s %s with a session = %d", r.method, r.path, code)
			}
		})
	}
	for _, o := range []struct{ name, origin string }{{"no Origin", ""}, {"another site", "http://evil.example"}, {"null", "null"}} {
		for _, path := range []string{"/api/ack", "/api/answer/genoa-1", "/api/login"} {
			t.Run(o.name+" POST "+path, func(t *testing.T) {
				if code, _ := do(t, srv, "POST", path, o.origin, cookie, url.Values{"id": {"x"}, "secret": {testSecret}}); code != http.StatusForbidden {
					t.Errorf("POST %s from %s = %d, want 403", path, o.name, code)
				}
			})
		}
		t.Run(o.name+" websocket", func(t *testing.T) {
			if code, _ := do(t, srv, "GET", "/ws", o.origin, cookie, nil); code != http.StatusForbidden {
				t.Errorf("websocket from %s = %d, want 403", o.name, code)
			}
		})
	}
	if code, _ := do(t, srv, "POST", "/api/logout", srv.URL, cookie, nil); code != http.StatusNoContent {
		t.Fatalf("logout = %d", code)
	}
	if code, _ := do(t, srv, "GET", "/api/history", srv.URL, cookie, nil); code != http.StatusUnauthorized {
		t.Errorf("history after logout = %d, want 401", code)
	}
}

// TestFloorLockout: a few wrong secrets are free, then each makes the next
// attempt wait (the right secret too is refused while it waits), doubling
// up to the lockout; a session ends after FloorSession.
func TestFloorLockout(t *testing.T) {
	srv, clk := floorServer(t)
	for i := 1; i <= floorPolicy.Free; i++ {
		if code, _ := login(t, srv, "guess"); code != http.StatusForbidden {
			t.Fatalf("wrong secret %d = %d, want 403", i, code)
		}
	}
	if code, _ := login(t, srv, testSecret); code != http.StatusNoContent {
		t.Fatalf("right secret after %d free failures = %d, want 204", floorPolicy.Free, code)
	}
	for i := 1; i <= floorPolicy.Free+1; i++ {
		login(t, srv, "guess")
	}
	code, r := do(t, srv, http.MethodPost, "/api/login", srv.URL, nil, url.Values{"secret": {testSecret}})
	if code != http.StatusTooManyRequests || r.Header.Get("Retry-After") != "2" {
		t.Fatalf("right secret while waiting = %d (Retry-After %q), want 429 and 2", code, r.Header.Get("Retry-After"))
	}
	clk.add(floorPolicy.First)
	code, cookie := login(t, srv, testSecret)
	if code != http.StatusNoContent {
		t.Fatalf("right secret after the wait = %d, want 204", code)
	}
	if code, _ := do(t, srv, "GET", "/api/session", srv.URL, cookie, nil); code != http.StatusNoContent {
		t.Fatalf("session = %d, want 204", code)
	}
	clk.add(FloorSession)
	if code, _ := do(t, srv, "GET", "/api/session", srv.URL, cookie, nil); code != http.StatusUnauthorized {
		t.Fatalf("session after %v = %d, want 401", FloorSession, code)
	}

	for _, c := range []struct {
		n    int
		want time.Duration
	}{{1, 0}, {3, 0}, {4, 2 * time.Second}, {5, 4 * time.Second}, {10, 128 * time.Second}, {12, 512 * time.Second}, {13, floorPolicy.Max}, {50, floorPolicy.Max}} {
		if got := floorPolicy.Delay(c.n); got != c.want {
			t.Errorf("floorPolicy.Delay(%d) = %v, want %v", c.n, got, c.want)
		}
	}
}

// TestFloorSecretFile: with no PIN, a secret is made once (80 bits, mode
// 0600) and read back the same; a PIN given wins.
func TestFloorSecretFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state", "floor.secret")
	s1, made, err := FloorSecret("", file)
	if err != nil || !made || len(s1) != 16 {
		t.Fatalf("FloorSecret = %q, made %v, %v; want 16 characters made", s1, made, err)
	}
	if st, err := os.Stat(file); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("secret file mode = %v, %v; want 0600", st.Mode().Perm(), err)
	}
	s2, made, err := FloorSecret("", file)
	if err != nil || made || s2 != s1 {
		t.Fatalf("FloorSecret again = %q, made %v, %v; want %q read back", s2, made, err, s1)
	}
	if s, _, _ := FloorSecret("20261125", file); s != "20261125" {
		t.Fatalf("FloorSecret with a PIN = %q", s)
	}
}
