package hub

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"comptoir/internal/lockout"
)

// The floor's secret: the floor page shows every table, and its history,
// CSV, plots and answers are the café's business, so every route but the
// page's own files and the login asks for a session, opened with the
// floor's secret (a PIN or a generated secret). One guard counts the
// wrong secrets across every connection (package lockout): after a few
// free tries each failure doubles the wait before the next attempt is
// even compared, up to a lockout.

// Errors of a floor login.
var (
	// ErrBadFloorSecret is a wrong floor secret.
	ErrBadFloorSecret = errors.New("hub: wrong floor secret")
	// ErrFloorLocked is an attempt made while wrong ones make the guard
	// wait; see FloorLockError.
	ErrFloorLocked = errors.New("hub: floor access locked after wrong secrets")
)

// FloorLockError tells until when the guard refuses every attempt; it
// wraps ErrFloorLocked.
type FloorLockError = lockout.Error

// Floor sessions.
const (
	// FloorSession is how long a floor login lasts (a shift).
	FloorSession = 12 * time.Hour
	// floorCookie is the session's cookie.
	floorCookie = "comptoir-floor"
	// maxSessions bounds the open sessions (the oldest goes first).
	maxSessions = 256
)

// floorPolicy is the floor guard's lockout.
var floorPolicy = lockout.Default

// floorGuard checks the floor's secret and keeps the sessions; safe for
// concurrent use.
type floorGuard struct {
	secret string
	now    func() time.Time
	tries  *lockout.Guard

	mu       sync.Mutex
	sessions map[string]time.Time // SHA-256 of a session's token: its end; guarded by mu
}

func newFloorGuard(secret string, now func() time.Time) *floorGuard {
	return &floorGuard{secret: secret, now: now, tries: lockout.New(floorPolicy), sessions: map[string]time.Time{}}
}

// login checks a secret and opens a session: its token.
func (g *floorGuard) login(secret string) (string, error) {
	now := g.now()
	a := g.tries.Try(now, func() bool { return subtle.ConstantTimeCompare([]byte(secret), []byte(g.secret)) == 1 })
	switch {
	case a.Refused:
		return "", &FloorLockError{Until: a.Until, Locked: ErrFloorLocked}
	case !a.Right:
		return "", ErrBadFloorSecret
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for k, end := range g.sessions {
		if !now.Before(end) {
			delete(g.sessions, k)
		}
	}
	if len(g.sessions) >= maxSessions {
		var oldest string
		for k, end := range g.sessions {
			if oldest == "" || end.Before(g.sessions[oldest]) {
				oldest = k
			}
		}
		delete(g.sessions, oldest)
	}
	b := make([]byte, 32)
	rand.Read(b)
	tok := hex.EncodeToString(b)
	g.sessions[tokenSum(tok)] = now.Add(FloorSession)
	return tok, nil
}

// valid reports whether token is an open session's.
func (g *floorGuard) valid(token string) bool {
	if token == "" {
		return false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	end, ok := g.sessions[tokenSum(token)]
	return ok && g.now().Before(end)
}

func (g *floorGuard) logout(token string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.sessions, tokenSum(token))
}

func tokenSum(tok string) string {
	h := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(h[:])
}

// openPaths are what the floor serves without a session: the page's own
// files (it shows the login) and the login itself.
func openPath(r *http.Request) bool {
	switch {
	case r.Method == http.MethodPost && (r.URL.Path == "/api/login" || r.URL.Path == "/api/logout"):
		return true
	case r.Method == http.MethodGet || r.Method == http.MethodHead:
		return !strings.HasPrefix(r.URL.Path, "/api/") && r.URL.Path != "/ws"
	}
	return false
}

// sameOrigin reports whether a state-changing request or a websocket comes
// from the floor's own page: an Origin naming the request's host (a
// browser always sends it on these).
func sameOrigin(r *http.Request) bool {
	o := r.Header.Get("Origin")
	if o == "" {
		return false
	}
	u, err := url.Parse(o)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && strings.EqualFold(u.Host, r.Host)
}

// guard wraps the floor's routes: a foreign Origin is refused on every
// POST and websocket; without a session, everything but the page's files
// and the login answers 401.
func (g *floorGuard) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		changes := r.Method != http.MethodGet && r.Method != http.MethodHead
		upgrade := strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
		if (changes || upgrade) && !sameOrigin(r) {
			floorError(w, http.StatusForbidden, "request from another site, or with no Origin: refused", "requête d'un autre site, ou sans origine : refusée")
			return
		}
		if g != nil && !openPath(r) {
			c, err := r.Cookie(floorCookie)
			if err != nil || !g.valid(c.Value) {
				floorError(w, http.StatusUnauthorized, "enter the floor's secret", "entrez le code de la salle")
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// serveLogin opens a session: POST /api/login with the form value secret.
func (g *floorGuard) serveLogin(w http.ResponseWriter, r *http.Request) {
	if g == nil {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxRead)
	tok, err := g.login(r.FormValue("secret"))
	var lock *FloorLockError
	switch {
	case errors.As(err, &lock):
		d := max(time.Second, lock.Until.Sub(g.now()))
		w.Header().Set("Retry-After", strconv.Itoa(int(d.Seconds()+0.5)))
		floorError(w, http.StatusTooManyRequests, "locked after wrong secrets until "+lock.Until.Format("15:04:05"), "bloqué après des codes erronés jusqu'à "+lock.Until.Format("15:04:05"))
		return
	case err != nil:
		floorError(w, http.StatusForbidden, "wrong secret", "code erroné")
		return
	}
	http.SetCookie(w, &http.Cookie{Name: floorCookie, Value: tok, Path: "/", MaxAge: int(FloorSession.Seconds()),
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
	w.WriteHeader(http.StatusNoContent)
}

func (g *floorGuard) serveLogout(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(floorCookie); err == nil && g != nil {
		g.logout(c.Value)
	}
	http.SetCookie(w, &http.Cookie{Name: floorCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode})
	w.WriteHeader(http.StatusNoContent)
}

// floorError writes a JSON error in both languages.
func floorError(w http.ResponseWriter, code int, en, fr string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]string{"en": en, "fr": fr})
}

// FloorSecret returns the floor's secret: pin when set, else the one kept
// in file, made (16 characters, mode 0600) when missing; made reports
// that it was just made, to be told once.
func FloorSecret(pin, file string) (secret string, made bool, err error) {
	if pin != "" {
		return pin, false, nil
	}
	data, err := os.ReadFile(file)
	switch {
	case err == nil:
		if s := strings.TrimSpace(string(data)); s != "" {
			return s, false, nil
		}
		return "", false, fmt.Errorf("hub: %s is empty: delete it to have a new floor secret made", file)
	case !errors.Is(err, os.ErrNotExist):
		return "", false, fmt.Errorf("hub: floor secret: %w", err)
	}
	b := make([]byte, 10)
	rand.Read(b)
	secret = strings.ToLower(base32.StdEncoding.EncodeToString(b)) // 16 characters, 80 bits
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return "", false, fmt.Errorf("hub: floor secret: %w", err)
	}
	if err := os.WriteFile(file, []byte(secret+"\n"), 0o600); err != nil {
		return "", false, fmt.Errorf("hub: floor secret: %w", err)
	}
	return secret, true, nil
}
