package genoa

import (
	"fmt"
	"testing"

	"comptoir/engine"
	"comptoir/games/genoa/board"
)

// realRules are the rules over the embedded data.
func realRules(t testing.TB) *Rules {
	t.Helper()
	r := New().(*Rules)
	if r.err != nil {
		t.Fatal(r.err)
	}
	return r
}

func TestNewLoadsBothEditions(t *testing.T) {
	r := realRules(t)
	if got := fmt.Sprint(r.Editions()); got != "[alea-2001 filosofia-2008]" {
		t.Fatalf("Editions() = %s", got)
	}
	for _, ed := range r.Editions() {
		d := r.editions[ed]
		if len(d.cards) != 60 || len(d.blds) != 18 || d.nGoods() != 8 {
			t.Errorf("%s: %d cards, %d buildings, %d goods; want 60, 18, 8", ed, len(d.cards), len(d.blds), d.nGoods())
		}
	}
}

func TestStartSetup(t *testing.T) {
	r := realRules(t)
	for _, tc := range []struct {
		ed      string
		players int
		rounds  int
	}{
		{"alea-2001", 2, 12}, {"alea-2001", 3, 10}, {"alea-2001", 4, 8}, {"alea-2001", 5, 7},
		{"filosofia-2008", 2, 12}, {"filosofia-2008", 3, 10}, {"filosofia-2008", 4, 8}, {"filosofia-2008", 5, 6},
	} {
		t.Run(fmt.Sprintf("%s-%d", tc.ed, tc.players), func(t *testing.T) {
			s := game(t, r, tc.ed, []string{"Anna", "Bruno", "Chloé", "Denis", "Emma"}[:tc.players]...)
			if s.rounds != tc.rounds {
				t.Errorf("rounds = %d, want %d", s.rounds, tc.rounds)
			}
			for i, p := range s.players() {
				var decks [nDecks]int
				for c := range p.Cards.All() {
					decks[s.d.cards[c].Deck]++
				}
				if p.Ducats != 130 || decks != [nDecks]int{1, 1, 1, 1} || p.Markers != 0 {
					t.Errorf("player %d: %d ducats, cards by deck %v, %d markers; want 130, one of each deck, none", i, p.Ducats, decks, p.Markers)
				}
			}
			if s.Merchant != 0 || s.Phase != phStart {
				t.Errorf("merchant %v phase %v, want the first player to roll", s.Merchant, s.Phase)
			}
			for g, n := range s.Supply {
				if n != 5 {
					t.Errorf("supply of %s = %d, want 5", s.d.prof.Goods[g], n)
				}
			}
			if s.TileSup != [nTiles]int{5, 5, 5, 7, 5} {
				t.Errorf("tiles %v, want 5 5 5 7 5", s.TileSup)
			}
		})
	}
	for _, bad := range []engine.Setup{
		{Game: "genoa", Variant: "alea-2001", Players: []string{"Solo"}},
		{Game: "genoa", Variant: "alea-2001", Players: []string{"A", "B", "C", "D", "E", "F"}},
		{Game: "genoa", Variant: "genoa-1999", Players: []string{"A", "B"}},
		{Game: "genoa", Variant: "filosofia-2008", Players: []string{"A", "B"}, Options: map[string]string{"market-advance": "off"}},
		{Game: "genoa", Variant: "alea-2001", Players: []string{"A", "a"}},
	} {
		if _, err := r.Start(bad); err == nil {
			t.Errorf("Start(%+v) accepted, want an error", bad)
		}
	}
}

func TestRandomGamesRealData(t *testing.T) {
	r := realRules(t)
	games := 200
	if testing.Short() {
		games = 40
	}
	for i := range games {
		ed := []string{"alea-2001", "filosofia-2008"}[i%2]
		n := 2 + (i/2)%4
		t.Run(fmt.Sprintf("%s-%dp-%d", ed, n, i), func(t *testing.T) {
			playRandom(t, r, ed, n, uint64(1000+i))
		})
	}
}

func TestCatalogAndBoard(t *testing.T) {
	r := realRules(t)
	if got := fmt.Sprint(r.Variants(), r.PlayerCounts()); got != "[filosofia-2008 alea-2001] [2 3 4 5]" {
		t.Errorf("Variants, PlayerCounts = %s", got)
	}
	b, err := WithBoard(board.Default())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Start(engine.Setup{Game: "genoa", Variant: "alea-2001", Players: []string{"A", "B"}}); err != nil {
		t.Error(err)
	}
}
