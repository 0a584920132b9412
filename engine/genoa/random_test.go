package genoa

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"comptoir/engine"
)

// playRandom plays a game choosing uniformly among the legal actions,
// checking every action is accepted and the invariants hold after every
// event. It returns the final state and the number of actions.
func playRandom(t testing.TB, r *Rules, edition string, players int, seed uint64) (*State, int) {
	t.Helper()
	names := []string{"Anna", "Bruno", "Chloé", "Denis", "Emma"}[:players]
	st, err := r.Start(engine.Setup{Game: "genoa", Variant: edition, Players: names})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	steps := 0
	for !st.(*State).Over() {
		legal := st.Legal()
		if len(legal) == 0 {
			t.Fatalf("seed %d step %d: no legal action, phase %v waiting %v", seed, steps, st.(*State).Phase, st.Waiting())
		}
		a := legal[rng.IntN(len(legal))]
		evs, err := st.Decide(a)
		if err != nil {
			t.Fatalf("seed %d step %d: listed action %s by %v refused: %v", seed, steps, codec.FormatCommand(a.Cmd, names), a.By, err)
		}
		for _, ev := range evs {
			st, err = st.Apply(ev)
			if err != nil {
				t.Fatalf("seed %d step %d: apply: %v", seed, steps, err)
			}
			if err := st.(*State).Check(); err != nil {
				t.Fatalf("seed %d step %d after %s (%s): %v", seed, steps, ev.Name(), codec.FormatCommand(a.Cmd, names), err)
			}
		}
		steps++
		if steps > 20000 {
			t.Fatalf("seed %d: game does not end", seed)
		}
	}
	return st.(*State), steps
}

func TestRandomGames(t *testing.T) {
	r := fixtureRules(t)
	games := 200
	if testing.Short() {
		games = 40
	}
	for i := range games {
		ed := []string{"alea-2001", "filosofia-2008"}[i%2]
		n := 2 + i%4
		t.Run(fmt.Sprintf("%s-%dp-%d", ed, n, i), func(t *testing.T) {
			playRandom(t, r, ed, n, uint64(i))
		})
	}
}
