package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestCafeSimSmall runs a small café (the hub in process), its tables in
// this process and spread over child processes: every step and play
// reaches the history once, and the figures are printed.
func TestCafeSimSmall(t *testing.T) {
	for _, c := range []struct {
		name  string
		procs string
		want  string
		cpu   bool // the table processes' CPU per step is printed
	}{
		{"one process", "1", "(1 processes)", false}, // the hub in it: no figure
		{"three processes", "3", "(3 processes)", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // each its own hub: CI waits for the longer only
			var out, errb bytes.Buffer
			err := cafeSim([]string{"--tables", "5", "--procs", c.procs, "--duration", "3s", "--rate", "4", "--catchup", "300", "--hub-in-process", "--dir", t.TempDir()}, &out, &errb)
			if err != nil {
				t.Fatalf("cafe-sim: %v\n%s\n%s", err, out.String(), errb.String())
			}
			for _, want := range []string{"p99", "catch-up: 300 steps", "lost: 0,", "plays finished:", "paced tables: "} {
				if !strings.Contains(out.String(), want) {
					t.Errorf("cafe-sim printed no %q:\n%s", want, out.String())
				}
			}
			if got := strings.Contains(out.String(), "CPU of the table processes"); got != c.cpu {
				t.Errorf("cafe-sim printed the tables' CPU: %v, want %v:\n%s", got, c.cpu, out.String())
			}
			if !strings.Contains(errb.String(), c.want) {
				t.Errorf("cafe-sim's log says no %q:\n%s", c.want, errb.String())
			}
			// The paced tables played (5 tables, 4 steps a second, 3 s:
			// about 60 steps; fewer on a loaded machine, never none).
			var paced int
			if i := strings.Index(out.String(), "paced tables: "); i >= 0 {
				fmt.Sscan(out.String()[i+len("paced tables: "):], &paced)
			}
			if paced < 10 {
				t.Errorf("paced tables played %d steps, want about %d", paced, 5*4*3)
			}
			t.Log("\n" + out.String())
		})
	}
}
