package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunPairs(t *testing.T) {
	if _, err := exec.LookPath("povray"); err != nil {
		t.Skip("povray not installed")
	}
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"-out", out, "-n", "3", "-seed", "5", "-width", "160", "-height", "120", "-aa", "0"}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	labels, err := os.ReadFile(filepath.Join(out, "labels.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(labels)), "\n")
	if len(lines) != 4 || lines[0] != "file,blue,red" || !strings.HasPrefix(lines[1], "0000.jpg,") {
		t.Errorf("labels.csv = %q, want a header and 3 rows", labels)
	}
	for _, name := range []string{"0000.jpg", "0001.jpg", "0002.jpg", "details.csv"} {
		if fi, err := os.Stat(filepath.Join(out, name)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestRunThrows renders one throw of the accuracy set's seed, the first
// whose dice touch: both are labelled ? and named in must_reject.
func TestRunThrows(t *testing.T) {
	if _, err := exec.LookPath("povray"); err != nil {
		t.Skip("povray not installed")
	}
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"-kind", "throws", "-out", out, "-n", "135", "-from", "134", "-seed", "1", "-width", "160", "-height", "120", "-aa", "0"}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	labels, err := os.ReadFile(filepath.Join(out, "labels.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(labels)), "\n")
	if len(lines) != 136 || lines[0] != "file,blue,red" || lines[135] != "0134.jpg,?,?" {
		t.Errorf("labels.csv: %d lines, last %q; want a header, 135 rows, the last 0134.jpg,?,?", len(lines), lines[len(lines)-1])
	}
	details, err := os.ReadFile(filepath.Join(out, "details.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(strings.SplitN(string(details), "\n", 2)[0], ",hard,must_reject") || strings.Count(string(details), ",touching,touching\n") != 2 {
		t.Errorf("details.csv does not name the touching dice of 0134.jpg:\n%s", details[len(details)-300:])
	}
	if fi, err := os.Stat(filepath.Join(out, "0134.jpg")); err != nil || fi.Size() == 0 {
		t.Errorf("0134.jpg: %v", err)
	}
}

func TestRunBadArgs(t *testing.T) {
	for _, args := range [][]string{{}, {"-out", t.TempDir(), "-kind", "triples"}, {"-out", t.TempDir(), "extra"}} {
		var stdout, stderr bytes.Buffer
		if err := run(context.Background(), args, &stdout, &stderr); err == nil {
			t.Errorf("run(%q) = nil, want an error", args)
		}
	}
}

func TestRunSequences(t *testing.T) {
	if _, err := exec.LookPath("povray"); err != nil {
		t.Skip("povray not installed")
	}
	if testing.Short() {
		t.Skip("renders 31 frames")
	}
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"-kind", "sequences", "-only", "roll", "-out", out, "-width", "64", "-height", "48", "-aa", "0"}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	frames, err := os.ReadFile(filepath.Join(out, "roll", "frames.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(frames)), "\n")
	pics, _ := filepath.Glob(filepath.Join(out, "roll", "*.jpg"))
	if len(rows) < 20 || len(pics) != len(rows)-1 {
		t.Errorf("%d rows in frames.csv and %d pictures, want one picture per row", len(rows)-1, len(pics))
	}
	want, err := os.ReadFile(filepath.Join(out, "roll", "expected.csv"))
	if err != nil || !strings.HasPrefix(string(want), "frame,blue,red,correction,unreadable\n") || strings.Count(string(want), "\n") != 2 {
		t.Errorf("expected.csv = %q, %v; want a header and one roll", want, err)
	}
}
