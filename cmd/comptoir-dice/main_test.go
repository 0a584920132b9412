package main

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"comptoir/hw/replay"
	"comptoir/input"
)

// TestRun reads the recorded throw of vision/testdata/sequences-640/roll
// as comptoird would have comptoir-dice read it, giving back its library
// pages, and checks the command line's answers to help, version and
// wrong usage.
func TestRun(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"dicefeed", "--frames", "../../vision/testdata/sequences-640/roll", "--fps", "200", "--keep-on-eof"}, &out, &errb)
	if code != 0 {
		t.Fatalf("comptoir-dice dicefeed = %d, stderr:\n%s", code, errb.String())
	}
	rec, err := replay.Read(strings.NewReader(out.String()), "stdout", replay.DefaultOpts)
	if err != nil {
		t.Fatalf("stdout is not a recording: %v\n%s", err, out.String())
	}
	var rolls []string
	for _, e := range rec.Events() {
		if d, ok := e.(input.DiceRolled); ok {
			rolls = append(rolls, fmt.Sprintf("%d,%d", d.Blue, d.Red))
		}
	}
	// expected.csv of that folder: frame 15, blue 2, red 5.
	if strings.Join(rolls, " ") != "2,5" {
		t.Errorf("rolls %v, want [2,5] (the folder's expected.csv)", rolls)
	}
	// Once its reader is made, the reader gives its libraries' pages back
	// (libpages.TestDrop checks that they go).
	if !strings.Contains(errb.String(), "memory: gave back the pages of ") {
		t.Errorf("stderr does not say the libraries' pages were given back:\n%s", errb.String())
	}

	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"no command", nil, 2, "", "usage: comptoir-dice dicefeed"},
		{"unknown command", []string{"replay"}, 2, "", `unknown command "replay"`},
		{"help", []string{"help"}, 0, "usage: comptoir-dice dicefeed", ""},
		{"help dicefeed", []string{"help", "dicefeed"}, 0, "--camera", ""},
		{"dicefeed -h", []string{"dicefeed", "--frames", "x", "-h"}, 0, "--pictures", ""},
		{"version", []string{"version"}, 0, "comptoir-dice ", ""},
		{"no source", []string{"dicefeed"}, 1, "", "give one of --camera"},
		{"bad flag", []string{"dicefeed", "--frames", "x", "--fps", "0"}, 2, "", " dicefeed (--camera DEVICE | --video FILE"},
		{"missing folder", []string{"dicefeed", "--frames", "/nonexistent"}, 1, "", "/nonexistent"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(tc.args, &out, &errb)
			if code != tc.code || !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errb.String(), tc.stderr) {
				t.Errorf("comptoir-dice %q = %d\nstdout %s\nstderr %s\nwant %d, stdout with %q, stderr with %q", tc.args, code, out.String(), errb.String(), tc.code, tc.stdout, tc.stderr)
			}
		})
	}
}

// allowedImports are the packages of this module comptoir-dice may link.
// Each one more is memory in the dice reader's process for as long as the
// table runs: the whole comptoir program cost about 25 MB more resident
// (README, "Memory"). Add one only after measuring with comptoir memory.
var allowedImports = map[string]bool{
	"comptoir/buildinfo":             true,
	"comptoir/cmd/internal/dicefeed": true,
	"comptoir/cmd/internal/libpages": true,
	"comptoir/cmd/comptoir-dice":     true,
	"comptoir/hw/clock":              true,
	"comptoir/hw/replay":             true,
	"comptoir/input":                 true,
	"comptoir/vision":                true,
	"comptoir/vision/stills":         true,
}

// TestDependencies keeps the dice reader's program small: it links the
// standard library, gocv and the reader's own packages, nothing else.
func TestDependencies(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the dependencies")
	}
	out, err := exec.Command(gobin, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "comptoir/cmd/comptoir-dice").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	seen := 0
	for _, p := range strings.Fields(string(out)) {
		switch {
		case allowedImports[p]:
			seen++
		case p == "gocv.io/x/gocv", p == "golang.org/x/sys/unix":
		default:
			t.Errorf("comptoir-dice links %s: the dice reader's process maps all it links, for as long as the table runs; keep it out of comptoir/cmd/internal/dicefeed and what it imports, or measure (make memory) and add it to allowedImports", p)
		}
	}
	if seen != len(allowedImports) {
		t.Errorf("go list found %d of the %d allowed packages:\n%s", seen, len(allowedImports), out)
	}
}
