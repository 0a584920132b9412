package negoce

import (
	"testing"

	"comptoir/engine"
)

func BenchmarkLegalNegotiation(b *testing.B) {
	s := script(b, offers)
	b.ReportAllocs()
	for b.Loop() {
		if len(s.Legal()) == 0 {
			b.Fatal("no legal action")
		}
	}
}

func BenchmarkDecideAccept(b *testing.B) {
	s := script(b, offers)
	a := action(b, "Anna: accept from=Bruno")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Decide(a); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReplayJournal replays the journal of a whole random game (seed
// 8, about 1000 actions), as the daemon does on start.
func BenchmarkReplayJournal(b *testing.B) {
	var events []engine.Event
	playRandomVisit(b, 8, func(_, _ *State, ev engine.Event) { events = append(events, ev) })
	rules := New()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := engine.Replay(rules, players(), events); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(events)), "events")
}
