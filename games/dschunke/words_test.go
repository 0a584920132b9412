package dschunke

import (
	"testing"

	"comptoir/engine"
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
			"The bids are revealed: Anna 1 fish; Bruno nothing; Chloé 2 rice; David 1 fish, 1 rice (a bluff: counts as nothing)",
			"Les mises sont révélées : Anna 1 poisson ; Bruno rien ; Chloé 2 riz ; David 1 poisson, 1 riz (bluff : compte pour rien)"},
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
