package dashboard

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base32"
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

	"comptoir/engine"
	"comptoir/internal/lockout"
)

// Staff authentication: one guard checks the staff secret for every route
// (the websocket's hello and staff messages, the HTTP header of the
// downloads, the screen pairing), counts the failures across all
// connections, and makes the next attempt wait longer after each one
// (package lockout): after a few free tries each failure doubles the
// wait, up to a lockout.
// The table's screen is told of the lockout (frame's staff_lock).

// ErrBadStaffSecret is a wrong staff secret (PIN).
var ErrBadStaffSecret = errors.New("wrong staff secret")

// ErrStaffLocked is an attempt made while failed ones make the guard wait;
// the secret was not even compared. See [StaffLockError].
var ErrStaffLocked = errors.New("staff access locked after wrong secrets")

// ErrStaffOff is an attempt on a dashboard without a staff secret.
var ErrStaffOff = errors.New("no staff access on this table")

// ErrStaffExpired is a staff request on a connection whose staff session
// has ended: enter the secret again.
var ErrStaffExpired = errors.New("staff session expired")

// ErrReplayed is a staff message whose nonce was already used.
var ErrReplayed = errors.New("staff message replayed")

// StaffLockError tells until when the guard refuses every attempt; it
// wraps ErrStaffLocked.
type StaffLockError = lockout.Error

// Staff sessions.
const (
	// DefaultStaffSession is how long a staff login lasts.
	DefaultStaffSession = 2 * time.Hour
	// maxNonces bounds the remembered nonces of staff messages.
	maxNonces = 4096
)

// staffPolicy is the staff guard's lockout.
var staffPolicy = lockout.Default

// staffGuard checks the staff secret; safe for concurrent use.
type staffGuard struct {
	secret  string
	clock   Clock
	session time.Duration
	// changed is called (outside the lock) when the lockout begins or
	// ends, so the table's screen shows it.
	changed func()
	tries   *lockout.Guard

	mu     sync.Mutex
	nonces map[string]time.Time // used nonces and when they may be forgotten; guarded by mu
}

func newStaffGuard(secret string, clock Clock, session time.Duration, changed func()) *staffGuard {
	if session <= 0 {
		session = DefaultStaffSession
	}
	if changed == nil {
		changed = func() {}
	}
	return &staffGuard{secret: secret, clock: clock, session: session, changed: changed, tries: lockout.New(staffPolicy), nonces: map[string]time.Time{}}
}

// login checks a secret and returns until when the staff session it opens
// lasts. Every route goes through it. An attempt from the table's screen
// (screen: the box itself or a paired device) is counted but never made
// to wait, so that guessing from the café's network cannot lock the staff
// out of their own table.
func (g *staffGuard) login(secret string, screen bool) (time.Time, error) {
	if g.secret == "" {
		return time.Time{}, ErrStaffOff
	}
	now := g.clock.Now()
	try := g.tries.Try
	if screen {
		try = g.tries.TryTrusted
	}
	a := try(now, func() bool { return subtle.ConstantTimeCompare([]byte(secret), []byte(g.secret)) == 1 })
	if a.Changed {
		g.changed()
	}
	switch {
	case a.Refused:
		return time.Time{}, &StaffLockError{Until: a.Until, Locked: ErrStaffLocked}
	case !a.Right:
		return time.Time{}, ErrBadStaffSecret
	}
	return now.Add(g.session), nil
}

// lock reports until when attempts are refused (zero if they are not)
// and how many failed in a row, for the table's screen.
func (g *staffGuard) lock() (time.Time, int) {
	return g.tries.Lock(g.clock.Now())
}

// useNonce records a staff message's nonce; false if it was used before
// (a replayed message) or too many are remembered to tell.
func (g *staffGuard) useNonce(nonce string) bool {
	now := g.clock.Now()
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, ok := g.nonces[nonce]; ok {
		return false
	}
	if len(g.nonces) >= maxNonces {
		for n, until := range g.nonces {
			if now.After(until) {
				delete(g.nonces, n)
			}
		}
		if len(g.nonces) >= maxNonces {
			return false
		}
	}
	// A nonce is remembered as long as a session that could send it lasts.
	g.nonces[nonce] = now.Add(g.session)
	return true
}

