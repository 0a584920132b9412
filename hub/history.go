package hub

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"comptoir/cafe"
	"comptoir/engine"

	_ "modernc.org/sqlite" // the database/sql driver "sqlite"
)

// History is the hub's SQLite store: one row per step received (so a step
// sent twice is recorded once) and one per finished play.
type History struct {
	db *sql.DB
	// The statements of every step, prepared once (the driver keeps
	// them parsed).
	insertStep, insertPlay *sql.Stmt
}

const historySchema = `
CREATE TABLE IF NOT EXISTS steps (
	tbl  TEXT NOT NULL,
	game INTEGER NOT NULL,
	seq  INTEGER NOT NULL,
	at   TEXT NOT NULL,
	PRIMARY KEY (tbl, game, seq)
);
CREATE TABLE IF NOT EXISTS plays (
	tbl      TEXT NOT NULL,
	game     INTEGER NOT NULL,
	name     TEXT NOT NULL,
	variant  TEXT NOT NULL,
	players  TEXT NOT NULL,
	started  TEXT NOT NULL,
	finished TEXT NOT NULL,
	outcome  TEXT NOT NULL,
	result   TEXT,
	PRIMARY KEY (tbl, game)
);
CREATE TABLE IF NOT EXISTS acks (
	id TEXT PRIMARY KEY,
	at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS downs (
	tbl    TEXT NOT NULL,
	device TEXT NOT NULL,
	since  TEXT NOT NULL,
	PRIMARY KEY (tbl, device)
);
`

