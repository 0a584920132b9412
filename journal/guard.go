package journal

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"modernc.org/sqlite"
)

// applicationID marks a SQLite file as a Comptoir journal ("Cmpt").
const applicationID = 0x436d7074

// migrations bring the schema from user_version i to i+1, each in one
// transaction. Journals written before versions existed have user_version
// 0 and the tables of migration 0 already (it creates them only if
// missing). Append new steps; never change a published one. Migration 1
// is the followers' cursors (cursor.go), 2 the action steps' notes.
var migrations = []string{schema, cursorsSchema, notesSchema}

// notesSchema is migration 2: an action step's note of how it came
// (Step.Note) gets a column of its own. Journals of the day before kept it
// in the reason column, which is an undo's reason: moved.
const notesSchema = `ALTER TABLE steps ADD COLUMN note TEXT;
UPDATE steps SET note = reason, reason = NULL WHERE kind = 'action' AND reason IS NOT NULL`

// pragmas are run in this order on every connection. Exclusive locking
// comes before the first access in WAL mode, so SQLite keeps the WAL index
// in the process's heap instead of memory-mapping the -shm file: a file
// system fault then becomes an error returned by a write, never a SIGBUS.
// Only this process may open the journal while it runs.
var pragmas = []string{
	"busy_timeout = 5000",
	"locking_mode = EXCLUSIVE",
	"journal_mode = WAL",
	"synchronous = FULL",
	"foreign_keys = ON",
}

// connector opens SQLite connections with the pragmas above, in their
// order (the driver's _pragma parameters run sorted by name, which would
// put journal_mode before locking_mode).
type connector struct{ path string }

func (c connector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Driver().Open(c.path)
	if err != nil {
		return nil, err
	}
	ex := conn.(driver.ExecerContext)
	for _, p := range pragmas {
		if _, err := ex.ExecContext(ctx, "PRAGMA "+p, nil); err != nil {
			conn.Close()
			return nil, err
		}
	}
	return conn, nil
}

func (connector) Driver() driver.Driver { return &sqlite.Driver{} }

// openDB opens the journal file at path (creating it when missing),
// checks that it is a Comptoir journal, whole, in WAL mode with an
// exclusive lock, brings its schema up to date and prepares its
// statements.
func openDB(path string) (*sql.DB, *stmts, error) {
	db := sql.OpenDB(connector{path: path})
	// One connection: writes are serialised, the pragmas and the lock hold.
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	if err := prepare(db, path); err != nil {
		db.Close()
		return nil, nil, err
	}
	q, err := prepareStmts(db)
	if err != nil {
		db.Close()
		return nil, nil, openFault(path, err)
	}
	return db, q, nil
}

