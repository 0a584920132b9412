package journal

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"modernc.org/sqlite"
)

// FaultKind is what went wrong with a journal file.
type FaultKind int

// The kinds of journal faults. The first ones happen while a game runs
// (the step is refused, the journal is "not recording" until it recovers);
// the others stop the daemon at start-up.
const (
	// FaultFull: the disk is full.
	FaultFull FaultKind = iota + 1
	// FaultIO: the disk refused a read or a write.
	FaultIO
	// FaultReadOnly: the file, its WAL or its disk cannot be written any
	// more (chattr +i, chmod, a disk remounted read-only).
	FaultReadOnly
	// FaultDeleted: the file was deleted while the game ran, and could
	// not be written again yet.
	FaultDeleted
	// FaultReplaced: another file took the journal's path while the game
	// ran, and the game could not be written again yet.
	FaultReplaced
	// FaultNotJournal: the file is not a Comptoir journal.
	FaultNotJournal
	// FaultDamaged: the file is a journal whose content is damaged.
	FaultDamaged
	// FaultNoFolder: the journal's folder does not exist.
	FaultNoFolder
	// FaultIsFolder: the journal's path is a folder.
	FaultIsFolder
	// FaultLocked: another program holds the journal.
	FaultLocked
	// FaultOtherGame: the journal holds an unfinished game of another
	// game than the table's.
	FaultOtherGame
)

func (k FaultKind) String() string {
	switch k {
	case FaultFull:
		return "disk-full"
	case FaultIO:
		return "io"
	case FaultReadOnly:
		return "read-only"
	case FaultDeleted:
		return "deleted"
	case FaultReplaced:
		return "replaced"
	case FaultNotJournal:
		return "not-a-journal"
	case FaultDamaged:
		return "damaged"
	case FaultNoFolder:
		return "no-folder"
	case FaultIsFolder:
		return "is-folder"
	case FaultLocked:
		return "locked"
	case FaultOtherGame:
		return "other-game"
	}
	return fmt.Sprintf("FaultKind(%d)", int(k))
}

// ErrNotRecording is matched (errors.Is) by every fault met while a game
// runs: the journal could not record, the step is not taken.
var ErrNotRecording = errors.New("journal: not recording")

// Fault is a journal error in words for people: EN and FR say what
// happened and what to do, without the raw cause, and may be shown on a
// phone; Error adds the path and the raw cause, for the log.
type Fault struct {
	Kind  FaultKind
	Path  string
	EN    string
	FR    string
	Cause error
}

func (f *Fault) Error() string {
	s := fmt.Sprintf("journal %s: %s / %s", f.Path, f.EN, f.FR)
	if f.Cause != nil {
		s += fmt.Sprintf(" (cause: %v)", f.Cause)
	}
	return s
}

// Unwrap returns the raw cause.
func (f *Fault) Unwrap() error { return f.Cause }

// Is makes the faults of a running game match ErrNotRecording.
func (f *Fault) Is(target error) bool {
	return target == ErrNotRecording && f.Kind <= FaultReplaced
}

// AsFault returns the fault inside err, if any.
func AsFault(err error) (*Fault, bool) {
	var f *Fault
	ok := errors.As(err, &f)
	return f, ok
}

// SQLite's primary result codes met here.
const (
	sqlitePerm     = 3
	sqliteBusy     = 5
	sqliteLocked   = 6
	sqliteReadOnly = 8
	sqliteIOErr    = 10
	sqliteCorrupt  = 11
	sqliteFull     = 13
	sqliteCantOpen = 14
	sqliteNotADB   = 26
)

func sqliteCode(err error) int {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() & 0xff
	}
	return 0
}

