package genoa

import (
	"testing"
)

// Tests of the rulings added after the first games (RULES-NOTES, last
// section) that the corner records of testdata/corners do not show.

func TestTieBreakCountsPerRuling(t *testing.T) {
	// Ruling: "Alea counts the goods in the player's reserve only;
	// Filosofia counts goods, tiles and cards (its text lists them), not
	// ownership markers." Anna: 2 goods, 1 tile, 2 markers in reserve and
	// her 4 starting cards; Bruno: nothing but his 4 cards.
	r := realRules(t)
	for _, tc := range []struct {
		ed         string
		anna, brun int
	}{
		{"alea-2001", 2, 0},
		{"filosofia-2008", 2 + 1 + 4, 4},
	} {
		t.Run(tc.ed, func(t *testing.T) {
			s := game(t, r, tc.ed, "Anna", "Bruno")
			goods(t, s, "Anna", "silver", "copper")
			tiles(t, s, "Anna", "extra")
			markers(t, s, "Anna", 2)
			if got := s.tieBreak(0); got != tc.anna {
				t.Errorf("Anna's tie-break count = %d, want %d", got, tc.anna)
			}
			if got := s.tieBreak(1); got != tc.brun {
				t.Errorf("Bruno's tie-break count = %d, want %d", got, tc.brun)
			}
			if res := s.Result(); res.Scores[0].TieBreak != tc.anna {
				t.Errorf("Result's tie-break for Anna = %d, want %d", res.Scores[0].TieBreak, tc.anna)
			}
		})
	}
}

func TestTwoPlayerOfferOtherGoods(t *testing.T) {
	// Ruling: "Filosofia, 2 players: the rule "never money alone" covers
	// every offer to the merchant, for a move and for the action of the
	// building where the pawn already stands. The other "bien" may be a
	// good, a card, a tile or an ownership marker (its text lists them)."
	r := realRules(t)
	atHarbour := func(t *testing.T) *State {
		s := game(t, r, "filosofia-2008", "Anna", "Bruno")
		return play(t, s, rollOn(s, "harbour"))
	}
	s := atHarbour(t)
	refused(t, s, "Bruno: offer ducats=5", ErrMoneyOnly)
	refused(t, s, "deal from=Bruno to=3-3 ducats=5", ErrMoneyOnly)
	card := s.d.cards[s.P[1].Cards.First()].ID
	for name, offer := range map[string]string{
		"a card":   "Bruno: offer ducats=5 cards=" + card,
		"a tile":   "Bruno: offer ducats=5 tiles=extra:1",
		"a marker": "Bruno: offer ducats=5 markers=1",
		"a good":   "Bruno: offer ducats=5 goods=silk:1",
	} {
		t.Run(name, func(t *testing.T) {
			s := atHarbour(t)
			tiles(t, s, "Bruno", "extra")
			markers(t, s, "Bruno", 1)
			goods(t, s, "Bruno", "silk")
			s = play(t, s, offer, "Anna: accept from=Bruno", "Bruno: act")
			if s.Used[1] != 1 {
				t.Errorf("Bruno took %d actions, want 1", s.Used[1])
			}
		})
	}
	// Three players: money alone is an offer.
	s3 := game(t, r, "filosofia-2008", "Anna", "Bruno", "Chloé")
	play(t, s3, rollOn(s3, "harbour"), "Bruno: offer ducats=5")
}

func TestExtraActionNotTwiceAtABuilding(t *testing.T) {
	// [F] Action supplémentaire: "Cette tuile ne permet pas d'effectuer une
	// action dans un bâtiment où l'action a déjà été effectuée." [B] 6.5.2:
	// "cette carte ne permet pas d'effectuer plusieurs fois l'action d'un
	// même bâtiment."
	for _, ed := range []string{"alea-2001", "filosofia-2008"} {
		t.Run(ed, func(t *testing.T) {
			s := game(t, realRules(t), ed, "Anna", "Bruno", "Chloé")
			tiles(t, s, "Anna", "extra")
			s = play(t, s, rollOn(s, "harbour"), "Anna: act", "Anna: extra")
			refused(t, s, "Anna: act", ErrActionTaken)
			s = play(t, s, "move to=villa-monetti", "Anna: act")
			if s.Used[0] != 2 {
				t.Errorf("Anna took %d actions, want 2 (the second elsewhere)", s.Used[0])
			}
		})
	}
}
