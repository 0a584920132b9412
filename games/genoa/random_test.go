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

// TestLegalAllAccepted plays random games and, at every step, asks Decide
// about EVERY action Legal lists (not just the one played): each must be
// accepted; and playing one leaves the old state unchanged. Roll and draw choices are sampled (they are checked whole by
// TestRandomGames' choices and have no other condition than the phase).
func TestLegalAllAccepted(t *testing.T) {
	r := realRules(t)
	games := 300
	if testing.Short() {
		games = 30
	}
	names := []string{"Anna", "Bruno", "Chloé", "Denis", "Emma"}
	for i := range games {
		ed := []string{"alea-2001", "filosofia-2008"}[i%2]
		n := 2 + i%4
		st, err := r.Start(engine.Setup{Game: "genoa", Variant: ed, Players: names[:n]})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(i), 11))
		for step := 0; !st.(*State).Over(); step++ {
			before := fmt.Sprintf("%+v", *st.(*State))
			legal := st.Legal()
			for j, a := range legal {
				switch a.Cmd.(type) {
				case Roll, Draw:
					if j%7 != 0 {
						continue
					}
				}
				if _, err := st.Decide(a); err != nil {
					t.Fatalf("%s %dp game %d step %d: listed action %q by %v refused: %v", ed, n, i, step, codec.FormatCommand(a.Cmd, names[:n]), a.By, err)
				}
			}
			prev := st
			st, _, err = engine.Play(st, legal[rng.IntN(len(legal))])
			if err != nil {
				t.Fatal(err)
			}
			// States are values: Decide and Apply leave the old one as it
			// was (its slices are shared with the new one).
			if after := fmt.Sprintf("%+v", *prev.(*State)); after != before {
				t.Fatalf("game %d step %d: playing changed the old state:\n%s\n%s", i, step, before, after)
			}
			if step > 20000 {
				t.Fatalf("game %d does not end", i)
			}
		}
	}
}
