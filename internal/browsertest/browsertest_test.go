package browsertest

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// TestBrowser loads pages that fail in each of the ways ConsoleErrors
// reports, and one that does not: each error is collected once, in the
// load that made it; a file replaced with Set is served anew; a
// screenshot is a PNG in the screenshots' directory; the profile, and
// Chromium's temporary files with it, are gone once the test's cleanup has
// run.
func TestBrowser(t *testing.T) {
	Need(t)
	shots := t.TempDir()
	t.Setenv(ShotsEnv, shots)
	const csp = "default-src 'self'"
	page := func(script string) []byte {
		return []byte(`<!doctype html><html><head><meta charset="utf-8"></head><body><p id="p">page</p>` + script + `</body></html>`)
	}
	srv := Serve(t, csp, map[string][]byte{
		"/":          page(`<script src="/ok.js"></script>`),
		"/ok.js":     []byte(`document.getElementById("p").textContent = "drawn"; console.log("fine"); console.warn("only a warning");`),
		"/error":     page(`<script src="/error.js"></script>`),
		"/error.js":  []byte(`console.error("bad", 42);`),
		"/assert":    page(`<script src="/assert.js"></script>`),
		"/assert.js": []byte(`console.assert(1 === 2, "one is not two");`),
		"/throw":     page(`<script src="/throw.js"></script>`),
		"/throw.js":  []byte(`null.x;`),
		"/inline":    page(`<script>document.title = "inline";</script>`),
		"/missing":   page(`<script src="/nowhere.js"></script>`),
	})
	var profile string
	t.Run("loads", func(t *testing.T) {
		b := Start(t, time.Minute)
		profile = b.profile
		// Chromium's socket, in a temporary folder of its own, lies under
		// the profile, which the cleanup removes.
		if sock, err := os.Readlink(filepath.Join(profile, "SingletonSocket")); err != nil {
			t.Errorf("the profile's SingletonSocket: %v", err)
		} else if !strings.HasPrefix(sock, profile+string(filepath.Separator)) {
			t.Errorf("Chromium's socket is %s, outside the profile %s: it outlives the test", sock, profile)
		}
		for _, tt := range []struct {
			name, path string
			want       []string // a text of each error, in order
		}{
			{"clean", "/", nil},
			{"console-error", "/error", []string{"console.error: bad 42"}},
			{"console-assert", "/assert", []string{"console.assert: one is not two"}},
			{"exception", "/throw", []string{"exception: Uncaught"}},
			{"policy", "/inline", []string{"security: Executing inline script violates the following Content Security Policy"}},
			{"missing-script", "/missing", []string{"network: Failed to load resource: the server responded with a status of 404", "security: Refused to execute script"}},
			{"clean-again", "/", nil},
		} {
			t.Run(tt.name, func(t *testing.T) {
				b.Load(t, srv.URL+tt.path, 390, 844)
				// Errors may arrive just after the load: wait for the
				// expected ones, then for the page to be idle a moment.
				var errs []string
				deadline := time.Now().Add(10 * time.Second)
				for {
					errs = append(errs, b.ConsoleErrors()...)
					if len(errs) >= len(tt.want) || time.Now().After(deadline) {
						break
					}
					time.Sleep(20 * time.Millisecond)
				}
				var text string
				b.Run(t, chromedp.Evaluate(`new Promise((r) => setTimeout(r, 100)).then(() => document.body.innerText)`, &text,
					func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
				errs = append(errs, b.ConsoleErrors()...)
				ok := len(errs) == len(tt.want)
				for i := 0; ok && i < len(errs); i++ {
					ok = strings.Contains(errs[i], tt.want[i])
				}
				if !ok {
					t.Errorf("ConsoleErrors() = %q, want errors with %q", errs, tt.want)
				}
				if tt.path == "/" && text != "drawn" {
					t.Errorf("the page says %q, want drawn", text)
				}
			})
		}
		t.Run("set", func(t *testing.T) {
			srv.Set("/ok.js", []byte(`document.getElementById("p").textContent = "again";`))
			b.Load(t, srv.URL+"/", 390, 844)
			var text string
			b.Run(t, chromedp.Poll(`document.body.innerText === "again"`, nil, chromedp.WithPollingTimeout(10*time.Second)),
				chromedp.Evaluate(`document.body.innerText`, &text))
			if text != "again" {
				t.Errorf("after Set the page says %q, want again", text)
			}
		})
		t.Run("screenshot", func(t *testing.T) {
			b.Screenshot(t, "page")
			png, err := os.ReadFile(filepath.Join(shots, "page.png"))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
				t.Errorf("page.png starts with %q, want a PNG", png[:min(8, len(png))])
			}
		})
	})
	if profile == "" {
		t.Fatal("no profile")
	}
	if _, err := os.Stat(profile); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the profile %s after the cleanup: %v, want it removed", profile, err)
	}
}

// TestHScript: app.js's h, served by HScript, builds elements under the
// dashboard's policy: attributes, classes, CSSOM styles, listeners,
// nested and skipped children.
func TestHScript(t *testing.T) {
	b := Start(t, time.Minute)
	srv := Serve(t, "default-src 'self'", map[string][]byte{
		"/":     []byte(`<!doctype html><html><head><meta charset="utf-8"></head><body><script src="/h.js"></script></body></html>`),
		"/h.js": HScript(t),
	})
	b.Load(t, srv.URL+"/", 390, 844)
	for _, tt := range []struct{ js, want string }{
		{`h("p", {class: "x", "data-k": 2}, "a", h("b", null, "c"), null, false, ["d", 3]).outerHTML`, `<p class="x" data-k="2">a<b>c</b>d3</p>`},
		{`h("input", {disabled: true, hidden: false, value: undefined}).outerHTML`, `<input disabled="">`},
		{`h("div", {style: "width: 7px"}).style.width`, `7px`},
		{`(() => { let n = 0; const e = h("button", {onclick: () => n++}); e.click(); e.click(); return String(n); })()`, `2`},
	} {
		var got string
		b.Run(t, chromedp.Evaluate(tt.js, &got))
		if got != tt.want {
			t.Errorf("%s = %q, want %q", tt.js, got, tt.want)
		}
	}
	if errs := b.ConsoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}
