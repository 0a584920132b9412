package dschunke

import (
	"errors"
	"fmt"

	"comptoir/engine"
)

// errDoesNotFit is wrapped by Apply's errors: the event does not fit the
// state (a corrupt or foreign journal).
var errDoesNotFit = errors.New("event does not fit the state")

func misfit(format string, args ...any) error {
	return fmt.Errorf("dschunke: %w: %s", errDoesNotFit, fmt.Sprintf(format, args...))
}

// Apply returns the state after the event; s is left unchanged.
func (s *State) Apply(ev engine.Event) (engine.State, error) {
	n, err := s.apply(ev)
	if err != nil {
		return nil, err
	}
	return n, nil
}

func (s *State) seatOK(by engine.Seat) bool { return by >= 0 && int(by) < s.n }

// bundle reads an event's goods map.
func (s *State) bundle(m map[string]int) ([NumGoods]int, error) {
	var out [NumGoods]int
	for k, c := range m {
		g, ok := s.d.GoodsIndex(k)
		if !ok || c < 0 {
			return out, misfit("goods %s:%d", k, c)
		}
		out[g] = c
	}
	return out, nil
}

// move moves cards from one bundle to another, refusing to go negative.
func move(from, to *[NumGoods]int, g [NumGoods]int) error {
	for k, c := range g {
		if from[k] < c {
			return misfit("%d cards of goods %d, only %d there", c, k, from[k])
		}
		from[k] -= c
		to[k] += c
	}
	return nil
}

// markUse records the pawn or the card an action used.
func (n *State) markUse(seat int, with, card string) error {
	if n.step != stepAction || seat != n.current() || (with == "") == (card == "") {
		return misfit("action by seat %d out of turn", seat)
	}
	if card != "" {
		i, ok := n.d.SpecialIndex(card)
		if !ok || n.owner[i] != seat || n.spent[i] || n.extraUsed || n.d.Special[i].Timing != Extra {
			return misfit("card %s played by seat %d", card, seat)
		}
		n.spent[i], n.extraUsed = true, true
		return nil
	}
	if n.acted {
		return misfit("second action by seat %d", seat)
	}
	n.acted = true
	return nil
}

func (n *State) usePawn(with string, act Action) error {
	switch with {
	case WithMerchant:
		if n.used[act] {
			return misfit("merchant %s used twice", act)
		}
		n.used[act] = true
	case WithHelper, WithHelper2:
		p := pawnHelper
		if with == WithHelper2 {
			p = pawnHelper2
		}
		if p >= n.pawns() || n.used[p] || n.pawnAction(p) != act {
			return misfit("%s cannot %s", with, act)
		}
		n.used[p] = true
	case "":
	default:
		return misfit("pawn %q", with)
	}
	return nil
}

// apply returns the state after ev, or an error if ev does not fit s.
// Each event has its apply method: it checks the event against s and
// builds n, the clone of s that becomes the next state.
func (s *State) apply(ev engine.Event) (*State, error) {
	if s.step == stepOver {
		return nil, misfit("%s after the end", ev.Name())
	}
	n := s.clone()
	n.hideWealth(ev)
	var err error
	switch e := ev.(type) {
	case HandDealt:
		err = s.applyHandDealt(n, e)
	case MarketRevealed:
		err = s.applyMarketRevealed(n, e)
	case Exchanged:
		err = s.applyExchanged(n, e)
	case Passed:
		err = s.applyPassed(n, e)
	case WealthAnnounced:
		err = s.applyWealthAnnounced(n, e)
	case SpecialDrawn:
		err = s.applySpecialDrawn(n, e)
	case Loaded:
		err = s.applyLoaded(n, e)
	case IncomeReceived:
		err = s.applyIncomeReceived(n, e)
	case GoodsTaken:
		err = s.applyGoodsTaken(n, e)
	case PaletteMoved:
		err = s.applyPaletteMoved(n, e)
	case Restocked:
		err = s.applyRestocked(n, e)
	case BidSealed:
		err = s.applyBidSealed(n, e)
	case BidsRevealed:
		err = s.applyBidsRevealed(n, e)
	case Sold:
		err = s.applySold(n, e)
	case Rebid:
		err = s.applyRebid(n, e)
	case RoundEnded:
		err = s.applyRoundEnded(n, e)
	default:
		return nil, misfit("unknown event %q", ev.Name())
	}
	if err != nil {
		return nil, err
	}
	n.settle()
	return n, nil
}