// Staff secret made at the first start when the configuration sets none.
const (
	// staffSecretLen is the generated secret's length: 16 characters of
	// base 32 (80 bits).
	staffSecretLen = 16
	// weakPINLen: a configured PIN shorter than this is weak (and is
	// warned about).
	weakPINLen = 8
)

// GenerateStaffSecret returns a new random staff secret: 16 characters
// of base 32 in groups of four, easy to type.
func GenerateStaffSecret() string {
	b := make([]byte, 10)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("dashboard: crypto/rand: %v", err)) // never fails on Linux
	}
	s := strings.ToLower(base32.StdEncoding.EncodeToString(b))
	return s[0:4] + "-" + s[4:8] + "-" + s[8:12] + "-" + s[12:16]
}

// StaffSecret returns the staff secret kept in the file at path (only its
// owner may read it, mode 0600), making and writing one when the file
// does not exist; created tells it was just made. A file that others may
// read is refused.
func StaffSecret(path string) (secret string, created bool, err error) {
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
		fi, err := os.Stat(path)
		if err != nil {
			return "", false, fmt.Errorf("staff secret: %w", err)
		}
		if fi.Mode().Perm()&0o077 != 0 {
			return "", false, fmt.Errorf("staff secret %s: readable by others (mode %v): chmod 600 it, or delete it to make a new one", path, fi.Mode().Perm())
		}
		secret = strings.TrimSpace(string(data))
		if len(secret) < 8 || strings.ContainsAny(secret, " \t\n") {
			return "", false, fmt.Errorf("staff secret %s: want one word of at least 8 characters, or delete the file to make a new one", path)
		}
		return secret, false, nil
	case !errors.Is(err, os.ErrNotExist):
		return "", false, fmt.Errorf("staff secret: %w", err)
	}
	secret = GenerateStaffSecret()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", false, fmt.Errorf("staff secret: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", false, fmt.Errorf("staff secret: %w", err)
	}
	if _, err := f.WriteString(secret + "\n"); err != nil {
		f.Close()
		return "", false, fmt.Errorf("staff secret: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return "", false, fmt.Errorf("staff secret: %w", err)
	}
	if err := f.Close(); err != nil {
		return "", false, fmt.Errorf("staff secret: %w", err)
	}
	return secret, true, nil
}

// WeakStaffSecret tells why a configured secret is easy to guess, or "".
func WeakStaffSecret(secret string) string {
	if len(secret) < weakPINLen {
		return fmt.Sprintf("the staff PIN has %d characters: anyone on the café's network gets a few guesses an hour at it; use %d or more, or remove staff_pin to have a random secret made", len(secret), weakPINLen)
	}
	return ""
}

// staffReply is the error reply to a failed staff login on the websocket.
func staffReply(id int64, err error) []byte {
	var lock *StaffLockError
	switch {
	case errors.As(err, &lock):
		at := lock.Until.Format(time.TimeOnly)
		return errorReply(id, "staff-locked", "staff access is locked after wrong secrets until "+at, "l'accès du personnel est bloqué après des codes erronés jusqu'à "+at)
	case errors.Is(err, ErrStaffOff):
		return errorReply(id, "bad-pin", "this table has no staff access", "cette table n'a pas d'accès du personnel")
	case errors.Is(err, ErrStaffExpired):
		return errorReply(id, "staff-expired", "the staff session has ended: enter the secret again", "la session du personnel est finie : entrez à nouveau le code")
	case errors.Is(err, ErrReplayed):
		return errorReply(id, "replayed", "this staff message was already received: not done again", "ce message du personnel a déjà été reçu : il n'est pas refait")
	}
	return errorReply(id, "bad-pin", "wrong staff PIN", "code du personnel erroné")
}

