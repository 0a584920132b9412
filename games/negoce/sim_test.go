package negoce

import (
	"flag"
	"math/rand"
	"testing"

	"comptoir/engine"
)

var simGames = flag.Int("sim.games", 1000, "seeded random games played by TestSimulate")

// maxSteps bounds one random game; no seeded game comes near it.
const maxSteps = 200000

func players() engine.Setup {
	return engine.Setup{Game: Name, Players: []string{"Anna", "Bruno", "Chloé", "David"}}
}

// playRandom plays a game choosing uniformly among Legal with a seeded
// source, as `comptoir simulate` does, checking the invariants after
// every event. It returns the final state and the number of actions.
func playRandom(t testing.TB, seed int64) (*State, int) {
	t.Helper()
	return playRandomVisit(t, seed, nil)
}

// playRandomVisit is playRandom calling visit with every event and the
// states before and after it.
func playRandomVisit(t testing.TB, seed int64, visit func(before, after *State, ev engine.Event)) (*State, int) {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	st, err := New().Start(players())
	if err != nil {
		t.Fatal(err)
	}
	for step := 0; step < maxSteps; step++ {
		s := st.(*State)
		if s.Result().Over {
			if len(s.Waiting()) != 0 || len(s.Legal()) != 0 {
				t.Fatalf("seed %d: over but waiting %v, %d legal actions", seed, s.Waiting(), len(s.Legal()))
			}
			return s, step
		}
		if s.phase == PhaseForceName {
			// Every good is in the seller's hand or some buyer's: there is
			// always a good to name, and naming one nobody holds is
			// refused as holding it.
			for g := range NumGoods {
				if s.goods(s.seller)[g] == 0 && len(s.holdersOf(g)) == 0 {
					t.Fatalf("seed %d step %d: good %d is neither with the seller nor with a buyer", seed, step, g)
				}
			}
		}
		legal := s.Legal()
		if len(legal) == 0 {
			t.Fatalf("seed %d step %d: no legal action in phase %s", seed, step, s.phase.Key())
		}
		if len(s.Waiting()) == 0 {
			t.Fatalf("seed %d step %d: nobody waited for in phase %s", seed, step, s.phase.Key())
		}
		a := legal[rng.Intn(len(legal))]
		evs, err := s.Decide(a)
		if err != nil {
			t.Fatalf("seed %d step %d: legal action %s by %v refused: %v", seed, step, codec.FormatCommand(a.Cmd, s.setup.Players), a.By, err)
		}
		for _, ev := range evs {
			before := st.(*State)
			if st, err = st.Apply(ev); err != nil {
				t.Fatalf("seed %d step %d: apply %s: %v", seed, step, ev.Name(), err)
			}
			if visit != nil {
				visit(before, st.(*State), ev)
			}
			if err := st.(engine.Checker).Check(); err != nil {
				t.Fatalf("seed %d step %d after %s: %v", seed, step, ev.Name(), err)
			}
		}
	}
	t.Fatalf("seed %d: no winner after %d actions", seed, maxSteps)
	return nil, 0
}

func TestSimulate(t *testing.T) {
	n := *simGames
	if testing.Short() {
		n = 50
	}
	total, longest, sales := 0, 0, 0
	wins := make([]int, Players)
	for seed := int64(1); seed <= int64(n); seed++ {
		s, steps := playRandom(t, seed)
		total += steps
		longest = max(longest, steps)
		sales += s.sales
		wins[s.winner]++
	}
	t.Logf("%d games: %d actions on average, longest %d, %.1f sales on average, wins by seat %v", n, total/n, longest, float64(sales)/float64(n), wins)
}
