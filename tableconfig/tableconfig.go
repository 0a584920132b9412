// Package tableconfig decodes a table configuration: the YAML file that
// tells comptoird which game the table plays, with whom, where the journal
// lives, where the dashboard listens, and which devices (or recorded
// inputs) feed it.
//
// # Format
//
//	version: 1                      # required: this Comptoir reads version 1
//	table: Table 3                  # optional: the table's name, for people
//	game: genoa                     # required: a game Comptoir knows
//	variant: alea-2001              # the game's edition or variant, if it has any
//	players: [Anna, Bruno, Chloé]   # required: names in seating order, first player first
//	options:                        # optional: the variant's options, name: value
//	  market-advance: "off"
//	journal: /var/lib/comptoir/table.db   # required: the table's journal (SQLite)
//	listen: ":8080"                 # optional, default ":8080": the dashboard's address
//	base_url: http://192.168.1.20:8080    # optional: the address phones reach, for the join QR codes
//	staff_pin: "4821"               # optional: 4 to 12 digits; without it the staff page is off
//	tokens: /var/lib/comptoir/tokens.json # optional, default: next to the journal
//	tags: tags.yaml                 # optional: the enrolled tags (comptoir enroll)
//	board: board.yaml               # optional (Genoa): the board's layout, written by the staff's edits; default: the printed layout
//	camera:                         # optional: the dice camera, read by the dice reader process
//	  device: /dev/video0
//	dice_reader: /usr/local/bin/comptoir  # optional: the comptoir program whose dicefeed reads the dice; default: comptoir beside comptoird, else in PATH
//	replay:                         # optional: recorded inputs instead of the devices
//	  inputs: demo.jsonl            # JSON lines of package hw/replay
//	  frames: pictures/             # optional: labelled dice pictures (labels.csv: file,blue,red); each recorded roll is shown to the dice reader as a picture of that roll
//	  speed: 1                      # optional, default 1: pace factor
//	  loop: false                   # optional: play the recording again, in a new game, when it ends
//	  pause: 5s                     # optional, default 5s: the pause between two passes
//	devices:                        # the table box's pin map, see comptoir/hw/hwconfig
//	  ...
//
// Relative paths are relative to the configuration file's folder.
//
// # Strictness
//
// An unknown key, a missing required key, a key given twice or a bad value
// is an *Error naming the file, the line and the key, for example
//
//	demo.yaml:4: key "players": want 2 names or more, like [Anna, Bruno]
//
// wrapping ErrUnknownKey, ErrMissingKey or ErrBadValue. The devices:
// section is decoded by hwconfig.DecodeDevices, with its own errors.
package tableconfig

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"comptoir/hw/hwconfig"
)

// Sentinel errors, wrapped by *Error.
var (
	ErrUnknownKey = errors.New("unknown key")
	ErrMissingKey = errors.New("missing key")
	ErrBadValue   = errors.New("bad value")
)

// Error is a configuration error at a place in a file.
type Error struct {
	File string
	Line int
	Key  string
	Err  error
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d: key %q: %v", e.File, e.Line, e.Key, e.Err) }

func (e *Error) Unwrap() error { return e.Err }

// Version is the format version this package reads.
const Version = 1

// DefaultListen is the dashboard's address when the file gives none.
const DefaultListen = ":8080"

// Config is a decoded table configuration. Paths are absolute or relative
// to the working directory (the file's relative paths are resolved).
type Config struct {
	File     string
	Table    string
	Game     string
	Variant  string
	Players  []string
	Options  map[string]string
	Journal  string
	Listen   string
	BaseURL  string
	StaffPIN string
	Tokens   string
	Tags     string
	Board    string
	// DiceReader is the comptoir program that runs the dice reader
	// (comptoir dicefeed); empty: found beside comptoird or in PATH.
	DiceReader string
	Camera     *Camera
	Replay     *Replay
	Devices    hwconfig.Devices

	tokensDefault bool // Tokens was derived from Journal
}

// SetJournal moves the table's journal to path, and the seat tokens with
// it unless the file names them.
func (c *Config) SetJournal(path string) {
	c.Journal = path
	if c.tokensDefault {
		c.Tokens = tokensBeside(path)
	}
}

func tokensBeside(journal string) string {
	return strings.TrimSuffix(journal, filepath.Ext(journal)) + ".tokens.json"
}

// Camera is the dice camera.
type Camera struct {
	Device string
}

// Replay is a recording that replaces the table's devices.
type Replay struct {
	Inputs string
	Frames string
	Speed  float64
	Loop   bool
	// Pause is the time between two passes of a looping recording.
	Pause time.Duration
}

// Load reads and decodes a table configuration file.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("table configuration: %w", err)
	}
	c, err := Decode(data, filepath.Base(path))
	if err != nil {
		return nil, err
	}
	c.File = path
	c.resolve(filepath.Dir(path))
	return c, nil
}