func prepare(db *sql.DB, path string) error {
	var tables []string
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table'`)
	if err != nil {
		return openFault(path, err)
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return openFault(path, err)
		}
		tables = append(tables, name)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return openFault(path, err)
	}
	var app, version int64
	if err := db.QueryRow(`PRAGMA application_id`).Scan(&app); err != nil {
		return openFault(path, err)
	}
	if err := db.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil {
		return openFault(path, err)
	}
	ours := app == applicationID
	if !ours && app != 0 {
		return notJournal(path, fmt.Errorf("application_id %#x", app))
	}
	if !ours && len(tables) > 0 && !contains(tables, "games") {
		return notJournal(path, fmt.Errorf("an SQLite database with the tables %v", tables))
	}
	if version > int64(len(migrations)) {
		return &Fault{Kind: FaultNotJournal, Path: path, Cause: fmt.Errorf("schema version %d, this program knows up to %d", version, len(migrations)),
			EN: fmt.Sprintf("the journal %s was written by a newer Comptoir. Run the newer comptoird, or give another journal path.", path),
			FR: fmt.Sprintf("le journal %s a été écrit par un Comptoir plus récent. Lancez le comptoird plus récent, ou donnez un autre chemin de journal.", path)}
	}
	var check string
	if err := db.QueryRow(`PRAGMA quick_check(1)`).Scan(&check); err != nil {
		return openFault(path, err)
	}
	if check != "ok" {
		return damagedFault(path, fmt.Errorf("quick_check: %s", check))
	}
	for v := version; v < int64(len(migrations)); v++ {
		err := tx(db, func(tx *sql.Tx) error {
			if _, err := tx.Exec(migrations[v]); err != nil {
				return err
			}
			_, err := tx.Exec(fmt.Sprintf(`PRAGMA user_version = %d`, v+1))
			return err
		})
		if err != nil {
			return openFault(path, err)
		}
	}
	if !ours {
		if _, err := db.Exec(fmt.Sprintf(`PRAGMA application_id = %d`, applicationID)); err != nil {
			return openFault(path, err)
		}
	}
	var mode, locking string
	if err := db.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		return fmt.Errorf("journal %s: WAL mode not available (mode %q): %v", path, mode, err)
	}
	if err := db.QueryRow(`PRAGMA locking_mode`).Scan(&locking); err != nil || locking != "exclusive" {
		return fmt.Errorf("journal %s: exclusive locking not available (mode %q): %v", path, locking, err)
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// fileID tells a file apart from another at the same path.
type fileID struct{ dev, ino uint64 }

func statID(path string) (fileID, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return fileID{}, err
	}
	sys, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, nil
	}
	return fileID{dev: uint64(sys.Dev), ino: uint64(sys.Ino)}, nil
}

// verifyLocked checks that the file at the journal's path is still the
// one open, that its WAL is still the one written, and that both can be
// written.
func (st *Store) verifyLocked() *Fault {
	id, err := statID(st.path)
	if errors.Is(err, fs.ErrNotExist) {
		return deletedFault(st.path, err)
	}
	if err != nil {
		return writeFault(st.path, err)
	}
	if id != st.file {
		return replacedFault(st.path, fmt.Errorf("the path's file is %v, the open one %v", id, st.file))
	}
	if err := sameHeader(st.path); err != nil {
		return replacedFault(st.path, err)
	}
	wal := st.path + "-wal"
	wid, err := statID(wal)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if st.wal != (fileID{}) {
			return deletedFault(st.path, fmt.Errorf("the WAL %s was deleted: %w", wal, err))
		}
	case err != nil:
		return writeFault(st.path, err)
	case st.wal == (fileID{}):
		st.wal = wid
	case wid != st.wal:
		return replacedFault(st.path, fmt.Errorf("the WAL %s was replaced", wal))
	}
	for _, p := range []string{st.path, wal} {
		if err := syscall.Access(p, 2 /* W_OK */); err != nil && !errors.Is(err, syscall.ENOENT) {
			return writeFault(st.path, &os.PathError{Op: "access", Path: p, Err: err})
		}
	}
	return nil
}

// sameHeader checks that the file at path still starts as a Comptoir
// journal: a file copied over it in place (cp other t.db) keeps its inode.
// The main file's application_id is 0 until the first checkpoint.
func sameHeader(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return nil // stat and access tell
	}
	defer f.Close()
	head := make([]byte, 100)
	n, _ := io.ReadFull(f, head)
	if n < 100 || string(head[:16]) != "SQLite format 3\x00" {
		return fmt.Errorf("the file was overwritten in place: it no longer starts as an SQLite database (%d bytes read)", n)
	}
	if app := binary.BigEndian.Uint32(head[68:72]); app != 0 && app != applicationID {
		return fmt.Errorf("the file was overwritten in place by a database of another program (application_id %#x)", app)
	}
	return nil
}

