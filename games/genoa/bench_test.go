package genoa

import "testing"

// BenchmarkLegalTurn lists the legal actions in the middle of a 5-player
// turn: the pawn on a building whose action is open, with moves, deals,
// offers and the merchant's action to list.
func BenchmarkLegalTurn(b *testing.B) {
	s := game(b, realRules(b), "filosofia-2008", "Anna", "Bruno", "Chloé", "Denis", "Emma")
	goods(b, s, "Bruno", "silk", "wine")
	s = play(b, s, rollOn(s, "guild-hall"), "move to=6-3", "move to=coach-house")
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n = len(s.Legal())
	}
	if n < 20 {
		b.Fatalf("only %d legal actions", n)
	}
}

// BenchmarkDecideMove decides one pawn move.
func BenchmarkDecideMove(b *testing.B) {
	s := game(b, realRules(b), "alea-2001", "Anna", "Bruno", "Chloé", "Denis", "Emma")
	s = play(b, s, rollOn(s, "guild-hall"))
	a := action(b, s, "move to=6-3")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Decide(a); err != nil {
			b.Fatal(err)
		}
	}
}
