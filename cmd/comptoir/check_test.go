package main

import (
	"strings"
	"testing"
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