// applyHandDealt deals a seat its hand.
func (s *State) applyHandDealt(n *State, e HandDealt) error {
	if s.step != stepHands || !s.seatOK(e.By) || s.dealt[e.By] {
		return misfit("hand of %v", e.By)
	}
	g, err := s.bundle(e.Goods)
	if err != nil {
		return err
	}
	left := s.dealLeft()
	for k := range g {
		if g[k] > left[k] {
			return misfit("hand of %v: %d cards of goods %d, %d left to deal", e.By, g[k], k, left[k])
		}
	}
	if sum(g) != HandSize {
		return misfit("hand of %v: %d cards", e.By, sum(g))
	}
	n.hand[e.By], n.dealt[e.By] = g, true
	return nil
}

// applyMarketRevealed reveals the round's market card and queues the
// track's events.
func (s *State) applyMarketRevealed(n *State, e MarketRevealed) error {
	i, ok := s.d.MarketIndex(e.Card)
	if s.step != stepReveal || !ok || s.mUsed[i] {
		return misfit("market card %s", e.Card)
	}
	n.mUsed[i], n.market = true, i
	n.shownBids, n.sales = nil, nil
	n.step, n.turn = stepExchange, 0
	n.evQ = nil
	for row := 0; row < n.pawns()-NumMerchants; row++ {
		if ev := s.d.Track[row][s.round-1].Event; ev != EvNone {
			n.evQ = append(n.evQ, ev)
		}
	}
	return nil
}

// applyExchanged swaps goods between the current seat's hand and the
// piles.
func (s *State) applyExchanged(n *State, e Exchanged) error {
	if s.step != stepExchange || int(e.By) != s.current() {
		return misfit("exchange by %v", e.By)
	}
	give, err := s.bundle(e.Give)
	if err != nil {
		return err
	}
	take, err := s.bundle(e.Take)
	if err != nil {
		return err
	}
	if err := move(&n.hand[e.By], &n.piles, give); err != nil {
		return err
	}
	if err := move(&n.piles, &n.hand[e.By], take); err != nil {
		return err
	}
	n.turn++
	return nil
}

// applyPassed ends the current seat's exchange, or uses up its extra
// action.
func (s *State) applyPassed(n *State, e Passed) error {
	switch {
	case s.step == stepExchange && int(e.By) == s.current():
		n.turn++
	case s.step == stepAction && int(e.By) == s.current() && s.acted:
		n.extraUsed = true
	default:
		return misfit("pass by %v", e.By)
	}
	return nil
}

// applyWealthAnnounced announces every seat's money.
func (s *State) applyWealthAnnounced(n *State, e WealthAnnounced) error {
	if s.step != stepEvents || len(s.evQ) == 0 || s.evQ[0] != EvWealth || len(e.Money) != s.n {
		return misfit("wealth announced")
	}
	copy(n.announced, s.money)
	n.evQ = n.evQ[1:]
	return nil
}

// applySpecialDrawn gives the current seat a special card from a pile.
func (s *State) applySpecialDrawn(n *State, e SpecialDrawn) error {
	i, ok := s.d.SpecialIndex(e.Card)
	p, pok := s.d.PileIndex(e.Pile)
	if s.step != stepDraw || int(e.By) != s.current() || !ok || !pok || s.owner[i] != empty || s.pileLeft[p] == 0 || s.drawDistinct && s.drawTaken[p] {
		return misfit("special card %s from %s by %v", e.Card, e.Pile, e.By)
	}
	n.owner[i] = int(e.By)
	n.pileLeft[p]--
	n.drawTaken[p] = true
	n.drawQ = n.drawQ[1:]
	return nil
}

