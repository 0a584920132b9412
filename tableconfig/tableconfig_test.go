package tableconfig

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"comptoir/strictyaml"
)

const good = `version: 1
table: Table 3
game: genoa
variant: alea-2001
players: [Anna, Bruno, Chloé]
options:
  market-advance: "off"
journal: table.db
staff_pin: "4821"
tags: tags.yaml
replay:
  inputs: demo.jsonl
  speed: 2
  loop: true
  pause: 3s
devices:
  buttons:
    pins:
      confirm: GPIO17
`

func TestDecode(t *testing.T) {
	c, err := Decode([]byte(good), "t.yaml")
	if err != nil {
		t.Fatalf("Decode = %v", err)
	}
	if c.Game != "genoa" || c.Variant != "alea-2001" || strings.Join(c.Players, ",") != "Anna,Bruno,Chloé" || c.Options["market-advance"] != "off" {
		t.Errorf("Decode = %+v, want genoa alea-2001 with three players and the option", c)
	}
	if c.Listen != DefaultListen || c.StaffPIN != "4821" || c.Tokens != "table.tokens.json" {
		t.Errorf("listen %q pin %q tokens %q, want the default listen, the PIN and tokens next to the journal", c.Listen, c.StaffPIN, c.Tokens)
	}
	if r := c.Replay; r == nil || r.Inputs != "demo.jsonl" || r.Speed != 2 || !r.Loop || r.Pause != 3*time.Second {
		t.Errorf("Replay = %+v", c.Replay)
	}
	if c.Devices.Buttons == nil || c.Devices.Buttons.Pins[0].Pin != "GPIO17" {
		t.Errorf("Devices = %+v, want the confirm button on GPIO17", c.Devices)
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name     string
		yaml     string
		sentinel error
		want     string // in the message
	}{
		{"empty", ``, ErrMissingKey, `t.yaml:1: empty file; expected a mapping with a version key`},
		{"no version", "game: genoa\nplayers: [A, B]\njournal: j.db\n", ErrMissingKey, `t.yaml:1: key "version": missing in the table configuration; it is required`},
		{"bad version", "version: 2\ngame: genoa\nplayers: [A, B]\njournal: j.db\n", ErrBadValue, `t.yaml:1: key "version": version 2 is not supported; this Comptoir reads version 1`},
		{"unknown key", "version: 1\ngame: genoa\nplayers: [A, B]\njournal: j.db\nplayer: C\n", ErrUnknownKey, `t.yaml:5: key "player": unknown key in the table configuration; expected one of version, game, players, journal, table,`},
		{"missing journal", "version: 1\ngame: genoa\nplayers: [A, B]\n", ErrMissingKey, `key "journal"`},
		{"twice", "version: 1\ngame: genoa\ngame: tally\nplayers: [A, B]\njournal: j.db\n", ErrBadValue, `t.yaml:3: key "game": given twice in the table configuration; keep one`},
		{"players not a list", "version: 1\ngame: genoa\nplayers: Anna\njournal: j.db\n", ErrBadValue, `t.yaml:3: key "players"`},
		{"player twice", "version: 1\ngame: genoa\nplayers: [Anna, anna]\njournal: j.db\n", ErrBadValue, `key "players[1]": bad value: "anna" is seated twice`},
		{"bad pin", "version: 1\ngame: genoa\nplayers: [A, B]\njournal: j.db\nstaff_pin: 12\n", ErrBadValue, `t.yaml:5: key "staff_pin": bad value: want 4 to 12 digits`},
		{"bad game", "version: 1\ngame: Genoa!\nplayers: [A, B]\njournal: j.db\n", ErrBadValue, `key "game"`},
		{"bad speed", "version: 1\ngame: genoa\nplayers: [A, B]\njournal: j.db\nreplay:\n  inputs: x.jsonl\n  speed: fast\n", ErrBadValue, `t.yaml:7: key "replay.speed": is a text "fast"; expected a number`},
		{"replay unknown key", "version: 1\ngame: genoa\nplayers: [A, B]\njournal: j.db\nreplay:\n  input: x.jsonl\n", ErrUnknownKey, `t.yaml:6: key "replay.input": unknown key in replay; expected one of inputs, frames, speed, loop, pause`},
		{"bad base url", "version: 1\ngame: genoa\nplayers: [A, B]\njournal: j.db\nbase_url: 192.168.1.2\n", ErrBadValue, `key "base_url"`},
		{"devices error", "version: 1\ngame: genoa\nplayers: [A, B]\njournal: j.db\ndevices:\n  nfc:\n    spi: SPI0.0\n    reset: GPIO99\n", ErrBadValue, `t.yaml:8: key "devices.nfc.reset": bad value: bad pin name "GPIO99"`},
		{"speed 0", "version: 1\ngame: genoa\nplayers: [A, B]\njournal: j.db\nreplay:\n  inputs: x.jsonl\n  speed: 0\n", ErrBadValue, `t.yaml:7: key "replay.speed": bad value: 0: want a pace factor above 0`},
		{"loop yes", "version: 1\ngame: genoa\nplayers: [A, B]\njournal: j.db\nreplay:\n  inputs: x.jsonl\n  loop: yes\n", ErrBadValue, `t.yaml:7: key "replay.loop": is a text "yes"; expected true or false`},
		{"pause without unit", "version: 1\ngame: genoa\nplayers: [A, B]\njournal: j.db\nreplay:\n  inputs: x.jsonl\n  pause: 5\n", ErrBadValue, `t.yaml:7: key "replay.pause": "5" is not a duration; write it with its unit`},
		{"pause too long", "version: 1\ngame: genoa\nplayers: [A, B]\njournal: j.db\nreplay:\n  inputs: x.jsonl\n  pause: 2h\n", ErrBadValue, `t.yaml:7: key "replay.pause": bad value: 2h0m0s: want a pause from 0s to 1h`},
		{"replay without inputs", "version: 1\ngame: genoa\nplayers: [A, B]\njournal: j.db\nreplay:\n  speed: 2\n", ErrMissingKey, `t.yaml:6: key "replay.inputs": missing in replay; it is required`},
		{"camera not a mapping", "version: 1\ngame: genoa\nplayers: [A, B]\njournal: j.db\ncamera: /dev/video0\n", ErrBadValue, `t.yaml:5: key "camera": camera is a text "/dev/video0"; expected a mapping`},
		{"empty journal", "version: 1\ngame: genoa\nplayers: [A, B]\njournal:\n", ErrBadValue, `t.yaml:4: key "journal": is an empty value; expected a single value`},
		{"options a list", "version: 1\ngame: genoa\nplayers: [A, B]\njournal: j.db\noptions: [a]\n", ErrBadValue, `t.yaml:5: key "options": bad value: want a mapping of option name to value`},
		{"option twice", "version: 1\ngame: genoa\nplayers: [A, B]\njournal: j.db\noptions: {a: 1, a: 2}\n", ErrBadValue, `key "options.a": bad value: given twice; keep one`},
		{"top list", "- version: 1\n", ErrBadValue, `t.yaml:1: top level is a list`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode([]byte(tt.yaml), "t.yaml")
			if err == nil {
				t.Fatalf("Decode(%q) = nil error, want %q", tt.yaml, tt.want)
			}
			if !errors.Is(err, tt.sentinel) || !errors.Is(err, strictyaml.ErrInvalid) {
				t.Errorf("Decode(%q) = %v, want it to wrap %v", tt.yaml, err, tt.sentinel)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Decode(%q) = %q, want it to contain %q", tt.yaml, err, tt.want)
			}
		})
	}
}

