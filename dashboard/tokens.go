package dashboard

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"comptoir/engine"
)

// ErrUnknownToken is returned for a seat token the dashboard never gave or
// has revoked.
var ErrUnknownToken = errors.New("unknown seat token")

// ErrSeatTaken is returned when a phone tries to join a seat another phone
// holds.
var ErrSeatTaken = errors.New("seat already taken")

// ErrBadJoinCode is returned for a join link that is not the seat's
// current one (an old QR code, or a guess).
var ErrBadJoinCode = errors.New("join link out of date")

// tokenFileVersion is the version of the token file's format.
const tokenFileVersion = 1

// tokens is the set of seat tokens. A token is 32 random bytes, given to
// a phone when it joins a seat and kept there; the store keeps only its
// SHA-256, so the file on disk gives nobody a seat.
type tokens struct {
	path string // "" keeps them in memory only

	mu sync.Mutex
	// game is the journal's game the tokens are for; guarded by mu.
	game int64
	// bySum maps a token's hex SHA-256 to its seat; guarded by mu.
	bySum map[string]engine.Seat
	// issued is when each token was given, by SHA-256; guarded by mu.
	issued map[string]time.Time
	// codes are the seats' current join codes, guarded by mu; a code is
	// replaced when its seat is taken.
	codes map[engine.Seat]string
	// codeAt is when each code was made, guarded by mu; a code expires
	// after ttl (see joincode.go).
	codeAt map[engine.Seat]time.Time
	ttl    time.Duration
	now    func() time.Time
}

type tokenFile struct {
	Version int            `json:"version"`
	Game    int64          `json:"game"`
	Seats   []tokenFileRow `json:"seats"`
}

type tokenFileRow struct {
	Sum    string      `json:"sha256"`
	Seat   engine.Seat `json:"seat"`
	Issued time.Time   `json:"issued"`
}

// loadTokens reads the token file at path; a missing file is an empty set.
func loadTokens(path string) (*tokens, error) {
	t := &tokens{path: path, bySum: map[string]engine.Seat{}, issued: map[string]time.Time{}, codes: map[engine.Seat]string{},
		codeAt: map[engine.Seat]time.Time{}, ttl: DefaultJoinCodeTTL, now: time.Now}
	if path == "" {
		return t, nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return t, nil
	}
	if err != nil {
		return nil, fmt.Errorf("seat tokens: %w", err)
	}
	var f tokenFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("seat tokens %s: %w (delete the file to make every phone join again)", path, err)
	}
	if f.Version != tokenFileVersion {
		return nil, fmt.Errorf("seat tokens %s: version %d, want %d (delete the file to make every phone join again)", path, f.Version, tokenFileVersion)
	}
	t.game = f.Game
	for _, r := range f.Seats {
		t.bySum[r.Sum] = r.Seat
		t.issued[r.Sum] = r.Issued
	}
	return t, nil
}

func sum(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("dashboard: crypto/rand: %v", err)) // never fails on Linux
	}
	return hex.EncodeToString(b)
}

// seat returns the seat of token.
func (t *tokens) seat(token string) (engine.Seat, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s, ok := t.bySum[sum(token)]
	if !ok {
		return engine.NoSeat, ErrUnknownToken
	}
	return s, nil
}

// taken reports whether a phone holds seat.
func (t *tokens) taken(seat engine.Seat) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.takenLocked(seat)
}

func (t *tokens) takenLocked(seat engine.Seat) bool {
	for _, s := range t.bySum {
		if s == seat {
			return true
		}
	}
	return false
}

// code returns the current join code of a free seat.
func (t *tokens) code(seat engine.Seat) string {
	return t.codeFor(seat, t.now(), t.ttl)
}

// join gives a new token for seat if code is the seat's join code and no
// phone holds the seat.
func (t *tokens) join(seat engine.Seat, code string, at time.Time) (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	// A taken seat says so, whatever the code: its code went with the
	// phone that took it (a seat taken is public: the table shows it).
	if t.takenLocked(seat) {
		return "", ErrSeatTaken
	}
	if !t.codeValidLocked(seat, code, at, t.ttl) {
		return "", ErrBadJoinCode
	}
	tok := randomHex(32)
	t.bySum[sum(tok)] = seat
	t.issued[sum(tok)] = at.UTC()
	delete(t.codes, seat)
	if err := t.saveLocked(at); err != nil {
		delete(t.bySum, sum(tok))
		delete(t.issued, sum(tok))
		return "", err
	}
	return tok, nil
}

// free revokes every token of seat, so that another phone may join it.
func (t *tokens) free(seat engine.Seat, at time.Time) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	for k, s := range t.bySum {
		if s == seat {
			delete(t.bySum, k)
			delete(t.issued, k)
		}
	}
	delete(t.codes, seat)
	return t.saveLocked(at)
}

// setGame makes the tokens those of game id: when a new game starts at
// the table, every seat is free again. It reports whether seats were
// freed.
func (t *tokens) setGame(id int64, at time.Time) (bool, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if id == t.game {
		return false, nil
	}
	t.game = id
	freed := len(t.bySum) > 0
	clear(t.bySum)
	clear(t.issued)
	clear(t.codes)
	return freed, t.saveLocked(at)
}

// saveLocked writes the file atomically (temporary file, sync, rename).
func (t *tokens) saveLocked(at time.Time) error {
	if t.path == "" {
		return nil
	}
	f := tokenFile{Version: tokenFileVersion, Game: t.game, Seats: []tokenFileRow{}}
	for k, s := range t.bySum {
		f.Seats = append(f.Seats, tokenFileRow{Sum: k, Seat: s, Issued: t.issued[k]})
	}
	slices.SortFunc(f.Seats, func(a, b tokenFileRow) int { return int(a.Seat - b.Seat) })
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(t.path), ".tokens-*")
	if err != nil {
		return fmt.Errorf("seat tokens: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("seat tokens: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("seat tokens: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("seat tokens: %w", err)
	}
	if err := os.Rename(tmp.Name(), t.path); err != nil {
		return fmt.Errorf("seat tokens: %w", err)
	}
	return nil
}
