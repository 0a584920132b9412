package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gorilla/websocket"

	"comptoir/cafe"
	"comptoir/hub"
	"comptoir/internal/browsertest"
	"comptoir/tableconfig"
)

// TestCafeDemoConfigs: the demo café's table configurations decode, and
// each table's credentials are the hub's.
func TestCafeDemoConfigs(t *testing.T) {
	creds, err := hub.LoadCredentials("../../configs/cafe/tables.yaml", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"genoa", "negoce", "dschunke"} {
		cfg, err := tableconfig.Load(filepath.Join("../../configs/cafe", name+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Cafe == nil || cfg.Game != name {
			t.Fatalf("%s: game %s, cafe %+v", name, cfg.Game, cfg.Cafe)
		}
		if pw := creds.Tables[cfg.Cafe.Name]; pw != cfg.Cafe.Password {
			t.Errorf("%s: password of %s is not the hub's", name, cfg.Cafe.Name)
		}
	}
}

// cafeHub is a real embedded NATS server and hub for the daemon's tests,
// with table-1's credentials.
type cafeHub struct {
	srv interface{ ClientURL() string }
	hub *hub.Hub
}

func startCafeHub(t *testing.T, dir string) *cafeHub {
	t.Helper()
	pw := hub.NewPassword()
	srv, err := hub.StartServer(hub.ServerOpts{Dir: filepath.Join(dir, "js"), Host: "127.0.0.1", Port: -1, Tables: map[string]string{"table-1": "table-1-password"}, HubPassword: pw})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Shutdown(); srv.WaitForShutdown() })
	hist, err := hub.OpenHistory(filepath.Join(dir, "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hist.Close() })
	nc, err := hub.Connect(srv.ClientURL(), hub.HubUser, pw, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	h, err := hub.New(hub.Opts{Conn: nc, History: hist})
	if err != nil {
		t.Fatal(err)
	}
	hctx, hcancel := context.WithCancel(context.Background())
	hdone := make(chan error, 1)
	go func() { hdone <- h.Run(hctx) }()
	t.Cleanup(func() { hcancel(); <-hdone })
	return &cafeHub{srv: srv, hub: h}
}

// startCafeDaemon runs the daemon on the Genoa demo recording as café
// table table-1, listening on listen; it returns the daemon's log.
func startCafeDaemon(t *testing.T, dir, natsURL, listen string) *syncBuf {
	t.Helper()
	cfg := genoaConfig(t, dir, "t.db", "replay:\n  inputs: %R/configs/demo/genoa-inputs.jsonl\n  speed: 20\n  loop: true\n  pause: 10ms\ncafe:\n  url: "+natsURL+"\n  name: table-1\n  password: table-1-password\n")
	ctx, cancel := context.WithCancel(context.Background())
	stderr := &syncBuf{}
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"--config", cfg, "--listen", listen}, io.Discard, stderr) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run = %v", err)
		}
	})
	return stderr
}

func waitUntil(t *testing.T, log *syncBuf, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s\n%s", what, log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func hasStaffAlert(h *hub.Hub) bool {
	h.Floor.Tick(time.Now())
	for _, a := range h.Floor.Snapshot().Alerts {
		if a.Table == "table-1" && a.Kind == hub.AlertStaff {
			return true
		}
	}
	return false
}

// TestDaemonPublishesToHub runs the daemon on the demo recording with a
// cafe: section against a real embedded NATS server and hub: its steps
// reach the floor, and a call for staff from the table's screen (the
// dashboard's /api/call-staff) raises the floor's alert.
func TestDaemonPublishesToHub(t *testing.T) {
	dir := t.TempDir()
	c := startCafeHub(t, dir)
	addr := freeAddr(t)
	log := startCafeDaemon(t, dir, c.srv.ClientURL(), addr)
	waitUntil(t, log, "the table's steps on the floor", func() bool {
		card, ok := c.hub.Floor.Detail("table-1")
		return ok && card.Seq > 3 && card.Name == "genoa"
	})
	waitUntil(t, log, "the call from the table's screen", func() bool {
		req, _ := http.NewRequest("POST", "http://"+addr+"/api/call-staff", strings.NewReader(`{"on":true}`))
		req.Header.Set("Origin", "http://"+addr)
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			return false
		}
		r.Body.Close()
		return r.StatusCode == http.StatusOK
	})
	waitUntil(t, log, "the staff alert", func() bool { return hasStaffAlert(c.hub) })
	// The old page outside the dashboard's Origin check is gone.
	if r, err := http.Post("http://"+addr+"/cafe/call", "", nil); err == nil {
		r.Body.Close()
		if r.StatusCode < 400 {
			t.Errorf("POST /cafe/call without an Origin = %d, want refused", r.StatusCode)
		}
	}
}

