package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckAtStart: the daemon runs comptoir check's checks before it
// opens anything: a board file that does not exist stops it (it used to
// play on the default layout), and the warnings are logged.
func TestCheckAtStart(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "t.yaml")
	os.WriteFile(cfg, []byte("version: 1\ngame: genoa\nplayers: [A, B]\njournal: j.db\nboard: missing-board.yaml\nstaff_pin: \"1234\"\n"), 0o644)
	var stderr bytes.Buffer
	err := run(context.Background(), []string{"--config", cfg}, io.Discard, &stderr)
	if err == nil || !strings.Contains(err.Error(), `t.yaml:5: key "board": error: `+filepath.Join(dir, "missing-board.yaml")+" does not exist") {
		t.Errorf("run = %v, want the missing board file", err)
	}
	for _, w := range []string{`level=WARN msg="not set: the join QR codes`, `key=base_url`, `key=staff_pin`} {
		if !strings.Contains(stderr.String(), w) {
			t.Errorf("log %q does not warn %q", stderr.String(), w)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "j.db")); err == nil {
		t.Error("the journal was created before the check refused the configuration")
	}
}