// commitLocked writes one transaction of g and applies it to g's memory;
// g.mu is held. A journal that is down is recovered first. After the
// commit the file is checked: when it is no longer the journal's, the
// game is written again at the journal's path before the step counts. On
// any failure the memory is left as it was and the error is a *Fault.
func (g *Game) commitLocked(write func(*sql.Tx) error, apply, unapply func()) error {
	st := g.st
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.closed {
		return ErrClosed
	}
	if st.down != nil || st.db == nil {
		if err := g.recoverLocked(); err != nil {
			return err
		}
	}
	if err := tx(st.db, write); err != nil {
		st.down = writeFault(st.path, err)
		if f := st.verifyLocked(); f != nil && st.down.Kind == FaultIO {
			// SQLite says "disk I/O error"; the files say why.
			f.Cause = fmt.Errorf("%w; %v", err, f.Cause)
			st.down = f
		}
		return st.down
	}
	apply()
	if f := st.verifyLocked(); f != nil {
		st.down = f
		if err := g.recoverLocked(); err != nil {
			unapply()
			return err
		}
	}
	return nil
}

// Rescue tells that the journal's file was lost while a game ran and the
// game was written again at the journal's path.
type Rescue struct {
	At   time.Time
	Kind FaultKind // FaultDeleted or FaultReplaced
	Path string
	// Aside is where the file found at the path was moved, for a
	// replaced journal.
	Aside string
	// History is true when the whole journal (earlier games included) was
	// copied from the lost file; false when only the running game was
	// written again, from memory.
	History bool
	// Cause is what was found, for the log.
	Cause  error
	EN, FR string
}

// Check checks that the journal is still recording: that its file is the
// one open and writable. A journal deleted or replaced is written again at
// its path (see TakeRescues); a journal that is down is reopened and
// given g's steps it misses. It returns nil when the journal records, the
// *Fault that stops it otherwise.
func (g *Game) Check() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	st := g.st
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.closed {
		return ErrClosed
	}
	if st.down == nil && st.db != nil {
		f := st.verifyLocked()
		if f == nil {
			return nil
		}
		st.down = f
	}
	return g.recoverLocked()
}

// Verify reports whether the journal still records, for a health probe:
// nil while the file at its path is the one open, its WAL the one
// written and both writable (the checks made after every commit); else
// the fault that stops it, or ErrClosed. It changes nothing: the
// session's own checks take the journal down and bring it back.
func (st *Store) Verify() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	switch {
	case st.closed:
		return ErrClosed
	case st.down != nil:
		return st.down
	case st.db == nil:
		return ErrClosed
	}
	if f := st.verifyLocked(); f != nil {
		return f
	}
	return nil
}

// Down returns the fault that stops the journal recording, nil while it
// records.
func (st *Store) Down() *Fault {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.down
}

// Down returns the fault that stops g's journal recording, nil while it
// records.
func (g *Game) Down() *Fault { return g.st.Down() }

// TakeRescues returns the rescues of g's journal since the last call.
func (g *Game) TakeRescues() []Rescue { return g.st.TakeRescues() }

// TakeRescues returns the rescues since the last call.
func (st *Store) TakeRescues() []Rescue {
	st.mu.Lock()
	defer st.mu.Unlock()
	r := st.rescues
	st.rescues = nil
	return r
}

