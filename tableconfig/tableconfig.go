// Package tableconfig decodes a table configuration: the YAML file that
// tells comptoird which game the table plays, with whom, where the journal
// lives, where the dashboard listens, and which devices (or recorded
// inputs) feed it.
//
// # Format
//
//	version: 1                      # required: this Comptoir reads version 1
//	table: Table 3                  # optional: the table's name, for people
//	venue: Café du Port             # optional: the place, as BG Stats records it; default: the table's name
//	timezone: Europe/Paris          # optional: the table's time zone (IANA name), for the dates of exported plays; default: the system's
//	game: genoa                     # required: a game Comptoir knows
//	variant: alea-2001              # the game's edition or variant, if it has any
//	players: [Anna, Bruno, Chloé]   # required: names in seating order, first player first
//	options:                        # optional: the variant's options, name: value
//	  market-advance: "off"
//	journal: /var/lib/comptoir/table.db   # required: the table's journal (SQLite)
//	listen: ":8080"                 # optional, default ":8080": the dashboard's address
//	base_url: http://192.168.1.20:8080    # optional: the address phones reach, for the join QR codes
//	staff_pin: "4821"               # optional: 4 to 12 digits (under 8 is warned as weak); without it a random secret is made beside the journal
//	tokens: /var/lib/comptoir/tokens.json # optional, default: next to the journal
//	tags: tags.yaml                 # optional: the enrolled tags (comptoir enroll)
//	board: board.yaml               # optional (Genoa, Dschunke): the game's data the staff edit (Genoa's board layout, Dschunke's stand-ins), written by the staff's edits; default: the printed data
//	camera:                         # optional: the dice camera, read by the dice reader process
//	  device: /dev/video0
//	dice_reader: /usr/local/bin/comptoir-dice  # optional: the program whose dicefeed reads the dice (comptoir-dice, or comptoir); default: comptoir-dice beside comptoird or in PATH, else comptoir
//	replay:                         # optional: recorded inputs instead of the devices
//	  inputs: demo.jsonl            # JSON lines of package hw/replay
//	  frames: pictures/             # optional: labelled dice pictures (labels.csv: file,blue,red); each recorded roll is shown to the dice reader as a picture of that roll
//	  speed: 1                      # optional, default 1: pace factor
//	  loop: false                   # optional: play the recording again, in a new game, when it ends
//	  pause: 5s                     # optional, default 5s: the pause between two passes
//	devices:                        # the table box's pin map, see comptoir/hw/hwconfig
//	  ...
//	log:                            # optional: the daemon's log on stderr
//	  format: text                  # text (default) or json
//	  level: info                   # debug, info (default), warn or error
//	cafe:                           # optional: the café's hub (comptoir-hub add-table prints this section)
//	  url: nats://192.168.1.2:4222  # the hub's NATS server
//	  name: table-3                 # the table's name on the café's network: lower-case, digits, dashes
//	  password: "…"                 # the table's password on the hub
//
// Relative paths are relative to the configuration file's folder.
//
// # Strictness
//
// The file is decoded with comptoir/strictyaml, like every data file of
// Comptoir: an unknown key, a missing required key, a key given twice or a
// bad value is an *Error (a strictyaml.Error) naming the file, the line and
// the key, for example
//
//	demo.yaml:4: key "players": bad value: want the players' names in seating order, like [Anna, Bruno, Chloé]
//	demo.yaml:9: key "replay.input": unknown key in replay; expected one of inputs, frames, speed, loop, pause
//
// wrapping strictyaml.ErrInvalid and one of ErrUnknownKey, ErrMissingKey or
// ErrBadValue (which are strictyaml's). The devices: section is decoded by
// hwconfig.DecodeDevices, with the same errors.
package tableconfig

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"comptoir/hw/hwconfig"
	"comptoir/strictyaml"
)

