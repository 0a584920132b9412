package negoce

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"comptoir/engine"
	"comptoir/notation/recordtest"
)

// The corners of the rules that no other record reaches, each a game
// record of testdata/corners/ with the rules text it shows quoted in its
// comments: replayed with every check of recordtest.Scenario (its Refused
// tags included), then its outcome checked here.
var corners = []struct {
	file  string
	check func(t *testing.T, s *State)
}{
	{"auction-all-pass.txt", func(t *testing.T, s *State) {
		// "Le joueur proposant le plus de pièces remporte la carte
		// Contrebande. Les pièces [...] sont retirées de la partie."
		if s.seller != 2 || s.removed != 1 || s.coins != [Players]int{15, 15, 14, 15} {
			t.Errorf("seller %d, %d coins removed, purses %v; want Chloé selling after paying 1", s.seller, s.removed, s.coins)
		}
		if c, _ := s.cat.Card("contraband"); s.loc[c] != locMarket {
			t.Errorf("the Contraband card is not on the market for sale")
		}
	}},
	{"forced-sale-laid-good.txt", func(t *testing.T, s *State) {
		// "Le vendeur choisit l'une des cartes et donne à son propriétaire
		// les 2 cartes posées sur le marché."
		for id, want := range map[CardID]int8{"jade-1": 2, "jade-2": 0, "jade-3": 3, "jade-4": 3} {
			if c, _ := s.cat.Card(id); s.loc[c] != want {
				t.Errorf("%s is with seat %d, want %d", id, s.loc[c], want)
			}
		}
		if s.seller != 3 || s.coins[1] != 15 || s.coins[0] != 14 {
			t.Errorf("seller %d, purses %v; want David selling, Bruno's offer taken back", s.seller, s.coins)
		}
	}},
	{"both-win-one-sale.txt", func(t *testing.T, s *State) {
		// "Si deux joueurs possèdent huit cartes différentes et au moins
		// dix pièces après une vente, c'est l'acheteur qui remporte la
		// partie."
		if !s.qualifies(0) || !s.qualifies(1) {
			t.Errorf("Anna qualifies %v, Bruno %v: want both", s.qualifies(0), s.qualifies(1))
		}
		if s.winner != 1 || !s.Result().Over {
			t.Errorf("winner %d, over %v; want Bruno, the buyer", s.winner, s.Result().Over)
		}
		if w := s.Result().Winners; !slices.Equal(w, []engine.Seat{1}) {
			t.Errorf("result winners %v, want [1]", w)
		}
	}},
}

func TestCorners(t *testing.T) {
	for _, c := range corners {
		t.Run(strings.TrimSuffix(c.file, ".txt"), func(t *testing.T) {
			st := recordtest.Scenario(t, New(), codec, filepath.Join("testdata", "corners", c.file))
			s := st.(*State)
			if err := s.Check(); err != nil {
				t.Fatal(err)
			}
			c.check(t, s)
		})
	}
}

// TestCornersAllListed fails when a record of testdata/corners/ is not in
// the table above.
func TestCornersAllListed(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "corners", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !slices.ContainsFunc(corners, func(c struct {
			file  string
			check func(t *testing.T, s *State)
		}) bool {
			return c.file == filepath.Base(f)
		}) {
			t.Errorf("%s is not listed in corners", f)
		}
	}
	for _, c := range corners {
		if _, err := os.Stat(filepath.Join("testdata", "corners", c.file)); err != nil {
			t.Error(err)
		}
	}
}
