package dschunke

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"comptoir/engine"
	"comptoir/games/dschunke/dschunketest"
)

// TestDescribeWords: the log's words in each language, with its plurals,
// elisions and typography, and no ids.
func TestDescribeWords(t *testing.T) {
	s := start(t, players4)
	for _, tt := range []struct {
		name   string
		ev     engine.Event
		en, fr string
	}{
		{"1 yuan", Sold{Goods: "rice", Winners: []engine.Seat{1}, Yuans: 1}, "rice: Bruno receives 1 yuan", "riz : Bruno reçoit 1 yuan"},
		{"2 yuans each", Sold{Goods: "fish", Winners: []engine.Seat{0, 1, 2}, Yuans: 2}, "fish: a tie, Anna, Bruno and Chloé receive 2 yuans each", "poisson : égalité, Anna, Bruno et Chloé reçoivent 2 yuans chacun"},
		{"1 palette", Loaded{By: 2, With: WithMerchant, Junk: "brown", At: []int{1}}, "Chloé loads 1 palette on the brown junk with the merchant", "Chloé charge 1 palette sur la jonque brune avec le marchand"},
		{"2 palettes", Loaded{By: 2, With: WithHelper, Junk: "grey", At: []int{1, 2}}, "Chloé loads 2 palettes on the grey junk with the helper", "Chloé charge 2 palettes sur la jonque grise avec l'aide"},
		{"d'Anna", HandDealt{By: 0}, "Anna's starting hand is recorded (8 cards)", "La main de départ d'Anna est notée (8 cartes)"},
		{"de Bruno", HandDealt{By: 1}, "Bruno's starting hand is recorded (8 cards)", "La main de départ de Bruno est notée (8 cartes)"},
		{"market card by its prices", MarketRevealed{Card: "market-01"}, "Round 1: the market card is turned over: fish 2 yuans, rice 1 yuan, spices 4 yuans, vegetables a special card",
			"Tour 1 : la carte marché est retournée : poisson 2 yuans, riz 1 yuan, épices 4 yuans, légumes une carte spéciale"},
		{"bids, each language its separator", BidsRevealed{Bids: []string{"fish:1", "", "rice:2", "fish:1+rice:1"}},
			"The bids are revealed: Anna 1 fish card; Bruno nothing; Chloé 2 rice cards; David 1 fish card, 1 rice card (a bluff: counts as nothing)",
			"Les mises sont révélées : Anna 1 carte poisson ; Bruno rien ; Chloé 2 cartes riz ; David 1 carte poisson, 1 carte riz (bluff : compte pour rien)"},
		{"1 vegetables card, 2 spices cards", Exchanged{By: 0, Give: map[string]int{"vegetables": 1}, Take: map[string]int{"spices": 2}},
			"Anna exchanges 1 vegetables card for 2 spices cards", "Anna échange 1 carte légumes contre 2 cartes épices"},
		{"restock", Restocked{By: 1, Goods: map[string]int{"fish": 2, "vegetables": 1}},
			"Bruno restocks: 2 fish cards, 1 vegetables card", "Bruno se réapprovisionne : 2 cartes poisson, 1 carte légumes"},
		{"a card by its name, quoted", SpecialDrawn{By: 3, Pile: "star", Card: "win-ties"},
			"David takes a special card from the star pile and lays it face up: “wins ties”",
			"David prend une carte spéciale du paquet étoile et la pose : « gagne les égalités »"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if en := s.Describe(tt.ev, "en"); en != tt.en {
				t.Errorf("en: %q\nwant %q", en, tt.en)
			}
			if fr := s.Describe(tt.ev, "fr"); fr != tt.fr {
				t.Errorf("fr: %q\nwant %q", fr, tt.fr)
			}
		})
	}
}

// TestCardNames: an end bonus names its junks whole.
func TestCardNames(t *testing.T) {
	d := start(t, players4).d
	i, _ := d.SpecialIndex("bonus-brown-orange")
	if got, want := d.CardName(i, "fr"), "bonus de fin : 5 caisses sur la jonque brune, 2 caisses sur la jonque orange (12)"; got != want {
		t.Errorf("fr %q, want %q", got, want)
	}
	if got, want := d.CardName(i, "en"), "end bonus: 5 crates on the brown junk, 2 crates on the orange junk (12)"; got != want {
		t.Errorf("en %q, want %q", got, want)
	}
}

// TestGoodsCounts: every count of goods in the log and in the refusals
// counts cards, in the singular or the plural as its number asks: the
// goods names are the data's ("vegetables", "poisson") and agree with no
// number by themselves (the checker: package dschunketest).
func TestGoodsCounts(t *testing.T) {
	s := start(t, players4)
	var names []string
	for _, g := range s.d.Goods {
		names = append(names, g.FR, g.EN)
	}
	counts := dschunketest.NewCounts(names...)
	t.Run("GoodsCards", func(t *testing.T) {
		for _, tt := range []struct {
			n, k   int
			fr, en string
		}{
			{0, 0, "0 carte poisson", "0 fish cards"},
			{1, 3, "1 carte légumes", "1 vegetables card"},
			{2, 2, "2 cartes épices", "2 spices cards"},
			{3, 1, "3 cartes riz", "3 rice cards"},
		} {
			if fr, en := s.d.GoodsCards(tt.n, tt.k, "fr"), s.d.GoodsCards(tt.n, tt.k, "en"); fr != tt.fr || en != tt.en {
				t.Errorf("GoodsCards(%d, %d) = %q / %q, want %q / %q", tt.n, tt.k, fr, en, tt.fr, tt.en)
			}
		}
	})
	t.Run("logs of the records", func(t *testing.T) {
		files, err := filepath.Glob(filepath.Join("testdata", "*.golden"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no golden logs: %v", err)
		}
		found := 0
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for i, line := range strings.Split(string(b), "\n") {
				// The log's lines are indented by four spaces; the
				// positions drawn for replay write goods keys and numbers.
				if !strings.HasPrefix(line, "    ") {
					continue
				}
				found += len(counts.Find(line))
				if bad := counts.Bad(line); len(bad) > 0 {
					t.Errorf("%s:%d: %q in %q", f, i+1, bad, line)
				}
			}
		}
		if found < 100 {
			t.Errorf("only %d counts of goods in the logs: the check reads nothing", found)
		}
	})
	t.Run("refusals", func(t *testing.T) {
		s, _ := play(t, s, "Anna: hand goods=fish:2,rice:2,spices:2,vegetables:2",
			"Bruno: hand goods=rice:3,spices:3,vegetables:2",
			"Chloé: hand goods=rice:3,spices:2,vegetables:3")
		_, err := s.Decide(action(t, s, "David: hand goods=fish:6,spices:2"))
		r, ok := engine.AsRefusal(err)
		if !ok {
			t.Fatalf("David's hand: %v, want a refusal", err)
		}
		if want := "only 1 spices card left to deal"; r.EN != want {
			t.Errorf("en %q, want %q", r.EN, want)
		}
		if want := "il ne reste que 1 carte épices à distribuer"; r.FR != want {
			t.Errorf("fr %q, want %q", r.FR, want)
		}
	})
}