// Sentinel errors: every decoding error wraps one of them, and
// strictyaml.ErrInvalid. They are strictyaml's.
var (
	ErrUnknownKey = strictyaml.ErrUnknownKey
	ErrMissingKey = strictyaml.ErrMissingKey
	ErrBadValue   = strictyaml.ErrBadValue
)

// Error is a configuration error at a place in a file.
type Error = strictyaml.Error

// Version is the format version this package reads.
const Version = 1

// DefaultListen is the dashboard's address when the file gives none.
const DefaultListen = ":8080"

// Config is a decoded table configuration. Paths are absolute or relative
// to the working directory (the file's relative paths are resolved).
type Config struct {
	File  string
	Table string
	// Venue is the place written in exported plays; empty: Table.
	Venue string
	// TimeZone is the table's time zone, for exported plays' dates; nil:
	// the system's (time.Local).
	TimeZone *time.Location
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
	// DiceReader is the program that runs the dice reader (PROGRAM
	// dicefeed: comptoir-dice, or comptoir); empty: comptoir-dice, else
	// comptoir, found beside comptoird or in PATH.
	DiceReader string
	Camera     *Camera
	Replay     *Replay
	Devices    hwconfig.Devices
	Log        Log
	// Cafe is the café's hub the table publishes to; nil: none.
	Cafe *Cafe

	tokensDefault bool           // Tokens was derived from Journal
	lines         map[string]int // top-level key -> its line in File
}

// Line is the line of a top-level key in the file, 0 when the file does
// not give it.
func (c *Config) Line(key string) int { return c.lines[key] }

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

// Log is how the daemon logs.
type Log struct {
	// Format is "text" or "json".
	Format string
	// Level is the least level logged: "debug", "info", "warn" or "error".
	Level string
}

// Camera is the dice camera.
type Camera struct {
	Device string
}

// Cafe is the café's hub: where the table publishes its public steps.
type Cafe struct {
	URL      string
	Name     string
	Password string
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
		c.Tokens = tokensBeside(c.Journal) // already resolved with the journal
	} else {
		abs(&c.Tokens)
	}
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

// The top-level keys of a table configuration.
var (
	requiredKeys = []string{"version", "game", "players", "journal"}
	optionalKeys = []string{"table", "venue", "timezone", "variant", "options", "listen", "base_url", "staff_pin", "tokens", "tags", "board", "dice_reader", "camera", "replay", "devices", "log", "cafe"}
)

// CheckKeys checks only the names of the file's top-level keys: a tool
// that reads one section (comptoir hw reads devices:) still refuses a
// typo elsewhere in the file, without requiring the keys it does not
// need.
func CheckKeys(data []byte, file string) error {
	d := decoder{strictyaml.File{Name: file}}
	root, err := d.Parse(data)
	if err != nil {
		return err
	}
	_, err = d.Fields(root, "the table configuration", nil, append(append([]string{}, requiredKeys...), optionalKeys...))
	return err
}

