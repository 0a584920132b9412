package negoce

import (
	"fmt"

	"comptoir/engine"
)

// representatives lists one card of each good a player holds (the first
// in catalog order), and the Contraband card if he holds it: the four
// cards of a good are alike in play, so one stands for all.
func (s *State) representatives(p engine.Seat) []int {
	var out []int
	last := -2
	for i, l := range s.loc {
		if l == int8(p) && GoodOf(i) != last {
			out = append(out, i)
			last = GoodOf(i)
		}
	}
	return out
}

// Legal lists the legal actions. Cards of one good are listed once (they
// are alike; in a forced sale's pick, once per buyer who shows some), and free amounts of coins with a few representative values:
// offers of 1 or 3 coins, a card with or without a coin, the seller's
// bonus of 1 coin. Decide accepts any legal amount.
func (s *State) Legal() []engine.Action {
	var out []engine.Action
	add := func(by engine.Seat, c engine.Command) { out = append(out, engine.Action{By: by, Cmd: c}) }
	switch s.phase {
	case PhaseDeal:
		to := s.firstShort()
		goods := s.goods(to)
		held := 0
		for _, c := range goods {
			if c > 0 {
				held++
			}
		}
		for g := range NumGoods {
			var rest []CardID
			free := true
			for k := range CardsPerGood {
				i := g*CardsPerGood + k
				if s.loc[i] == locUndealt {
					rest = append(rest, s.cat.ID(i))
				} else if s.loc[i] != int8(to) {
					free = false
				}
			}
			switch {
			case !free || len(rest) == 0:
			case goods[g] > 0:
				add(engine.NoSeat, Deal{To: to, Cards: rest})
			case held < 2:
				add(engine.NoSeat, Deal{To: to, Goods: []Good{s.cat.Goods[g].Key}})
			}
		}
	case PhaseAuction:
		if !s.opened {
			for p := range Players {
				if s.coins[p] >= 1 {
					add(engine.Seat(p), Bid{Price: 1})
				}
			}
			break
		}
		for r := 1; r <= 2; r++ {
			if s.price+r <= s.coins[s.turn] {
				add(s.turn, Bid{Price: s.price + r})
			}
		}
		add(s.turn, Pass{})
	case PhaseLay:
		for _, i := range s.representatives(s.seller) {
			add(s.seller, Lay{Card: s.cat.ID(i), Up: true})
			add(s.seller, Lay{Card: s.cat.ID(i)})
		}
	case PhaseNegotiate:
		for q := range Players {
			b := engine.Seat(q)
			if b == s.seller {
				continue
			}
			for _, i := range s.representatives(b) {
				add(b, Offer{Card: s.cat.ID(i), Up: true})
				if s.coins[b] >= 1 {
					add(b, Offer{Card: s.cat.ID(i), Coins: 1})
				}
			}
			for _, c := range []int{1, 3} {
				if s.coins[b] >= c {
					add(b, Offer{Coins: c})
				}
			}
			if s.offers[b].active {
				add(b, Withdraw{})
				add(s.seller, Accept{From: b})
			}
		}
		for _, i := range s.representatives(s.seller) {
			add(s.seller, Force{Card: s.cat.ID(i)})
		}
		if s.bonus != 1 && s.coins[s.seller] >= 1 {
			add(s.seller, Bonus{Coins: 1})
		}
		if s.bonus != 0 {
			add(s.seller, Bonus{Coins: 0})
		}
	case PhaseForceName:
		held := s.goods(s.seller)
		for g := range NumGoods {
			if held[g] == 0 && len(s.holdersOf(g)) > 0 {
				add(s.seller, NameGood{Good: s.cat.Goods[g].Key})
			}
		}
	case PhaseForcePick:
		// One card per buyer: a buyer's cards of the good are alike.
		shown := map[int8]bool{}
		for _, id := range s.holdersOf(s.named) {
			i, _ := s.cat.Card(id)
			if !shown[s.loc[i]] {
				shown[s.loc[i]] = true
				add(s.seller, Pick{Card: id})
			}
		}
	}
	return out
}

// Waiting lists the players the game waits for: those still to be dealt
// cards, the bidder whose turn it is (anyone before the auction opens),
// the seller, or everyone during a negotiation.
func (s *State) Waiting() []engine.Seat {
	var out []engine.Seat
	switch s.phase {
	case PhaseDeal:
		for p := range Players {
			if s.handSize(engine.Seat(p)) < HandSize {
				out = append(out, engine.Seat(p))
			}
		}
	case PhaseAuction:
		if !s.opened {
			return []engine.Seat{0, 1, 2, 3}
		}
		return []engine.Seat{s.turn}
	case PhaseLay, PhaseForceName, PhaseForcePick:
		return []engine.Seat{s.seller}
	case PhaseNegotiate:
		return []engine.Seat{0, 1, 2, 3}
	}
	return out
}

