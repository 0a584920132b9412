// Package browsertest runs pages in headless Chromium for tests: the
// games' renderer tests serve a page of their own (Serve), draw it in a
// browser (Start), check what it shows, collect what it wrote to the
// console as errors (Browser.ConsoleErrors) and save screenshots
// (Browser.Screenshot). It is for tests only.
//
// # Concurrency
//
// A Browser is driven by one test goroutine at a time; its console
// errors arrive on chromedp's event goroutine and are guarded by a mutex.
// A Server's files may be replaced (Server.Set) while the browser reads
// them.
package browsertest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// ChromiumPath is where the tests expect Chromium: Debian's chromium
// package, which make test installs.
const ChromiumPath = "/usr/bin/chromium"

// ShotsEnv names the variable that holds the directory the screenshots
// are saved in (make test sets it to screenshots/); unset, they go to the
// test's artifact directory (kept with go test -artifacts).
const ShotsEnv = "COMPTOIR_SCREENSHOTS"

// Need skips t under -short, and where Chromium is missing unless CI is
// set: there a missing Chromium fails t.
func Need(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("the browser test takes a few seconds; -short skips it")
	}
	if _, err := exec.LookPath(ChromiumPath); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set and %s is missing: install the chromium package", ChromiumPath)
		}
		t.Skipf("no %s (apt-get install chromium): the browser test is skipped outside CI", ChromiumPath)
	}
}

// Browser is one headless Chromium with a profile of its own and one tab.
type Browser struct {
	ctx     context.Context
	shots   string
	profile string

	mu   sync.Mutex
	errs []string // guarded by mu: console errors not yet taken
}

// Start calls Need, then starts Chromium (NewContext) for timeout at the
// most, with its console errors collected.
func Start(t testing.TB, timeout time.Duration) *Browser {
	t.Helper()
	Need(t)
	shots := os.Getenv(ShotsEnv)
	if shots == "" {
		shots = t.ArtifactDir()
	} else if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel) // after the browser's own cleanup, which needs ctx
	tab, profile := newContext(t, ctx)
	b := &Browser{ctx: tab, shots: shots, profile: profile}
	chromedp.ListenTarget(tab, b.listen)
	// The browser starts on the first action: its failure is the test's.
	if err := chromedp.Run(tab); err != nil {
		t.Fatalf("starting %s: %v", ChromiumPath, err)
	}
	return b
}

// NewContext returns the tab of a new headless Chromium, started on its
// first action, living at the most as long as ctx, with options added to
// the house's (a window size, a language). Its profile is in a new
// temporary directory, and so are Chromium's own temporary files. At t's
// cleanup the browser is closed and waited for, then the profile is
// removed with retries, on a best-effort basis:
// a helper process of Chromium may still write there for a moment (the
// profile is outside t.TempDir for that reason, whose removal would fail
// the test).
func NewContext(t testing.TB, ctx context.Context, opts ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	tab, _ := newContext(t, ctx, opts...)
	return tab
}

func newContext(t testing.TB, ctx context.Context, opts ...chromedp.ExecAllocatorOption) (tab context.Context, profile string) {
	t.Helper()
	profile, err := os.MkdirTemp("", "comptoir-browsertest-")
	if err != nil {
		t.Fatal(err)
	}
	// Chromium makes its own temporary folder for the socket that keeps
	// one browser to a profile, and leaves it behind when it is stopped:
	// under the profile, it goes with it.
	tmp := filepath.Join(profile, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	all := append([]chromedp.ExecAllocatorOption{chromedp.ExecPath(ChromiumPath),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(profile), chromedp.Env("TMPDIR=" + tmp)}, opts...)
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, all...)
	tab, cancelTab := chromedp.NewContext(alloc)
	t.Cleanup(func() {
		chromedp.Cancel(tab)
		cancelTab()
		cancelAlloc() // waits for the browser's process
		for i := 0; i < 50 && os.RemoveAll(profile) != nil; i++ {
			time.Sleep(100 * time.Millisecond)
		}
	})
	return tab, profile
}

// Context is the browser's tab, for chromedp.Run.
func (b *Browser) Context() context.Context { return b.ctx }