// resolve makes the file's relative paths relative to dir.
func (c *Config) resolve(dir string) {
	abs := func(p *string) {
		if *p != "" && !filepath.IsAbs(*p) {
			*p = filepath.Join(dir, *p)
		}
	}
	abs(&c.Journal)
	if c.tokensDefault {
		c.Tokens = tokensBeside(c.Journal)
	}
	abs(&c.Tokens)
	abs(&c.Tags)
	abs(&c.Board)
	abs(&c.DiceReader)
	if c.Replay != nil {
		abs(&c.Replay.Inputs)
		abs(&c.Replay.Frames)
	}
}

var (
	pinRe  = regexp.MustCompile(`^[0-9]{4,12}$`)
	nameRe = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
)

// Decode decodes a table configuration; file names it in errors. Paths are
// left as written.
func Decode(data []byte, file string) (*Config, error) {
	d := decoder{file: file}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", file, ErrBadValue, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, d.errf(nil, "version", ErrMissingKey, "the file is empty; a table configuration starts with version: 1")
	}
	m, err := d.mapping(doc.Content[0], "", []string{"version", "table", "game", "variant", "players", "options", "journal", "listen",
		"base_url", "staff_pin", "tokens", "tags", "board", "dice_reader", "camera", "replay", "devices"}, []string{"version", "game", "players", "journal"})
	if err != nil {
		return nil, err
	}
	c := &Config{File: file, Listen: DefaultListen}
	v, err := d.scalar(m["version"], "version")
	if err != nil {
		return nil, err
	}
	if n, err := strconv.Atoi(v); err != nil || n != Version {
		return nil, d.errf(m["version"], "version", ErrBadValue, "%q: this Comptoir reads version %d", v, Version)
	}
	str := func(key string, dst *string) error {
		if m[key] == nil {
			return nil
		}
		s, err := d.scalar(m[key], key)
		if err != nil {
			return err
		}
		if s == "" {
			return d.errf(m[key], key, ErrBadValue, "empty value; remove the key or give a value")
		}
		*dst = s
		return nil
	}
	for _, f := range []struct {
		key string
		dst *string
	}{{"table", &c.Table}, {"game", &c.Game}, {"variant", &c.Variant}, {"journal", &c.Journal}, {"listen", &c.Listen},
		{"base_url", &c.BaseURL}, {"staff_pin", &c.StaffPIN}, {"tokens", &c.Tokens}, {"tags", &c.Tags}, {"board", &c.Board}, {"dice_reader", &c.DiceReader}} {
		if err := str(f.key, f.dst); err != nil {
			return nil, err
		}
	}
	if !nameRe.MatchString(c.Game) {
		return nil, d.errf(m["game"], "game", ErrBadValue, "%q: a game's name is a lower-case word, like genoa", c.Game)
	}
	if c.StaffPIN != "" && !pinRe.MatchString(c.StaffPIN) {
		return nil, d.errf(m["staff_pin"], "staff_pin", ErrBadValue, "want 4 to 12 digits, written in quotes, like \"4821\"")
	}
	if c.BaseURL != "" && !strings.HasPrefix(c.BaseURL, "http://") && !strings.HasPrefix(c.BaseURL, "https://") {
		return nil, d.errf(m["base_url"], "base_url", ErrBadValue, "%q: want http://host:port, the address phones reach", c.BaseURL)
	}
	if c.Players, err = d.players(m["players"]); err != nil {
		return nil, err
	}
	if n := m["options"]; n != nil {
		if c.Options, err = d.options(n); err != nil {
			return nil, err
		}
	}
	if n := m["camera"]; n != nil {
		cm, err := d.mapping(n, "camera", []string{"device"}, []string{"device"})
		if err != nil {
			return nil, err
		}
		c.Camera = &Camera{}
		if c.Camera.Device, err = d.scalar(cm["device"], "camera.device"); err != nil {
			return nil, err
		}
	}
	if n := m["replay"]; n != nil {
		if c.Replay, err = d.replay(n); err != nil {
			return nil, err
		}
	}
	if n := m["devices"]; n != nil {
		if c.Devices, err = hwconfig.DecodeDevices(n, file); err != nil {
			return nil, err
		}
	}
	c.Devices.File = file
	if c.Tokens == "" {
		c.Tokens, c.tokensDefault = tokensBeside(c.Journal), true
	}
	return c, nil
}

type decoder struct{ file string }

