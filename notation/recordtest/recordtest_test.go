package recordtest

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"comptoir/engine/enginetest"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/")

// TestTally replays Tally's record against its golden log.
func TestTally(t *testing.T) {
	o := DefaultOpts(enginetest.Rules{}, enginetest.Rules{}.Codec())
	o.Update = *update
	Check(t, o)
}

// TestLogRefuses checks that Log reports an illegal record, a missing file
// and a record of another game, naming the file.
func TestLogRefuses(t *testing.T) {
	o := DefaultOpts(enginetest.Rules{}, enginetest.Rules{}.Codec())
	tests := []struct{ name, file, want string }{
		{"illegal action", "testdata/bad/tally-illegal.txt", "testdata/bad/tally-illegal.txt:5:"},
		{"missing file", "testdata/none.txt", "testdata/none.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log, err := Log(o, tt.file)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Log(%s) = %q, %v; want an error naming %q", tt.file, log, err, tt.want)
			}
		})
	}
}

// TestGoldenDiffers checks that a log that changed is told apart from its
// golden file: Log's output is compared byte for byte.
func TestGoldenDiffers(t *testing.T) {
	o := DefaultOpts(enginetest.Rules{}, enginetest.Rules{}.Codec())
	log, err := Log(o, "testdata/tally-3p.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"6: Anna: take n=3\n", "\n9: table: take n=1\n", "result: {"} {
		if !strings.Contains(string(log), want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	// A record that plays differently gives another log.
	dir := t.TempDir()
	data, err := os.ReadFile("testdata/tally-3p.txt")
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.txt")
	os.WriteFile(other, []byte(strings.Replace(string(data), "Chloé: take n=2", "Chloé: take n=1", 1)), 0o644)
	log2, err := Log(o, other)
	if err != nil {
		t.Fatal(err)
	}
	if string(log2) == string(log) {
		t.Error("two different games give the same log")
	}
}
