package dschunke

import (
	"sort"

	"comptoir/engine"
)

// Legal lists the legal actions of every seat that may act now. Draws
// (the market card, special cards, the starting hands) are listed as
// actions of the table (NoSeat), never of a seat, so that a seat's list
// holds nothing but what its own view tells: every market and special
// card once, every composition of a starting hand once (see the package
// doc, Randomness).
// Extra-action cards and bluffs are listed with a few representative
// choices; Decide is the judge.
func (s *State) Legal() []engine.Action {
	var out []engine.Action
	add := func(seat int, c engine.Command) { out = append(out, engine.Action{By: engine.Seat(seat), Cmd: c}) }
	switch s.step {
	case stepHands:
		// The table deals: listed from NoSeat (for the first player without
		// a hand), so that no phone's list tells what the others were dealt.
		left := s.dealLeft()
		for _, g := range compositions(HandSize, left) {
			out = append(out, engine.Action{By: engine.NoSeat, Cmd: Hand{Goods: s.goodsMap(g)}})
		}
	case stepReveal:
		for i, used := range s.mUsed {
			if !used {
				out = append(out, engine.Action{By: engine.NoSeat, Cmd: Reveal{Market: s.d.Market[i].ID}})
			}
		}
	case stepExchange:
		seat := s.current()
		add(seat, Pass{})
		for g := range s.hand[seat] {
			for t := range s.piles {
				if g == t || s.hand[seat][g] == 0 || s.piles[t] == 0 {
					continue
				}
				var give, take [NumGoods]int
				give[g], take[t] = 1, 1
				add(seat, Exchange{Give: s.goodsMap(give), Take: s.goodsMap(take)})
				if s.hand[seat][g] >= 2 && s.piles[t] >= 2 {
					give[g], take[t] = 2, 2
					add(seat, Exchange{Give: s.goodsMap(give), Take: s.goodsMap(take)})
				}
			}
		}
	case stepDraw:
		// The card comes from the reader (NoSeat): listing the cards left
		// on a phone would tell which secret cards the others hold.
		for _, p := range s.drawPiles() {
			for i, o := range s.owner {
				if o == empty {
					out = append(out, engine.Action{By: engine.NoSeat, Cmd: Draw{Pile: s.d.Piles[p].Key, Card: s.d.Special[i].ID}})
				}
			}
		}
	case stepAction:
		seat := s.current()
		if s.acted {
			add(seat, Pass{})
		} else {
			for p := 0; p < s.pawns(); p++ {
				if s.used[p] {
					continue
				}
				with := pawnName(p)
				for _, j := range s.pawnJunks(p) {
					junk := s.d.Junks[j].Key
					if p < NumMerchants {
						junk = ""
					}
					switch s.pawnAction(p) {
					case ActLoad:
						for _, at := range s.slotChoices(j, min(2, s.palettes[seat])) {
							add(seat, Load{With: with, Junk: junk, At: at})
						}
					case ActIncome:
						add(seat, Income{With: with, Junk: junk})
					case ActGoods:
						for _, g := range s.takeChoices(s.owed(seat, j), s.d.Junks[j].Goods) {
							add(seat, Take{With: with, Junk: junk, Goods: s.goodsMap(g)})
						}
					}
				}
			}
		}
		if !s.extraUsed {
			for i, o := range s.owner {
				if o == seat && !s.spent[i] && s.d.Special[i].Timing == Extra {
					for _, c := range s.playChoices(seat, i) {
						add(seat, c)
					}
				}
			}
		}
	case stepRestock:
		seat := s.current()
		for _, g := range compositions(min(s.allowance(seat), sum(s.piles)), s.piles) {
			add(seat, Restock{Goods: s.goodsMap(g)})
		}
	case stepBid:
		for seat, x := range s.sealed {
			if x {
				continue
			}
			add(seat, Bid{})
			var kinds []int
			for g, c := range s.hand[seat] {
				if s.sold[g] || c == 0 {
					continue
				}
				kinds = append(kinds, g)
				for k := 1; k <= c; k++ {
					var b [NumGoods]int
					b[g] = k
					add(seat, Bid{Goods: s.goodsMap(b)})
				}
			}
			if len(kinds) >= 2 { // a bluff
				var b [NumGoods]int
				b[kinds[0]], b[kinds[1]] = 1, 1
				add(seat, Bid{Goods: s.goodsMap(b)})
			}
		}
	}
	return out
}