// writeFault turns the error of a write while the game runs into a fault
// in words.
func writeFault(path string, err error) *Fault {
	if f, ok := AsFault(err); ok {
		return f
	}
	switch {
	case sqliteCode(err) == sqliteFull || errors.Is(err, syscall.ENOSPC):
		return &Fault{Kind: FaultFull, Path: path, Cause: err,
			EN: "the journal is not recording: the disk (SD card) is full. Free some space on it; the table records again by itself. Call the staff.",
			FR: "le journal n'enregistre plus : le disque (carte SD) est plein. Libérez de la place ; la table reprend l'enregistrement d'elle-même. Appelez le personnel."}
	case sqliteCode(err) == sqliteReadOnly || sqliteCode(err) == sqlitePerm || errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EROFS) || errors.Is(err, syscall.EACCES):
		return &Fault{Kind: FaultReadOnly, Path: path, Cause: err,
			EN: "the journal is not recording: its file can no longer be written (made read-only or immutable, or the disk is read-only). Make it writable again; the table records again by itself. Call the staff.",
			FR: "le journal n'enregistre plus : son fichier ne peut plus être écrit (mis en lecture seule ou immuable, ou disque en lecture seule). Rendez-le de nouveau inscriptible ; la table reprend l'enregistrement d'elle-même. Appelez le personnel."}
	case sqliteCode(err) == sqliteBusy || sqliteCode(err) == sqliteLocked:
		return &Fault{Kind: FaultIO, Path: path, Cause: err,
			EN: "the journal is not recording: another program holds its file. Stop that program; the table records again by itself. Call the staff.",
			FR: "le journal n'enregistre plus : un autre programme tient son fichier. Arrêtez ce programme ; la table reprend l'enregistrement d'elle-même. Appelez le personnel."}
	}
	return &Fault{Kind: FaultIO, Path: path, Cause: err,
		EN: "the journal is not recording: the disk cannot be written. Check the SD card (full, loose or worn out?); the table records again by itself once it can. Call the staff.",
		FR: "le journal n'enregistre plus : le disque ne peut pas être écrit. Vérifiez la carte SD (pleine, mal insérée ou usée ?) ; la table reprend l'enregistrement d'elle-même dès qu'elle le peut. Appelez le personnel."}
}

func deletedFault(path string, cause error) *Fault {
	return &Fault{Kind: FaultDeleted, Path: path, Cause: cause,
		EN: fmt.Sprintf("the journal is not recording: its file %s was deleted and the game could not be written again there yet. Check the disk and the folder; call the staff.", path),
		FR: fmt.Sprintf("le journal n'enregistre plus : son fichier %s a été supprimé et la partie n'a pas encore pu y être réécrite. Vérifiez le disque et le dossier ; appelez le personnel.", path)}
}

func replacedFault(path string, cause error) *Fault {
	return &Fault{Kind: FaultReplaced, Path: path, Cause: cause,
		EN: fmt.Sprintf("the journal is not recording: another file took the place of %s and the game could not be written again there yet. Check the disk and the folder; call the staff.", path),
		FR: fmt.Sprintf("le journal n'enregistre plus : un autre fichier a pris la place de %s et la partie n'a pas encore pu y être réécrite. Vérifiez le disque et le dossier ; appelez le personnel.", path)}
}

// openFault turns an error met while opening the journal into a fault in
// words.
func openFault(path string, err error) *Fault {
	if f, ok := AsFault(err); ok {
		return f
	}
	switch sqliteCode(err) {
	case sqliteNotADB:
		return notJournal(path, err)
	case sqliteCorrupt:
		return damagedFault(path, err)
	case sqliteBusy, sqliteLocked:
		return &Fault{Kind: FaultLocked, Path: path, Cause: err,
			EN: fmt.Sprintf("the journal %s is held by another program (is a comptoird already running on it?). Stop that program first.", path),
			FR: fmt.Sprintf("le journal %s est tenu par un autre programme (un comptoird tourne-t-il déjà dessus ?). Arrêtez d'abord ce programme.", path)}
	case sqliteFull:
		return writeFault(path, err)
	case sqliteReadOnly, sqlitePerm, sqliteCantOpen:
		f := writeFault(path, err)
		f.Kind = FaultReadOnly
		f.EN = fmt.Sprintf("the journal %s cannot be opened for writing (read-only or immutable file, or read-only disk). Make it and its folder writable (chattr -i, chmod u+w), or give another journal path.", path)
		f.FR = fmt.Sprintf("le journal %s ne peut pas être ouvert en écriture (fichier en lecture seule ou immuable, ou disque en lecture seule). Rendez-le inscriptible, lui et son dossier (chattr -i, chmod u+w), ou donnez un autre chemin de journal.", path)
		return f
	}
	return writeFault(path, err)
}

