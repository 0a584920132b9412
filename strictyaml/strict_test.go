package strictyaml

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

func TestParse(t *testing.T) {
	f := File{Name: "x.yaml"}
	tests := []struct{ data, want string }{
		{"", "x.yaml:1: empty file; expected a mapping with a version key"},
		{"a: [1\n", "x.yaml:"},
		{"- 1\n", "x.yaml:1: top level is a list; expected a mapping with a version key"},
		{"'a'\n", "x.yaml:1: top level is a scalar"},
	}
	for _, tt := range tests {
		_, err := f.Parse([]byte(tt.data))
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) || !errors.Is(err, ErrInvalid) {
			t.Errorf("Parse(%q) = %v, want prefix %q", tt.data, err, tt.want)
		}
	}
	// The line of a syntax error is the file's, 1-based, for the errors
	// of yaml.v3's scanner and of its parser (whose own line is 0-based).
	for _, tt := range []struct{ data, want string }{
		{"a: 1\nb: 2\nc: : :\n", "x.yaml:3: not valid YAML: mapping values are not allowed in this context"},
		{"# c\nversion: 1\ncards: [{id: L01\n", "x.yaml:3: not valid YAML: did not find expected ',' or '}'"},
		{"version: 1\nfoo: [1, 2\nbar: 3\n", "x.yaml:2: not valid YAML: did not find expected ',' or ']'"},
		{"a: 1\nb:\n  - x\n - y\n", "x.yaml:4: not valid YAML: did not find expected key"},
		{"a: 1\n\tb: 2\n", "x.yaml:2: not valid YAML: found a tab character that violates indentation"},
	} {
		_, err := f.Parse([]byte(tt.data))
		if err == nil || err.Error() != tt.want {
			t.Errorf("Parse(%q) = %v, want %s", tt.data, err, tt.want)
		}
	}
	if _, err := f.Parse([]byte("a: 1\n")); err != nil {
		t.Errorf("Parse(a: 1) = %v", err)
	}
}

func TestFields(t *testing.T) {
	f := File{Name: "x.yaml"}
	tests := []struct{ data, want string }{
		{"a: 1\nb: 2\n", ""},
		{"a: 1\n", ""},
		{"b: 2\n", `x.yaml:1: key "a": missing in thing; it is required`},
		{"a: 1\nc: 3\n", `x.yaml:2: key "c": unknown key in thing; expected one of a, b`},
		{"a: 1\na: 2\n", `x.yaml:2: key "a": given twice in thing; keep one`},
		{"a: 1\n[x]: 2\n", `x.yaml:2: thing has a key that is a list; expected a plain name`},
	}
	for _, tt := range tests {
		root, err := f.Parse([]byte(tt.data))
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.data, err)
		}
		_, err = f.Fields(root, "thing", []string{"a"}, []string{"b"})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("Fields(%q) = %q, want %q", tt.data, got, tt.want)
		}
	}
}

