package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestCommandLine checks the daemon's conventions: help and version on
// stdout with status 0, a wrong command line status 2 with the usage on
// stderr.
func TestCommandLine(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		code     int
		out, err string
	}{
		{[]string{"-h"}, 0, "usage: comptoird", ""},
		{[]string{"--help"}, 0, "usage: comptoird", ""},
		{[]string{"help"}, 0, "usage: comptoird", ""},
		{[]string{"version"}, 0, "comptoird ", ""},
		{[]string{"--no-such-flag"}, 2, "", "flag provided but not defined"},
		{[]string{"--config", "x.yaml", "more"}, 2, "", `unexpected arguments ["more"]`},
		{[]string{"--config", "/nonexistent/t.yaml"}, 1, "", "comptoird: table configuration: open /nonexistent/t.yaml"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := exitCode(run(context.Background(), tc.args, &stdout, &stderr), &stderr)
			out, errs := stdout.String(), stderr.String()
			if code != tc.code || (tc.out == "") != (out == "") || !strings.Contains(out, tc.out) || !strings.Contains(errs, tc.err) {
				t.Errorf("comptoird %q: exit %d, stdout %q, stderr %q; want %d, %q, %q", tc.args, code, out, errs, tc.code, tc.out, tc.err)
			}
		})
	}
	var h1, h2 bytes.Buffer
	run(context.Background(), []string{"-h"}, &h1, &bytes.Buffer{})
	run(context.Background(), []string{"help"}, &h2, &bytes.Buffer{})
	if h1.String() != h2.String() {
		t.Errorf("comptoird -h and comptoird help differ:\n%s\n%s", h1.String(), h2.String())
	}
}