// staffLogin is a websocket's staff login: the secret goes through the
// guard; the connection is staff until the session's end.
func (s *Server) staffLogin(c *client, st *connState, id int64, secret string) bool {
	until, err := s.guard.login(secret, c.screen)
	if err != nil {
		s.reply(c, staffReply(id, err))
		return false
	}
	st.staff, st.staffUntil, st.token = true, until, ""
	return true
}

// staffAllowed checks a staff message: a connection logged in as staff
// whose session lasts, or the secret in the message (through the guard);
// and a nonce never seen before. It replies with the error otherwise.
func (s *Server) staffAllowed(c *client, st *connState, m Message) bool {
	if st.staff && !s.opts.Clock.Now().Before(st.staffUntil) {
		st.staff = false
		if m.PIN == "" {
			s.reply(c, staffReply(m.ID, ErrStaffExpired))
			return false
		}
	}
	if !st.staff || m.PIN != "" {
		if _, err := s.guard.login(m.PIN, c.screen); err != nil {
			s.reply(c, staffReply(m.ID, err))
			return false
		}
	}
	if !s.guard.useNonce(m.Nonce) {
		s.reply(c, staffReply(m.ID, ErrReplayed))
		return false
	}
	return true
}

// staffLock is the lockout shown on the table's screen and staff page.
type staffLock struct {
	Until    time.Time `json:"until"`
	Failures int       `json:"failures"`
}

func (s *Server) staffLockNow() *staffLock {
	until, n := s.guard.lock()
	if until.IsZero() {
		return nil
	}
	return &staffLock{Until: until.UTC(), Failures: n}
}

// staffHTTP is the staff login of an HTTP route: the secret in
// StaffPINHeader goes through the guard. Without the header it calls
// none (which answers); it answers a failed login itself.
func (s *Server) staffHTTP(w http.ResponseWriter, r *http.Request, none func()) bool {
	secret := r.Header.Get(StaffPINHeader)
	if secret == "" {
		none()
		return false
	}
	if _, err := s.guard.login(secret, s.trustedScreen(r)); err != nil {
		staffHTTPError(w, err)
		return false
	}
	return true
}

// tellStaff makes the connection the staff's audience until the session's
// end, when the hub makes it the table's again.
func (s *Server) tellStaff(ctx context.Context, c *client, until time.Time) bool {
	select {
	case s.identify <- identity{c: c, aud: audience{role: roleStaff, seat: engine.NoSeat}, until: until}:
		return true
	case <-ctx.Done():
		return false
	}
}

// checkStaffTexts checks a staff message's free texts.
func checkStaffTexts(m Message) error {
	if err := checkFreeText("reason", m.Reason, maxReasonRunes); err != nil {
		return err
	}
	return checkFreeText("square", m.Square, maxNameRunes)
}

// qrAllowed reports whether r may have seat's QR code: it names the
// seat's current join code (?c= the join link, as the screen's page
// asks), so it draws only what its caller already has.
func (s *Server) qrAllowed(r *http.Request, seat engine.Seat) bool {
	link, err := url.Parse(r.URL.Query().Get("c"))
	if err != nil {
		return false
	}
	code := link.Query().Get("code")
	return code != "" && link.Query().Get("seat") == strconv.Itoa(int(seat)+1) && s.tok.hasCode(seat, code, s.opts.Clock.Now(), s.opts.JoinCodeTTL)
}

// setSecurityDefaults fills the security options left zero.
func (o *Opts) setSecurityDefaults() {
	if o.StaffSession <= 0 {
		o.StaffSession = DefaultStaffSession
	}
	if o.JoinCodeTTL <= 0 {
		o.JoinCodeTTL = DefaultJoinCodeTTL
	}
	if o.MaxConns <= 0 {
		o.MaxConns = DefaultMaxConns
	}
	if o.MaxConnsPerAddr <= 0 {
		o.MaxConnsPerAddr = DefaultMaxConnsPerAddr
	}
	if o.GlobalRate <= 0 {
		o.GlobalRate = DefaultGlobalRate
	}
	if o.GlobalBurst <= 0 {
		o.GlobalBurst = DefaultGlobalBurst
	}
}
