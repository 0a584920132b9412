package dschunke

import (
	"math/rand"
	"testing"

	"comptoir/engine"
)

// seeded plays a seeded game by uniform choice among Legal and returns
// its positions, actions and events.
func seeded(tb testing.TB, players []string, seed int64) (states []*State, actions []engine.Action, events []engine.Event) {
	rng := rand.New(rand.NewSource(seed))
	s := start(tb, players)
	for !s.Over() {
		states = append(states, s)
		legal := s.Legal()
		a := legal[rng.Intn(len(legal))]
		next, evs, err := engine.Play(s, a)
		if err != nil {
			tb.Fatal(err)
		}
		s = next.(*State)
		actions = append(actions, a)
		events = append(events, evs...)
	}
	return states, actions, events
}

// BenchmarkLegal measures legal-move generation over every position of a
// whole four-player game.
func BenchmarkLegal(b *testing.B) {
	states, _, _ := seeded(b, players4, 42)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, s := range states {
			_ = s.Legal()
		}
	}
	b.ReportMetric(float64(len(states)), "positions/op")
}

// BenchmarkReplay measures the replay of a whole four-player game's
// journal of events (the daemon's start after a power cut).
func BenchmarkReplay(b *testing.B) {
	_, _, events := seeded(b, players4, 42)
	setup := engine.Setup{Game: Name, Players: players4}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := engine.Replay(New(), setup, events); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(events)), "events/op")
}

// BenchmarkDecide measures deciding and applying every action of a whole
// four-player game.
func BenchmarkDecide(b *testing.B) {
	_, actions, _ := seeded(b, players4, 42)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var s engine.State = start(b, players4)
		for _, a := range actions {
			next, _, err := engine.Play(s, a)
			if err != nil {
				b.Fatal(err)
			}
			s = next
		}
	}
	b.ReportMetric(float64(len(actions)), "actions/op")
}
