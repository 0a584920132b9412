package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"comptoir/tableconfig"
)

func TestCheck(t *testing.T) {
	const dir = "../../tablecheck/testdata/"
	tests := []struct {
		args     []string
		code     int
		contains []string
	}{
		{[]string{"check", dir + "ok.yaml"}, 0, []string{"ok.yaml: ok (0 warnings)"}},
		{[]string{"check", dir + "board-missing.yaml"}, 1, []string{`board-missing.yaml:8: key "board": error: `, "no-such-board.yaml does not exist", "1 errors, 0 warnings"}},
		{[]string{"check", dir + "warnings-only.yaml"}, 0, []string{`key "base_url": warning: not set`, "ok (3 warnings)"}},
		{[]string{"check", "--strict", dir + "warnings-only.yaml"}, 1, []string{"3 warnings (--strict)"}},
		{[]string{"check", dir + "typo-key.yaml"}, 1, []string{`typo-key.yaml:4: key "jounral": unknown key`, `(did you mean "journal"?)`}},
		{[]string{"check", dir + "button-on-spi.yaml"}, 1, []string{`button-on-spi.yaml:12: key "devices.buttons.pins.undo": bad value: pin GPIO10 is the SPI0 MOSI line`}},
		{[]string{"check"}, 2, []string{"name one table configuration file", "usage: comptoir check"}},
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

// TestDiceReaderOnPath finds the dice reader as comptoird would:
// dice_reader:, else comptoir-dice, else comptoir, else this program.
func TestDiceReaderOnPath(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	self, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	comptoir := write("comptoir", 0o755)
	notExec := write("notes.txt", 0o644)
	t.Run("dice_reader", func(t *testing.T) {
		if p, err := diceReaderOnPath(&tableconfig.Config{DiceReader: comptoir}); err != nil || p != comptoir {
			t.Errorf("= %q, %v; want %s", p, err, comptoir)
		}
		if _, err := diceReaderOnPath(&tableconfig.Config{DiceReader: notExec}); err == nil || !strings.Contains(err.Error(), "not an executable program") {
			t.Errorf("a file that is not a program: %v", err)
		}
	})
	t.Run("comptoir in PATH", func(t *testing.T) {
		t.Setenv("PATH", dir)
		if p, err := diceReaderOnPath(&tableconfig.Config{}); err != nil || p != comptoir {
			t.Errorf("= %q, %v; want %s", p, err, comptoir)
		}
	})
	t.Run("comptoir-dice first", func(t *testing.T) {
		dice := write("comptoir-dice", 0o755)
		defer os.Remove(dice)
		t.Setenv("PATH", dir)
		if p, err := diceReaderOnPath(&tableconfig.Config{}); err != nil || p != dice {
			t.Errorf("= %q, %v; want %s", p, err, dice)
		}
	})
	t.Run("this program", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		if p, err := diceReaderOnPath(&tableconfig.Config{}); err != nil || p != self {
			t.Errorf("= %q, %v; want this program, %s", p, err, self)
		}
	})
}
