package negoce

import (
	"comptoir/engine"
)

// View is what one seat (or the table, or the staff) may see. Coins are
// public in Négoce; hands are not. A card laid face down, on the market or
// in an offer, shows only its back (Up false, no id) to everyone but the
// player who laid it. The JSON form is what phones and the table screen get.
type View struct {
	Game  string      `json:"game"`
	Phase string      `json:"phase"`
	Seat  engine.Seat `json:"seat"` // who sees: a player, -1 the table, -2 the staff
	// Players are public: coins, number of cards, out of the auction.
	Players []PlayerView `json:"players"`
	// Waiting are the seats the game waits for.
	Waiting []engine.Seat `json:"waiting"`
	// Auction is set during the Contraband auction.
	Auction *AuctionView `json:"auction,omitempty"`
	// Seller is the player selling, -1 when none.
	Seller engine.Seat `json:"seller"`
	// Market is the card for sale and, in a forced sale, the second card;
	// before the auction ends, the Contraband card.
	Market []CardView `json:"market"`
	// Bonus is the seller's coins on his card.
	Bonus int `json:"bonus"`
	// Offers are the buyers' offers, as their owners laid them.
	Offers []OfferView `json:"offers"`
	// Named is the good asked for in a forced sale, and Revealed the
	// buyers' cards of it, face up.
	Named    *GoodView      `json:"named,omitempty"`
	Revealed []RevealedCard `json:"revealed,omitempty"`
	// Hand is the viewer's own hand (a player's view only).
	Hand []CardView `json:"hand,omitempty"`
	// Hands are every hand, in the staff's view only.
	Hands [][]CardView `json:"hands,omitempty"`
	// Winner is the winner, -1 while the game goes on; his hand is shown
	// to all, as the rules say.
	Winner     engine.Seat `json:"winner"`
	WinnerHand []CardView  `json:"winnerHand,omitempty"`
	Sales      int         `json:"sales"`
}

// PlayerView is a player's public holdings.
type PlayerView struct {
	Seat   engine.Seat `json:"seat"`
	Name   string      `json:"name"`
	Coins  int         `json:"coins"`
	Cards  int         `json:"cards"`
	Passed bool        `json:"passed,omitempty"`
}

// AuctionView is the Contraband auction.
type AuctionView struct {
	Opened bool        `json:"opened"`
	Price  int         `json:"price"`
	High   engine.Seat `json:"high"` // -1 before the opening
	Turn   engine.Seat `json:"turn"` // -1 before the opening
}

// CardView is a card as the viewer sees it. Up tells how it lies on the
// table; Card, Good and the names are set only when the viewer may know
// the card: a face-down card shows them to the player who laid it alone.
type CardView struct {
	Up     bool   `json:"up"`
	Card   CardID `json:"card,omitempty"`
	Good   Good   `json:"good,omitempty"` // empty for Contraband
	Number int    `json:"number,omitempty"`
	NameFR string `json:"nameFr,omitempty"`
	NameEN string `json:"nameEn,omitempty"`
	// Offered marks, in the viewer's own hand, the card of his offer.
	Offered bool `json:"offered,omitempty"`
}

// OfferView is a buyer's offer.
type OfferView struct {
	By      engine.Seat `json:"by"`
	Coins   int         `json:"coins"`
	HasCard bool        `json:"hasCard"`
	Card    *CardView   `json:"card,omitempty"`
}

// GoodView is a good by key and names.
type GoodView struct {
	Good   Good   `json:"good"`
	Number int    `json:"number"`
	NameFR string `json:"nameFr"`
	NameEN string `json:"nameEn"`
}

// RevealedCard is a buyer's card shown in a forced sale.
type RevealedCard struct {
	By   engine.Seat `json:"by"`
	Card CardView    `json:"card"`
}

func (s *State) cardView(i int, up bool) CardView {
	if !up {
		return CardView{}
	}
	v := CardView{Up: true, Card: s.cat.ID(i)}
	if g := GoodOf(i); g >= 0 {
		info := s.cat.Goods[g]
		v.Good, v.Number, v.NameFR, v.NameEN = info.Key, info.Number, info.FR, info.EN
	} else {
		v.NameFR, v.NameEN = s.cat.ContrabandFR, s.cat.ContrabandEN
	}
	return v
}

func (s *State) handView(p engine.Seat) []CardView {
	out := []CardView{}
	for i, l := range s.loc {
		if l == int8(p) {
			v := s.cardView(i, true)
			v.Offered = s.offers[p].active && s.offers[p].card == int8(i)
			out = append(out, v)
		}
	}
	return out
}

// View returns what seat may see: its own hand and the face-down cards it
// laid itself; the table (engine.NoSeat) sees only what is public; the
// staff sees every hand.
func (s *State) View(seat engine.Seat) any {
	staff := seat == engine.Staff
	player := validSeat(seat)
	v := View{Game: Name, Phase: s.phase.Key(), Seat: seat, Seller: s.seller, Bonus: s.bonus, Winner: s.winner, Sales: s.sales,
		Waiting: s.Waiting(), Market: []CardView{}, Offers: []OfferView{}}
	if v.Waiting == nil {
		v.Waiting = []engine.Seat{}
	}
	for p, name := range s.setup.Players {
		v.Players = append(v.Players, PlayerView{Seat: engine.Seat(p), Name: name, Coins: s.coins[p], Cards: s.handSize(engine.Seat(p)),
			Passed: s.phase == PhaseAuction && s.passed[p]})
	}
	if s.phase == PhaseAuction {
		a := &AuctionView{Opened: s.opened, Price: s.price, High: engine.NoSeat, Turn: engine.NoSeat}
		if s.opened {
			a.High, a.Turn = s.high, s.turn
		}
		v.Auction = a
	}
	for k, i := range s.market {
		if i == noCard {
			continue
		}
		// The Contraband card before the auction and a card laid face up
		// are public; the card for sale laid face down and the forced
		// sale's second card are seen by the seller (and the staff) only.
		up := s.phase <= PhaseAuction || k == 0 && s.up
		mine := staff || player && seat == s.seller
		cv := s.cardView(int(i), up || mine)
		cv.Up = up
		v.Market = append(v.Market, cv)
	}
	for p, o := range s.offers {
		if !o.active {
			continue
		}
		ov := OfferView{By: engine.Seat(p), Coins: o.coins, HasCard: o.card != noCard}
		if o.card != noCard {
			cv := s.cardView(int(o.card), o.up || staff || seat == engine.Seat(p))
			cv.Up = o.up
			ov.Card = &cv
		}
		v.Offers = append(v.Offers, ov)
	}
	if s.phase == PhaseForcePick {
		info := s.cat.Goods[s.named]
		v.Named = &GoodView{Good: info.Key, Number: info.Number, NameFR: info.FR, NameEN: info.EN}
		for _, id := range s.holdersOf(s.named) {
			i, _ := s.cat.Card(id)
			v.Revealed = append(v.Revealed, RevealedCard{By: engine.Seat(s.loc[i]), Card: s.cardView(i, true)})
		}
	}
	if player {
		v.Hand = s.handView(seat)
	}
	if staff {
		for p := range Players {
			v.Hands = append(v.Hands, s.handView(engine.Seat(p)))
		}
	}
	if s.winner != engine.NoSeat {
		v.WinnerHand = s.handView(s.winner)
	}
	return v
}