func TestValues(t *testing.T) {
	f := File{Name: "x.yaml"}
	root, err := f.Parse([]byte("s: text\ni: 12\nb: true\nl: [a, b]\nm: {a: x}\nn: ~\nfl: 1.5\nbig: 99999999999999999999\n"))
	if err != nil {
		t.Fatal(err)
	}
	fl, err := f.Fields(root, "doc", []string{"s", "i", "b", "l", "m", "n", "fl", "big"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s, err := f.String(fl["s"], "s"); s != "text" || err != nil {
		t.Errorf("String = %q, %v", s, err)
	}
	if i, err := f.Int(fl["i"], "i"); i != 12 || err != nil {
		t.Errorf("Int = %d, %v", i, err)
	}
	if b, err := f.Bool(fl["b"], "b"); !b || err != nil {
		t.Errorf("Bool = %v, %v", b, err)
	}
	if l, err := f.Strings(fl["l"], "l"); len(l) != 2 || err != nil {
		t.Errorf("Strings = %v, %v", l, err)
	}
	if m, err := f.StringMap(fl["m"], "m"); len(m) != 1 || m[0] != [2]string{"a", "x"} || err != nil {
		t.Errorf("StringMap = %v, %v", m, err)
	}
	bad := []struct {
		err  error
		want string
	}{
		{func() error { _, err := f.String(fl["i"], "i"); return err }(), `x.yaml:2: key "i": is a number; expected a text`},
		{func() error { _, err := f.Int(fl["s"], "s"); return err }(), `x.yaml:1: key "s": is a text "text"; expected a whole number`},
		{func() error { _, err := f.Int(fl["fl"], "fl"); return err }(), `key "fl": is a decimal number; expected a whole number`},
		{func() error { _, err := f.Int(fl["big"], "big"); return err }(), `key "big": "99999999999999999999" is out of range`},
		{func() error { _, err := f.Bool(fl["s"], "s"); return err }(), `key "s": is a text "text"; expected true or false`},
		{func() error { _, err := f.Seq(fl["m"], "m"); return err }(), `key "m": is a mapping; expected a list`},
		{func() error { _, err := f.String(fl["n"], "n"); return err }(), `key "n": is an empty value; expected a text`},
		{func() error { _, err := f.StringMap(fl["l"], "l"); return err }(), `key "l": is a list; expected a mapping`},
	}
	for _, b := range bad {
		if b.err == nil || !strings.Contains(b.err.Error(), b.want) || !errors.Is(b.err, ErrInvalid) {
			t.Errorf("error = %v, want %q", b.err, b.want)
		}
	}
}

func TestVersion(t *testing.T) {
	f := File{Name: "x.yaml"}
	for data, want := range map[string]string{
		"version: 1\n":   "",
		"version: 2\n":   `x.yaml:1: key "version": version 2 is not supported; this Comptoir reads version 1`,
		"version: '1'\n": `x.yaml:1: key "version": is a text "1"; expected a whole number`,
	} {
		root, _ := f.Parse([]byte(data))
		fl, err := f.Fields(root, "doc", []string{"version"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		err = f.Version(fl, 1)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("Version(%q) = %q, want %q", data, got, want)
		}
	}
}

// TestKinds checks that every error wraps its kind and the File's
// sentinel beside ErrInvalid, without printing them.
func TestKinds(t *testing.T) {
	mine := errors.New("bad thing map")
	f := File{Name: "x.yaml", Sentinel: mine}
	fields := func(data string) error {
		root, err := f.Parse([]byte(data))
		if err != nil {
			return err
		}
		_, err = f.Fields(root, "thing", []string{"a"}, []string{"b"})
		return err
	}
	tests := []struct {
		name string
		err  error
		kind error
		want string
	}{
		{"empty", fields(""), ErrMissingKey, "x.yaml:1: empty file; expected a mapping with a version key"},
		{"not yaml", fields("a: [1\n"), ErrBadValue, "x.yaml:"},
		{"top list", fields("- 1\n"), ErrBadValue, "x.yaml:1: top level is a list"},
		{"unknown", fields("a: 1\nc: 2\n"), ErrUnknownKey, `x.yaml:2: key "c": unknown key in thing; expected one of a, b`},
		{"missing", fields("b: 1\n"), ErrMissingKey, `x.yaml:1: key "a": missing in thing; it is required`},
		{"twice", fields("a: 1\na: 1\n"), ErrBadValue, `x.yaml:2: key "a": given twice in thing; keep one`},
		{"errorf", f.Errorf(&yaml.Node{Line: 3}, "k", "%d is too many", 9), ErrBadValue, `x.yaml:3: key "k": 9 is too many`},
		{"failf", f.Failf(&yaml.Node{Line: 4}, "k", ErrBadValue, "pin %s is used", "GPIO17"), ErrBadValue, `x.yaml:4: key "k": bad value: pin GPIO17 is used`},
		{"wrap", f.Wrap(&yaml.Node{Line: 5}, "uid", fmt.Errorf("%w: 3 bytes", errBadUID)), errBadUID, `x.yaml:5: key "uid": bad UID: 3 bytes`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.err == nil {
				t.Fatal("no error")
			}
			if !strings.HasPrefix(tt.err.Error(), tt.want) {
				t.Errorf("error = %q, want prefix %q", tt.err, tt.want)
			}
			for _, target := range []error{ErrInvalid, tt.kind, mine} {
				if !errors.Is(tt.err, target) {
					t.Errorf("errors.Is(%q, %q) = false", tt.err, target)
				}
			}
			for _, other := range []error{ErrUnknownKey, ErrMissingKey, ErrBadValue} {
				if other != tt.kind && errors.Is(tt.err, other) {
					t.Errorf("errors.Is(%q, %q) = true, want only %q", tt.err, other, tt.kind)
				}
			}
		})
	}
	if err := (File{Name: "y.yaml"}).Errorf(nil, "", "x"); errors.Is(err, mine) || err.Error() != "y.yaml: x" {
		t.Errorf("error without sentinel = %q", err)
	}
}

var errBadUID = errors.New("bad UID")

func TestSection(t *testing.T) {
	f := File{Name: "x.yaml"}
	root, err := f.Parse([]byte("devices:\n  nfc:\n    spi: SPI0.0\n    rest: GPIO4\n  lights: 3\n  buttons: {}\n"))
	if err != nil {
		t.Fatal(err)
	}
	top, err := f.Fields(root, "the file", []string{"devices"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	dev, err := f.Section(top["devices"], "devices", nil, []string{"nfc", "lights", "buttons"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		node     *yaml.Node
		path     string
		req, opt []string
		want     string
	}{
		{"unknown", dev["nfc"], "devices.nfc", []string{"spi"}, []string{"reset"}, `x.yaml:4: key "devices.nfc.rest": unknown key in devices.nfc; expected one of spi, reset (did you mean "reset"?)`},
		{"missing", dev["nfc"], "devices.nfc", []string{"spi", "rest", "reset"}, nil, `x.yaml:3: key "devices.nfc.reset": missing in devices.nfc; it is required`},
		{"not a mapping", dev["lights"], "devices.lights", nil, nil, `x.yaml:5: key "devices.lights": devices.lights is a number; expected a mapping`},
		{"empty ok", dev["buttons"], "devices.buttons", nil, []string{"pins"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.Section(tt.node, tt.path, tt.req, tt.opt)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("Section = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestScalarFloatDuration(t *testing.T) {
	f := File{Name: "x.yaml"}
	root, err := f.Parse([]byte("bus: 1\nbus2: \"1\"\naddr: 0x20\nnone:\nlist: [1]\nspeed: 2\nhalf: 0.5\npause: 1m30s\nbare: 30\nword: soon\n"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := f.Fields(root, "doc", nil, []string{"bus", "bus2", "addr", "none", "list", "speed", "half", "pause", "bare", "word"})
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{"bus": "1", "bus2": "1", "addr": "0x20", "word": "soon"} {
		if got, err := f.Scalar(m[key], key); got != want || err != nil {
			t.Errorf("Scalar(%s) = %q, %v; want %q", key, got, err, want)
		}
	}
	if got, err := f.Float(m["speed"], "speed"); got != 2 || err != nil {
		t.Errorf("Float(speed) = %v, %v", got, err)
	}
	if got, err := f.Float(m["half"], "half"); got != 0.5 || err != nil {
		t.Errorf("Float(half) = %v, %v", got, err)
	}
	if got, err := f.Duration(m["pause"], "pause"); got != 90*time.Second || err != nil {
		t.Errorf("Duration(pause) = %v, %v", got, err)
	}
	bad := []struct {
		err  error
		want string
	}{
		{func() error { _, err := f.Scalar(m["none"], "none"); return err }(), `x.yaml:4: key "none": is an empty value; expected a single value`},
		{func() error { _, err := f.Scalar(m["list"], "list"); return err }(), `x.yaml:5: key "list": is a list; expected a single value`},
		{func() error { _, err := f.Float(m["word"], "word"); return err }(), `x.yaml:10: key "word": is a text "soon"; expected a number`},
		{func() error { _, err := f.Float(m["bus2"], "bus2"); return err }(), `key "bus2": is a text "1"; expected a number`},
		{func() error { _, err := f.Duration(m["bare"], "bare"); return err }(), `x.yaml:9: key "bare": "30" is not a duration; write it with its unit, like 100ms or 5s`},
		{func() error { _, err := f.Duration(m["none"], "none"); return err }(), `key "none": is an empty value; expected a duration`},
		{func() error { _, err := f.Duration(m["list"], "list"); return err }(), `key "list": is a list; expected a duration`},
	}
	for _, b := range bad {
		if b.err == nil || !strings.Contains(b.err.Error(), b.want) || !errors.Is(b.err, ErrBadValue) {
			t.Errorf("error = %v, want %q", b.err, b.want)
		}
	}
}
