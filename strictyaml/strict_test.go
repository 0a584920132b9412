package strictyaml

import (
	"errors"
	"strings"
	"testing"
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
