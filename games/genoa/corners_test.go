package genoa

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"comptoir/notation/recordtest"
)

// The corners of the rules that no example game reaches, each a game
// record of testdata/corners/ played from the start, with the rules text
// (or the ruling) it shows quoted in its comments. The test replays each
// record (every line legal, the invariants after every event, the journal
// and notation.Play reaching the same state), checks its Refused tags, and
// checks the outcome the quoted text asks for.
var corners = []struct {
	file  string
	check func(t *testing.T, s *State)
}{
	{"palazzo-villa-large-order.txt", func(t *testing.T, s *State) {
		// Ruling: a building-action tile at one's own villa may deliver a
		// large order for that villa.
		wantDucats(t, s, "Anna", 130-10+100)
		wantTiles(t, s, "Anna", "extra", 1)
		wantTiles(t, s, "Anna", "build", 0)
		if s.CardLoc[s.d.cardByID["L01"]] != -1 {
			t.Errorf("L01 is not back under its deck")
		}
		if n := s.P[0].Goods[s.good("salt")] + s.P[0].Goods[s.good("wheat")] + s.P[0].Goods[s.good("linen")]; n != 0 {
			t.Errorf("Anna still holds %d of the order's goods", n)
		}
	}},
	{"small-order-after-building-tile.txt", func(t *testing.T, s *State) {
		// [B] 6.5.5: the tile's action, no small order (the Refused tag).
		wantTiles(t, s, "Anna", "build", 1) // played one, the palazzo gave one
		wantTiles(t, s, "Anna", "goods", 1) // her own action at the harbour
		if s.P[0].Goods[s.good("silk")] != 1 || s.CardLoc[s.d.cardByID["S07"]] != 0 {
			t.Errorf("Anna's silk or S07 left her")
		}
	}},
	{"extra-action-opponent-turn.txt", func(t *testing.T, s *State) {
		// [F] "lors de son tour ou de celui d'un adversaire".
		if s.Merchant != 1 || s.Used[0] != 2 || s.Extras[0] != 1 {
			t.Errorf("merchant %d, Anna used %d actions with %d extra tiles; want Bruno's turn, 2 and 1", s.Merchant, s.Used[0], s.Extras[0])
		}
		wantTiles(t, s, "Anna", "extra", 0)
		wantTiles(t, s, "Anna", "goods", 1)
		wantDucats(t, s, "Anna", 130-5-5)
		wantDucats(t, s, "Bruno", 130+5+5)
	}},
	{"two-messages-one-turn.txt", func(t *testing.T, s *State) {
		// [F] "Un joueur peut livrer plusieurs messages dans un même tour".
		wantDucats(t, s, "Anna", 130+30+30)
		for _, id := range []string{"M05", "M06"} {
			if s.CardLoc[s.d.cardByID[id]] != -1 {
				t.Errorf("%s is not back under its deck", id)
			}
		}
	}},
	{"trade-card-tile-marker.txt", func(t *testing.T, s *State) {
		// [F] "prend un bien de son choix (marchandise, carte, tuile ou
		// marqueur Propriété) et rend l'un de ses biens en échange".
		wantTiles(t, s, "Anna", "trade", 0)
		wantTiles(t, s, "Anna", "extra", 0)
		if p := s.P[0]; p.Goods[s.good("silk")] != 0 || p.Markers != 1 || p.Cards.Len() != 4 || s.CardLoc[s.d.cardByID["M04"]] != -1 {
			t.Errorf("Anna: silk %d, markers %d, %d cards, M04 at %d; want 0, 1, 4 and M04 in the deck", p.Goods[s.good("silk")], p.Markers, p.Cards.Len(), s.CardLoc[s.d.cardByID["M04"]])
		}
		if s.TileSup[tileIndex("trade")] != 7 {
			t.Errorf("%d trade tiles in the supply, want all 7 back", s.TileSup[tileIndex("trade")])
		}
	}},
	{"large-order-tile-gone.txt", func(t *testing.T, s *State) {
		// Ruling: among the kinds left; with none left, 100 ducats, no tile.
		wantDucats(t, s, "Anna", 230)
		wantDucats(t, s, "Bruno", 230)
		wantTiles(t, s, "Anna", "start", 5)
		wantTiles(t, s, "Bruno", "extra", 5)
		for k := range nTiles {
			if s.TileSup[k] != 0 {
				t.Errorf("%d %s tiles in the supply, want none", s.TileSup[k], tileKeys[k])
			}
		}
	}},
	{"deck-reshuffle.txt", func(t *testing.T, s *State) {
		// [F] "dès qu'une carte apparaît face visible sur le dessus d'une
		// pile, celle-ci est mélangée": M06, delivered, is drawn again.
		if s.CardLoc[s.d.cardByID["M06"]] != 1 || s.inDeck(deckMessage) != 0 {
			t.Errorf("M06 at %d, %d messages in the deck; want Bruno's and none", s.CardLoc[s.d.cardByID["M06"]], s.inDeck(deckMessage))
		}
		wantDucats(t, s, "Bruno", 130+30)
		if s.Used[1] != 1 {
			t.Errorf("Bruno used %d actions, want 1", s.Used[1])
		}
	}},
	{"filosofia-2p-second-action.txt", func(t *testing.T, s *State) {
		// [F] "Si l'adversaire effectue au moins une action, le marchand
		// peut en effectuer deux."
		if s.Used[0] != 2 || s.Used[1] != 1 {
			t.Errorf("actions taken %v, want Anna 2, Bruno 1", s.Used[:2])
		}
		wantDucats(t, s, "Anna", 135)
	}},
	{"filosofia-last-round-market.txt", func(t *testing.T, s *State) {
		// [F] "La dernière manche est toujours jouée entièrement [...] le
		// marqueur de manche [n'est pas] avancé".
		if s.Phase != phOver || s.Round != 5 || s.Track != 12 {
			t.Errorf("phase %v, round %d, track %d; want over after round 5, track 12", s.Phase, s.Round, s.Track)
		}
	}},
	{"filosofia-5p-short-game.txt", func(t *testing.T, s *State) {
		// [F] "5 joueurs 6 manches 5 tours par manche".
		if s.Phase != phOver || s.Round != 6 {
			t.Errorf("phase %v, round %d; want over after round 6", s.Phase, s.Round)
		}
	}},
}

