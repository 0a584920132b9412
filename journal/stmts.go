package journal

import (
	"database/sql"
	"errors"
)

// stmts are the journal's statements of every step, and of its
// followers, prepared once per open database (at Open, and again when a
// recovery opens the file anew) and closed with it: SQLite then parses
// each statement once, not at every call.
type stmts struct {
	insertGame  *sql.Stmt
	insertStep  *sql.Stmt
	insertUndo  *sql.Stmt
	insertEvent *sql.Stmt
	finish      *sql.Stmt
	games       *sql.Stmt
	stepsAfter  *sql.Stmt
	eventsAfter *sql.Stmt
	cursor      *sql.Stmt
	setCursor   *sql.Stmt
}

// prepareStmts prepares the statements on db.
// The statements that write a step and its events: prepared once
// (prepareStmts) for appending, and run as they are when a game is
// written again whole from memory (Game.resync).
const (
	insertStepSQL  = `INSERT INTO steps (game, seq, at, by, kind, command, note) VALUES (?, ?, ?, ?, 'action', ?, ?)`
	insertUndoSQL  = `INSERT INTO steps (game, seq, at, by, kind, command, undoes, reason) VALUES (?, ?, ?, ?, 'undo', 'undo', ?, ?)`
	insertEventSQL = `INSERT INTO events (game, seq, idx, name, data) VALUES (?, ?, ?, ?, ?)`
)

func prepareStmts(db *sql.DB) (*stmts, error) {
	q := &stmts{}
	for _, s := range []struct {
		dst *(*sql.Stmt)
		sql string
	}{
		{&q.insertGame, `INSERT INTO games (game, setup, started) VALUES (?, ?, ?)`},
		{&q.insertStep, insertStepSQL},
		{&q.insertUndo, insertUndoSQL},
		{&q.insertEvent, insertEventSQL},
		{&q.finish, `UPDATE games SET finished = ?, outcome = ? WHERE id = ?`},
		{&q.games, `SELECT id, setup, started, finished, outcome FROM games ORDER BY id`},
		{&q.stepsAfter, stepSQL + ` WHERE game = ? AND seq > ? ORDER BY seq`},
		{&q.eventsAfter, `SELECT seq, name, data FROM events WHERE game = ? AND seq > ? AND seq <= ? ORDER BY seq, idx`},
		{&q.cursor, `SELECT game, seq, ended FROM cursors WHERE name = ?`},
		{&q.setCursor, `INSERT INTO cursors (name, game, seq, ended) VALUES (?, ?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET game = excluded.game, seq = excluded.seq, ended = excluded.ended`},
	} {
		st, err := db.Prepare(s.sql)
		if err != nil {
			q.close()
			return nil, err
		}
		*s.dst = st
	}
	return q, nil
}

// close closes the statements prepared.
func (q *stmts) close() error {
	var errs []error
	for _, s := range []*sql.Stmt{q.insertGame, q.insertStep, q.insertUndo, q.insertEvent, q.finish, q.games, q.stepsAfter, q.eventsAfter, q.cursor, q.setCursor} {
		if s != nil {
			errs = append(errs, s.Close())
		}
	}
	return errors.Join(errs...)
}