// Result is 1 point for the winner, the "Grand négociateur", and 0 for
// the others; ties between the others are broken by coins, which are
// public. Before the end nobody has won.
func (s *State) Result() engine.Result {
	r := engine.Result{Over: s.phase == PhaseOver}
	for p, name := range s.setup.Players {
		won := 0
		if engine.Seat(p) == s.winner {
			won = 1
		}
		r.Scores = append(r.Scores, engine.Score{Seat: engine.Seat(p), Player: name, Total: won, TieBreak: s.coins[p],
			Parts: []engine.Part{{Name: "won", NameFR: "Grand négociateur", NameEN: "Grand negotiator", Points: won}}})
	}
	r.Rank()
	if !r.Over {
		r.Winners = nil
	}
	return r
}

// Check checks the invariants: the 33 cards each in one place, hands of
// the sizes the phase needs, the 60 coins conserved but for the auction's
// price, which left the game, and offers backed by what their owners hold.
func (s *State) Check() error {
	var hands [Players]int
	market, undealt := 0, 0
	for i, l := range s.loc {
		switch {
		case l == locUndealt:
			undealt++
			if i == contrabandIdx || s.phase != PhaseDeal {
				return fmt.Errorf("negoce: check: %s undealt in phase %s", s.cat.ID(i), s.phase.Key())
			}
		case l == locMarket:
			market++
			if int8(i) != s.market[0] && int8(i) != s.market[1] {
				return fmt.Errorf("negoce: check: %s on the market but not in a market slot", s.cat.ID(i))
			}
		case l >= 0 && l < Players:
			hands[l]++
		default:
			return fmt.Errorf("negoce: check: %s at unknown place %d", s.cat.ID(i), l)
		}
	}
	if total := undealt + market + hands[0] + hands[1] + hands[2] + hands[3]; total != NumCards {
		return fmt.Errorf("negoce: check: %d cards, want %d", total, NumCards)
	}
	wantMarket := map[Phase]int{PhaseDeal: 1, PhaseAuction: 1, PhaseLay: 0, PhaseNegotiate: 1, PhaseForceName: 2, PhaseForcePick: 2, PhaseOver: 0}[s.phase]
	if market != wantMarket {
		return fmt.Errorf("negoce: check: %d cards on the market in phase %s, want %d", market, s.phase.Key(), wantMarket)
	}
	sellerWant := map[Phase]int{PhaseLay: SellerHand, PhaseNegotiate: HandSize, PhaseForceName: HandSize - 1, PhaseForcePick: HandSize - 1}
	nine := 0
	for p, h := range hands {
		want := HandSize
		switch {
		case s.phase == PhaseDeal:
			want = -1
			if h > HandSize {
				return fmt.Errorf("negoce: check: %s has %d cards while dealing", s.player(engine.Seat(p)), h)
			}
		case s.phase == PhaseOver:
			want = -1
			if h == SellerHand {
				nine++
			} else if h != HandSize {
				return fmt.Errorf("negoce: check: %s has %d cards at the end", s.player(engine.Seat(p)), h)
			}
		case engine.Seat(p) == s.seller:
			want = sellerWant[s.phase]
		}
		if want >= 0 && h != want {
			return fmt.Errorf("negoce: check: %s has %d cards in phase %s, want %d", s.player(engine.Seat(p)), h, s.phase.Key(), want)
		}
	}
	if s.phase == PhaseOver && nine != 1 {
		return fmt.Errorf("negoce: check: %d players hold %d cards at the end, want 1", nine, SellerHand)
	}
	coins := s.removed
	for p, c := range s.coins {
		if c < 0 {
			return fmt.Errorf("negoce: check: %s has %d coins", s.player(engine.Seat(p)), c)
		}
		coins += c
	}
	if coins != TotalCoins {
		return fmt.Errorf("negoce: check: %d coins in purses plus %d removed, want %d", coins-s.removed, s.removed, TotalCoins)
	}
	if s.phase > PhaseAuction && (s.removed != s.price || s.removed < 1) {
		return fmt.Errorf("negoce: check: %d coins removed, but the Contraband went for %d", s.removed, s.price)
	}
	if s.phase <= PhaseAuction && s.removed != 0 {
		return fmt.Errorf("negoce: check: %d coins removed before the auction ended", s.removed)
	}
	for p, o := range s.offers {
		if !o.active {
			continue
		}
		if s.phase != PhaseNegotiate || engine.Seat(p) == s.seller {
			return fmt.Errorf("negoce: check: %s has an offer in phase %s", s.player(engine.Seat(p)), s.phase.Key())
		}
		if o.coins > s.coins[p] || o.card != noCard && s.loc[o.card] != int8(p) || o.card == noCard && o.coins == 0 {
			return fmt.Errorf("negoce: check: %s's offer is not backed by his hand and purse", s.player(engine.Seat(p)))
		}
	}
	if s.bonus > 0 && (s.phase != PhaseNegotiate || s.bonus > s.coins[s.seller]) {
		return fmt.Errorf("negoce: check: bonus %d not backed", s.bonus)
	}
	if s.phase == PhaseOver {
		if s.winner == engine.NoSeat || !s.qualifies(s.winner) {
			return fmt.Errorf("negoce: check: the winner %s does not qualify", s.player(s.winner))
		}
	}
	return nil
}
