package genoa

import (
	"errors"
	"fmt"
	"slices"

	"comptoir/engine"
)

// contractGroups splits the buildings of a hand of contract cards into
// groups of adjacent buildings (a building counted once however many of
// its cards are held) and returns their sizes, largest first.
func (d *Data) contractGroups(blds []int) []int {
	in := make([]bool, len(d.blds))
	for _, b := range blds {
		in[b] = true
	}
	seen := make([]bool, len(d.blds))
	var sizes []int
	for _, b := range blds {
		if seen[b] {
			continue
		}
		size, stack := 0, []int{b}
		seen[b] = true
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			size++
			for y := range d.blds {
				if in[y] && !seen[y] && d.bldAdj[x][y] {
					seen[y] = true
					stack = append(stack, y)
				}
			}
		}
		sizes = append(sizes, size)
	}
	slices.Sort(sizes)
	slices.Reverse(sizes)
	return sizes
}

// groupValue is what a group of n adjacent contract buildings scores.
func (p *profile) groupValue(n int) int {
	if n <= 0 {
		return 0
	}
	if n <= len(p.Scale) {
		return p.Scale[n-1]
	}
	return p.Scale[len(p.Scale)-1] + (n-len(p.Scale))*p.Beyond
}

// contractScore is what seat's contract cards are worth.
func (s *State) contractScore(seat int) int {
	var blds []int
	for c := range s.P[seat].Cards.All() {
		if cd := s.d.cards[c]; cd.Deck == deckContract {
			blds = append(blds, cd.Bld)
		}
	}
	total := 0
	for _, g := range s.d.contractGroups(blds) {
		total += s.d.prof.groupValue(g)
	}
	return total
}

// tieBreak is the count the edition breaks a tie with.
func (s *State) tieBreak(seat int) int {
	p := &s.P[seat]
	n := 0
	for _, g := range p.Goods {
		n += int(g)
	}
	if s.d.prof.TieBreakAll {
		for _, t := range p.Tiles {
			n += int(t)
		}
		n += p.Cards.Len()
	}
	return n
}

// Result is the score: money, then (at the end, or as it would stand now)
// the contracts and 10 per marker on a building.
func (s *State) Result() engine.Result {
	r := engine.Result{Over: s.Phase == phOver}
	for i := range s.players() {
		marks := 0
		for _, o := range s.Owner {
			if int(o) == i {
				marks++
			}
		}
		money, contracts, markers := s.P[i].Ducats, s.contractScore(i), marks*s.d.prof.PerMark
		r.Scores = append(r.Scores, engine.Score{
			Seat: engine.Seat(i), Player: s.setup.Players[i], Total: money + contracts + markers,
			Parts: []engine.Part{
				{Name: "money", NameFR: "ducats", NameEN: "money", Points: money},
				{Name: "contracts", NameFR: "contrats", NameEN: "contracts", Points: contracts},
				{Name: "markers", NameFR: "marqueurs de propriété", NameEN: "ownership markers", Points: markers},
			},
			TieBreak: s.tieBreak(i),
		})
	}
	r.Rank()
	return r
}

// Waiting lists who the game waits for.
func (s *State) Waiting() []engine.Seat {
	if s.Phase == phOver {
		return nil
	}
	if len(s.Pending) > 0 {
		return []engine.Seat{s.Pending[0].Seat}
	}
	switch s.Phase {
	case phAcquire:
		return []engine.Seat{s.Acq}
	case phMove:
		if s.Assigned != engine.NoSeat {
			return []engine.Seat{s.Assigned}
		}
	}
	return []engine.Seat{s.Merchant}
}

// ErrInvariant is wrapped by every error of Check.
var ErrInvariant = errors.New("genoa: invariant broken")

// Check checks that nothing was created or lost: money only from the bank,
// every good, tile, marker and card where it belongs.
func (s *State) Check() error {
	d := s.d
	money := 0
	for _, p := range s.players() {
		if p.Ducats < 0 || p.Markers < 0 {
			return fmt.Errorf("%w: negative holdings %+v", ErrInvariant, p)
		}
		money += p.Ducats
	}
	if want := s.n*d.prof.StartDucats + s.BankPaid + s.StaffMoney; money != want {
		return fmt.Errorf("%w: players hold %d ducats, want %d (start %d + bank %d + staff corrections %d)", ErrInvariant, money, want, s.n*d.prof.StartDucats, s.BankPaid, s.StaffMoney)
	}
	for g := range s.Supply {
		n := s.Supply[g]
		for _, p := range s.players() {
			n += int(p.Goods[g])
		}
		if n != d.prof.GoodsEach || s.Supply[g] < 0 {
			return fmt.Errorf("%w: %d %s in the game, want %d", ErrInvariant, n, d.prof.Goods[g], d.prof.GoodsEach)
		}
	}
	for t := range nTiles {
		n := s.TileSup[t]
		for _, p := range s.players() {
			n += int(p.Tiles[t])
		}
		if n != d.prof.TileCounts[t] || s.TileSup[t] < 0 {
			return fmt.Errorf("%w: %d %s tiles, want %d", ErrInvariant, n, tileKeys[t], d.prof.TileCounts[t])
		}
	}
	for i := range s.players() {
		n := s.P[i].Markers + s.Common[i]
		for _, o := range s.Owner {
			if int(o) == i {
				n++
			}
		}
		if n != d.prof.MarkersPerColour || s.Common[i] < 0 {
			return fmt.Errorf("%w: %d markers of %s's colour, want %d", ErrInvariant, n, s.name(engine.Seat(i)), d.prof.MarkersPerColour)
		}
	}
	held := 0
	for i, p := range s.players() {
		for c := range p.Cards.All() {
			if s.loc(c) != i {
				return fmt.Errorf("%w: card %s in %s's hand but recorded elsewhere", ErrInvariant, d.cards[c].ID, s.name(engine.Seat(i)))
			}
		}
		held += p.Cards.Len()
	}
	for _, l := range s.CardLoc {
		if l >= 0 {
			held--
		}
	}
	if held != 0 {
		return fmt.Errorf("%w: cards in hands and card places disagree", ErrInvariant)
	}
	return nil
}
