package dashboard

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// TestPairScreen pairs a device that is not on the screen's address: with
// the staff secret it gets a cookie, and with it the join codes.
func TestPairScreen(t *testing.T) {
	a := newAttackRig(t, Opts{ScreenAddrs: []string{"127.0.0.2"}})
	noJoin := func(cookie string) bool {
		h := http.Header{"Origin": {a.url}}
		if cookie != "" {
			h.Set("Cookie", cookie)
		}
		conn, _, err := websocket.DefaultDialer.Dial("ws://"+a.addr+"/ws", h)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		f := readUntil(t, conn, func(m map[string]any, _ []byte) bool { return m["type"] == "state" })
		_, has := f["players"].([]any)[0].(map[string]any)["join"]
		return !has
	}
	if !noJoin("") || !noJoin(screenCookie+"=forged") {
		t.Fatal("a device not paired got a join code")
	}
	for _, tt := range []struct {
		pin  string
		want int
	}{{"", http.StatusForbidden}, {"1111", http.StatusForbidden}, {attackPIN, http.StatusOK}} {
		req, _ := http.NewRequest("POST", a.url+"/api/pair", nil)
		req.Header.Set("Origin", a.url)
		if tt.pin != "" {
			req.Header.Set(StaffPINHeader, tt.pin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Fatalf("pair with PIN %q: %s, want %d", tt.pin, resp.Status, tt.want)
		}
		if tt.want != http.StatusOK {
			if len(resp.Cookies()) != 0 {
				t.Errorf("pair with PIN %q set a cookie", tt.pin)
			}
			continue
		}
		cs := resp.Cookies()
		if len(cs) != 1 || cs[0].Name != screenCookie || !cs[0].HttpOnly || cs[0].SameSite != http.SameSiteStrictMode {
			t.Fatalf("pairing cookies %v: want one HttpOnly SameSite=Strict %s", cs, screenCookie)
		}
		if noJoin(cs[0].Name + "=" + cs[0].Value) {
			t.Error("the paired device got no join code")
		}
	}
}

// TestGlobalRateLimit: the messages of all connections together are
// limited besides each one's.
func TestGlobalRateLimit(t *testing.T) {
	a := newAttackRig(t, Opts{GlobalRate: 1, GlobalBurst: 4})
	var codes []string
	for i := 0; i < 3; i++ {
		conn, err := a.dialFrom("")
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		for j := 0; j < 2; j++ {
			conn.WriteJSON(Message{Type: msgHello, Token: "nope"})
			m := readUntil(t, conn, isReply)
			codes = append(codes, m["code"].(string))
		}
	}
	want := "unknown-token unknown-token unknown-token unknown-token rate-limited rate-limited"
	if got := strings.Join(codes, " "); got != want {
		t.Errorf("six messages on three connections: %s, want %s", got, want)
	}
	a.clk.Advance(time.Second)
	conn, err := a.dialFrom("")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.WriteJSON(Message{Type: msgHello, Token: "nope"})
	if m := readUntil(t, conn, isReply); m["code"] != "unknown-token" {
		t.Errorf("after a second: %v, want the message handled", m)
	}
}

// TestPairedScreensKept: a device is paired once; the pairing survives a
// restart, in a file only the service's user reads.
func TestPairedScreensKept(t *testing.T) {
	path := screensPath(filepath.Join(t.TempDir(), "table.tokens.json"))
	var p pairedScreens
	if err := p.load(path); err != nil {
		t.Fatal(err)
	}
	cookie, err := p.add()
	if err != nil {
		t.Fatal(err)
	}
	var again pairedScreens
	if err := again.load(path); err != nil {
		t.Fatal(err)
	}
	if !again.has(cookie) || again.has("forged") || again.has("") {
		t.Error("after a restart: the paired cookie is not known, or a forged one is")
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("paired screens file: %v %v, want mode 0600", fi, err)
	}
	if data, _ := os.ReadFile(path); strings.Contains(string(data), cookie) {
		t.Error("the file holds the cookie itself, not its SHA-256")
	}
}