// TestNumbersAsText checks that values that are names may be written as
// numbers: a staff PIN, a table's name, an option's value.
func TestNumbersAsText(t *testing.T) {
	c, err := Decode([]byte("version: 1\ntable: 3\ngame: genoa\nplayers: [A, B]\njournal: j.db\nstaff_pin: 4821\noptions: {rounds: 8}\nreplay: {inputs: x.jsonl, speed: 2.5}\n"), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if c.Table != "3" || c.StaffPIN != "4821" || c.Options["rounds"] != "8" || c.Replay.Speed != 2.5 {
		t.Errorf("Decode = table %q pin %q options %v speed %v", c.Table, c.StaffPIN, c.Options, c.Replay.Speed)
	}
}

// TestShippedConfigs decodes the table configurations in configs/tables.
func TestShippedConfigs(t *testing.T) {
	files, err := filepath.Glob("../configs/tables/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no table configurations found: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			c, err := Load(f)
			if err != nil {
				t.Fatalf("Load(%s) = %v", f, err)
			}
			if !filepath.IsAbs(c.Journal) && !strings.HasPrefix(c.Journal, "../configs/tables") {
				t.Errorf("journal %q not resolved against the file's folder", c.Journal)
			}
		})
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(good))
	f.Add([]byte("version: 1\ngame: tally\nplayers: [A, B]\njournal: j.db\n"))
	f.Add([]byte("version: 1\nreplay: [1, 2]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Decode(data, "fuzz.yaml")
		if err != nil && (!errors.Is(err, strictyaml.ErrInvalid) || !strings.HasPrefix(err.Error(), "fuzz.yaml")) {
			t.Fatalf("error %q does not name the file or does not wrap strictyaml.ErrInvalid", err)
		}
		if err == nil && (c.Game == "" || len(c.Players) == 0 || c.Journal == "") {
			t.Fatalf("Decode accepted a configuration without game, players or journal: %+v", c)
		}
	})
}