func wantDucats(t *testing.T, s *State, name string, want int) {
	t.Helper()
	if got := s.P[seat(t, s, name)].Ducats; got != want {
		t.Errorf("%s holds %d ducats, want %d", name, got, want)
	}
}

func wantTiles(t *testing.T, s *State, name, tile string, want int) {
	t.Helper()
	if got := int(s.P[seat(t, s, name)].Tiles[tileIndex(tile)]); got != want {
		t.Errorf("%s holds %d %s tiles, want %d", name, got, tile, want)
	}
}

func TestCorners(t *testing.T) {
	r := realRules(t)
	for _, c := range corners {
		t.Run(strings.TrimSuffix(c.file, ".txt"), func(t *testing.T) {
			st := recordtest.Scenario(t, r, codec, filepath.Join("testdata", "corners", c.file))
			s := st.(*State)
			if err := s.Check(); err != nil {
				t.Fatal(err)
			}
			c.check(t, s)
		})
	}
}

// TestCornersAllListed fails when a record of testdata/corners/ is not in
// the table above (and so would be replayed without its outcome checked).
func TestCornersAllListed(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "corners", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, c := range corners {
		listed = append(listed, c.file)
	}
	for _, f := range files {
		if !slices.Contains(listed, filepath.Base(f)) {
			t.Errorf("%s is not listed in corners", f)
		}
	}
	for _, c := range corners {
		if _, err := os.Stat(filepath.Join("testdata", "corners", c.file)); err != nil {
			t.Error(err)
		}
	}
}
