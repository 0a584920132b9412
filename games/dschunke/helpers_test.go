package dschunke

import (
	"math/rand"
	"strings"
	"testing"

	"comptoir/engine"
)

var players4 = []string{"Anna", "Bruno", "Chloé", "David"}
var players3 = []string{"Anna", "Bruno", "Chloé"}

// start returns a new game's state.
func start(t testing.TB, players []string) *State {
	t.Helper()
	s, err := New().Start(engine.Setup{Game: Name, Players: players})
	if err != nil {
		t.Fatal(err)
	}
	return s.(*State)
}

// action reads "Name: command" or "command" (the table) in s's game.
func action(t testing.TB, s *State, line string) engine.Action {
	t.Helper()
	by := engine.NoSeat
	if name, rest, ok := strings.Cut(line, ": "); ok {
		seat, found := s.setup.SeatOf(name)
		if !found {
			t.Fatalf("%q: no player %q", line, name)
		}
		by, line = seat, rest
	}
	cmd, err := codec.ParseCommand(line, s.setup.Players)
	if err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	return engine.Action{By: by, Cmd: cmd}
}

// play plays the lines in order, checking the invariants after each, and
// returns the state and the events of the last line.
func play(t testing.TB, s *State, lines ...string) (*State, []engine.Event) {
	t.Helper()
	var evs []engine.Event
	for _, line := range lines {
		next, e, err := engine.Play(s, action(t, s, line))
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		s, evs = next.(*State), e
		if err := s.Check(); err != nil {
			t.Fatalf("after %q: %v", line, err)
		}
	}
	return s, evs
}

// hands4 are starting hands for four players: Anna 2 of each, Bruno and
// Chloé spices 3, rice 3, vegetables 2, David fish 6 and vegetables 2.
var hands4 = []string{
	"Anna: hand goods=fish:2,rice:2,spices:2,vegetables:2",
	"Bruno: hand goods=rice:3,spices:3,vegetables:2",
	"Chloé: hand goods=rice:3,spices:3,vegetables:2",
	"David: hand goods=fish:6,vegetables:2",
}

// dealt4 is a four-player game with hands4 dealt, before the first market
// card.
func dealt4(t testing.TB) *State {
	t.Helper()
	s, _ := play(t, start(t, players4), hands4...)
	return s
}

// atBidding jumps s to the bidding of the round with the market card id,
// as if the first phases had passed without change.
func atBidding(t testing.TB, s *State, market string) *State {
	t.Helper()
	i, ok := s.d.MarketIndex(market)
	if !ok {
		t.Fatalf("no market card %s", market)
	}
	n := s.clone()
	n.mUsed[i], n.market, n.step = true, i, stepBid
	n.resetBids()
	if err := n.Check(); err != nil {
		t.Fatal(err)
	}
	return n
}

// give gives seat the special card id (as drawn).
func give(t testing.TB, s *State, seat int, id string) *State {
	t.Helper()
	i, ok := s.d.SpecialIndex(id)
	if !ok {
		t.Fatalf("no special card %s", id)
	}
	n := s.clone()
	n.owner[i] = seat
	for p := range n.pileLeft {
		if n.pileLeft[p] > 0 {
			n.pileLeft[p]--
			break
		}
	}
	return n
}

// randomGame plays a seeded game by uniform choice among Legal, calling
// visit before each action. It fails on a refused legal action, a broken
// invariant or a game that does not end.
func randomGame(t testing.TB, players []string, seed int64, visit func(s *State, legal []engine.Action)) *State {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	s := start(t, players)
	for steps := 0; !s.Over(); steps++ {
		if steps > 5000 {
			t.Fatalf("seed %d: not over after %d actions", seed, steps)
		}
		legal := s.Legal()
		if len(legal) == 0 {
			t.Fatalf("seed %d: no legal action in step %s, waiting for %v", seed, s.step, s.Waiting())
		}
		if visit != nil {
			visit(s, legal)
		}
		a := legal[rng.Intn(len(legal))]
		evs, err := s.Decide(a)
		if err != nil {
			t.Fatalf("seed %d: legal %s by %v refused: %v", seed, codec.FormatCommand(a.Cmd, players), a.By, err)
		}
		for _, ev := range evs {
			next, err := s.Apply(ev)
			if err != nil {
				t.Fatalf("seed %d: %s: %v", seed, ev.Name(), err)
			}
			s = next.(*State)
			if err := s.Check(); err != nil {
				t.Fatalf("seed %d: after %s: %v", seed, ev.Name(), err)
			}
		}
	}
	if len(s.Legal()) != 0 || len(s.Waiting()) != 0 {
		t.Fatalf("seed %d: over but still legal moves or waiting", seed)
	}
	return s
}
