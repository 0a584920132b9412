package dschunke

import (
	"flag"
	"reflect"
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
