// Package journal keeps every accepted step of a table's games in an
// embedded SQL store (SQLite through modernc.org/sqlite, no cgo), so that a
// power cut loses nothing: a step is written and synced to disk before
// Append returns, and a table reopens at its last whole step.
//
// # Model
//
// A Store is one file per table and holds many games (the table's
// history). A Game is a setup and its steps. A step is one accepted action:
// who acted, the command in the text form of the game record notation, and
// the events it produced, all in one transaction. An undo step cancels the
// last step still standing; undone steps stay in the journal, marked, so
// the history is never rewritten. The state of a game is its setup with the
// events of its standing steps applied in order.
//
// # Durability
//
// The database runs in WAL mode with synchronous=FULL: a transaction is
// durable once its commit returns. A process killed at any point, or a
// write torn by a power cut, reopens at the last committed step; SQLite's
// WAL checksums drop a torn tail. The kill test in this package checks it,
// and `comptoir killtest` kills the whole daemon during play.
//
// # Faults
//
// The journal is opened in exclusive locking mode before its first WAL
// access, so SQLite keeps the WAL index in the process's memory instead of
// memory-mapping the -shm file: a disk fault is an error returned by a
// write, never a SIGBUS (one process only may open a journal while it
// runs). A write that fails returns a *Fault saying in French and English
// what happened and what to do (Error adds the path and the raw cause, for
// the log); the journal is then down (Store.Down) and Game.Check, or the
// next write, reopens it and writes the steps the file misses from memory.
// After every commit, and at every Check, the file at the journal's path is
// compared with the open one (device and inode, its WAL too, and whether
// both may be written): a journal deleted or replaced is copied whole from
// the open file (VACUUM INTO; or, failing that, its game is written from
// memory) to its path, a file found there moved aside, and the rescue told
// (TakeRescues). Open's errors are Faults too: the path, a missing folder,
// a folder, a file that is not a Comptoir journal (the SQLite
// application_id marks ours), a damaged one (quick_check).
//
// # Schema versions
//
// PRAGMA user_version is the schema's version: migrations[i] brings a
// journal from version i to i+1, in one transaction, at Open. A new table
// is a new migration appended to the list.
//
// # Concurrency
//
// A Store and its Games may be used from several goroutines; a mutex per
// Game guards its cached steps, and the Store's mutex its database (which
// a recovery replaces); a Game's mutex is taken before its Store's. In Comptoir one table session goroutine
// writes and the dashboard reads records for download.
package journal

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"comptoir/engine"
	"comptoir/notation"

	_ "modernc.org/sqlite" // the database/sql driver "sqlite"
)

// ErrNoGame is returned by Resume when the store holds no unfinished game.
var ErrNoGame = errors.New("journal: no unfinished game")

// ErrNothingToUndo is returned by Undo when no step is standing.
var ErrNothingToUndo = errors.New("journal: no step to undo")

// ErrFinished is returned when writing to a game that has ended.
var ErrFinished = errors.New("journal: the game has ended")

// ErrClosed is returned when using a store after Close.
var ErrClosed = errors.New("journal: closed")

const schema = `
CREATE TABLE IF NOT EXISTS games (
	id       INTEGER PRIMARY KEY,
	game     TEXT NOT NULL,
	setup    TEXT NOT NULL,
	started  TEXT NOT NULL,
	finished TEXT,
	outcome  TEXT
);
CREATE TABLE IF NOT EXISTS steps (
	game    INTEGER NOT NULL REFERENCES games(id),
	seq     INTEGER NOT NULL,
	at      TEXT NOT NULL,
	by      INTEGER NOT NULL,
	kind    TEXT NOT NULL CHECK (kind IN ('action', 'undo')),
	command TEXT NOT NULL,
	undoes  INTEGER,
	reason  TEXT,
	PRIMARY KEY (game, seq)
);
CREATE TABLE IF NOT EXISTS events (
	game INTEGER NOT NULL,
	seq  INTEGER NOT NULL,
	idx  INTEGER NOT NULL,
	name TEXT NOT NULL,
	data TEXT NOT NULL,
	PRIMARY KEY (game, seq, idx)
);
`

// Store is a table's journal file.
type Store struct {
	path string

	mu      sync.Mutex
	db      *sql.DB  // nil while the journal is down and closed; guarded by mu
	q       *stmts   // db's prepared statements, nil with it; guarded by mu
	file    fileID   // the file db was opened on; guarded by mu
	wal     fileID   // its WAL once seen, zero before; guarded by mu
	down    *Fault   // the fault that stops recording, nil when recording; guarded by mu
	closed  bool     // Close was called; guarded by mu
	rescues []Rescue // rescues not yet taken; guarded by mu
}

