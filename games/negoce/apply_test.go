package negoce

import (
	"errors"
	"testing"

	"comptoir/engine"
)

// A journal event that does not fit the state is an error, never a
// silent change: the daemon stops replaying a corrupt journal.
func TestApplyMisfits(t *testing.T) {
	tests := []struct {
		name string
		base []string
		ev   engine.Event
	}{
		{"deal a card twice", deal[:1], Dealt{To: 1, Cards: []CardID{"jade-1"}}},
		{"deal an unknown card", nil, Dealt{To: 1, Cards: []CardID{"gold"}}},
		{"deal to no seat", nil, Dealt{To: 7, Cards: []CardID{"jade-1"}}},
		{"deal nine", deal[:1], Dealt{To: 0, Cards: []CardID{"tea-1"}}},
		{"bid while dealing", nil, BidMade{By: 0, Price: 1}},
		{"open at 2", deal, BidMade{By: 0, Price: 2}},
		{"raise of 3", cat(deal, "Bruno: bid price=1"), BidMade{By: 2, Price: 4}},
		{"bid out of turn", cat(deal, "Bruno: bid price=1"), BidMade{By: 3, Price: 2}},
		{"pass out of turn", cat(deal, "Bruno: bid price=1"), Passed{By: 0}},
		{"win an open auction", cat(deal, "Bruno: bid price=1"), AuctionWon{By: 1, Price: 1}},
		{"lay another's card", auction, Laid{By: 0, Card: "tea-1"}},
		{"lay by a buyer", auction, Laid{By: 1, Card: "perfume-1"}},
		{"offer a card not held", laidUp, Offered{By: 1, Card: "tea-1"}},
		{"empty offer", laidUp, Offered{By: 1}},
		{"offer by the seller", laidUp, Offered{By: 0, Coins: 1}},
		{"withdraw nothing", laidUp, Withdrawn{By: 1}},
		{"bonus over the purse", laidUp, BonusSet{Coins: 99}},
		{"sale not matching the offer", offers, Sold{Seller: 0, Buyer: 1, Card: "contraband", Coins: 5}},
		{"sale of another card", offers, Sold{Seller: 0, Buyer: 2, Card: "jade-1", Coins: 3}},
		{"force with a card not held", offers, Forced{Card: "tea-1"}},
		{"name a good held", forced, Named{Good: "jade", Revealed: nil}},
		{"name with the wrong cards", forced, Named{Good: "tea", Revealed: []CardID{"tea-1"}}},
		{"pick a card not named", named, ForcedSold{Seller: 0, Buyer: 3, Card: "wine-1", Market: []CardID{"contraband", "jade-2"}}},
		{"pick with the wrong market", named, ForcedSold{Seller: 0, Buyer: 3, Card: "tea-1", Market: []CardID{"jade-2", "contraband"}}},
		{"a winner who has not won", cat(offers, "Anna: accept from=Bruno"), Won{By: 0}},
		{"a foreign event", nil, foreignEvent{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := script(t, tt.base)
			if _, err := s.Apply(tt.ev); !errors.Is(err, errMisfit) {
				t.Errorf("Apply(%#v) = %v, want a misfit", tt.ev, err)
			}
		})
	}
}

type foreignEvent struct{}

func (foreignEvent) Name() string { return "rolled" }
