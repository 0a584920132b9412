package journal

import (
	"database/sql"
	"errors"
	"fmt"
	"time"

	"comptoir/engine"
)

// Cursor is how far a follower of the journal (the café publisher) has
// had its messages acknowledged: every step of the games before Game, and
// of Game the steps up to Seq, then its end once Ended.
type Cursor struct {
	Game  int64
	Seq   int64
	Ended bool
}

// cursorsSchema is migration 1: the followers' cursors. A journal a
// follower wrote before schema versions existed may hold the table
// already, hence IF NOT EXISTS.
const cursorsSchema = `CREATE TABLE IF NOT EXISTS cursors (
	name  TEXT PRIMARY KEY,
	game  INTEGER NOT NULL,
	seq   INTEGER NOT NULL,
	ended INTEGER NOT NULL
)`

// Cursor returns the named follower's cursor, the zero Cursor if it has
// none yet. While the journal is down it returns the fault.
func (st *Store) Cursor(name string) (Cursor, error) {
	var c Cursor
	err := st.with(func(db *sql.DB) error {
		return st.q.cursor.QueryRow(name).Scan(&c.Game, &c.Seq, &c.Ended)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return Cursor{}, nil
	}
	if err != nil {
		return Cursor{}, fmt.Errorf("journal %s: cursor %q: %w", st.path, name, err)
	}
	return c, nil
}

// SetCursor records the named follower's cursor, synced to disk.
func (st *Store) SetCursor(name string, c Cursor) error {
	err := st.with(func(db *sql.DB) error {
		_, err := st.q.setCursor.Exec(name, c.Game, c.Seq, c.Ended)
		return err
	})
	if err != nil {
		return fmt.Errorf("journal %s: set cursor %q: %w", st.path, name, err)
	}
	return nil
}

// StepsAfter reads game id's steps after step seq from the disk, oldest
// first, with their events (Undone is not set: a follower sees an undo
// when it comes). A follower reads what it has not seen yet without
// loading the whole game again. While the journal is down it returns the
// fault: the file may then hold a step the game never acknowledged (its
// recovery removes it), which no follower may send.
func (st *Store) StepsAfter(rules engine.Rules, id, seq int64) ([]Step, error) {
	var out []Step
	err := st.with(func(db *sql.DB) error {
		if st.down != nil {
			return st.down
		}
		var err error
		out, err = stepsAfter(st.q, st.path, rules, id, seq)
		return err
	})
	return out, err
}

// stepSQL selects the columns of a step, as scanStep reads them.
const stepSQL = `SELECT seq, at, by, kind, command, undoes, reason, note FROM steps`

// scanStep reads the step of rows' current row (of a stepSQL query on
// game id of the journal at path), without its events.
func scanStep(rows *sql.Rows, path string, id int64) (Step, error) {
	var s Step
	var at, kind string
	var undoes sql.NullInt64
	var reason, note sql.NullString
	if err := rows.Scan(&s.Seq, &at, &s.By, &kind, &s.Command, &undoes, &reason, &note); err != nil {
		return Step{}, err
	}
	var err error
	if s.At, err = time.Parse(time.RFC3339Nano, at); err != nil {
		return Step{}, fmt.Errorf("journal %s: game %d step %d: time %q: %w", path, id, s.Seq, at, err)
	}
	s.Undo, s.Undoes, s.Reason, s.Note = kind == "undo", undoes.Int64, reason.String, note.String
	return s, nil
}

// stepsAfter is StepsAfter with the open database's statements q, under
// the store's mutex. The journal has one connection: each query's rows
// are closed before the next.
func stepsAfter(q *stmts, path string, rules engine.Rules, id, seq int64) ([]Step, error) {
	rows, err := q.stepsAfter.Query(id, seq)
	if err != nil {
		return nil, fmt.Errorf("journal %s: game %d: %w", path, id, err)
	}
	defer rows.Close()
	var out []Step
	for rows.Next() {
		s, err := scanStep(rows, path, id)
		if err != nil {
			return nil, err
		}
		if want := seq + int64(len(out)) + 1; s.Seq != want {
			return nil, fmt.Errorf("journal %s: game %d: step %d where %d was due", path, id, s.Seq, want)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	if len(out) == 0 {
		return nil, nil
	}
	erows, err := q.eventsAfter.Query(id, seq, out[len(out)-1].Seq)
	if err != nil {
		return nil, fmt.Errorf("journal %s: game %d: %w", path, id, err)
	}
	defer erows.Close()
	codec := rules.Codec()
	for erows.Next() {
		var es int64
		var name, data string
		if err := erows.Scan(&es, &name, &data); err != nil {
			return nil, err
		}
		ev, err := codec.DecodeEvent(name, []byte(data))
		if err != nil {
			return nil, fmt.Errorf("journal %s: game %d step %d: %w", path, id, es, err)
		}
		i := es - seq - 1
		out[i].Events = append(out[i].Events, ev)
	}
	return out, erows.Err()
}