// applyLoaded loads a seat's palettes on a junk.
func (s *State) applyLoaded(n *State, e Loaded) error {
	if !s.seatOK(e.By) {
		return misfit("load by %v", e.By)
	}
	if err := n.markUse(int(e.By), e.With, e.Card); err != nil {
		return err
	}
	if err := n.usePawn(e.With, ActLoad); err != nil {
		return err
	}
	j, ok := s.d.JunkIndex(e.Junk)
	want := min(2, s.palettes[e.By])
	if e.Card != "" {
		want = 1
	}
	if !ok || len(e.At) != want {
		return misfit("load of %d palettes on %s", len(e.At), e.Junk)
	}
	for _, a := range e.At {
		if a < 1 || a > Layer || !n.holds[j].isFree(a-1) {
			return misfit("slot %d on %s", a, e.Junk)
		}
		n.holds[j] = n.holds[j].place(int(e.By), a-1)
		n.palettes[e.By]--
	}
	return nil
}

// applyIncomeReceived pays a seat its income from a junk.
func (s *State) applyIncomeReceived(n *State, e IncomeReceived) error {
	j, ok := s.d.JunkIndex(e.Junk)
	if !s.seatOK(e.By) || !ok || e.Yuans != s.owed(int(e.By), j) {
		return misfit("income of %d by %v on %s", e.Yuans, e.By, e.Junk)
	}
	if err := n.markUse(int(e.By), e.With, e.Card); err != nil {
		return err
	}
	if err := n.usePawn(e.With, ActIncome); err != nil {
		return err
	}
	n.money[e.By] += e.Yuans
	n.paid += e.Yuans
	return nil
}

// applyGoodsTaken gives a seat goods from a junk's piles.
func (s *State) applyGoodsTaken(n *State, e GoodsTaken) error {
	if !s.seatOK(e.By) {
		return misfit("goods taken by %v", e.By)
	}
	if err := n.markUse(int(e.By), e.With, e.Card); err != nil {
		return err
	}
	if err := n.usePawn(e.With, ActGoods); err != nil {
		return err
	}
	g, err := s.bundle(e.Goods)
	if err != nil {
		return err
	}
	j, ok := s.d.JunkIndex(e.Junk)
	if !ok {
		return misfit("goods taken on junk %q", e.Junk)
	}
	if err := s.checkTake(g, s.owed(int(e.By), j), s.d.Junks[j].Goods); err != nil {
		return misfit("goods taken: %v", err)
	}
	if err := move(&n.piles, &n.hand[e.By], g); err != nil {
		return err
	}
	return nil
}

// applyPaletteMoved moves a seat's palette from one junk to another.
func (s *State) applyPaletteMoved(n *State, e PaletteMoved) error {
	if !s.seatOK(e.By) {
		return misfit("palette moved by %v", e.By)
	}
	if err := n.markUse(int(e.By), "", e.Card); err != nil {
		return err
	}
	from, ok1 := s.d.JunkIndex(e.From)
	to, ok2 := s.d.JunkIndex(e.Junk)
	if !ok1 || !ok2 || from == to || e.Slot < 1 || e.Slot > Layer || s.holds[from].top(e.Slot-1) != int(e.By) {
		return misfit("palette moved from %s:%d to %s", e.From, e.Slot, e.Junk)
	}
	n.holds[from] = n.holds[from].remove(e.Slot - 1)
	if e.At < 1 || e.At > Layer || !n.holds[to].isFree(e.At-1) {
		return misfit("slot %d on %s", e.At, e.Junk)
	}
	n.holds[to] = n.holds[to].place(int(e.By), e.At-1)
	return nil
}