// recoverLocked brings the journal back: if its file was deleted or
// replaced, the whole journal is copied from the open (lost) file to the
// path (or, if that fails, the game is written from memory); otherwise the
// file is reopened. Then the game's steps the file misses are written from
// memory, and steps it holds that were never acknowledged are removed.
// g.mu and st.mu are held. It returns nil when the journal records again,
// and records the fault in st.down otherwise.
func (g *Game) recoverLocked() error {
	st := g.st
	var f *Fault
	if st.db != nil {
		f = st.verifyLocked()
	} else {
		// Closed after a fault now gone: check the path is writable.
		if err := syscall.Access(st.path, 2); err != nil && !errors.Is(err, syscall.ENOENT) {
			f = writeFault(st.path, &os.PathError{Op: "access", Path: st.path, Err: err})
		}
	}
	lost := f != nil && (f.Kind == FaultDeleted || f.Kind == FaultReplaced)
	if !lost && st.db == nil && st.file != (fileID{}) {
		// Closed after a fault: the file may have gone meanwhile.
		id, err := statID(st.path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			lost, f = true, deletedFault(st.path, errors.New("the file was deleted while the journal was down"))
		case err == nil && id != st.file:
			lost, f = true, replacedFault(st.path, errors.New("the path's file changed while the journal was down"))
		}
	}
	var rescue *Rescue
	if lost {
		r, err := st.rescueLocked(f)
		if err != nil {
			st.down = f
			return f
		}
		rescue = r
	} else if f != nil && f.Kind == FaultReadOnly {
		// Wait until the file may be written again; the open
		// connection is closed so that the next one starts afresh.
		st.closeLocked()
		st.down = f
		return f
	} else {
		st.closeLocked()
	}
	db, q, err := openDB(st.path)
	if err != nil {
		st.down = writeFault(st.path, err)
		return st.down
	}
	if err := g.resync(db); err != nil {
		q.close()
		db.Close()
		st.down = writeFault(st.path, err)
		return st.down
	}
	st.db, st.q = db, q
	st.file, _ = statID(st.path)
	st.wal, _ = statID(st.path + "-wal")
	st.down = nil
	if rescue != nil {
		st.rescues = append(st.rescues, *rescue)
	}
	return nil
}

func (st *Store) closeLocked() {
	if st.db != nil {
		st.q.close()
		st.db.Close()
		st.db, st.q = nil, nil
	}
}

// rescueLocked puts a copy of the lost journal at the path: the whole
// file as the open connection still reads it (VACUUM INTO), else nothing
// (the game is then written from memory). A file found at the path is
// moved aside first.
func (st *Store) rescueLocked(f *Fault) (*Rescue, error) {
	now := time.Now().UTC()
	r := &Rescue{At: now, Kind: f.Kind, Path: st.path, Cause: f.Cause}
	tmp := st.path + ".rescue"
	os.Remove(tmp)
	if st.db != nil {
		if _, err := st.db.Exec(`VACUUM INTO ?`, tmp); err != nil {
			os.Remove(tmp)
			r.Cause = fmt.Errorf("%v; copying the lost journal failed: %w", r.Cause, err)
		} else {
			r.History = true
		}
	}
	// Whatever lies at the path now is not this journal: move it aside,
	// with its WAL and index when they are not this journal's.
	if _, err := os.Lstat(st.path); err == nil {
		r.Aside = fmt.Sprintf("%s.foreign-%s", st.path, now.Format("20060102T150405"))
		if err := os.Rename(st.path, r.Aside); err != nil {
			os.Remove(tmp)
			return nil, err
		}
		for _, ext := range []string{"-wal", "-shm"} {
			if id, err := statID(st.path + ext); err == nil && (ext == "-shm" || id != st.wal) {
				os.Rename(st.path+ext, r.Aside+ext)
			}
		}
	}
	// Closing the lost connection checkpoints into the lost file and
	// deletes its WAL by name; then any WAL or index left at the path is
	// stale and would be read into the new file.
	st.closeLocked()
	os.Remove(st.path + "-wal")
	os.Remove(st.path + "-shm")
	if r.History {
		if err := os.Rename(tmp, st.path); err != nil {
			os.Remove(tmp)
			r.History = false
		}
	}
	if d, err := os.Open(filepath.Dir(st.path)); err == nil {
		d.Sync()
		d.Close()
	}
	what, quoi := "deleted", "supprimé"
	if f.Kind == FaultReplaced {
		what, quoi = "replaced by another file", "remplacé par un autre fichier"
	}
	r.EN = fmt.Sprintf("the journal file %s was %s while the game ran: the game was written again to %s and the journal records again", st.path, what, st.path)
	r.FR = fmt.Sprintf("le fichier du journal %s a été %s pendant la partie : la partie a été réécrite dans %s et le journal enregistre de nouveau", st.path, quoi, st.path)
	if r.Aside != "" {
		r.EN += fmt.Sprintf(" (the other file was moved to %s)", r.Aside)
		r.FR += fmt.Sprintf(" (l'autre fichier a été déplacé vers %s)", r.Aside)
	}
	if !r.History {
		r.EN += "; the earlier games of its history could not be copied"
		r.FR += " ; les parties précédentes de son historique n'ont pas pu être copiées"
	}
	r.EN += ". Check the disk; tell the staff."
	r.FR += ". Vérifiez le disque ; prévenez le personnel."
	return r, nil
}