// lanAddr is an address of this machine other than loopback, so that a
// browser reaching the daemon there is a phone, not the table's screen;
// "" when there is none.
func lanAddr() string {
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() && !n.IP.IsLinkLocalUnicast() {
			return n.IP.String()
		}
	}
	return ""
}

// TestBrowserCallStaff: a phone (headless Chromium on a seat, reaching the
// daemon at the machine's network address, so not the table's screen)
// taps the call button of the dashboard; the floor page (logged in with
// its secret) shows the alert and answers "on my way", and the phone
// shows the answer.
func TestBrowserCallStaff(t *testing.T) {
	browsertest.Need(t)
	dir := t.TempDir()
	c := startCafeHub(t, dir)
	floor := httptest.NewServer(c.hub.Handler(hub.WebOpts{Secret: "floor-secret-9"}))
	defer floor.Close()
	port := freeAddr(t)[len("127.0.0.1:"):]
	host := lanAddr()
	if host == "" {
		host = "127.0.0.1"
		t.Logf("no network address but loopback: the phone is also the table's screen")
	}
	log := startCafeDaemon(t, dir, c.srv.ClientURL(), "0.0.0.0:"+port)
	table := "127.0.0.1:" + port

	// The table's screen (loopback) is shown the join link of seat 1.
	var conn *websocket.Conn
	waitUntil(t, log, "the dashboard", func() bool {
		var err error
		conn, _, err = websocket.DefaultDialer.Dial("ws://"+table+"/ws", http.Header{"Origin": {"http://" + table}})
		return err == nil
	})
	defer conn.Close()
	join := ""
	conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	for join == "" {
		_, data, err := conn.ReadMessage()
		if err != nil {
			t.Fatalf("screen: %v\n%s", err, log.String())
		}
		var f struct {
			Players []struct {
				Join string `json:"join"`
			} `json:"players"`
		}
		if json.Unmarshal(data, &f) == nil && len(f.Players) > 0 {
			join = f.Players[0].Join
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	poll := func(c context.Context, what, js string) {
		t.Helper()
		var err error
		for try := 0; try < 5; try++ { // the join page moves to /seat under the poll
			if err = chromedp.Run(c, chromedp.Poll(js, nil, chromedp.WithPollingTimeout(20*time.Second))); err == nil || !strings.Contains(err.Error(), "(-32000)") {
				break
			}
			time.Sleep(200 * time.Millisecond)
		}
		if err != nil {
			t.Fatalf("%s: %v\n%s", what, err, log.String())
		}
	}
	click := func(c context.Context, sel string) {
		t.Helper()
		var ok bool
		if err := chromedp.Run(c, chromedp.Evaluate(`(() => { const e = document.querySelector(`+"`"+sel+"`"+`); if (e) e.click(); return !!e; })()`, &ok)); err != nil || !ok {
			t.Fatalf("click %s: %v (found %v)", sel, err, ok)
		}
	}
	phone := newChromium(t, ctx, 390)
	if err := chromedp.Run(phone, chromedp.Navigate("http://"+host+":"+port+join)); err != nil {
		t.Fatal(err)
	}
	poll(phone, "the phone on its seat with the call button", `location.pathname === "/seat" && !!localStorage.getItem("comptoir.token") && document.querySelector("header #callstaff-button") !== null`)
	var size []float64
	if err := chromedp.Run(phone, chromedp.Evaluate(`(() => { const r = document.querySelector("#callstaff-button").getBoundingClientRect(); return [r.width, r.height]; })()`, &size)); err != nil {
		t.Fatal(err)
	}
	if size[0] < 44 || size[1] < 44 {
		t.Errorf("call button %vx%v px, want at least 44x44", size[0], size[1])
	}
	poll(phone, "the button in English", `document.querySelector("#callstaff-button").textContent === "Call staff"`)
	click(phone, "#callstaff-button")
	poll(phone, "the call told on the phone", `document.querySelector("#callstaff").dataset.state === "called" && document.querySelector("#callstaff-status").getAttribute("aria-live") === "polite"`)

	counter := newChromium(t, ctx, 1280)
	if err := chromedp.Run(counter, chromedp.Navigate(floor.URL+"/"),
		chromedp.WaitVisible(`#login input`, chromedp.ByQuery),
		chromedp.SetValue(`#login input`, "floor-secret-9", chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	click(counter, "#login button")
	poll(counter, "the staff alert on the floor", `document.querySelector('.alert.staff') !== null`)
	poll(counter, "the on-my-way button", `document.querySelector('.card[data-table="table-1"] button.answer') !== null`)
	click(counter, `.card[data-table="table-1"] button.answer`)
	poll(phone, "on my way on the phone", `document.querySelector("#callstaff").dataset.state === "answered" && document.querySelector("#callstaff-status").textContent.includes("On my way")`)
}

// newChromium is a headless Chromium width pixels wide, in English, its
// profile outside t.TempDir and removed on a best-effort basis once the
// browser is closed and waited for (package browsertest): a profile in
// t.TempDir failed a dashboard browser test once in CI, a Chromium helper
// still writing there as it was removed.
func newChromium(t *testing.T, ctx context.Context, width int) context.Context {
	return browsertest.NewContext(t, ctx, chromedp.Flag("lang", "en-US"), chromedp.WindowSize(width, 900))
}

// TestBrowserFloorDice runs a café table with a dice camera (a reader
// child giving its verdicts: five throws read, the sixth not, every
// reading saying the dice look small) against a real embedded NATS server
// and hub: the table's card on the floor says how its camera fared and
// asks for the camera lower, in English and in French, on a phone-sized
// floor page (Chromium, 390x844) with nothing wider than the screen.
func TestBrowserFloorDice(t *testing.T) {
	browsertest.Need(t)
	t.Setenv(fakeDiceEnv, "readings")
	dir := t.TempDir()
	c := startCafeHub(t, dir)
	floor := httptest.NewServer(c.hub.Handler(hub.WebOpts{Secret: "floor-secret-9"}))
	defer floor.Close()
	cfg := genoaConfig(t, dir, "t.db", "dice_reader: "+os.Args[0]+"\nreplay:\n  inputs: %R/configs/demo/genoa-inputs.jsonl\n  frames: %R/configs/demo/dice\n  speed: 20\ncafe:\n  url: "+c.srv.ClientURL()+"\n  name: table-1\n  password: table-1-password\n")
	ctx, cancel := context.WithCancel(context.Background())
	log := &syncBuf{}
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"--config", cfg, "--listen", freeAddr(t)}, io.Discard, log) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run = %v", err)
		}
	}()
	want := cafe.DiceHealth{Throws: 6, Read: 5, Advice: []cafe.Line{adviceLower}}
	waitUntil(t, log, "the camera's six throws on the floor", func() bool {
		card, ok := c.hub.Floor.Detail("table-1")
		return ok && card.Dice.Equal(&want)
	})

	bctx, bcancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer bcancel()
	page := browsertest.NewContext(t, bctx, chromedp.Flag("lang", "en-US"), chromedp.WindowSize(390, 844))
	if err := chromedp.Run(page, chromedp.Navigate(floor.URL+"/"),
		chromedp.WaitVisible(`#login input`, chromedp.ByQuery),
		chromedp.SetValue(`#login input`, "floor-secret-9", chromedp.ByQuery),
		chromedp.Click(`#login button`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	poll := func(what, js string) {
		t.Helper()
		if err := chromedp.Run(page, chromedp.Poll(js, nil, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
			var text string
			chromedp.Run(page, chromedp.Evaluate(`document.body.innerText`, &text))
			t.Fatalf("%s: %v\npage: %s", what, err, text)
		}
	}
	const card = `document.querySelector('.card[data-table="table-1"] .dice')`
	poll("the camera's record in English, standing out", card+` !== null && `+card+`.classList.contains("poor") && `+card+`.textContent.includes("dice: 5 read of the last 6 throws") && `+card+`.querySelector(".advice").textContent === "The dice look too small: bring the camera lower."`)
	poll("within the phone's width", `document.documentElement.scrollWidth <= window.innerWidth && `+card+`.getBoundingClientRect().right <= window.innerWidth`)
	if err := chromedp.Run(page, chromedp.Click(`#lang`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	poll("the camera's record in French", card+`.textContent.includes("dés : 5 lus sur 6 derniers lancers") && `+card+`.querySelector(".advice").textContent === "Les dés paraissent trop petits : descendez la caméra."`)
}
