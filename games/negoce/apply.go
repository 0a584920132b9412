package negoce

import (
	"errors"
	"fmt"

	"comptoir/engine"
)

// errMisfit is wrapped by every Apply error: the event does not fit the
// state (a corrupt or foreign journal), never an illegal move.
var errMisfit = errors.New("event does not fit the game")

func misfit(ev engine.Event, format string, a ...any) error {
	return fmt.Errorf("negoce: %s: %w: %s", ev.Name(), errMisfit, fmt.Sprintf(format, a...))
}

func (s *State) cardOf(ev engine.Event, id CardID) (int, error) {
	i, ok := s.cat.Card(id)
	if !ok {
		return 0, misfit(ev, "no card %q", id)
	}
	return i, nil
}

func validSeat(p engine.Seat) bool { return p >= 0 && p < Players }

// Apply returns the state after the event; s is left unchanged.
func (s *State) Apply(ev engine.Event) (engine.State, error) {
	n := *s
	if s.phase == PhaseOver {
		return nil, misfit(ev, "the game is over")
	}
	switch e := ev.(type) {
	case Dealt:
		if s.phase != PhaseDeal || !validSeat(e.To) || len(e.Cards) == 0 {
			return nil, misfit(ev, "not dealing, or no seat or cards")
		}
		for _, id := range e.Cards {
			i, err := s.cardOf(ev, id)
			if err != nil {
				return nil, err
			}
			if n.loc[i] != locUndealt {
				return nil, misfit(ev, "%s is not to be dealt", id)
			}
			n.loc[i] = int8(e.To)
		}
		if n.handSize(e.To) > HandSize {
			return nil, misfit(ev, "more than %d cards to %s", HandSize, s.player(e.To))
		}
		if n.firstShort() == engine.NoSeat {
			n.phase = PhaseAuction
		}
	case BidMade:
		if s.phase != PhaseAuction || !validSeat(e.By) || s.passed[e.By] || e.Price > s.coins[e.By] {
			return nil, misfit(ev, "no bid from %s now", e.By)
		}
		if !s.opened {
			if e.Price != 1 {
				return nil, misfit(ev, "opening at %d", e.Price)
			}
			n.opened = true
		} else if e.By != s.turn || e.Price-s.price < 1 || e.Price-s.price > 2 {
			return nil, misfit(ev, "bid %d by %s", e.Price, e.By)
		}
		n.price, n.high = e.Price, e.By
		n.turn = n.nextBidder(e.By)
	case Passed:
		if s.phase != PhaseAuction || !s.opened || e.By != s.turn {
			return nil, misfit(ev, "%s cannot pass now", e.By)
		}
		n.passed[e.By] = true
		n.turn = n.nextBidder(e.By)
	case AuctionWon:
		left := 0
		for _, out := range s.passed {
			if !out {
				left++
			}
		}
		if s.phase != PhaseAuction || left != 1 || e.By != s.high || e.Price != s.price {
			return nil, misfit(ev, "the auction is not won by %s at %d", e.By, e.Price)
		}
		n.coins[e.By] -= e.Price
		n.removed = e.Price
		n.loc[contrabandIdx] = int8(e.By)
		n.market = [2]int8{noCard, noCard}
		n.turn = engine.NoSeat
		n.seller = e.By
		n.phase = PhaseLay
	case Laid:
		i, err := s.cardOf(ev, e.Card)
		if err != nil {
			return nil, err
		}
		if s.phase != PhaseLay || e.By != s.seller || s.loc[i] != int8(e.By) {
			return nil, misfit(ev, "%s cannot lay %s now", e.By, e.Card)
		}
		n.loc[i] = locMarket
		n.market[0] = int8(i)
		n.up = e.Up
		n.phase = PhaseNegotiate
	case Offered:
		if s.phase != PhaseNegotiate || !validSeat(e.By) || e.By == s.seller || e.Coins < 0 || e.Coins > s.coins[e.By] || (e.Card == "" && e.Coins == 0) {
			return nil, misfit(ev, "no such offer from %s now", e.By)
		}
		o := offer{active: true, card: noCard, up: e.Up, coins: e.Coins}
		if e.Card != "" {
			i, err := s.cardOf(ev, e.Card)
			if err != nil {
				return nil, err
			}
			if s.loc[i] != int8(e.By) {
				return nil, misfit(ev, "%s does not hold %s", e.By, e.Card)
			}
			o.card = int8(i)
		}
		n.offers[e.By] = o
	case Withdrawn:
		if s.phase != PhaseNegotiate || !validSeat(e.By) || !s.offers[e.By].active {
			return nil, misfit(ev, "%s has no offer", e.By)
		}
		n.offers[e.By] = offer{card: noCard}
	case BonusSet:
		if s.phase != PhaseNegotiate || e.Coins < 0 || e.Coins > s.coins[s.seller] {
			return nil, misfit(ev, "bonus %d", e.Coins)
		}
		n.bonus = e.Coins
	case Sold:
		if s.phase != PhaseNegotiate || e.Seller != s.seller || !validSeat(e.Buyer) || e.Buyer == s.seller {
			return nil, misfit(ev, "no sale from %s to %s now", e.Seller, e.Buyer)
		}
		o := s.offers[e.Buyer]
		paid := noCard
		if e.Paid != "" {
			i, err := s.cardOf(ev, e.Paid)
			if err != nil {
				return nil, err
			}
			paid = int8(i)
		}
		if !o.active || o.card != paid || o.coins != e.Coins || e.Bonus != s.bonus || e.Card != s.cat.ID(int(s.market[0])) {
			return nil, misfit(ev, "the sale does not match %s's offer or the market", e.Buyer)
		}
		n.loc[s.market[0]] = int8(e.Buyer)
		if paid != noCard {
			n.loc[paid] = int8(e.Seller)
		}
		n.coins[e.Seller] += e.Coins - e.Bonus
		n.coins[e.Buyer] += e.Bonus - e.Coins
		if err := n.endSale(ev); err != nil {
			return nil, err
		}
	case Forced:
		i, err := s.cardOf(ev, e.Card)
		if err != nil {
			return nil, err
		}
		if s.phase != PhaseNegotiate || s.loc[i] != int8(s.seller) {
			return nil, misfit(ev, "%s cannot force with %s now", s.seller, e.Card)
		}
		n.loc[i] = locMarket
		n.market[1] = int8(i)
		n.offers = [Players]offer{}
		for p := range n.offers {
			n.offers[p].card = noCard
		}
		n.bonus = 0
		n.phase = PhaseForceName
	case Named:
		g, ok := s.cat.Good(e.Good)
		if s.phase != PhaseForceName || !ok {
			return nil, misfit(ev, "naming %q now", e.Good)
		}
		want := s.holdersOf(g)
		if len(want) == 0 || len(want) != len(e.Revealed) || s.goods(s.seller)[g] > 0 {
			return nil, misfit(ev, "%s cannot be named", e.Good)
		}
		for k := range want {
			if want[k] != e.Revealed[k] {
				return nil, misfit(ev, "revealed %v, the buyers hold %v", e.Revealed, want)
			}
		}
		n.named = g
		n.phase = PhaseForcePick
	case ForcedSold:
		i, err := s.cardOf(ev, e.Card)
		if err != nil {
			return nil, err
		}
		if s.phase != PhaseForcePick || e.Seller != s.seller || GoodOf(i) != s.named || !validSeat(e.Buyer) || e.Buyer == s.seller || s.loc[i] != int8(e.Buyer) ||
			len(e.Market) != 2 || e.Market[0] != s.cat.ID(int(s.market[0])) || e.Market[1] != s.cat.ID(int(s.market[1])) {
			return nil, misfit(ev, "the forced sale does not match the table")
		}
		n.loc[i] = int8(e.Seller)
		n.loc[s.market[0]] = int8(e.Buyer)
		n.loc[s.market[1]] = int8(e.Buyer)
		if err := n.endSale(ev); err != nil {
			return nil, err
		}
	case Won:
		if s.phase != PhaseLay || !validSeat(e.By) || !s.qualifies(e.By) {
			return nil, misfit(ev, "%s has not won", e.By)
		}
		n.winner = e.By
		n.phase = PhaseOver
		n.seller = engine.NoSeat
	default:
		return nil, fmt.Errorf("negoce: %w: unknown event %q", errMisfit, ev.Name())
	}
	return &n, nil
}

// nextBidder is the next player clockwise after p who has not passed.
func (s *State) nextBidder(p engine.Seat) engine.Seat {
	for k := 1; k <= Players; k++ {
		q := (p + engine.Seat(k)) % Players
		if !s.passed[q] {
			return q
		}
	}
	return engine.NoSeat
}

// endSale clears the market and the offers and makes the player with 9
// cards the seller.
func (s *State) endSale(ev engine.Event) error {
	s.market = [2]int8{noCard, noCard}
	s.up = false
	s.bonus = 0
	s.named = -1
	for p := range s.offers {
		s.offers[p] = offer{card: noCard}
	}
	s.sales++
	s.seller = engine.NoSeat
	for p := range Players {
		if s.handSize(engine.Seat(p)) == SellerHand {
			s.seller = engine.Seat(p)
		}
	}
	if s.seller == engine.NoSeat {
		return misfit(ev, "after the sale nobody holds %d cards", SellerHand)
	}
	s.phase = PhaseLay
	return nil
}