func notJournal(path string, cause error) *Fault {
	return &Fault{Kind: FaultNotJournal, Path: path, Cause: cause,
		EN: fmt.Sprintf("%s is not a Comptoir journal. Move it away, or give the table another journal path (journal: in the table configuration, or --journal).", path),
		FR: fmt.Sprintf("%s n'est pas un journal Comptoir. Déplacez-le, ou donnez à la table un autre chemin de journal (journal: dans la configuration de la table, ou --journal).", path)}
}

// CheckPlace refuses a path whose folder is missing or which is a folder,
// and a file that is not an SQLite database at all, with a *Fault that
// says what to do (comptoir check and the daemon ask it before opening).
func CheckPlace(path string) error {
	dir := filepath.Dir(path)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return &Fault{Kind: FaultNoFolder, Path: path, Cause: err,
			EN: fmt.Sprintf("the journal %s cannot be created: the folder %s does not exist. Create it (mkdir -p %s) or give another journal path (journal: in the table configuration, or --journal).", path, dir, dir),
			FR: fmt.Sprintf("le journal %s ne peut pas être créé : le dossier %s n'existe pas. Créez-le (mkdir -p %s) ou donnez un autre chemin de journal (journal: dans la configuration de la table, ou --journal).", path, dir, dir)}
	}
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return openFault(path, err)
	}
	if fi.IsDir() {
		return &Fault{Kind: FaultIsFolder, Path: path,
			EN: fmt.Sprintf("the journal %s is a folder, not a file. Give a file path, for example %s.", path, filepath.Join(path, "table.db")),
			FR: fmt.Sprintf("le journal %s est un dossier, pas un fichier. Donnez un chemin de fichier, par exemple %s.", path, filepath.Join(path, "table.db"))}
	}
	if fi.Size() == 0 {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return openFault(path, err)
	}
	defer f.Close()
	head := make([]byte, 16)
	if n, _ := f.Read(head); n < 16 || string(head) != "SQLite format 3\x00" {
		return notJournal(path, errors.New("no SQLite header"))
	}
	return nil
}

// OtherGameFault is the start-up fault of a journal whose unfinished game
// id is a game of another game than the table's: it says the commands
// that finish or abandon it.
func OtherGameFault(path string, id int64, game, want string) *Fault {
	end := fmt.Sprintf("comptoir journal end --journal %s --game %d", path, id)
	abandon := fmt.Sprintf("comptoir journal abandon --journal %s --game %d", path, id)
	return &Fault{Kind: FaultOtherGame, Path: path,
		EN: fmt.Sprintf("the journal %s holds an unfinished game %d of %s, but this table plays %s. Stop comptoird, then end it with `%s` or abandon it with `%s`, or give the table another journal path.", path, id, game, want, end, abandon),
		FR: fmt.Sprintf("le journal %s contient une partie %d de %s non terminée, mais cette table joue à %s. Arrêtez comptoird, puis terminez-la avec `%s` ou abandonnez-la avec `%s`, ou donnez à la table un autre chemin de journal.", path, id, game, want, end, abandon)}
}

func damagedFault(path string, cause error) *Fault {
	return &Fault{Kind: FaultDamaged, Path: path, Cause: cause,
		EN: fmt.Sprintf("the journal %s is damaged (its content does not read back whole). Keep a copy of it, then restore a backup or move it away to start a new journal; `sqlite3 %s .recover` may save its games.", path, path),
		FR: fmt.Sprintf("le journal %s est abîmé (son contenu ne se relit pas en entier). Gardez-en une copie, puis restaurez une sauvegarde ou déplacez-le pour commencer un nouveau journal ; `sqlite3 %s .recover` peut en sauver les parties.", path, path)}
}
