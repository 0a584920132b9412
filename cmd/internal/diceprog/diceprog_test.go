package diceprog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSearch: comptoir-dice before comptoir, beside before PATH, and the
// places tried when neither is anywhere.
func TestSearch(t *testing.T) {
	beside, inPath := t.TempDir(), t.TempDir()
	write := func(dir, name string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	t.Setenv("PATH", inPath)
	if _, tried, ok := Search(beside); ok || strings.Join(tried, ", ") != strings.Join([]string{
		filepath.Join(beside, "comptoir-dice"), "comptoir-dice in PATH", filepath.Join(beside, "comptoir"), "comptoir in PATH"}, ", ") {
		t.Errorf("nowhere: ok %v, tried %q", ok, tried)
	}
	for _, tc := range []struct {
		name string
		dir  string
		want string
	}{
		{"comptoir in PATH", inPath, "comptoir"},
		{"comptoir beside", beside, "comptoir"},
		{"comptoir-dice in PATH before comptoir beside", inPath, "comptoir-dice"},
		{"comptoir-dice beside first", beside, "comptoir-dice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := write(tc.dir, tc.want)
			if got, _, ok := Search(beside); !ok || got != want {
				t.Errorf("= %q, %v; want %s", got, ok, want)
			}
		})
	}
	if got, _, ok := Search(""); !ok || got != filepath.Join(inPath, "comptoir-dice") {
		t.Errorf("without a folder = %q, %v; want comptoir-dice in PATH", got, ok)
	}
}
