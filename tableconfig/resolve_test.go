package tableconfig

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLoadRelative loads a configuration named by a relative path: the
// seat tokens beside the journal are resolved once, like the journal
// (they were once resolved twice: dir/dir/table.tokens.json).
func TestLoadRelative(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.yaml"), []byte("version: 1\ngame: tally\nplayers: [A, B]\njournal: table.db\ntags: tags.yaml\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Dir(dir))
	c, err := Load(filepath.Join(filepath.Base(dir), "t.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Base(dir)
	for _, tc := range []struct{ what, got, want string }{
		{"journal", c.Journal, filepath.Join(base, "table.db")},
		{"tokens", c.Tokens, filepath.Join(base, "table.tokens.json")},
		{"tags", c.Tags, filepath.Join(base, "tags.yaml")},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %q, want %q", tc.what, tc.got, tc.want)
		}
	}
	if c.Line("journal") != 4 || c.Line("board") != 0 {
		t.Errorf("Line(journal) = %d, Line(board) = %d; want 4 and 0", c.Line("journal"), c.Line("board"))
	}
}
