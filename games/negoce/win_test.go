package negoce

import (
	"errors"
	"reflect"
	"testing"

	"comptoir/engine"
)

// position builds a negotiation: seller and buyer hold the cards given
// (the seller 8, the buyer 8), card is for sale face up, and the two
// other players share the other cards in catalog order. Coins removed by
// the auction are what the purses lack of 60.
func position(t *testing.T, seller, buyer engine.Seat, sellerHand, buyerHand []CardID, market CardID, coins [4]int) *State {
	t.Helper()
	st, err := New().Start(players())
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	put := func(id CardID, at int8) {
		i, ok := s.cat.Card(id)
		if !ok || s.loc[i] != locUndealt && i != contrabandIdx {
			t.Fatalf("position: card %q unknown or placed twice", id)
		}
		s.loc[i] = at
	}
	for i := range s.loc {
		s.loc[i] = locUndealt
	}
	for _, id := range sellerHand {
		put(id, int8(seller))
	}
	for _, id := range buyerHand {
		put(id, int8(buyer))
	}
	put(market, locMarket)
	others := []engine.Seat{}
	for p := range Players {
		if engine.Seat(p) != seller && engine.Seat(p) != buyer {
			others = append(others, engine.Seat(p))
		}
	}
	k := 0
	for i := range s.loc {
		if s.loc[i] == locUndealt {
			s.loc[i] = int8(others[k/HandSize])
			k++
		}
	}
	i, _ := s.cat.Card(market)
	s.market = [2]int8{int8(i), noCard}
	s.up = true
	s.coins = coins
	s.removed = TotalCoins - coins[0] - coins[1] - coins[2] - coins[3]
	s.opened, s.price = true, s.removed
	s.seller = seller
	s.phase = PhaseNegotiate
	if err := s.Check(); err != nil {
		t.Fatalf("position: %v", err)
	}
	return s
}

var (
	// Seven goods and a second wine.
	sevenAndWine = []CardID{"jade-1", "jewels-1", "perfume-1", "spices-1", "coffee-1", "silk-1", "wine-1", "wine-2"}
	// Four goods.
	plainSeller = []CardID{"jade-1", "jade-3", "jade-4", "jewels-1", "jewels-3", "jewels-4", "wine-2", "wine-3"}
	// Tea and seven goods but wine.
	teaAndSix = []CardID{"tea-1", "tea-2", "jade-2", "jewels-2", "perfume-2", "spices-2", "coffee-2", "silk-2"}
)

// "Le premier joueur qui possède huit cartes marchandise et dix pièces
// [...] remporte la partie. (Rappel : la carte Contrebande ne compte pas)"
// "Si deux joueurs possèdent huit cartes différentes et au moins dix
// pièces après une vente, c'est l'acheteur qui remporte la partie."
func TestWin(t *testing.T) {
	tests := []struct {
		name       string
		sellerHand []CardID
		buyerHand  []CardID
		market     CardID
		coins      [4]int // Anna sells, Bruno buys
		offer      string
		winner     engine.Seat // NoSeat: no winner
	}{
		// Bruno pays tea-1 for wine-3: Anna gets her eighth good, Bruno
		// keeps tea-2 and gets wine, his eighth.
		{"both qualify: the buyer wins", sevenAndWine, teaAndSix, "wine-3", [4]int{10, 10, 15, 15}, "Bruno: offer card=tea-1", 1},
		{"only the seller has the coins", sevenAndWine, teaAndSix, "wine-3", [4]int{10, 9, 15, 15}, "Bruno: offer card=tea-1", 0},
		{"the seller alone has eight goods", sevenAndWine, []CardID{"tea-1", "tea-2", "tea-3", "tea-4", "jade-2", "jade-3", "jade-4", "jewels-2"}, "wine-3", [4]int{10, 15, 15, 15}, "Bruno: offer card=tea-1", 0},
		{"the buyer gets his eighth good for coins", plainSeller, teaAndSix, "wine-1", [4]int{5, 11, 15, 15}, "Bruno: offer coins=1", 1},
		{"paying drops the buyer under 10 coins", plainSeller, teaAndSix, "wine-1", [4]int{5, 10, 15, 15}, "Bruno: offer coins=1", engine.NoSeat},
		{"exactly 10 coins is enough", plainSeller, teaAndSix, "wine-1", [4]int{5, 10, 15, 15}, "Bruno: offer card=tea-1", 1},
		{"Contraband is not a good", sevenAndWine, []CardID{"contraband", "tea-2", "tea-3", "tea-4", "jade-2", "jade-3", "jade-4", "jewels-2"}, "wine-3", [4]int{15, 15, 15, 14}, "Bruno: offer card=contraband", engine.NoSeat},
		{"the seller's coins make the buyer's ten", plainSeller, teaAndSix, "wine-1", [4]int{12, 8, 15, 15}, "Bruno: offer card=tea-1", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := position(t, 0, 1, tt.sellerHand, tt.buyerHand, tt.market, tt.coins)
			s, _ = do(t, s, tt.offer)
			if tt.name == "the seller's coins make the buyer's ten" {
				s, _ = do(t, s, "Anna: bonus coins=2")
			}
			s, evs := do(t, s, "Anna: accept from=Bruno")
			var won []engine.Event
			if tt.winner != engine.NoSeat {
				won = []engine.Event{Won{By: tt.winner}}
			}
			if got := evs[1:]; !reflect.DeepEqual(got, won) && !(len(got) == 0 && won == nil) {
				t.Fatalf("events after the sale %v, want %v", got, won)
			}
			r := s.Result()
			if tt.winner == engine.NoSeat {
				if r.Over || s.phase != PhaseLay {
					t.Errorf("result %+v in phase %s, want the game going on", r, s.phase.Key())
				}
				return
			}
			if !r.Over || !reflect.DeepEqual(r.Winners, []engine.Seat{tt.winner}) || r.Scores[tt.winner].Rank != 1 || r.Scores[tt.winner].Total != 1 {
				t.Errorf("result %+v, want seat %d the winner", r, tt.winner)
			}
			if len(s.Legal()) != 0 || len(s.Waiting()) != 0 {
				t.Errorf("over, yet %d legal actions and waiting %v", len(s.Legal()), s.Waiting())
			}
			if _, err := s.Decide(action(t, "Bruno: lay card=tea-2")); !errors.Is(err, engine.ErrGameOver) {
				t.Errorf("a command after the end: %v, want %s", err, engine.ErrGameOver.Code)
			}
			// "montre sa main aux autres joueurs"
			if v := s.View(engine.NoSeat).(View); v.Winner != tt.winner || len(v.WinnerHand) < 8 {
				t.Errorf("the table sees winner %d with hand %v, want the winner's hand shown", v.Winner, v.WinnerHand)
			}
		})
	}
}

// A forced sale gives the buyer two cards: they may complete his goods.
func TestWinByForcedSale(t *testing.T) {
	s := position(t, 0, 1,
		[]CardID{"jade-1", "jade-2", "jade-3", "jewels-1", "jewels-2", "jewels-3", "jewels-4", "wine-2"},
		[]CardID{"tea-1", "tea-2", "perfume-2", "spices-2", "coffee-2", "silk-2", "jade-4", "contraband"},
		"wine-1", [4]int{10, 12, 15, 15})
	s, _ = do(t, s, "Anna: force card=jewels-1")
	s, _ = do(t, s, "Anna: name good=tea")
	_, evs := do(t, s, "Anna: pick card=tea-2")
	if len(evs) != 2 || evs[1] != (Won{By: 1}) {
		t.Fatalf("events %v, want Bruno to win with jewels and wine from the market", evs)
	}
}