// compositions lists the bundles of total cards within bound.
func compositions(total int, bound [NumGoods]int) [][NumGoods]int {
	var out [][NumGoods]int
	var cur [NumGoods]int
	var rec func(k, left int)
	rec = func(k, left int) {
		if k == NumGoods-1 {
			if left <= bound[k] {
				cur[k] = left
				out = append(out, cur)
			}
			return
		}
		for c := 0; c <= min(left, bound[k]); c++ {
			cur[k] = c
			rec(k+1, left-c)
		}
	}
	rec(0, total)
	return out
}

// slotChoices lists the slot sequences (1-based) for m palettes on junk j.
func (s *State) slotChoices(j, m int) [][]int {
	var out [][]int
	var rec func(h hold, prefix []int)
	rec = func(h hold, prefix []int) {
		if len(prefix) == m {
			out = append(out, append([]int(nil), prefix...))
			return
		}
		for _, f := range h.free() {
			rec(h.place(0, f), append(prefix, f+1))
		}
	}
	rec(s.holds[j], nil)
	return out
}

// takeChoices lists the bundles a goods action may take: owed cards, all
// from one source pile (source, or any with -1) as far as it goes, the
// rest from the others.
func (s *State) takeChoices(owed, source int) [][NumGoods]int {
	seen := map[[NumGoods]int]bool{}
	var out [][NumGoods]int
	want := min(owed, sum(s.piles))
	for src := range s.piles {
		if source >= 0 && src != source {
			continue
		}
		first := min(owed, s.piles[src])
		rest := s.piles
		rest[src] = 0
		for _, g := range compositions(want-first, rest) {
			g[src] = first
			if !seen[g] {
				seen[g] = true
				out = append(out, g)
			}
		}
	}
	sort.Slice(out, func(a, b int) bool {
		for k := range out[a] {
			if out[a][k] != out[b][k] {
				return out[a][k] > out[b][k]
			}
		}
		return false
	})
	return out
}

// playChoices lists the plays of extra-action card i by seat.
func (s *State) playChoices(seat, i int) []engine.Command {
	card := s.d.Special[i]
	var out []engine.Command
	switch card.Effect {
	case EffPlacePalette:
		if s.palettes[seat] == 0 {
			return nil
		}
		for j := range s.holds {
			for _, at := range s.slotChoices(j, 1) {
				out = append(out, Play{Card: card.ID, Junk: s.d.Junks[j].Key, At: at})
			}
		}
	case EffIncome:
		out = append(out, Play{Card: card.ID})
	case EffTakeGoods:
		for j := range s.holds {
			for _, g := range s.takeChoices(s.owed(seat, j), s.d.Junks[j].Goods) {
				out = append(out, Play{Card: card.ID, Junk: s.d.Junks[j].Key, Goods: s.goodsMap(g)})
			}
		}
	case EffMovePalette:
		for from := range s.holds {
			for slot := 0; slot < Layer; slot++ {
				if s.holds[from].top(slot) != seat {
					continue
				}
				after := s.holds
				after[from] = after[from].remove(slot)
				for to := range s.holds {
					if to == from {
						continue
					}
					for _, f := range after[to].free() {
						out = append(out, Play{Card: card.ID, From: s.d.Junks[from].Key, Slot: slot + 1, Junk: s.d.Junks[to].Key, At: []int{f + 1}})
					}
				}
			}
		}
	}
	return out
}