func (d decoder) errf(n *yaml.Node, key string, sentinel error, format string, a ...any) error {
	line := 1
	if n != nil {
		line = n.Line
	}
	return &Error{File: d.file, Line: line, Key: key, Err: fmt.Errorf("%w: "+format, append([]any{sentinel}, a...)...)}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func (d decoder) mapping(n *yaml.Node, path string, allowed, required []string) (map[string]*yaml.Node, error) {
	where := path
	if where == "" {
		where = "(top)"
	}
	if n.Kind != yaml.MappingNode {
		return nil, d.errf(n, where, ErrBadValue, "want a mapping of keys")
	}
	out := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		ok := false
		for _, a := range allowed {
			ok = ok || a == k.Value
		}
		if !ok {
			return nil, d.errf(k, join(path, k.Value), ErrUnknownKey, "expected one of %s", strings.Join(allowed, ", "))
		}
		if _, dup := out[k.Value]; dup {
			return nil, d.errf(k, join(path, k.Value), ErrBadValue, "given twice")
		}
		out[k.Value] = v
	}
	for _, r := range required {
		if out[r] == nil {
			return nil, d.errf(n, join(path, r), ErrMissingKey, "the table configuration needs %s:", join(path, r))
		}
	}
	return out, nil
}

func (d decoder) scalar(n *yaml.Node, key string) (string, error) {
	if n.Kind != yaml.ScalarNode {
		return "", d.errf(n, key, ErrBadValue, "want a single value")
	}
	return n.Value, nil
}

func (d decoder) players(n *yaml.Node) ([]string, error) {
	if n.Kind != yaml.SequenceNode || len(n.Content) < 1 {
		return nil, d.errf(n, "players", ErrBadValue, "want the players' names in seating order, like [Anna, Bruno, Chloé]")
	}
	var out []string
	seen := map[string]bool{}
	for i, p := range n.Content {
		key := fmt.Sprintf("players[%d]", i)
		s, err := d.scalar(p, key)
		if err != nil {
			return nil, err
		}
		s = strings.TrimSpace(s)
		if s == "" || strings.ContainsAny(s, ",:#\"[]\n") {
			return nil, d.errf(p, key, ErrBadValue, "%q: a name is not empty and holds none of , : # \" [ ]", s)
		}
		if seen[strings.ToLower(s)] {
			return nil, d.errf(p, key, ErrBadValue, "%q is seated twice", s)
		}
		seen[strings.ToLower(s)] = true
		out = append(out, s)
	}
	return out, nil
}

func (d decoder) options(n *yaml.Node) (map[string]string, error) {
	if n.Kind != yaml.MappingNode {
		return nil, d.errf(n, "options", ErrBadValue, "want a mapping of option name to value")
	}
	out := map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		key := "options." + k.Value
		if !nameRe.MatchString(k.Value) {
			return nil, d.errf(k, key, ErrBadValue, "an option's name is a lower-case word, like market-advance")
		}
		if _, dup := out[k.Value]; dup {
			return nil, d.errf(k, key, ErrBadValue, "given twice")
		}
		s, err := d.scalar(v, key)
		if err != nil {
			return nil, err
		}
		out[k.Value] = s
	}
	return out, nil
}

func (d decoder) replay(n *yaml.Node) (*Replay, error) {
	m, err := d.mapping(n, "replay", []string{"inputs", "frames", "speed", "loop", "pause"}, []string{"inputs"})
	if err != nil {
		return nil, err
	}
	r := &Replay{Speed: 1, Pause: 5 * time.Second}
	if r.Inputs, err = d.scalar(m["inputs"], "replay.inputs"); err != nil {
		return nil, err
	}
	if f := m["frames"]; f != nil {
		if r.Frames, err = d.scalar(f, "replay.frames"); err != nil {
			return nil, err
		}
	}
	if s := m["speed"]; s != nil {
		v, err := d.scalar(s, "replay.speed")
		if err != nil {
			return nil, err
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f <= 0 || f > 1000 {
			return nil, d.errf(s, "replay.speed", ErrBadValue, "%q: want a pace factor above 0, 1 for the recorded pace", v)
		}
		r.Speed = f
	}
	if l := m["loop"]; l != nil {
		v, err := d.scalar(l, "replay.loop")
		if err != nil {
			return nil, err
		}
		if r.Loop, err = strconv.ParseBool(v); err != nil {
			return nil, d.errf(l, "replay.loop", ErrBadValue, "%q: want true or false", v)
		}
	}
	if p := m["pause"]; p != nil {
		v, err := d.scalar(p, "replay.pause")
		if err != nil {
			return nil, err
		}
		if r.Pause, err = time.ParseDuration(v); err != nil || r.Pause < 0 || r.Pause > time.Hour {
			return nil, d.errf(p, "replay.pause", ErrBadValue, "%q: want a duration like 5s", v)
		}
	}
	return r, nil
}