// resync makes db hold g as memory holds it: the game's row, every step
// and its events, its end; steps beyond memory (written, never
// acknowledged) are removed. g.mu is held.
func (g *Game) resync(db *sql.DB) error {
	codec := g.rules.Codec()
	return tx(db, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRow(`SELECT count(*) FROM games WHERE id = ?`, g.id).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			b, err := json.Marshal(g.setup)
			if err != nil {
				return err
			}
			if _, err := tx.Exec(`INSERT INTO games (id, game, setup, started) VALUES (?, ?, ?, ?)`, g.id, g.setup.Game, string(b), g.started.Format(time.RFC3339Nano)); err != nil {
				return err
			}
		}
		var have int64
		if err := tx.QueryRow(`SELECT COALESCE(MAX(seq), 0) FROM steps WHERE game = ?`, g.id).Scan(&have); err != nil {
			return err
		}
		mem := int64(len(g.steps))
		if have > mem {
			if _, err := tx.Exec(`DELETE FROM events WHERE game = ? AND seq > ?`, g.id, mem); err != nil {
				return err
			}
			if _, err := tx.Exec(`DELETE FROM steps WHERE game = ? AND seq > ?`, g.id, mem); err != nil {
				return err
			}
			have = mem
		}
		for _, s := range g.steps[have:] {
			at := s.At.Format(time.RFC3339Nano)
			if s.Undo {
				if _, err := tx.Exec(insertUndoSQL,
					g.id, s.Seq, at, int(s.By), s.Undoes, s.Reason); err != nil {
					return err
				}
				continue
			}
			if _, err := tx.Exec(insertStepSQL,
				g.id, s.Seq, at, int(s.By), s.Command, nullNote(s.Note)); err != nil {
				return err
			}
			for i, ev := range s.Events {
				data, err := codec.EncodeEvent(ev)
				if err != nil {
					return err
				}
				if _, err := tx.Exec(insertEventSQL, g.id, s.Seq, i, ev.Name(), string(data)); err != nil {
					return err
				}
			}
		}
		// Always written: it proves the file takes a write again.
		var finished, outcome any
		if !g.finished.IsZero() {
			finished, outcome = g.finished.Format(time.RFC3339Nano), g.outcome
		}
		_, err := tx.Exec(`UPDATE games SET finished = ?, outcome = ? WHERE id = ?`, finished, outcome, g.id)
		return err
	})
}

// FinishGame ends game id of the journal without its rules: outcome "over"
// or "abandoned". It is what `comptoir journal end` and `comptoir journal
// abandon` do to an unfinished game of another type, with the table's
// daemon stopped.
func (st *Store) FinishGame(id int64, outcome string, at time.Time) error {
	if outcome != "over" && outcome != "abandoned" {
		return fmt.Errorf("journal: outcome %q: want over or abandoned", outcome)
	}
	return st.with(func(db *sql.DB) error {
		res, err := db.Exec(`UPDATE games SET finished = ?, outcome = ? WHERE id = ? AND finished IS NULL`, at.UTC().Format(time.RFC3339Nano), outcome, id)
		if err != nil {
			return writeFault(st.path, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("journal %s: no unfinished game %d", st.path, id)
		}
		return nil
	})
}