// Decode decodes a table configuration; file names it in errors. Paths are
// left as written.
func Decode(data []byte, file string) (*Config, error) {
	d := decoder{strictyaml.File{Name: file}}
	root, err := d.Parse(data)
	if err != nil {
		return nil, err
	}
	m, err := d.Fields(root, "the table configuration", requiredKeys, optionalKeys)
	if err != nil {
		return nil, err
	}
	if err := d.Version(m, Version); err != nil {
		return nil, err
	}
	c := &Config{File: file, Listen: DefaultListen, lines: map[string]int{}}
	for i := 0; i+1 < len(root.Content); i += 2 {
		c.lines[root.Content[i].Value] = root.Content[i].Line
	}
	for _, f := range []struct {
		key string
		dst *string
	}{{"table", &c.Table}, {"venue", &c.Venue}, {"game", &c.Game}, {"variant", &c.Variant}, {"journal", &c.Journal}, {"listen", &c.Listen},
		{"base_url", &c.BaseURL}, {"staff_pin", &c.StaffPIN}, {"tokens", &c.Tokens}, {"tags", &c.Tags}, {"board", &c.Board}, {"dice_reader", &c.DiceReader}} {
		if err := d.text(m, f.key, f.dst); err != nil {
			return nil, err
		}
	}
	if n := m["timezone"]; n != nil {
		name, err := d.Scalar(n, "timezone")
		if err != nil {
			return nil, err
		}
		if c.TimeZone, err = time.LoadLocation(name); err != nil || name == "" || name == "Local" {
			return nil, d.Failf(n, "timezone", ErrBadValue, "%q: want a time zone's IANA name, like Europe/Paris or UTC", name)
		}
	}
	if !nameRe.MatchString(c.Game) {
		return nil, d.Failf(m["game"], "game", ErrBadValue, "%q: a game's name is a lower-case word, like genoa", c.Game)
	}
	if c.StaffPIN != "" && !pinRe.MatchString(c.StaffPIN) {
		return nil, d.Failf(m["staff_pin"], "staff_pin", ErrBadValue, "want 4 to 12 digits, written in quotes, like \"4821\"")
	}
	if c.BaseURL != "" && !strings.HasPrefix(c.BaseURL, "http://") && !strings.HasPrefix(c.BaseURL, "https://") {
		return nil, d.Failf(m["base_url"], "base_url", ErrBadValue, "%q: want http://host:port, the address phones reach", c.BaseURL)
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
		cm, err := d.Section(n, "camera", []string{"device"}, nil)
		if err != nil {
			return nil, err
		}
		c.Camera = &Camera{}
		if c.Camera.Device, err = d.String(cm["device"], "camera.device"); err != nil {
			return nil, err
		}
	}
	if n := m["replay"]; n != nil {
		if c.Replay, err = d.replay(n); err != nil {
			return nil, err
		}
	}
	c.Log = Log{Format: "text", Level: "info"}
	if n := m["log"]; n != nil {
		lm, err := d.Section(n, "log", nil, []string{"format", "level"})
		if err != nil {
			return nil, err
		}
		for _, f := range []struct {
			key  string
			dst  *string
			want []string
		}{{"format", &c.Log.Format, []string{"text", "json"}}, {"level", &c.Log.Level, []string{"debug", "info", "warn", "error"}}} {
			v := lm[f.key]
			if v == nil {
				continue
			}
			if *f.dst, err = d.String(v, "log."+f.key); err != nil {
				return nil, err
			}
			if !slices.Contains(f.want, *f.dst) {
				return nil, d.Failf(v, "log."+f.key, ErrBadValue, "%q: want %s", *f.dst, strings.Join(f.want, ", "))
			}
		}
	}
	if n := m["cafe"]; n != nil {
		if c.Cafe, err = d.cafe(n); err != nil {
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

type decoder struct{ strictyaml.File }

// text reads the optional text at key into dst: a single value (a staff
// PIN or a table's name may be written as a number), never empty.
func (d decoder) text(m map[string]*yaml.Node, key string, dst *string) error {
	n := m[key]
	if n == nil {
		return nil
	}
	s, err := d.Scalar(n, key)
	if err != nil {
		return err
	}
	if s == "" {
		return d.Failf(n, key, ErrBadValue, "empty value; remove the key or give a value")
	}
	*dst = s
	return nil
}

func (d decoder) players(n *yaml.Node) ([]string, error) {
	if n.Kind != yaml.SequenceNode || len(n.Content) < 1 {
		return nil, d.Failf(n, "players", ErrBadValue, "want the players' names in seating order, like [Anna, Bruno, Chloé]")
	}
	var out []string
	seen := map[string]bool{}
	for i, p := range n.Content {
		key := fmt.Sprintf("players[%d]", i)
		s, err := d.Scalar(p, key)
		if err != nil {
			return nil, err
		}
		s = strings.TrimSpace(s)
		if s == "" || strings.ContainsAny(s, ",:#\"[]\n") {
			return nil, d.Failf(p, key, ErrBadValue, "%q: a name is not empty and holds none of , : # \" [ ]", s)
		}
		if seen[strings.ToLower(s)] {
			return nil, d.Failf(p, key, ErrBadValue, "%q is seated twice", s)
		}
		seen[strings.ToLower(s)] = true
		out = append(out, s)
	}
	return out, nil
}

func (d decoder) options(n *yaml.Node) (map[string]string, error) {
	if n.Kind != yaml.MappingNode {
		return nil, d.Failf(n, "options", ErrBadValue, "want a mapping of option name to value")
	}
	out := map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		key := "options." + k.Value
		if !nameRe.MatchString(k.Value) {
			return nil, d.Failf(k, key, ErrBadValue, "an option's name is a lower-case word, like market-advance")
		}
		if _, dup := out[k.Value]; dup {
			return nil, d.Failf(k, key, ErrBadValue, "given twice; keep one")
		}
		s, err := d.Scalar(v, key)
		if err != nil {
			return nil, err
		}
		out[k.Value] = s
	}
	return out, nil
}

func (d decoder) replay(n *yaml.Node) (*Replay, error) {
	m, err := d.Section(n, "replay", []string{"inputs"}, []string{"frames", "speed", "loop", "pause"})
	if err != nil {
		return nil, err
	}
	r := &Replay{Speed: 1, Pause: 5 * time.Second}
	if r.Inputs, err = d.String(m["inputs"], "replay.inputs"); err != nil {
		return nil, err
	}
	if f := m["frames"]; f != nil {
		if r.Frames, err = d.String(f, "replay.frames"); err != nil {
			return nil, err
		}
	}
	if s := m["speed"]; s != nil {
		if r.Speed, err = d.Float(s, "replay.speed"); err != nil {
			return nil, err
		}
		if r.Speed <= 0 || r.Speed > 1000 {
			return nil, d.Failf(s, "replay.speed", ErrBadValue, "%v: want a pace factor above 0 and at most 1000, 1 for the recorded pace", r.Speed)
		}
	}
	if l := m["loop"]; l != nil {
		if r.Loop, err = d.Bool(l, "replay.loop"); err != nil {
			return nil, err
		}
	}
	if p := m["pause"]; p != nil {
		if r.Pause, err = d.Duration(p, "replay.pause"); err != nil {
			return nil, err
		}
		if r.Pause < 0 || r.Pause > time.Hour {
			return nil, d.Failf(p, "replay.pause", ErrBadValue, "%v: want a pause from 0s to 1h, like 5s", r.Pause)
		}
	}
	return r, nil
}

var cafeNameRe = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,31}$`)

func (d decoder) cafe(n *yaml.Node) (*Cafe, error) {
	m, err := d.Section(n, "cafe", []string{"url", "name", "password"}, nil)
	if err != nil {
		return nil, err
	}
	c := &Cafe{}
	for _, f := range []struct {
		key string
		dst *string
	}{{"url", &c.URL}, {"name", &c.Name}, {"password", &c.Password}} {
		if *f.dst, err = d.Scalar(m[f.key], "cafe."+f.key); err != nil {
			return nil, err
		}
	}
	if !strings.HasPrefix(c.URL, "nats://") && !strings.HasPrefix(c.URL, "tls://") {
		return nil, d.Failf(m["url"], "cafe.url", ErrBadValue, "%q: want the hub's NATS address, like nats://192.168.1.2:4222", c.URL)
	}
	if !cafeNameRe.MatchString(c.Name) {
		return nil, d.Failf(m["name"], "cafe.name", ErrBadValue, "%q: want lower-case letters, digits and dashes, like table-3", c.Name)
	}
	if c.Password == "" {
		return nil, d.Failf(m["password"], "cafe.password", ErrBadValue, "empty: give the password comptoir-hub add-table printed")
	}
	return c, nil
}