// OpenHistory opens or creates the history at path.
func OpenHistory(path string) (*History, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=busy_timeout(5000)")
	if err != nil {
		return nil, fmt.Errorf("history %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(historySchema); err != nil {
		db.Close()
		return nil, fmt.Errorf("history %s: %w", path, err)
	}
	h := &History{db: db}
	if h.insertStep, err = db.Prepare(`INSERT OR IGNORE INTO steps (tbl, game, seq, at) VALUES (?, ?, ?, ?)`); err == nil {
		h.insertPlay, err = db.Prepare(`INSERT OR IGNORE INTO plays (tbl, game, name, variant, players, started, finished, outcome, result) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("history %s: %w", path, err)
	}
	return h, nil
}

// Close closes the history.
func (h *History) Close() error {
	h.insertStep.Close()
	h.insertPlay.Close()
	return h.db.Close()
}

// Record records a step, or a play at its end; it reports whether the
// step was new (false: a step received before).
func (h *History) Record(s cafe.Step) (bool, error) {
	fresh, err := h.RecordAll([]cafe.Step{s})
	if err != nil {
		return false, err
	}
	return fresh[0], nil
}

// RecordAll records steps in one transaction; fresh[i] tells whether
// steps[i] was new.
func (h *History) RecordAll(steps []cafe.Step) (fresh []bool, err error) {
	tx, err := h.db.Begin()
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	insStep, insPlay := tx.Stmt(h.insertStep), tx.Stmt(h.insertPlay)
	for _, s := range steps {
		n, err := record(insStep, insPlay, s)
		if err != nil {
			return nil, err
		}
		fresh = append(fresh, n)
	}
	return fresh, tx.Commit()
}

func record(insStep, insPlay *sql.Stmt, s cafe.Step) (bool, error) {
	res, err := insStep.Exec(s.Table, s.Game, s.Seq, s.At.UTC().Format(time.RFC3339Nano))
	if err != nil {
		return false, fmt.Errorf("history: %w", err)
	}
	n, _ := res.RowsAffected()
	if n == 1 && s.End {
		players, _ := json.Marshal(s.Players)
		var result []byte
		if s.Result != nil {
			result, _ = json.Marshal(s.Result)
		}
		if _, err := insPlay.Exec(s.Table, s.Game, s.Name, s.Variant, string(players), s.Started.UTC().Format(time.RFC3339Nano), s.At.UTC().Format(time.RFC3339Nano), s.Outcome, nullable(result)); err != nil {
			return false, fmt.Errorf("history: %w", err)
		}
	}
	return n == 1, nil
}

func nullable(b []byte) any {
	if b == nil {
		return nil
	}
	return string(b)
}

// RecordAck records that the floor's staff acknowledged alert id at at,
// so the alert stays acknowledged after the hub restarts.
func (h *History) RecordAck(id string, at time.Time) error {
	if _, err := h.db.Exec(`INSERT OR IGNORE INTO acks (id, at) VALUES (?, ?)`, id, at.UTC().Format(time.RFC3339Nano)); err != nil {
		return fmt.Errorf("history: acknowledgement: %w", err)
	}
	return nil
}

// RecordDowns keeps when devices were first seen down (a zero Since: the
// device is up again, forgotten), so a device alert keeps its date, its
// id and its acknowledgement after the hub restarts.
func (h *History) RecordDowns(changes []DeviceDown) error {
	tx, err := h.db.Begin()
	if err != nil {
		return fmt.Errorf("history: devices down: %w", err)
	}
	defer tx.Rollback()
	for _, c := range changes {
		if c.Since.IsZero() {
			_, err = tx.Exec(`DELETE FROM downs WHERE tbl = ? AND device = ?`, c.Table, c.Device)
		} else {
			_, err = tx.Exec(`INSERT OR REPLACE INTO downs (tbl, device, since) VALUES (?, ?, ?)`, c.Table, c.Device, c.Since.UTC().Format(time.RFC3339Nano))
		}
		if err != nil {
			return fmt.Errorf("history: devices down: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("history: devices down: %w", err)
	}
	return nil
}

// Downs are the devices down kept by RecordDowns: when each was first
// seen down, by table and device name. Those down since before since are
// forgotten, as their acknowledgements are (a table gone for good leaves
// no row for ever).
func (h *History) Downs(since time.Time) (map[string]map[string]time.Time, error) {
	if _, err := h.db.Exec(`DELETE FROM downs WHERE since < ?`, since.UTC().Format(time.RFC3339Nano)); err != nil {
		return nil, fmt.Errorf("history: devices down: %w", err)
	}
	rows, err := h.db.Query(`SELECT tbl, device, since FROM downs`)
	if err != nil {
		return nil, fmt.Errorf("history: devices down: %w", err)
	}
	defer rows.Close()
	out := map[string]map[string]time.Time{}
	for rows.Next() {
		var table, device, since string
		if err := rows.Scan(&table, &device, &since); err != nil {
			return nil, fmt.Errorf("history: devices down: %w", err)
		}
		at, err := time.Parse(time.RFC3339Nano, since)
		if err != nil {
			return nil, fmt.Errorf("history: devices down: %s/%s: %w", table, device, err)
		}
		if out[table] == nil {
			out[table] = map[string]time.Time{}
		}
		out[table][device] = at
	}
	return out, rows.Err()
}

// AckKept is how long an acknowledgement is kept: an alert's id names its
// table, kind and start, and no alert lasts this long.
const AckKept = 30 * 24 * time.Hour

// Acks are the alerts acknowledged since since (older ones are forgotten).
func (h *History) Acks(since time.Time) (map[string]bool, error) {
	if _, err := h.db.Exec(`DELETE FROM acks WHERE at < ?`, since.UTC().Format(time.RFC3339Nano)); err != nil {
		return nil, fmt.Errorf("history: acknowledgements: %w", err)
	}
	rows, err := h.db.Query(`SELECT id FROM acks`)
	if err != nil {
		return nil, fmt.Errorf("history: acknowledgements: %w", err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("history: acknowledgements: %w", err)
		}
		out[id] = true
	}
	return out, rows.Err()
}

// Play is a finished play.
type Play struct {
	Table    string         `json:"table"`
	Game     int64          `json:"game"`
	Name     string         `json:"name"`
	Variant  string         `json:"variant"`
	Players  []string       `json:"players"`
	Started  time.Time      `json:"started"`
	Finished time.Time      `json:"finished"`
	Outcome  string         `json:"outcome"`
	Result   *engine.Result `json:"result,omitempty"`
}

// Duration is how long the play lasted.
func (p Play) Duration() time.Duration { return p.Finished.Sub(p.Started) }

// Winners are the winners' names.
func (p Play) Winners() []string {
	var out []string
	if p.Result == nil {
		return out
	}
	for _, s := range p.Result.Winners {
		if int(s) >= 0 && int(s) < len(p.Players) {
			out = append(out, p.Players[s])
		}
	}
	return out
}

// Filter selects plays; zero fields select all.
type Filter struct {
	Name    string
	Table   string
	Players int
	From    time.Time
	To      time.Time
}

// Plays lists the finished plays the filter selects, latest first.
func (h *History) Plays(f Filter) ([]Play, error) {
	rows, err := h.db.Query(`SELECT tbl, game, name, variant, players, started, finished, outcome, result FROM plays ORDER BY finished DESC`)
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	defer rows.Close()
	var out []Play
	for rows.Next() {
		var p Play
		var players, started, finished string
		var result sql.NullString
		if err := rows.Scan(&p.Table, &p.Game, &p.Name, &p.Variant, &players, &started, &finished, &p.Outcome, &result); err != nil {
			return nil, err
		}
		json.Unmarshal([]byte(players), &p.Players)
		p.Started, _ = time.Parse(time.RFC3339Nano, started)
		p.Finished, _ = time.Parse(time.RFC3339Nano, finished)
		if result.Valid {
			p.Result = &engine.Result{}
			json.Unmarshal([]byte(result.String), p.Result)
		}
		switch {
		case f.Name != "" && p.Name != f.Name,
			f.Table != "" && p.Table != f.Table,
			f.Players != 0 && len(p.Players) != f.Players,
			!f.From.IsZero() && p.Finished.Before(f.From),
			!f.To.IsZero() && !p.Finished.Before(f.To):
			continue
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// StepCount is the number of distinct steps (ends included) recorded.
func (h *History) StepCount() (int64, error) {
	var n int64
	err := h.db.QueryRow(`SELECT COUNT(*) FROM steps`).Scan(&n)
	return n, err
}

// Medians are the median lengths of the plays that ended "over", by game
// and player count, for the games played at least MinPlays times.
func (h *History) Medians() (map[string]time.Duration, error) {
	plays, err := h.Plays(Filter{})
	if err != nil {
		return nil, err
	}
	by := map[string][]time.Duration{}
	for _, p := range plays {
		if p.Outcome == "over" {
			k := medianKey(p.Name, len(p.Players))
			by[k] = append(by[k], p.Duration())
		}
	}
	out := map[string]time.Duration{}
	for k, ds := range by {
		if len(ds) < MinPlays {
			continue
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		out[k] = ds[len(ds)/2]
	}
	return out, nil
}

// MinPlays is how many plays of a game and player count make a median.
const MinPlays = 3

func medianKey(name string, players int) string { return fmt.Sprintf("%s/%d", name, players) }
