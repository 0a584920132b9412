package negoce

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"comptoir/engine"
	"comptoir/notation"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/")

// TestRecords replays every game record of testdata/ and compares the game
// log (every event described, in English and French) and the final score
// with the golden file next to it.
func TestRecords(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no records in testdata: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			f, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			rec, err := notation.Read(f, file)
			if err != nil {
				t.Fatal(err)
			}
			actions, err := rec.Actions(codec)
			if err != nil {
				t.Fatal(err)
			}
			st, err := New().Start(rec.Setup)
			if err != nil {
				t.Fatal(err)
			}
			var log bytes.Buffer
			var events []engine.Event
			for k, a := range actions {
				line := rec.Lines[k]
				who := "table"
				if validSeat(a.By) {
					who = rec.Setup.Players[a.By]
				} else if a.By == engine.Staff {
					who = "staff"
				}
				fmt.Fprintf(&log, "%d: %s: %s\n", line.N, who, codec.FormatCommand(a.Cmd, rec.Setup.Players))
				next, evs, err := engine.Play(st, a)
				if err != nil {
					t.Fatalf("%s:%d: %v", file, line.N, err)
				}
				for _, ev := range evs {
					fmt.Fprintf(&log, "    %s\n    %s\n", st.(engine.Describer).Describe(ev, "en"), st.(engine.Describer).Describe(ev, "fr"))
					if err := next.(*State).Check(); err != nil {
						t.Fatalf("%s:%d: %v", file, line.N, err)
					}
				}
				events = append(events, evs...)
				st = next
			}
			res, err := json.MarshalIndent(st.Result(), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&log, "result: %s\n", res)

			// The events alone rebuild the same state, through their JSON,
			// as a journal does.
			var decoded []engine.Event
			for _, ev := range events {
				b, err := codec.EncodeEvent(ev)
				if err != nil {
					t.Fatal(err)
				}
				d, err := codec.DecodeEvent(ev.Name(), b)
				if err != nil {
					t.Fatal(err)
				}
				decoded = append(decoded, d)
			}
			again, err := engine.Replay(New(), rec.Setup, decoded)
			if err != nil {
				t.Fatalf("replaying the journal: %v", err)
			}
			if !reflect.DeepEqual(again, st) {
				t.Errorf("the journal replays to another state")
			}
			// notation.Play, which comptoir replay and score use, agrees.
			played, err := notation.Play(New(), rec)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(played, st) {
				t.Errorf("notation.Play reaches another state")
			}

			golden := strings.TrimSuffix(file, ".txt") + ".golden"
			if *update {
				if err := os.WriteFile(golden, log.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to write it)", err)
			}
			if !bytes.Equal(log.Bytes(), want) {
				t.Errorf("the log of %s differs from %s (go test -update rewrites it); got:\n%s", file, golden, log.String())
			}
		})
	}
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
