package main

import (
	"sort"
	"strings"
	"testing"
)

// TestCommandLineConventions checks every command against the
// conventions: help on stdout with status 0, the same for "help CMD" and
// "CMD -h"; a wrong flag is status 2 with the usage on stderr.
func TestCommandLineConventions(t *testing.T) {
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range append(names, "hw check", "hw record") {
		args := strings.Fields(n)
		t.Run(n, func(t *testing.T) {
			out, errs, code := runCmd(t, append(args, "-h")...)
			if code != 0 || errs != "" || !strings.Contains(out, "usage") {
				t.Errorf("%s -h: exit %d, stdout %q, stderr %q; want 0, the usage on stdout, nothing on stderr", n, code, out, errs)
			}
			for _, h := range [][]string{append([]string{"help"}, args...), append(args, "--help")} {
				out2, errs2, code2 := runCmd(t, h...)
				if code2 != 0 || errs2 != "" || out2 != out {
					t.Errorf("%q: exit %d, stderr %q, stdout differs from %s -h: %v", h, code2, errs2, n, out2 != out)
				}
			}
			out, errs, code = runCmd(t, append(args, "--no-such-flag")...)
			if code != 2 || errs == "" || out != "" {
				t.Errorf("%s --no-such-flag: exit %d, stdout %q, stderr %q; want 2 and a message on stderr only", n, code, out, errs)
			}
		})
	}
	for _, tc := range []struct {
		args     []string
		code     int
		out, err string
	}{
		{nil, 2, "", "usage: comptoir"},
		{[]string{"help"}, 0, "usage: comptoir", ""},
		{[]string{"--help"}, 0, "usage: comptoir", ""},
		{[]string{"version"}, 0, "comptoir ", ""},
		{[]string{"help", "nonsense"}, 2, "", `unknown command "nonsense"`},
		{[]string{"nonsense"}, 2, "", `unknown command "nonsense"`},
	} {
		out, errs, code := runCmd(t, tc.args...)
		if code != tc.code || (tc.out == "") != (out == "") || !strings.Contains(out, tc.out) || !strings.Contains(errs, tc.err) {
			t.Errorf("comptoir %q: exit %d, stdout %q, stderr %q; want %d, %q, %q", tc.args, code, out, errs, tc.code, tc.out, tc.err)
		}
	}
	if out, _, _ := runCmd(t, "version"); !strings.Contains(out, " commit ") || strings.Count(out, "\n") != 1 {
		t.Errorf("version = %q, want one line with the commit", out)
	}
}
