package dashboard

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"comptoir/engine"
)

// Seats only from the table. A free seat's join code is shown on the
// table's screen only, the trusted display: a connection from one of the
// screen's addresses (Opts.ScreenAddrs; by default the box's own, on
// loopback) or from a device the staff paired once (POST /api/pair with
// the staff secret sets its cookie). The other sockets get no code, and
// /qr/N draws only the code its caller already has. A code serves once
// (joining replaces it), expires (Opts.JoinCodeTTL) and a freed seat gets
// a new one; a seat a phone holds is re-claimed only when the staff free
// it (or that phone's own token).

// DefaultJoinCodeTTL is how long a join code is good for.
const DefaultJoinCodeTTL = 10 * time.Minute

// screenCookie is the cookie of a paired screen.
const screenCookie = "comptoir_screen"

// pairedScreens are the devices the staff paired as the table's screen,
// by their cookie's SHA-256, kept in a file beside the seat tokens (so a
// device is paired once, not after every restart); safe for concurrent
// use.
type pairedScreens struct {
	path string // "" keeps them in memory only

	mu   sync.Mutex
	sums map[string]bool // guarded by mu
}

// screensPath is the file of the paired screens beside the token file.
func screensPath(tokenFile string) string {
	if tokenFile == "" {
		return ""
	}
	return strings.TrimSuffix(tokenFile, filepath.Ext(tokenFile)) + ".screens.json"
}

// load reads the paired screens' file; a missing file is none.
func (p *pairedScreens) load(path string) error {
	p.path, p.sums = path, map[string]bool{}
	if path == "" {
		return nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("paired screens: %w", err)
	}
	var sums []string
	if err := json.Unmarshal(data, &sums); err != nil {
		return fmt.Errorf("paired screens %s: %w (delete the file and pair the screens again)", path, err)
	}
	for _, s := range sums {
		p.sums[s] = true
	}
	return nil
}

// add pairs a new device and returns its cookie.
func (p *pairedScreens) add() (string, error) {
	tok := randomHex(32)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sums == nil {
		p.sums = map[string]bool{}
	}
	p.sums[sum(tok)] = true
	if p.path == "" {
		return tok, nil
	}
	sums := make([]string, 0, len(p.sums))
	for s := range p.sums {
		sums = append(sums, s)
	}
	slices.Sort(sums)
	data, _ := json.Marshal(sums)
	tmp := p.path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		delete(p.sums, sum(tok))
		return "", fmt.Errorf("paired screens: %w", err)
	}
	if err := os.Rename(tmp, p.path); err != nil {
		delete(p.sums, sum(tok))
		return "", fmt.Errorf("paired screens: %w", err)
	}
	return tok, nil
}

func (p *pairedScreens) has(tok string) bool {
	if tok == "" {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.sums[sum(tok)]
}

// trustedScreen reports whether r comes from the table's screen.
func (s *Server) trustedScreen(r *http.Request) bool {
	ip := net.ParseIP(remoteIP(r.RemoteAddr))
	if ip != nil {
		if len(s.opts.ScreenAddrs) == 0 && ip.IsLoopback() {
			return true
		}
		for _, a := range s.opts.ScreenAddrs {
			if sip := net.ParseIP(a); sip != nil && sip.Equal(ip) {
				return true
			}
		}
	}
	c, err := r.Cookie(screenCookie)
	return err == nil && s.screens.has(c.Value)
}

// servePair makes the requesting device a table's screen: POST /api/pair
// with the staff secret in StaffPINHeader (through the staff guard) sets
// the screen's cookie.
func (s *Server) servePair(w http.ResponseWriter, r *http.Request) {
	if !s.global.allow() {
		httpError(w, http.StatusTooManyRequests, "too many requests: wait a moment", "trop de requêtes : attendez un instant")
		return
	}
	if _, err := s.guard.login(r.Header.Get(StaffPINHeader), s.trustedScreen(r)); err != nil {
		staffHTTPError(w, err)
		return
	}
	cookie, err := s.screens.add()
	if err != nil {
		s.logf("dashboard: %v", err)
		httpError(w, http.StatusInternalServerError, "the table could not save the pairing", "la table n'a pas pu enregistrer l'appairage")
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name: screenCookie, Value: cookie, Path: "/", MaxAge: 400 * 24 * 3600,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil,
	})
	s.logf("dashboard: a device (%s) was paired as the table's screen", remoteIP(r.RemoteAddr))
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]string{"en": "this device is now the table's screen", "fr": "cet appareil est maintenant l'écran de la table"})
}

// staffHTTPError answers a failed staff login on an HTTP route.
func staffHTTPError(w http.ResponseWriter, err error) {
	var lock *StaffLockError
	switch {
	case errors.As(err, &lock):
		w.Header().Set("Retry-After", retryAfter(lock.Until))
		httpError(w, http.StatusTooManyRequests, "staff access is locked after wrong secrets until "+lock.Until.Format("15:04:05"), "l'accès du personnel est bloqué après des codes erronés jusqu'à "+lock.Until.Format("15:04:05"))
	case errors.Is(err, ErrStaffOff):
		httpError(w, http.StatusForbidden, "this table has no staff access", "cette table n'a pas d'accès du personnel")
	default:
		httpError(w, http.StatusForbidden, "wrong staff secret", "code du personnel erroné")
	}
}

func retryAfter(until time.Time) string {
	d := time.Until(until)
	if d < time.Second {
		d = time.Second
	}
	return strconv.Itoa(int(d.Seconds() + 0.5))
}

// codeFor returns seat's current join code, a new one when it expired.
func (t *tokens) codeFor(seat engine.Seat, now time.Time, ttl time.Duration) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if c, ok := t.codes[seat]; ok && now.Before(t.codeAt[seat].Add(ttl)) {
		return c
	}
	c := randomHex(8)
	t.codes[seat], t.codeAt[seat] = c, now
	return c
}

// codeValid reports whether code is seat's current, unexpired join code.
func (t *tokens) codeValidLocked(seat engine.Seat, code string, now time.Time, ttl time.Duration) bool {
	want, ok := t.codes[seat]
	return ok && now.Before(t.codeAt[seat].Add(ttl)) && subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1
}

// codesExpired reports whether a shown code has expired, so the screen
// must get a new one.
func (t *tokens) codesExpired(now time.Time, ttl time.Duration) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for seat := range t.codes {
		if !now.Before(t.codeAt[seat].Add(ttl)) {
			return true
		}
	}
	return false
}

// hasCode reports whether code is seat's current join code (for /qr/N:
// it draws only a code its caller has).
func (t *tokens) hasCode(seat engine.Seat, code string, now time.Time, ttl time.Duration) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.codeValidLocked(seat, code, now, ttl)
}
