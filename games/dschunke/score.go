package dschunke

import (
	"fmt"

	"comptoir/engine"
)

// Final bonuses.
const (
	AllJunksBonus = 25 // visible crates on all five junks
	PerJunkBonus  = 4  // else, per junk with a visible crate
)

// crateBonus is seat's final bonus for the junks where a crate of his is
// visible.
func (s *State) crateBonus(seat int) int {
	k := 0
	for _, h := range s.holds {
		if h.visible(seat) > 0 {
			k++
		}
	}
	if k == NumJunks {
		return AllJunksBonus
	}
	return PerJunkBonus * k
}

// cardBonus is the points of seat's end-game cards whose conditions hold.
func (s *State) cardBonus(seat int) int {
	pts := 0
	for i, o := range s.owner {
		c := s.d.Special[i]
		if o != seat || c.Effect != EffBonus {
			continue
		}
		ok := true
		for j, need := range c.Need {
			if need > 0 && s.holds[j].visible(seat) < need {
				ok = false
			}
		}
		if ok {
			pts += c.Points
		}
	}
	return pts
}

// sealedCards is the cards of seat's sealed bid not yet revealed: still in
// his closed hand.
func (s *State) sealedCards(seat int) [NumGoods]int {
	if s.revealed {
		return [NumGoods]int{}
	}
	return s.bids[seat]
}

func (s *State) handSize(seat int) int { return sum(s.hand[seat]) + sum(s.sealedCards(seat)) }

// Result scores the game. Money and end-game cards are secret until the
// end: before it, the result holds only the public part, the crates'
// bonus as it would stand now. Ties are broken by the goods cards in hand.
func (s *State) Result() engine.Result {
	over := s.step == stepOver
	r := engine.Result{Over: over}
	for seat := 0; seat < s.n; seat++ {
		money, cards := 0, 0
		if over {
			money, cards = s.money[seat], s.cardBonus(seat)
		}
		crates := s.crateBonus(seat)
		r.Scores = append(r.Scores, engine.Score{Seat: engine.Seat(seat), Player: s.name(seat),
			Total: money + cards + crates, TieBreak: s.handSize(seat),
			Parts: []engine.Part{
				{Name: "money", NameFR: "richesse", NameEN: "money", Points: money},
				{Name: "cards", NameFR: "cartes spéciales", NameEN: "special cards", Points: cards},
				{Name: "junks", NameFR: "bonus des jonques", NameEN: "junks bonus", Points: crates},
			}})
	}
	r.Rank()
	return r
}

// Check checks the invariants: goods cards, palettes, special cards and
// yuans are all accounted for, the holds are well stacked, the pawns are
// where they may be.
func (s *State) Check() error {
	for g := range s.piles {
		total := s.piles[g]
		for seat := 0; seat < s.n; seat++ {
			if s.hand[seat][g] < 0 || s.bids[seat][g] < 0 {
				return fmt.Errorf("dschunke: seat %d has a negative count of %s", seat+1, s.d.Goods[g].Key)
			}
			if s.dealt[seat] || s.step != stepHands {
				total += s.hand[seat][g] + s.sealedCards(seat)[g]
			}
		}
		if s.step == stepHands {
			total += s.dealLeft()[g]
		}
		if total != s.d.Goods[g].Cards || s.piles[g] < 0 {
			return fmt.Errorf("dschunke: %d cards of %s in play (pile %d), want %d", total, s.d.Goods[g].Key, s.piles[g], s.d.Goods[g].Cards)
		}
	}
	for seat := 0; seat < s.n; seat++ {
		laid := 0
		for _, h := range s.holds {
			laid += h.palettes(seat)
		}
		if s.palettes[seat] < 0 || laid+s.palettes[seat] != s.d.Palettes {
			return fmt.Errorf("dschunke: seat %d has %d palettes laid and %d in supply, want %d in all", seat+1, laid, s.palettes[seat], s.d.Palettes)
		}
		if s.money[seat] < 0 {
			return fmt.Errorf("dschunke: seat %d has %d yuans", seat+1, s.money[seat])
		}
		if !s.sealed[seat] && sum(s.bids[seat]) > 0 && !s.revealed {
			return fmt.Errorf("dschunke: seat %d has cards in an unsealed bid", seat+1)
		}
	}
	total := 0
	for _, m := range s.money {
		total += m
	}
	if total != s.paid {
		return fmt.Errorf("dschunke: players hold %d yuans, the bank paid %d", total, s.paid)
	}
	for j, h := range s.holds {
		for l, layer := range h {
			if l < len(h)-1 && !full(layer) {
				return fmt.Errorf("dschunke: junk %s: layer %d is not full under layer %d", s.d.Junks[j].Key, l+1, l+2)
			}
			if l == len(h)-1 && layer == [Layer]int8{empty, empty, empty} {
				return fmt.Errorf("dschunke: junk %s: empty top layer", s.d.Junks[j].Key)
			}
			for _, o := range layer {
				if o != empty && (o < 0 || int(o) >= s.n) {
					return fmt.Errorf("dschunke: junk %s: palette of seat %d", s.d.Junks[j].Key, o)
				}
			}
		}
	}
	left := 0
	for _, p := range s.pileLeft {
		if p < 0 {
			return fmt.Errorf("dschunke: a special-card pile has %d cards", p)
		}
		left += p
	}
	if left != s.undrawn() {
		return fmt.Errorf("dschunke: the piles hold %d special cards, %d are undrawn", left, s.undrawn())
	}
	for i, o := range s.owner {
		if s.spent[i] && (o == empty || s.d.Special[i].Timing != Extra) {
			return fmt.Errorf("dschunke: card %s spent without being played", s.d.Special[i].ID)
		}
	}
	seen := map[int]bool{}
	for _, m := range s.merchants {
		if seen[m] {
			return fmt.Errorf("dschunke: two merchants on junk %s", s.d.Junks[m].Key)
		}
		seen[m] = true
	}
	if s.step != stepOver && (s.round < 1 || s.round > Rounds) {
		return fmt.Errorf("dschunke: round %d", s.round)
	}
	revealed := 0
	for _, u := range s.mUsed {
		if u {
			revealed++
		}
	}
	wantRevealed := s.round - 1
	if s.market >= 0 {
		wantRevealed++
	}
	if s.step == stepOver {
		wantRevealed = Rounds
	}
	if revealed != wantRevealed {
		return fmt.Errorf("dschunke: %d market cards revealed in round %d", revealed, s.round)
	}
	return nil
}
