// Package tablecheck checks a decoded table configuration against the
// machine, before the table starts: what the daemon would meet once
// running (a game that cannot start, a board file that does not exist, a
// journal it cannot write, recorded inputs that are missing, a dice
// reader it cannot find) and what players would meet (no base_url for the
// join codes, no enrolled tags). `comptoir check` prints every problem;
// comptoird runs the same check at start, refuses to start on an error
// and logs the warnings.
//
// The file's own syntax (unknown keys, bad values, pins that clash) is
// checked when it is decoded (package comptoir/tableconfig); this package
// takes over from there.
package tablecheck

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"comptoir/dashboard"
	"comptoir/engine"
	"comptoir/games"
	"comptoir/games/kit"
	"comptoir/hw/tagmap"
	"comptoir/journal"
	"comptoir/tableconfig"
)

// Severity tells whether a problem stops the table.
type Severity int

const (
	// Error: the daemon does not start.
	Error Severity = iota
	// Warning: the table runs, but something is likely wrong.
	Warning
)

func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// Problem is one problem of a configuration, at a key of its file.
type Problem struct {
	File     string
	Line     int // 0: the file as a whole
	Key      string
	Severity Severity
	Msg      string
}

// String is the problem as comptoir check prints it:
//
//	table.yaml:14: key "board": error: board.yaml does not exist; ...
func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
	}
	b.WriteString(": ")
	if p.Key != "" {
		fmt.Fprintf(&b, "key %q: ", p.Key)
	}
	fmt.Fprintf(&b, "%s: %s", p.Severity, p.Msg)
	return b.String()
}

// Opts are what the check needs besides the configuration.
type Opts struct {
	// DiceReader finds the comptoir program that runs the dice reader, for
	// a table with a camera or pictured rolls; nil: not checked.
	DiceReader func(*tableconfig.Config) (string, error)
	// Games are the games a table may play; nil: games.All.
	Games func() []kit.Game
}

// Check checks cfg and returns its problems, errors first, each in the
// file's order.
func Check(cfg *tableconfig.Config, opts Opts) []Problem {
	c := checker{cfg: cfg, opts: opts}
	c.game()
	c.paths()
	c.phones()
	if opts.DiceReader != nil && (cfg.Camera != nil && cfg.Replay == nil || cfg.Replay != nil && cfg.Replay.Frames != "") {
		if _, err := opts.DiceReader(cfg); err != nil {
			key := "camera"
			if cfg.Replay != nil {
				key = "replay"
			}
			c.add(key, Error, "%v", err)
		}
	}
	var errs, warns []Problem
	for _, p := range c.out {
		if p.Severity == Error {
			errs = append(errs, p)
		} else {
			warns = append(warns, p)
		}
	}
	return append(errs, warns...)
}

// Err returns the problems' errors as one error (nil if none), a line
// each.
func Err(ps []Problem) error {
	var lines []string
	for _, p := range ps {
		if p.Severity == Error {
			lines = append(lines, p.String())
		}
	}
	switch len(lines) {
	case 0:
		return nil
	case 1:
		return errors.New(lines[0])
	}
	return fmt.Errorf("%d problems:\n%s", len(lines), strings.Join(lines, "\n"))
}

type checker struct {
	cfg  *tableconfig.Config
	opts Opts
	out  []Problem
}

// add records a problem at a top-level key ("replay.inputs" is at
// replay:'s line).
func (c *checker) add(key string, sev Severity, format string, args ...any) {
	top, _, _ := strings.Cut(key, ".")
	c.out = append(c.out, Problem{File: c.cfg.File, Line: c.cfg.Line(top), Key: key, Severity: sev, Msg: fmt.Sprintf(format, args...)})
}

// game checks that the table's game starts, on its board.
func (c *checker) game() {
	cfg := c.cfg
	list := games.All
	if c.opts.Games != nil {
		list = c.opts.Games
	}
	k, err := games.Find(list(), cfg.Game)
	if err != nil {
		c.add("game", Error, "%v", err)
		return
	}
	rules := k.Rules()
	if cfg.Board != "" {
		if k.Edit == nil {
			c.add("board", Error, "board: is for tables of a game with a board to edit, this table plays %s; remove it", cfg.Game)
		} else if data, ok := c.board(k.Edit); ok {
			if rules, err = k.Edit.Load(data, c.cfg.Board); err != nil {
				c.add("board", Error, "%v", err)
				return
			}
		}
	}
	setup := engine.Setup{Game: cfg.Game, Variant: cfg.Variant, Players: cfg.Players, Options: cfg.Options}
	if _, err := rules.Start(setup); err != nil {
		c.add("players", Error, "the table's game cannot start: %v", err)
	}
}