// Open opens or creates the journal at path. Its errors are *Fault values
// naming the path and saying what to do.
func Open(path string) (*Store, error) {
	if err := CheckPlace(path); err != nil {
		return nil, err
	}
	db, q, err := openDB(path)
	if err != nil {
		return nil, err
	}
	st := &Store{db: db, q: q, path: path}
	st.file, err = statID(path)
	if err != nil {
		q.close()
		db.Close()
		return nil, openFault(path, err)
	}
	return st, nil
}

// Close closes the store.
func (st *Store) Close() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.closed = true
	if st.db == nil {
		return nil
	}
	st.q.close()
	err := st.db.Close()
	st.db, st.q = nil, nil
	return err
}

// Path is the file the store was opened from.
func (st *Store) Path() string { return st.path }

// with runs f on the open database, or returns the fault that keeps it
// closed.
func (st *Store) with(f func(db *sql.DB) error) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.closed {
		return ErrClosed
	}
	if st.db == nil {
		if st.down != nil {
			return st.down
		}
		return fmt.Errorf("journal %s: closed", st.path)
	}
	return f(st.db)
}

// Step is one step of a game.
type Step struct {
	Seq int64
	At  time.Time
	By  engine.Seat
	// Undo is true for an undo step, which cancels step Undoes.
	Undo   bool
	Undoes int64
	// Reason is an undo's reason.
	Reason string
	// Note is an action step's note of how it came (AppendNoted), ""
	// for none.
	Note string
	// Command is the action's command as a line of the notation.
	Command string
	Events  []engine.Event
	// Undone is true when a later undo step cancelled this one.
	Undone bool
}

// Game is one game of a store.
type Game struct {
	st    *Store
	id    int64
	rules engine.Rules
	setup engine.Setup

	mu       sync.Mutex
	started  time.Time // guarded by mu
	steps    []Step    // guarded by mu
	finished time.Time // zero while the game runs; guarded by mu
	outcome  string    // guarded by mu
}

// Info describes a game of the store's history.
type Info struct {
	ID       int64
	Setup    engine.Setup
	Started  time.Time
	Finished time.Time // zero while the game runs
	Outcome  string    // "over", "abandoned" or "" while the game runs
}

// Begin starts a new game.
func (st *Store) Begin(rules engine.Rules, setup engine.Setup, at time.Time) (*Game, error) {
	if setup.Game != rules.Name() {
		return nil, fmt.Errorf("journal: setup for %q given to the rules of %q", setup.Game, rules.Name())
	}
	if _, err := rules.Start(setup); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	b, err := json.Marshal(setup)
	if err != nil {
		return nil, err
	}
	var id int64
	err = st.with(func(db *sql.DB) error {
		res, err := st.q.insertGame.Exec(setup.Game, string(b), at.UTC().Format(time.RFC3339Nano))
		if err != nil {
			return writeFault(st.path, err)
		}
		id, err = res.LastInsertId()
		return err
	})
	if err != nil {
		return nil, err
	}
	return &Game{st: st, id: id, rules: rules, setup: setup, started: at.UTC()}, nil
}

// Resume loads the latest unfinished game, which must be a game of rules
// (else the error is a *Fault of kind FaultOtherGame, which says how to
// end it).
func (st *Store) Resume(rules engine.Rules) (*Game, error) {
	var g *Game
	err := st.with(func(db *sql.DB) error {
		var id int64
		var game, setupJSON string
		err := db.QueryRow(`SELECT id, game, setup FROM games WHERE finished IS NULL ORDER BY id DESC LIMIT 1`).Scan(&id, &game, &setupJSON)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNoGame
		}
		if err != nil {
			return openFault(st.path, err)
		}
		if game != rules.Name() {
			return OtherGameFault(st.path, id, game, rules.Name())
		}
		g, err = st.loadLocked(db, rules, id)
		return err
	})
	return g, err
}

// Load loads game id, finished or not.
func (st *Store) Load(rules engine.Rules, id int64) (*Game, error) {
	var g *Game
	err := st.with(func(db *sql.DB) error {
		var err error
		g, err = st.loadLocked(db, rules, id)
		return err
	})
	return g, err
}