// applyRestocked gives the current seat goods from the piles.
func (s *State) applyRestocked(n *State, e Restocked) error {
	if s.step != stepRestock || int(e.By) != s.current() {
		return misfit("restock by %v", e.By)
	}
	g, err := s.bundle(e.Goods)
	if err != nil {
		return err
	}
	if err := move(&n.piles, &n.hand[e.By], g); err != nil {
		return err
	}
	n.turn++
	return nil
}

// applyBidSealed seals a seat's bid.
func (s *State) applyBidSealed(n *State, e BidSealed) error {
	if s.step != stepBid || !s.seatOK(e.By) || s.sealed[e.By] {
		return misfit("bid by %v", e.By)
	}
	g, err := s.bundle(e.Goods)
	if err != nil {
		return err
	}
	var bid [NumGoods]int
	if err := move(&n.hand[e.By], &bid, g); err != nil {
		return err
	}
	n.sealed[e.By], n.bids[e.By] = true, bid
	return nil
}

// applyBidsRevealed reveals the sealed bids.
func (s *State) applyBidsRevealed(n *State, e BidsRevealed) error {
	if s.step != stepBid || len(e.Bids) != s.n {
		return misfit("bids revealed")
	}
	for i, b := range s.bids {
		if !s.sealed[i] || e.Bids[i] != s.bidText(b) {
			return misfit("bid of seat %d revealed as %q", i+1, e.Bids[i])
		}
		if validBid(b) >= 0 {
			n.bidAny = true
			move(&b, &n.piles, b)
		} else {
			move(&b, &n.hand[i], b)
		}
	}
	n.revealed, n.step, n.sellNext = true, stepSell, 0
	n.shownBids = append(n.shownBids, append([]string(nil), e.Bids...))
	return nil
}

// applySold sells a good to the bid's winners.
func (s *State) applySold(n *State, e Sold) error {
	g, ok := s.d.GoodsIndex(e.Goods)
	if s.step != stepSell || !ok || g < s.sellNext || s.sold[g] {
		return misfit("%s sold", e.Goods)
	}
	w, y, sp, ok := s.sale(g)
	if !ok || y != e.Yuans || sp != e.Special || len(w) != len(e.Winners) {
		return misfit("%s sold to %v", e.Goods, e.Winners)
	}
	for i, x := range w {
		if engine.Seat(x) != e.Winners[i] {
			return misfit("%s sold to %v", e.Goods, e.Winners)
		}
		n.money[x] += y
		n.paid += y
	}
	n.sold[g], n.sellNext = true, g+1
	n.sales = append(n.sales, SaleView{Goods: e.Goods, Winners: append([]engine.Seat(nil), e.Winners...), Yuans: e.Yuans, Special: e.Special})
	if sp {
		n.startDraw([]int{w[0]}, false, stepSell)
	}
	return nil
}

// applyRebid opens a new round of bids.
func (s *State) applyRebid(n *State, e Rebid) error {
	if s.step != stepSell || !s.bidAny {
		return misfit("rebid")
	}
	for _, k := range e.Goods {
		if g, ok := s.d.GoodsIndex(k); !ok || s.sold[g] {
			return misfit("rebid for %s", k)
		}
	}
	n.step = stepBid
	n.resetBids()
	return nil
}

// applyRoundEnded ends the round.
func (s *State) applyRoundEnded(n *State, e RoundEnded) error {
	if s.step != stepSell || e.Round != s.round {
		return misfit("end of round %d", e.Round)
	}
	for i := range n.merchants {
		n.merchants[i] = (n.merchants[i] + 1) % NumJunks
	}
	n.used = [numPawns]bool{}
	n.sold = [NumGoods]bool{}
	n.market = -1
	n.resetBids()
	n.first = (n.first + 1) % n.n
	n.round++
	n.step = stepReveal
	if s.round == Rounds {
		n.step = stepOver
	}
	return nil
}
