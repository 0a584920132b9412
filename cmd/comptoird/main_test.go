package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no file", []string{"--config", filepath.Join(dir, "none.yaml")}, "no such file"},
		{"unknown game", []string{"--config", write("g.yaml", "version: 1\ngame: chess\nplayers: [A, B]\njournal: j.db\n")}, `unknown game "chess"`},
		{"tally is a test game", []string{"--config", write("t.yaml", "version: 1\ngame: tally\nplayers: [A, B]\njournal: j.db\n")}, `unknown game "tally"`},
		{"bad setup", []string{"--config", write("s.yaml", "version: 1\ngame: negoce\nplayers: [A]\njournal: j.db\n")}, "the table's game cannot start: negoce: Négoce 2 is played by exactly 4 players: 1 players given"},
		{"config error", []string{"--config", write("k.yaml", "version: 1\ngame: tally\nplayers: [A, B]\njournal: j.db\nlisten_on: x\n")}, `k.yaml:5: key "listen_on": unknown key`},
		{"board for negoce", []string{"--config", write("b.yaml", "version: 1\ngame: negoce\nplayers: [A, B, C, D]\njournal: j.db\nboard: b.yaml\n")}, "board: is for tables of a game with a board to edit"},
		{"extra argument", []string{"--config", "x.yaml", "more"}, "unexpected arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			err := run(context.Background(), tt.args, io.Discard, &stderr)
			// A usage error is told on stderr; a failure in the error.
			if err == nil || !strings.Contains(err.Error()+stderr.String(), tt.want) {
				t.Errorf("run(%q) = %v (stderr %q), want an error with %q", tt.args, err, stderr.String(), tt.want)
			}
		})
	}
}

// TestRunStopsCleanly runs the daemon in this process on the demo's
// recording, lets it play for a moment, cancels it as a signal would, and
// checks that it returns nil and leaves no goroutine behind.
func TestRunStopsCleanly(t *testing.T) {
	before := runtime.NumGoroutine()
	dir := t.TempDir()
	cfg := genoaConfig(t, dir, "t.db", "replay:\n  inputs: %R/configs/demo/genoa-inputs.jsonl\n  speed: 20\n  loop: true\n  pause: 10ms\n")
	ctx, cancel := context.WithCancel(context.Background())
	var stderr bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"--config", cfg, "--listen", freeAddr(t)}, io.Discard, &stderr) }()
	time.Sleep(1500 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run = %v\n%s", err, stderr.String())
		}
	case <-time.After(ShutdownTimeout + 5*time.Second):
		t.Fatalf("run did not return after the cancel\n%s", stderr.String())
	}
	if !strings.Contains(stderr.String(), "stopping") {
		t.Errorf("log has no stop:\n%s", stderr.String())
	}
	deadline := time.Now().Add(3 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("goroutine leak: %d running, %d before\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// genoaConfig writes dir/table.yaml: a genoa table (Alea 2001) of Anna,
// Bruno and Chloé with the demo's tags and the journal file journal in
// dir, then the lines of more (staff_pin, replay, cafe…, each ending in a
// newline); and returns its path. %R in more stands for the repository.
func genoaConfig(t *testing.T, dir, journal, more string) string {
	t.Helper()
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "table.yaml")
	body := fmt.Sprintf("version: 1\ngame: genoa\nvariant: alea-2001\nplayers: [Anna, Bruno, Chloé]\njournal: %s\ntags: %s/configs/demo/tags.yaml\n", journal, repo) +
		strings.ReplaceAll(more, "%R", repo)
	if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg
}
