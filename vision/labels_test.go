package vision

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// renderedSet is the labelled renders of vision/testdata/rendered, the
// accuracy set; parity 0 keeps the even-numbered files (the ones the
// built-in model learns from), 1 the odd-numbered ones (held out), -1 all.
func renderedSet(t testing.TB, parity int) []LabelledImage {
	t.Helper()
	return pairSet(t, "testdata/rendered", parity)
}

// hardSet is the adversarial renders of vision/testdata/rendered-hard,
// never learned from.
func hardSet(t testing.TB) []LabelledImage {
	t.Helper()
	return pairSet(t, "testdata/rendered-hard", -1)
}

// pairSet is the labelled pictures of a blue and a red die in dir.
func pairSet(t testing.TB, dir string, parity int) []LabelledImage {
	t.Helper()
	recs := readLabelsCSV(t, filepath.Join(dir, "labels.csv"), []string{"file", "blue", "red"})
	var out []LabelledImage
	for _, rec := range recs {
		if !fileHasParity(t, rec[0], parity) {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, rec[0])); err != nil && os.Getenv("VISION_PARTIAL") != "" {
			continue // being rendered
		}
		out = append(out, LabelledImage{Path: filepath.Join(dir, rec[0]),
			Faces: map[string]int{"blue": labelFace(t, rec[1]), "red": labelFace(t, rec[2])}})
	}
	return out
}

// mustReject maps "file die" of the accuracy set to why the die must be
// rejected (details.csv, column must_reject).
func mustReject(t testing.TB) map[string]string {
	t.Helper()
	recs := readLabelsCSV(t, "testdata/rendered/details.csv", []string{"file", "die", "face"})
	out := map[string]string{}
	for _, rec := range recs {
		if len(rec) != 15 {
			t.Fatalf("testdata/rendered/details.csv: %d columns, want 15 (with must_reject)", len(rec))
		}
		if rec[14] != "" {
			out[rec[0]+" "+rec[1]] = rec[14]
		}
	}
	return out
}

// realSet is the labelled photos of single dice of vision/testdata/real.
func realSet(t testing.TB, parity int) []LabelledImage {
	t.Helper()
	recs := readLabelsCSV(t, "testdata/real/labels.csv", []string{"file", "face"})
	var out []LabelledImage
	for _, rec := range recs {
		if !fileHasParity(t, rec[0], parity) {
			continue
		}
		out = append(out, LabelledImage{Path: filepath.Join("testdata/real", rec[0]), Faces: map[string]int{"die": labelFace(t, rec[1])}})
	}
	return out
}

func readLabelsCSV(t testing.TB, path string, header []string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(recs) < 2 {
		t.Fatalf("%s: no labels", path)
	}
	for i, h := range header {
		if i >= len(recs[0]) || recs[0][i] != h {
			t.Fatalf("%s: header %v, want %v first", path, recs[0], header)
		}
	}
	return recs[1:]
}

// fileHasParity says whether the number in the file name has the parity.
func fileHasParity(t testing.TB, file string, parity int) bool {
	if parity < 0 {
		return true
	}
	digits := strings.TrimFunc(strings.TrimSuffix(file, filepath.Ext(file)), func(r rune) bool { return r < '0' || r > '9' })
	n, err := strconv.Atoi(digits)
	if err != nil {
		t.Fatalf("file %s: no number in its name", file)
	}
	return n%2 == parity
}

func labelFace(t testing.TB, s string) int {
	if s == "?" || s == "" {
		return 0
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 8 {
		t.Fatalf("label %q: want 1 to 8 or ?", s)
	}
	return n
}