// board reads the table's board file (the game's fixed data, which its
// editor reads), which must exist: a missing file is not the printed
// layout.
func (c *checker) board(ed *kit.Editor) ([]byte, bool) {
	data, err := os.ReadFile(c.cfg.Board)
	if errors.Is(err, os.ErrNotExist) {
		c.add("board", Error, "%s does not exist; copy the printed layout there (cp %s %s) and correct it, or remove board: to play on the printed layout", c.cfg.Board, ed.File, c.cfg.Board)
		return nil, false
	}
	if err != nil {
		c.add("board", Error, "%v", err)
		return nil, false
	}
	if !writable(c.cfg.Board) {
		c.add("board", Warning, "%s is not writable: the staff's board edits will not be kept", c.cfg.Board)
	}
	return data, true
}

// paths checks the files and folders the table reads and writes.
func (c *checker) paths() {
	cfg := c.cfg
	// The journal's own words (journal.CheckPlace): a missing folder, a
	// folder, a file that is not a journal, in English and French.
	var f *journal.Fault
	if err := journal.CheckPlace(cfg.Journal); errors.As(err, &f) {
		c.add("journal", Error, "%s (%s)", f.EN, f.FR)
	} else if err != nil {
		c.add("journal", Error, "%v", err)
	} else {
		c.writableFile("journal", cfg.Journal)
	}
	if filepath.Dir(cfg.Tokens) != filepath.Dir(cfg.Journal) {
		c.writableFile("tokens", cfg.Tokens)
	}
	if cfg.Tags != "" {
		switch m, err := tagmap.Load(cfg.Tags); {
		case err != nil:
			c.add("tags", Error, "%v", err)
		case !exists(cfg.Tags):
			c.add("tags", Warning, "%s does not exist yet: every tap is an unknown tag until `comptoir enroll --config %s` writes it", cfg.Tags, cfg.File)
		case m.Len() == 0:
			c.add("tags", Warning, "%s enrolls no tag: every tap is an unknown tag until `comptoir enroll --config %s` writes it", cfg.Tags, cfg.File)
		}
	}
	if r := cfg.Replay; r != nil {
		if !exists(r.Inputs) {
			c.add("replay.inputs", Error, "%s does not exist", r.Inputs)
		}
		if r.Frames != "" {
			if fi, err := os.Stat(r.Frames); err != nil || !fi.IsDir() {
				c.add("replay.frames", Error, "%s is not a folder of pictured rolls (labels.csv: file,blue,red)", r.Frames)
			} else if !exists(filepath.Join(r.Frames, "labels.csv")) {
				c.add("replay.frames", Error, "%s has no labels.csv (file,blue,red)", r.Frames)
			}
		}
	} else if cfg.Camera != nil && !exists(cfg.Camera.Device) {
		c.add("camera.device", Warning, "%s does not exist: is the camera plugged in (and enabled)? The dice reader will retry", cfg.Camera.Device)
	}
	if cfg.DiceReader != "" && cfg.Camera == nil && (cfg.Replay == nil || cfg.Replay.Frames == "") {
		c.add("dice_reader", Warning, "the table has no camera: nor replay.frames:, dice_reader: is not used")
	}
}

// phones checks what the players' phones need.
func (c *checker) phones() {
	cfg := c.cfg
	if _, port, err := net.SplitHostPort(cfg.Listen); err != nil || port == "" {
		c.add("listen", Error, "%q: want host:port or :port, like :8080", cfg.Listen)
	}
	if cfg.BaseURL == "" {
		c.add("base_url", Warning, "not set: the join QR codes point at the address the table's screen was opened at, so a screen opened at localhost hands phones a localhost link; set base_url: to the address phones reach, like http://192.168.1.20%s", portOf(cfg.Listen))
	}
	// Without staff_pin the daemon makes a strong secret at first start
	// (kept beside the journal, mode 0600); a configured one may be weak.
	if cfg.StaffPIN != "" {
		if why := dashboard.WeakStaffSecret(cfg.StaffPIN); why != "" {
			c.add("staff_pin", Warning, "%s", why)
		}
	}
}

func portOf(listen string) string {
	if _, port, err := net.SplitHostPort(listen); err == nil && port != "" {
		return ":" + port
	}
	return ""
}

// writableFile checks that the table can write the file at path: the
// file if it exists, else its folder.
func (c *checker) writableFile(key, path string) {
	dir := filepath.Dir(path)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		c.add(key, Error, "the folder %s does not exist; create it (writable by the user that runs the table)", dir)
		return
	}
	target := dir
	if exists(path) {
		target = path
	}
	if !writable(target) {
		c.add(key, Error, "%s is not writable by this user", target)
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// writable reports whether this process may write path.
func writable(path string) bool {
	return syscall.Access(path, 2 /* W_OK */) == nil
}
