package dschunke

import (
	"errors"
	"testing"

	"comptoir/engine"
)

// TestApplyMisfits feeds events that do not fit the position, as a
// corrupt or foreign journal would: Apply refuses each, and leaves the
// state as it was.
func TestApplyMisfits(t *testing.T) {
	s, _ := play(t, start(t, players4), round1...)
	before := s.String()
	tests := []struct {
		name string
		ev   engine.Event
	}{
		{"hand after the deal", HandDealt{By: 0, Goods: map[string]int{"fish": 8}}},
		{"second market card", MarketRevealed{Card: "market-03"}},
		{"income out of turn", IncomeReceived{By: 1, With: WithMerchant, Junk: "orange", Yuans: 3}},
		{"income of the wrong amount", IncomeReceived{By: 0, With: WithMerchant, Junk: "orange", Yuans: 30}},
		{"load of three palettes", Loaded{By: 0, With: WithMerchant, Junk: "brown", At: []int{1, 2, 3}}},
		{"load into a taken slot", Loaded{By: 0, With: WithHelper2, Junk: "white", At: []int{1, 3}}},
		{"helper offering another action", Loaded{By: 0, With: WithHelper, Junk: "white", At: []int{3, 1}}},
		{"goods beyond what is owed", GoodsTaken{By: 0, With: WithMerchant, Junk: "grey", Goods: map[string]int{"fish": 9}}},
		{"card never drawn", IncomeReceived{By: 0, Card: "income-brown", Junk: "brown", Yuans: 3}},
		{"bid outside the bidding", BidSealed{By: 0, Goods: map[string]int{"fish": 1}}},
		{"sale outside the bidding", Sold{Goods: "fish", Winners: []engine.Seat{0}, Yuans: 2}},
		{"round's end in the actions", RoundEnded{Round: 1}},
		{"unknown goods", Restocked{By: 0, Goods: map[string]int{"tea": 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := s.Apply(tt.ev); !errors.Is(err, errDoesNotFit) {
				t.Errorf("Apply(%#v) = %v, want a misfit", tt.ev, err)
			}
			if s.String() != before {
				t.Errorf("Apply changed its receiver")
			}
		})
	}
}