func TestSetJournalMovesDefaultTokens(t *testing.T) {
	c, err := Decode([]byte("version: 1\ngame: tally\nplayers: [A, B]\njournal: /var/lib/comptoir/t.db\n"), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c.SetJournal("/tmp/x.db")
	if c.Tokens != "/tmp/x.tokens.json" {
		t.Errorf("tokens %q after SetJournal, want /tmp/x.tokens.json", c.Tokens)
	}
	c, err = Decode([]byte("version: 1\ngame: tally\nplayers: [A, B]\njournal: /var/lib/comptoir/t.db\ntokens: /etc/tok.json\n"), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c.SetJournal("/tmp/x.db")
	if c.Tokens != "/etc/tok.json" {
		t.Errorf("tokens %q after SetJournal, want the file's /etc/tok.json", c.Tokens)
	}
}

// TestDiceReader decodes dice_reader: and resolves it against the file's
// folder, as the other paths.
func TestDiceReader(t *testing.T) {
	c, err := Decode([]byte("version: 1\ngame: genoa\nplayers: [A, B]\njournal: j.db\ndice_reader: bin/comptoir\ncamera:\n  device: /dev/video0\n"), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if c.DiceReader != "bin/comptoir" || c.Camera == nil || c.Camera.Device != "/dev/video0" {
		t.Errorf("DiceReader %q camera %+v", c.DiceReader, c.Camera)
	}
	c.resolve("/etc/comptoir")
	if c.DiceReader != "/etc/comptoir/bin/comptoir" {
		t.Errorf("resolved DiceReader %q, want /etc/comptoir/bin/comptoir", c.DiceReader)
	}
	if _, err := Decode([]byte("version: 1\ngame: genoa\nplayers: [A, B]\njournal: j.db\ndice_reader: \"\"\n"), "t.yaml"); !errors.Is(err, ErrBadValue) {
		t.Errorf("empty dice_reader: %v, want ErrBadValue", err)
	}
}

func TestDecodeCafe(t *testing.T) {
	base := "version: 1\ngame: genoa\nplayers: [Anna, Bruno]\njournal: t.db\n"
	tests := []struct {
		name, extra string
		want        *Cafe
		wantErr     string
	}{
		{"none", "", nil, ""},
		{"ok", "cafe:\n  url: nats://10.0.0.2:4222\n  name: table-3\n  password: \"0123456789abcdef\"\n", &Cafe{URL: "nats://10.0.0.2:4222", Name: "table-3", Password: "0123456789abcdef"}, ""},
		{"bad url", "cafe:\n  url: http://x\n  name: t\n  password: p\n", nil, `key "cafe.url"`},
		{"bad name", "cafe:\n  url: nats://x:1\n  name: Table 3\n  password: p\n", nil, `key "cafe.name"`},
		{"missing", "cafe:\n  url: nats://x:1\n  name: t\n", nil, "password"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Decode([]byte(base+tt.extra), "t.yaml")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Decode = %v, want an error with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(c.Cafe, tt.want) {
				t.Fatalf("Cafe = %+v, want %+v", c.Cafe, tt.want)
			}
		})
	}
}
