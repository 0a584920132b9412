package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The -update flag rewrites golden files (go test ./cmd/comptoir -run
// TestBoard -update). It is defined here unless another test file of the
// package defines it as a package variable (initialised before init runs).
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files in testdata")
	}
}

func updateGolden() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

func TestBoard(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		golden string // testdata/<golden>.golden
	}{
		{"default", []string{"board"}, "board-default"},
		{"alea", []string{"board", "--edition", "alea-2001"}, "board-alea"},
		{"filosofia", []string{"board", "--edition=filosofia-2008"}, "board-filosofia"},
		{"file", []string{"board", "--file", "../../configs/genoa/board.yaml", "--edition", "filosofia-2008"}, "board-file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := run(tt.args, &out, &errb); code != 0 {
				t.Fatalf("run(%q) = %d, stderr %s", tt.args, code, errb.String())
			}
			golden := filepath.Join("testdata", tt.golden+".golden")
			if updateGolden() {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestBoard -update)", err)
			}
			if out.String() != string(want) {
				t.Errorf("run(%q) printed:\n%s\nwant:\n%s", tt.args, out.String(), want)
			}
		})
	}
}

func TestBoardErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "board.yaml")
	data, err := os.ReadFile("../../configs/genoa/board.yaml")
	if err != nil {
		t.Fatal(err)
	}
	typo := strings.Replace(string(data), "    cells:\n      - 4-3", "    cels:\n      - 4-3", 1)
	if err := os.WriteFile(bad, []byte(typo), 0o644); err != nil {
		t.Fatal(err)
	}
	line := strings.Count(typo[:strings.Index(typo, "cels:")], "\n") + 1
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"bad file", []string{"board", "--file", bad}, 1, bad + ":" + itoaBoard(line) + `: key "cels": unknown key in a building; expected one of key, fr, en, cells, names, aliases`},
		{"missing file", []string{"board", "--file", filepath.Join(dir, "none.yaml")}, 1, "no such file"},
		{"bad edition", []string{"board", "--edition", "monopoly"}, 1, `unknown Genoa edition "monopoly"; known editions: alea-2001, filosofia-2008`},
		{"stray argument", []string{"board", "extra"}, 2, "usage: comptoir board"},
		{"bad flag", []string{"board", "--colour"}, 2, "flag provided but not defined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(tt.args, &out, &errb)
			if code != tt.code || !strings.Contains(errb.String(), tt.want) {
				t.Errorf("run(%q) = %d, stderr:\n%s\nwant %d and %q", tt.args, code, errb.String(), tt.code, tt.want)
			}
		})
	}
}

func itoaBoard(n int) string {
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}
