package tablecheck_test

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"comptoir/tablecheck"
	"comptoir/tableconfig"
)

var update = flag.Bool("update", false, "rewrite the expected messages in testdata")

// noDiceReader is a machine without the comptoir program.
func noDiceReader(*tableconfig.Config) (string, error) {
	return "", errors.New("the dice reader (the comptoir command) is not installed")
}

// TestConfigs checks each configuration of testdata/ and compares what
// is found (the decoding error, or every problem) with its .want file.
func TestConfigs(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.yaml"))
	if err != nil || len(files) < 10 {
		t.Fatalf("testdata: %d configurations, %v", len(files), err)
	}
	abs, _ := filepath.Abs("testdata")
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		t.Run(name, func(t *testing.T) {
			var got string
			cfg, err := tableconfig.Load(f)
			if err != nil {
				got = err.Error() + "\n"
			} else {
				ps := tablecheck.Check(cfg, tablecheck.Opts{DiceReader: noDiceReader})
				for _, p := range ps {
					got += p.String() + "\n"
				}
				if (tablecheck.Err(ps) == nil) != !strings.Contains(got, ": error: ") {
					t.Errorf("Err(%s) = %v, but the problems are:\n%s", f, tablecheck.Err(ps), got)
				}
				if got == "" {
					got = "ok\n"
				}
			}
			got = strings.ReplaceAll(got, abs, "testdata")
			want := strings.TrimSuffix(f, ".yaml") + ".want"
			if *update {
				if err := os.WriteFile(want, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			w, err := os.ReadFile(want)
			if err != nil {
				t.Fatalf("%v (go test -update writes it)", err)
			}
			if got != string(w) {
				t.Errorf("check %s:\n%s\nwant:\n%s", f, got, w)
			}
		})
	}
}

func TestProblemString(t *testing.T) {
	for _, tc := range []struct {
		p    tablecheck.Problem
		want string
	}{
		{tablecheck.Problem{File: "t.yaml", Line: 4, Key: "board", Msg: "x"}, `t.yaml:4: key "board": error: x`},
		{tablecheck.Problem{File: "t.yaml", Key: "base_url", Severity: tablecheck.Warning, Msg: "y"}, `t.yaml: key "base_url": warning: y`},
		{tablecheck.Problem{File: "t.yaml", Msg: "z"}, `t.yaml: error: z`},
	} {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
}
