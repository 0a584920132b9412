package dschunke

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
// log (every event described, in English and French), the final position
// and the score with the golden file next to it. It also checks that the
// journal of events round-trips through JSON to the same position.
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
			var journal [][2]string
			for k, a := range actions {
				line := rec.Lines[k]
				who := "table"
				if a.By >= 0 {
					who = rec.Setup.Players[a.By]
				}
				fmt.Fprintf(&log, "%d: %s: %s\n", line.N, who, codec.FormatCommand(a.Cmd, rec.Setup.Players))
				evs, err := st.Decide(a)
				if err != nil {
					t.Fatalf("%s:%d: %v", file, line.N, err)
				}
				for _, ev := range evs {
					d := st.(engine.Describer)
					fmt.Fprintf(&log, "   %s\n   %s\n", d.Describe(ev, "en"), d.Describe(ev, "fr"))
					if st, err = st.Apply(ev); err != nil {
						t.Fatalf("%s:%d: %v", file, line.N, err)
					}
					if err := st.(engine.Checker).Check(); err != nil {
						t.Fatalf("%s:%d: %v", file, line.N, err)
					}
					b, err := codec.EncodeEvent(ev)
					if err != nil {
						t.Fatal(err)
					}
					journal = append(journal, [2]string{ev.Name(), string(b)})
				}
			}
			res, _ := json.MarshalIndent(st.Result(), "", "  ")
			fmt.Fprintf(&log, "\n%s\n%s\n", st.(fmt.Stringer).String(), res)
			golden := strings.TrimSuffix(file, ".txt") + ".golden"
			if *update {
				if err := os.WriteFile(golden, log.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to write it)", err)
			}
			if !bytes.Equal(log.Bytes(), want) {
				t.Errorf("%s differs from %s; run go test -update and review the diff", file, golden)
			}
			// The journal round trip.
			var events []engine.Event
			for _, j := range journal {
				ev, err := codec.DecodeEvent(j[0], []byte(j[1]))
				if err != nil {
					t.Fatalf("decode %s %s: %v", j[0], j[1], err)
				}
				events = append(events, ev)
			}
			again, err := engine.Replay(New(), rec.Setup, events)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(again.View(engine.Staff), st.View(engine.Staff)) || !reflect.DeepEqual(again.Result(), st.Result()) {
				t.Errorf("the journal replayed gives another position")
			}
			// notation.Play agrees.
			played, err := notation.Play(New(), rec)
			if err != nil {
				t.Fatal(err)
			}
			if played.(fmt.Stringer).String() != st.(fmt.Stringer).String() {
				t.Errorf("notation.Play gives another position")
			}
		})
	}
}

// TestSimulate plays 200 seeded games by uniform choice among the legal
// actions: every legal action is accepted, reads back from its notation,
// the invariants hold after every event, and every game ends.
func TestSimulate(t *testing.T) {
	games := 200
	if testing.Short() {
		games = 20
	}
	over := 0
	for seed := int64(1); seed <= int64(games); seed++ {
		players := players3
		if seed%2 == 0 {
			players = players4
		}
		s := randomGame(t, players, seed, func(s *State, legal []engine.Action) {
			for _, a := range legal {
				text := codec.FormatCommand(a.Cmd, players)
				back, err := codec.ParseCommand(text, players)
				if err != nil || !reflect.DeepEqual(back, a.Cmd) {
					t.Fatalf("legal %q reads back as %#v (%v), want %#v", text, back, err, a.Cmd)
				}
			}
		})
		if s.Result().Over {
			over++
		}
	}
	if over != games {
		t.Fatalf("%d of %d games ended", over, games)
	}
}

// TestLegalAccepted checks, on seeded games, that Decide accepts every
// action Legal lists (not only the one drawn).
func TestLegalAccepted(t *testing.T) {
	for seed := int64(100); seed < 110; seed++ {
		randomGame(t, players4, seed, func(s *State, legal []engine.Action) {
			for _, a := range legal {
				if _, err := s.Decide(a); err != nil {
					t.Fatalf("seed %d, step %s: legal %s by %v refused: %v", seed, s.step, codec.FormatCommand(a.Cmd, players4), a.By, err)
				}
			}
		})
	}
}

// TestLegalCounts counts the legal actions of known positions,
// perft-style.
func TestLegalCounts(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  int
	}{
		// 4 players, 8 of each goods to deal: compositions of 8 in 4
		// goods, for the first seat without a hand.
		{"hands, four players", nil, 165},
		// The last hand is what is left: David's fish 6, vegetables 2.
		{"last hand", hands4[:3], 1},
		{"market", hands4, 10},
		// Anna, round 1: merchant load on brown (a new layer: 3x3 slot
		// pairs in one layer: 3x2), merchant income, merchant goods on grey (one junk's 3
		// cards: 4 choices), helper goods on white or purple (1 each),
		// helper2 load on white or purple (a hole, then a new layer: 1x3
		// each).
		{"first action", round1, 6 + 1 + 4 + 2 + 6},
		// Anna restocks 2 cards: compositions of 2 in 4 goods.
		{"restock", toRestock, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := start(t, players4)
			s, _ = play(t, s, tt.lines...)
			if got := len(s.Legal()); got != tt.want {
				for _, a := range s.Legal() {
					t.Log(codec.FormatCommand(a.Cmd, players4))
				}
				t.Errorf("%d legal actions, want %d", got, tt.want)
			}
		})
	}
}
