package vision

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadTablesBadLabels: a tables folder whose labels.csv lacks a
// column or names an unknown use is refused, saying which.
func TestReadTablesBadLabels(t *testing.T) {
	for _, tc := range []struct {
		name, labels, want string
	}{
		{"no use column", "file,blue,red,table\n00000.jpg,1,-,0\n", "needs file, blue, red, table and use columns"},
		{"unknown use", "file,blue,red,table,use\n00000.jpg,1,-,0,calibrate\n00001.jpg,2,3,0,play\n", `line 3: use "play", want calibrate or eval`},
		{"no pictures", "file,blue,red,table,use\n", "labels.csv has no pictures"},
		{"missing picture", "file,blue,red,table,use\n00000.jpg,1,-,0,calibrate\n", "cannot read picture 00000.jpg"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "labels.csv"), []byte(tc.labels), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadTables(DefaultNetOpts, learnedFor, dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// learnedFor makes learned readers for ReadTables.
func learnedFor(o NetOpts) (TableReader, error) {
	r, err := NewNetReader(o)
	if err != nil {
		return nil, err
	}
	return r, nil
}
