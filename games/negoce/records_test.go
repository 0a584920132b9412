package negoce

import (
	"flag"
	"fmt"
	"testing"

	"comptoir/engine"
	"comptoir/notation/recordtest"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/")

// TestRecords replays every game record of testdata/ and compares its
// log with the golden file next to it; see recordtest.Check for all it
// checks.
func TestRecords(t *testing.T) {
	o := recordtest.DefaultOpts(New(), codec)
	o.Update = *update
	recordtest.Check(t, o)
}

// TestCommandsRoundTrip writes every legal action of seeded games as a line
// of the notation and reads it back.
func TestCommandsRoundTrip(t *testing.T) {
	names := players().Players
	games := int64(3)
	if testing.Short() {
		games = 1
	}
	for seed := int64(1); seed <= games; seed++ {
		rngGame := func(before, after *State, ev engine.Event) {
			for _, a := range after.Legal() {
				line := codec.FormatCommand(a.Cmd, names)
				back, err := codec.ParseCommand(line, names)
				if err != nil {
					t.Fatalf("%q does not read back: %v", line, err)
				}
				if fmt.Sprint(back) != fmt.Sprint(a.Cmd) {
					t.Fatalf("%q reads back as %#v, want %#v", line, back, a.Cmd)
				}
			}
		}
		playRandomVisit(t, seed, rngGame)
	}
}