func (st *Store) loadLocked(db *sql.DB, rules engine.Rules, id int64) (*Game, error) {
	var setupJSON, started string
	var finished, outcome sql.NullString
	err := db.QueryRow(`SELECT setup, started, finished, outcome FROM games WHERE id = ?`, id).Scan(&setupJSON, &started, &finished, &outcome)
	if err != nil {
		return nil, fmt.Errorf("journal %s: game %d: %w", st.path, id, err)
	}
	var setup engine.Setup
	if err := json.Unmarshal([]byte(setupJSON), &setup); err != nil {
		return nil, fmt.Errorf("journal %s: game %d: setup: %w", st.path, id, err)
	}
	g := &Game{st: st, id: id, rules: rules, setup: setup, outcome: outcome.String}
	g.started, _ = time.Parse(time.RFC3339Nano, started)
	if finished.Valid {
		if g.finished, err = time.Parse(time.RFC3339Nano, finished.String); err != nil {
			g.finished = g.started
		}
	}
	rows, err := db.Query(stepSQL+` WHERE game = ? ORDER BY seq`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	bySeq := map[int64]int{}
	for rows.Next() {
		s, err := scanStep(rows, st.path, id)
		if err != nil {
			return nil, err
		}
		if s.Seq != int64(len(g.steps)+1) {
			return nil, fmt.Errorf("journal %s: game %d: step %d follows step %d", st.path, id, s.Seq, len(g.steps))
		}
		bySeq[s.Seq] = len(g.steps)
		g.steps = append(g.steps, s)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	erows, err := db.Query(`SELECT seq, idx, name, data FROM events WHERE game = ? ORDER BY seq, idx`, id)
	if err != nil {
		return nil, err
	}
	defer erows.Close()
	codec := rules.Codec()
	for erows.Next() {
		var seq, idx int64
		var name, data string
		if err := erows.Scan(&seq, &idx, &name, &data); err != nil {
			return nil, err
		}
		i, ok := bySeq[seq]
		if !ok {
			return nil, fmt.Errorf("journal %s: game %d: event of unknown step %d", st.path, id, seq)
		}
		ev, err := codec.DecodeEvent(name, []byte(data))
		if err != nil {
			return nil, fmt.Errorf("journal %s: game %d step %d: %w", st.path, id, seq, err)
		}
		g.steps[i].Events = append(g.steps[i].Events, ev)
	}
	if err := erows.Err(); err != nil {
		return nil, err
	}
	for _, s := range g.steps {
		if s.Undo {
			i, ok := bySeq[s.Undoes]
			if !ok {
				return nil, fmt.Errorf("journal %s: game %d: step %d undoes unknown step %d", st.path, id, s.Seq, s.Undoes)
			}
			g.steps[i].Undone = true
		}
	}
	return g, nil
}

// Games lists the store's games, oldest first.
func (st *Store) Games() ([]Info, error) {
	var out []Info
	err := st.with(func(db *sql.DB) error {
		rows, err := st.q.games.Query()
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var in Info
			var setup, started string
			var finished, outcome sql.NullString
			if err := rows.Scan(&in.ID, &setup, &started, &finished, &outcome); err != nil {
				return err
			}
			if err := json.Unmarshal([]byte(setup), &in.Setup); err != nil {
				return fmt.Errorf("journal: game %d: setup: %w", in.ID, err)
			}
			in.Started, _ = time.Parse(time.RFC3339Nano, started)
			if finished.Valid {
				in.Finished, _ = time.Parse(time.RFC3339Nano, finished.String)
			}
			in.Outcome = outcome.String
			out = append(out, in)
		}
		return rows.Err()
	})
	return out, err
}

// ID is the game's number in its store.
func (g *Game) ID() int64 { return g.id }

// Setup is the game's setup.
func (g *Game) Setup() engine.Setup { return g.setup }

// Rules are the game's rules.
func (g *Game) Rules() engine.Rules { return g.rules }

// Append writes one accepted action and its events in one transaction,
// synced to disk before it returns.
func (g *Game) Append(at time.Time, a engine.Action, evs []engine.Event) (Step, error) {
	return g.AppendNoted(at, a, evs, "")
}

// AppendNoted is Append with a note of how the step came, kept as the
// step's Note (the table notes there the camera's dice reading a step
// was played from, to know it again after a restart); "" for none, as
// Append. Journals written before notes existed have none.
func (g *Game) AppendNoted(at time.Time, a engine.Action, evs []engine.Event, note string) (Step, error) {
	codec := g.rules.Codec()
	s := Step{At: at.UTC(), By: a.By, Command: codec.FormatCommand(a.Cmd, g.setup.Players), Events: evs, Note: note}
	datas := make([][]byte, len(evs))
	for i, ev := range evs {
		b, err := codec.EncodeEvent(ev)
		if err != nil {
			return Step{}, fmt.Errorf("journal: %w", err)
		}
		datas[i] = b
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.finished.IsZero() {
		return Step{}, ErrFinished
	}
	s.Seq = int64(len(g.steps) + 1)
	err := g.commitLocked(func(tx *sql.Tx) error {
		if _, err := tx.Stmt(g.st.q.insertStep).Exec(g.id, s.Seq, s.At.Format(time.RFC3339Nano), int(s.By), s.Command, nullNote(s.Note)); err != nil {
			return err
		}
		insert := tx.Stmt(g.st.q.insertEvent)
		for i, ev := range evs {
			if _, err := insert.Exec(g.id, s.Seq, i, ev.Name(), string(datas[i])); err != nil {
				return err
			}
		}
		return nil
	}, func() { g.steps = append(g.steps, s) }, func() { g.steps = g.steps[:len(g.steps)-1] })
	if err != nil {
		return Step{}, err
	}
	return s, nil
}

// nullNote is an action step's note as the journal keeps it: NULL for
// none, as in journals written before notes existed.
func nullNote(note string) sql.NullString {
	return sql.NullString{String: note, Valid: note != ""}
}

// Undo cancels the last standing action step, giving the reason.
func (g *Game) Undo(at time.Time, by engine.Seat, reason string) (Step, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.finished.IsZero() {
		return Step{}, ErrFinished
	}
	last := -1
	for i := len(g.steps) - 1; i >= 0; i-- {
		if !g.steps[i].Undo && !g.steps[i].Undone {
			last = i
			break
		}
	}
	if last < 0 {
		return Step{}, ErrNothingToUndo
	}
	s := Step{Seq: int64(len(g.steps) + 1), At: at.UTC(), By: by, Undo: true, Undoes: g.steps[last].Seq, Reason: reason, Command: "undo"}
	err := g.commitLocked(func(tx *sql.Tx) error {
		_, err := tx.Stmt(g.st.q.insertUndo).Exec(g.id, s.Seq, s.At.Format(time.RFC3339Nano), int(by), s.Undoes, reason)
		return err
	}, func() {
		g.steps[last].Undone = true
		g.steps = append(g.steps, s)
	}, func() {
		g.steps[last].Undone = false
		g.steps = g.steps[:len(g.steps)-1]
	})
	if err != nil {
		return Step{}, err
	}
	return s, nil
}

// Finish marks the game ended, with outcome "over" or "abandoned".
func (g *Game) Finish(at time.Time, outcome string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.finished.IsZero() {
		return ErrFinished
	}
	if outcome != "over" && outcome != "abandoned" {
		return fmt.Errorf("journal: outcome %q: want over or abandoned", outcome)
	}
	at = at.UTC()
	return g.commitLocked(func(tx *sql.Tx) error {
		_, err := tx.Stmt(g.st.q.finish).Exec(at.Format(time.RFC3339Nano), outcome, g.id)
		return err
	}, func() { g.finished, g.outcome = at, outcome }, func() { g.finished, g.outcome = time.Time{}, "" })
}

// Finished reports whether the game has ended.
func (g *Game) Finished() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return !g.finished.IsZero()
}

// Steps returns a copy of every step, undone and undo steps included.
func (g *Game) Steps() []Step {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]Step(nil), g.steps...)
}

// Len is the number of steps written, undo steps included.
func (g *Game) Len() int64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return int64(len(g.steps))
}

// State replays the standing steps from the setup.
func (g *Game) State() (engine.State, error) {
	g.mu.Lock()
	var evs []engine.Event
	for _, s := range g.steps {
		if !s.Undo && !s.Undone {
			evs = append(evs, s.Events...)
		}
	}
	g.mu.Unlock()
	st, err := engine.Replay(g.rules, g.setup, evs)
	if err != nil {
		return nil, fmt.Errorf("journal %s: game %d: %w", g.st.path, g.id, err)
	}
	return st, nil
}

// Record returns the standing steps as a game record, with a Journal tag
// naming the game.
func (g *Game) Record() *notation.Record {
	rec := notation.New(g.setup, notation.Tag{Key: "Journal", Value: fmt.Sprintf("%d", g.id)})
	for _, s := range g.Steps() {
		if s.Undo || s.Undone {
			continue
		}
		rec.Lines = append(rec.Lines, notation.Line{By: s.By, Command: s.Command})
	}
	return rec
}

func tx(db *sql.DB, f func(*sql.Tx) error) error {
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	if err := f(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}
