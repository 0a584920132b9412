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

// renderInto runs dicerender with args into a new folder, which it returns;
// it skips the test without povray.
func renderInto(t *testing.T, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("povray"); err != nil {
		t.Skip("povray not installed")
	}
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), append([]string{"-out", out}, args...), &stdout, &stderr); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	return out
}

// lines is the lines of the file at path, the trailing newline dropped.
func lines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

func TestRunPairs(t *testing.T) {
	out := renderInto(t, "-n", "3", "-seed", "5", "-width", "160", "-height", "120", "-aa", "0")
	labels := lines(t, filepath.Join(out, "labels.csv"))
	if len(labels) != 4 || labels[0] != "file,blue,red" || !strings.HasPrefix(labels[1], "0000.jpg,") {
		t.Errorf("labels.csv = %q, want a header and 3 rows", labels)
	}
	for _, name := range []string{"0000.jpg", "0001.jpg", "0002.jpg", "details.csv"} {
		if fi, err := os.Stat(filepath.Join(out, name)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestRunThrows renders one throw of the accuracy set's seed, the first
// whose dice touch: both lie flat and are labelled with their faces (3
// and 2), touching named among the hard cases, none in must_reject; and
// the first throw of a set of dice leaning on each other: the leaning die
// is labelled ? and named in must_reject.
func TestRunThrows(t *testing.T) {
	out := renderInto(t, "-kind", "throws", "-n", "135", "-from", "134", "-seed", "1", "-width", "160", "-height", "120", "-aa", "0")
	labels := lines(t, filepath.Join(out, "labels.csv"))
	if len(labels) != 136 || labels[0] != "file,blue,red" || labels[135] != "0134.jpg,3,2" {
		t.Errorf("labels.csv: %d lines, last %q; want a header, 135 rows, the last 0134.jpg,3,2", len(labels), labels[len(labels)-1])
	}
	details, err := os.ReadFile(filepath.Join(out, "details.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(strings.SplitN(string(details), "\n", 2)[0], ",hard,must_reject") || strings.Count(string(details), ",touching,\n") != 2 {
		t.Errorf("details.csv does not name the touching dice of 0134.jpg:\n%s", details[len(details)-300:])
	}
	if fi, err := os.Stat(filepath.Join(out, "0134.jpg")); err != nil || fi.Size() == 0 {
		t.Errorf("0134.jpg: %v", err)
	}

	out = renderInto(t, "-kind", "throws", "-n", "1", "-seed", "40", "-reject", "1", "-rests", "leaning", "-width", "160", "-height", "120", "-aa", "0")
	if labels := lines(t, filepath.Join(out, "labels.csv")); len(labels) != 2 || labels[1] != "0000.jpg,?,6" {
		t.Errorf("labels.csv = %q, want 0000.jpg,?,6 (the blue die leaning on the red 6)", labels)
	}
	if d := lines(t, filepath.Join(out, "details.csv")); len(d) != 3 || !strings.HasSuffix(d[1], ",leaning,leaning") || !strings.HasSuffix(d[2], ",leaning,") {
		t.Errorf("details.csv = %q, want the blue die leaning and refused, the red not", d)
	}
}

func TestRunBadArgs(t *testing.T) {
	for _, args := range [][]string{{}, {"-out", t.TempDir(), "-kind", "triples"}, {"-out", t.TempDir(), "extra"},
		{"-out", t.TempDir(), "-kind", "throws", "-rests", "cocked,sideways"}} {
		var stdout, stderr bytes.Buffer
		if err := run(context.Background(), args, &stdout, &stderr); err == nil {
			t.Errorf("run(%q) = nil, want an error", args)
		}
	}
}

func TestRunSequences(t *testing.T) {
	if testing.Short() {
		t.Skip("renders 31 frames")
	}
	out := renderInto(t, "-kind", "sequences", "-only", "roll", "-width", "64", "-height", "48", "-aa", "0")
	rows := lines(t, filepath.Join(out, "roll", "frames.csv"))
	pics, _ := filepath.Glob(filepath.Join(out, "roll", "*.jpg"))
	if len(rows) < 20 || len(pics) != len(rows)-1 {
		t.Errorf("%d rows in frames.csv and %d pictures, want one picture per row", len(rows)-1, len(pics))
	}
	want, err := os.ReadFile(filepath.Join(out, "roll", "expected.csv"))
	if err != nil || !strings.HasPrefix(string(want), "frame,blue,red,correction,unreadable\n") || strings.Count(string(want), "\n") != 2 {
		t.Errorf("expected.csv = %q, %v; want a header and one roll", want, err)
	}
}
