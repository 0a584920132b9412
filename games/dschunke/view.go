package dschunke

import "comptoir/engine"

// View is what a seat (or the table, or the staff) sees of the game. It
// encodes to JSON for the dashboard.
type View struct {
	Round int    `json:"round"`
	Phase string `json:"phase"` // hands, market, exchange, events, draw, actions, restock, bidding, sale, over
	// First is the first player (who holds the junk); Turn the player in
	// turn in a phase played in turn, NoSeat otherwise.
	First   engine.Seat   `json:"first"`
	Turn    engine.Seat   `json:"turn"`
	Waiting []engine.Seat `json:"waiting"`
	// Market is the round's market card: its id and the price of each
	// goods ("S" for a special card), and the goods already sold (the
	// black markers).
	Market      string            `json:"market,omitempty"`
	Prices      map[string]string `json:"prices,omitempty"`
	Sold        []string          `json:"sold,omitempty"`
	MarketsLeft int               `json:"marketsLeft"`
	Junks       []JunkView        `json:"junks"`
	Pawns       []PawnView        `json:"pawns"`
	Piles       []PileView        `json:"piles"`
	Players     []PlayerView      `json:"players"`
	// Biddings are this round's revealed bids, one list per bidding (a
	// rebid adds one), in seat order ("fish:3", "" for nothing,
	// "fish:1+rice:1" for a bluff); Sales what each goods sold brought.
	// Both stay until the next market card.
	Biddings     [][]string `json:"biddings,omitempty"`
	Sales        []SaleView `json:"sales,omitempty"`
	Over         bool       `json:"over"`
	Me           *Private   `json:"me,omitempty"`
	StaffSecrets []Private  `json:"staffSecrets,omitempty"`
}

// JunkView is one junk: the goods cards on it, its hold and the visible
// crates.
type JunkView struct {
	Key   string `json:"key"`
	Goods string `json:"goods,omitempty"` // "" on the grey junk
	Cards int    `json:"cards"`
	// Layers are the palettes from the bottom up, by seat (-1: a hole).
	// Even layers lie along the rows, odd ones along the columns.
	Layers [][Layer]int `json:"layers"`
	// Visible is the seat of the visible crate of each cell, row by row
	// (-1: bare).
	Visible [Layer * Layer]int `json:"visible"`
	// Crates is the visible crates per seat.
	Crates []int `json:"crates"`
	// Merchant is the action of the merchant on this junk, "" when none.
	Merchant string `json:"merchant,omitempty"`
}

// PawnView is a merchant or a helper.
type PawnView struct {
	With   string `json:"with"`   // merchant, helper, helper2
	Action string `json:"action"` // load, income, goods
	Junk   string `json:"junk,omitempty"`
	Square int    `json:"square,omitempty"` // a helper's square, 1 to 10
	Event  string `json:"event,omitempty"`  // a helper's square event, S or Y
	Used   bool   `json:"used"`
}

// SaleView is one goods sold: the winners (several on a tie), the yuans
// each received, or the special card of a single winner of an S.
type SaleView struct {
	Goods   string        `json:"goods"`
	Winners []engine.Seat `json:"winners"`
	Yuans   int           `json:"yuans"`
	Special bool          `json:"special,omitempty"`
}

// PileView is a pile of special cards.
type PileView struct {
	Key   string `json:"key"`
	Cards int    `json:"cards"`
}

// PlayerView is what everyone sees of a player.
type PlayerView struct {
	Seat     engine.Seat `json:"seat"`
	Name     string      `json:"name"`
	Colour   string      `json:"colour"`
	Palettes int         `json:"palettes"` // left in supply
	// Cards is the goods cards in hand, counting a sealed bid's (the
	// cards are still in the closed hand).
	Cards   int `json:"cards"`
	Restock int `json:"restock"` // cards taken at each restock
	// Always lists his "always" special cards, face up; Played the
	// extra-action cards he played; Secret the number of his special
	// cards face down.
	Always []string `json:"always,omitempty"`
	Played []string `json:"played,omitempty"`
	Secret int      `json:"secret"`
	// Announced is his wealth as a Y announced it, shown from the
	// announcement until the first event after phase 1 (his money is
	// secret again then); nil otherwise.
	Announced *int `json:"announced,omitempty"`
	// Bid is "" (not yet), "sealed", then once revealed the bid itself
	// ("fish:3", "none", "fish:1+rice:1").
	Bid string `json:"bid,omitempty"`
	// Acted is true once he took his action this round (phase 2).
	Acted bool `json:"acted,omitempty"`
}

// Private is one player's secrets: his goods cards, money, special cards
// in hand and sealed bid.
type Private struct {
	Seat    engine.Seat    `json:"seat"`
	Hand    map[string]int `json:"hand"`
	Money   int            `json:"money"`
	Special []string       `json:"special,omitempty"`
	Bid     map[string]int `json:"bid,omitempty"`
}

