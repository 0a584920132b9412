package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCmd(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return out.String(), errb.String(), code
}

func TestReplayAndScore(t *testing.T) {
	tests := []struct {
		args     []string
		code     int
		contains []string
	}{
		{[]string{"replay", "../../notation/testdata/tally-3p.txt"}, 0, []string{"8 lines played", "Game over", "1. Anna", "Winner: Anna"}},
		{[]string{"score", "--lang", "fr", "../../notation/testdata/tally-3p.txt"}, 0, []string{"Partie terminée", "(pièces 7)", "Vainqueur : Anna"}},
		{[]string{"replay", "../../notation/testdata/tally-illegal.txt"}, 1, []string{"tally-illegal.txt:5: you cannot take 4 coins"}},
		{[]string{"replay", "--lang", "fr", "../../notation/testdata/tally-illegal.txt"}, 1, []string{"tally-illegal.txt:5: vous ne pouvez pas prendre 4 pièces"}},
		{[]string{"replay", "no-such-file.txt"}, 1, []string{"no-such-file.txt"}},
		{[]string{"replay"}, 2, []string{"usage: comptoir replay"}},
		{[]string{"nonsense"}, 2, []string{`unknown command "nonsense"`}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out, errs, code := runCmd(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, out, errs)
			}
			for _, c := range tt.contains {
				if !strings.Contains(out+errs, c) {
					t.Errorf("output does not contain %q:\n%s%s", c, out, errs)
				}
			}
		})
	}
}

func TestSimulate(t *testing.T) {
	dir := t.TempDir()
	out, errs, code := runCmd(t, "simulate", "--game", "tally", "--games", "50", "--players", "2-4", "--seed", "7", "--records", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
	if want := "simulate tally: 50 games (no editions; 2,3,4 players), 50 ended,"; !strings.HasPrefix(out, want) {
		t.Errorf("summary = %q, want prefix %q", out, want)
	}
	if !strings.Contains(out, " 0 invariant violations, 0 panics") {
		t.Errorf("summary = %q", out)
	}
	recs, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	if len(recs) != 50 {
		t.Fatalf("%d records written, want 50", len(recs))
	}
	// Every simulated game's record replays.
	for _, r := range recs[:5] {
		if out, errs, code := runCmd(t, "replay", r); code != 0 {
			t.Errorf("replay %s: exit %d: %s%s", r, code, out, errs)
		}
	}
	b, _ := os.ReadFile(recs[0])
	if !strings.Contains(string(b), "[Seed \"") {
		t.Errorf("record has no Seed tag:\n%s", b)
	}
	if _, errs, code := runCmd(t, "simulate", "--game", "tally", "--players", "9"); code != 1 || !strings.Contains(errs, "--players 9: the simulator seats 1 to 8 players") {
		t.Errorf("simulate with 9 players of tally: exit %d %s", code, errs)
	}
}