// Run runs actions in the tab and fails t if one fails.
func (b *Browser) Run(t testing.TB, actions ...chromedp.Action) {
	t.Helper()
	if err := chromedp.Run(b.ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// Load opens url in the tab, in a viewport width by height CSS pixels.
func (b *Browser) Load(t testing.TB, url string, width, height int64) {
	t.Helper()
	b.Run(t, chromedp.EmulateViewport(width, height), chromedp.Navigate(url))
}

// Screenshot saves the whole page as name.png in the screenshots'
// directory (ShotsEnv).
func (b *Browser) Screenshot(t testing.TB, name string) {
	t.Helper()
	var png []byte
	b.Run(t, chromedp.FullScreenshot(&png, 100))
	if err := os.WriteFile(filepath.Join(b.shots, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// ConsoleErrors returns the errors the tab's pages reported since the
// last call, and forgets them: console.error and console.assert calls,
// uncaught exceptions, and the browser's own error entries (a script or a
// style the page's Content-Security-Policy refused, a resource that
// failed to load).
func (b *Browser) ConsoleErrors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	errs := b.errs
	b.errs = nil
	return errs
}

func (b *Browser) listen(ev any) {
	var msg string
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type != runtime.APITypeError && ev.Type != runtime.APITypeAssert {
			return
		}
		var args []string
		for _, a := range ev.Args {
			args = append(args, remoteString(a))
		}
		msg = "console." + ev.Type.String() + ": " + strings.Join(args, " ")
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg = "exception: " + d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			msg += " " + d.Exception.Description
		}
		msg += fmt.Sprintf(" (%s:%d)", d.URL, d.LineNumber+1)
	case *cdplog.EventEntryAdded:
		e := ev.Entry
		if e.Level != cdplog.LevelError {
			return
		}
		msg = fmt.Sprintf("%s: %s", e.Source, e.Text)
		if e.URL != "" {
			msg += " (" + e.URL + ")"
		}
	default:
		return
	}
	b.mu.Lock()
	b.errs = append(b.errs, msg)
	b.mu.Unlock()
}

// remoteString is a console argument as the console would print it.
func remoteString(o *runtime.RemoteObject) string {
	if o.Type == runtime.TypeString {
		var s string
		if json.Unmarshal(o.Value, &s) == nil {
			return s
		}
	}
	if len(o.Value) > 0 {
		return string(o.Value)
	}
	if o.Description != "" {
		return o.Description
	}
	return o.Type.String()
}

// HScript returns a script that defines h, the element builder app.js
// gives the games' renderers as ctx.h, as a global: app.js's own
// function, read from dashboard/web/app.js, so that a renderer's test
// draws with the h it is drawn with. A page serves it before its own
// scripts.
func HScript(t testing.TB) []byte {
	t.Helper()
	_, self, _, ok := goruntime.Caller(0)
	if !ok {
		t.Fatal("browsertest: no source path")
	}
	app, err := os.ReadFile(filepath.Join(filepath.Dir(self), "..", "..", "dashboard", "web", "app.js"))
	if err != nil {
		t.Fatal(err)
	}
	const start, end = "\n  function h(tag, attrs, ...kids) {\n", "\n    return el;\n  }\n"
	i := bytes.Index(app, []byte(start))
	j := bytes.Index(app[max(i, 0):], []byte(end))
	if i < 0 || j < 0 {
		t.Fatalf("browsertest: no function h in app.js (%q ... %q)", start, end)
	}
	fn := app[i : i+j+len(end)]
	return []byte(`"use strict";` + "\nwindow.h = (function () {" + string(fn) + "  return h;\n})();\n")
}

// Server serves a test's page: files by path, each with its content type
// (by the path's ending: .css, .js, .json, else HTML) and the page's
// Content-Security-Policy when it has one; any other path is not found,
// but for /favicon.ico, which is empty (the browser asks for it).
type Server struct {
	// URL is the server's root, without a trailing slash.
	URL string
	csp string

	mu    sync.Mutex
	files map[string][]byte // guarded by mu
}

// Serve starts a server for files, keyed by path ("/", "/style.css"),
// with csp as every answer's Content-Security-Policy ("": none). It is
// closed at t's cleanup.
func Serve(t testing.TB, csp string, files map[string][]byte) *Server {
	t.Helper()
	s := &Server{csp: csp, files: make(map[string][]byte, len(files))}
	for p, b := range files {
		s.files[p] = b
	}
	hs := httptest.NewServer(s)
	t.Cleanup(hs.Close)
	s.URL = hs.URL
	return s
}

// Set serves b at path from now on.
func (s *Server) Set(path string, b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files[path] = b
}

// ServeHTTP answers a file, or 404.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.csp != "" {
		w.Header().Set("Content-Security-Policy", s.csp)
	}
	s.mu.Lock()
	b, ok := s.files[r.URL.Path]
	s.mu.Unlock()
	if !ok && r.URL.Path == "/favicon.ico" {
		// The browser asks for it; its absence is no page's error.
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if !ok {
		http.NotFound(w, r)
		return
	}
	switch {
	case strings.HasSuffix(r.URL.Path, ".css"):
		w.Header().Set("Content-Type", "text/css")
	case strings.HasSuffix(r.URL.Path, ".js"):
		w.Header().Set("Content-Type", "text/javascript")
	case strings.HasSuffix(r.URL.Path, ".json"):
		w.Header().Set("Content-Type", "application/json")
	default:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
	}
	w.Write(b)
}