func (s *State) private(seat int) Private {
	p := Private{Seat: engine.Seat(seat), Hand: s.goodsMap(s.hand[seat]), Money: s.money[seat]}
	for i, o := range s.owner {
		if o == seat && s.d.Special[i].Timing != Always && !s.spent[i] {
			p.Special = append(p.Special, s.d.Special[i].ID)
		}
	}
	if s.sealed[seat] && !s.revealed {
		p.Bid = s.goodsMap(s.bids[seat])
	}
	return p
}

// View returns seat's view: the public table, and for a player his own
// secrets; for the staff every secret. At the end every secret is public.
func (s *State) View(seat engine.Seat) any {
	v := View{Round: min(s.round, Rounds), Phase: s.step.String(), First: engine.Seat(s.first), Turn: engine.NoSeat,
		Waiting: s.Waiting(), Over: s.step == stepOver}
	if c := s.current(); c != empty {
		v.Turn = engine.Seat(c)
	}
	if s.market >= 0 {
		m := s.d.Market[s.market]
		v.Market, v.Prices = m.ID, map[string]string{}
		for g, p := range m.Prices {
			if p == PriceSpecial {
				v.Prices[s.d.Goods[g].Key] = "S"
			} else {
				v.Prices[s.d.Goods[g].Key] = itoa(p)
			}
			if s.sold[g] {
				v.Sold = append(v.Sold, s.d.Goods[g].Key)
			}
		}
	}
	for _, u := range s.mUsed {
		if !u {
			v.MarketsLeft++
		}
	}
	v.Biddings, v.Sales = s.shownBids, s.sales
	for j, h := range s.holds {
		jv := JunkView{Key: s.d.Junks[j].Key, Layers: [][Layer]int{}, Visible: h.cells(), Crates: make([]int, s.n)}
		if g := s.d.Junks[j].Goods; g >= 0 {
			jv.Goods, jv.Cards = s.d.Goods[g].Key, s.piles[g]
		}
		for _, l := range h {
			jv.Layers = append(jv.Layers, [Layer]int{int(l[0]), int(l[1]), int(l[2])})
		}
		for seat := range jv.Crates {
			jv.Crates[seat] = h.visible(seat)
		}
		for a, m := range s.merchants {
			if m == j {
				jv.Merchant = Action(a).String()
			}
		}
		v.Junks = append(v.Junks, jv)
	}
	for p := 0; p < s.pawns(); p++ {
		pv := PawnView{With: pawnName(p), Action: s.pawnAction(p).String(), Used: s.used[p]}
		if p < NumMerchants {
			pv.Junk = s.d.Junks[s.merchants[p]].Key
		} else if s.round <= Rounds {
			pv.Square = s.round
			pv.Event = [...]string{"", "S", "Y"}[s.d.Track[p-pawnHelper][s.round-1].Event]
		}
		v.Pawns = append(v.Pawns, pv)
	}
	for p, left := range s.pileLeft {
		v.Piles = append(v.Piles, PileView{Key: s.d.Piles[p].Key, Cards: left})
	}
	over := s.step == stepOver
	for i := 0; i < s.n; i++ {
		pv := PlayerView{Seat: engine.Seat(i), Name: s.name(i), Colour: s.d.Colours[i], Palettes: s.palettes[i],
			Cards: s.handSize(i), Restock: s.allowance(i), Acted: s.step == stepAction && (s.turn > turnIndex(s, i) || s.turn == turnIndex(s, i) && s.acted)}
		for c, o := range s.owner {
			if o != i {
				continue
			}
			switch card := s.d.Special[c]; {
			case card.Timing == Always:
				pv.Always = append(pv.Always, card.ID)
			case s.spent[c]:
				pv.Played = append(pv.Played, card.ID)
			default:
				pv.Secret++
			}
		}
		if s.announced[i] >= 0 {
			a := s.announced[i]
			pv.Announced = &a
		}
		switch {
		case s.revealed:
			pv.Bid = s.bidText(s.bids[i])
			if pv.Bid == "" {
				pv.Bid = "none"
			}
		case s.sealed[i]:
			pv.Bid = "sealed"
		}
		v.Players = append(v.Players, pv)
	}
	switch {
	case over || seat == engine.Staff:
		for i := 0; i < s.n; i++ {
			v.StaffSecrets = append(v.StaffSecrets, s.private(i))
		}
	case seat >= 0 && int(seat) < s.n:
		p := s.private(int(seat))
		v.Me = &p
	}
	return v
}

func turnIndex(s *State, seat int) int { return (seat - s.first + s.n) % s.n }

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}
