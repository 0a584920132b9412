package genoa

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"comptoir/engine"
)

// bundle is a set of items that changes hands: a payment, a reward.
type bundle struct {
	Ducats  int
	Goods   []int // by good; nil when none
	Cards   []int
	Tiles   [nTiles]int
	Markers int
}

func (b bundle) empty() bool {
	if b.Ducats != 0 || len(b.Cards) != 0 || b.Markers != 0 {
		return false
	}
	for _, g := range b.Goods {
		if g != 0 {
			return false
		}
	}
	for _, t := range b.Tiles {
		if t != 0 {
			return false
		}
	}
	return true
}

// onlyMoney reports whether b holds money and nothing else.
func (b bundle) onlyMoney() bool {
	c := b
	c.Ducats = 0
	return c.empty()
}

// bundleOf reads the items of a command or event.
func (s *State) bundleOf(ducats int, goods map[string]int, cards []string, tiles map[string]int, markers int) (bundle, error) {
	d := s.d
	b := bundle{Ducats: ducats, Markers: markers}
	if ducats < 0 || markers < 0 {
		return b, fmt.Errorf("negative amount")
	}
	if len(goods) > 0 {
		b.Goods = make([]int, d.nGoods())
		for k, v := range goods {
			g, ok := d.goodByK[k]
			if !ok {
				return b, fmt.Errorf("%q is not a good of this edition (goods: %s)", k, strings.Join(d.prof.Goods, ", "))
			}
			if v < 0 {
				return b, fmt.Errorf("negative count of %s", k)
			}
			b.Goods[g] += v
		}
	}
	for _, id := range cards {
		c, ok := d.cardByID[id]
		if !ok {
			return b, fmt.Errorf("no card %q in the catalog", id)
		}
		if slices.Contains(b.Cards, c) {
			return b, fmt.Errorf("card %s given twice", id)
		}
		b.Cards = append(b.Cards, c)
	}
	for k, v := range tiles {
		t := tileIndex(k)
		if t < 0 {
			return b, fmt.Errorf("%q is not a tile (tiles: %s)", k, strings.Join(tileKeys[:], ", "))
		}
		if v < 0 {
			return b, fmt.Errorf("negative count of tile %s", k)
		}
		b.Tiles[t] += v
	}
	return b, nil
}

// missing says what seat lacks to give b, or "" when seat holds it all.
func (s *State) missing(seat engine.Seat, b bundle) (string, string) {
	p := &s.P[seat]
	if b.Ducats > p.Ducats {
		// How much a player holds is secret: a refusal seen by others
		// must not tell it.
		return fmt.Sprintf("%d ducats (holds fewer)", b.Ducats), fmt.Sprintf("%d ducats (en a moins)", b.Ducats)
	}
	for g, v := range b.Goods {
		if v > int(p.Goods[g]) {
			return fmt.Sprintf("%d %s (holds %d)", v, s.d.goodName(g, "en"), p.Goods[g]), fmt.Sprintf("%d %s (en a %d)", v, s.d.prof.GoodsFR[g], p.Goods[g])
		}
	}
	for _, c := range b.Cards {
		if s.loc(c) != int(seat) {
			return "the card “" + s.d.cardName(c, "en") + "”", "la carte « " + s.d.cardName(c, "fr") + " »"
		}
	}
	for t, v := range b.Tiles {
		if v > int(p.Tiles[t]) {
			return fmt.Sprintf("%d %s %s (holds %d)", v, tileEN[t], either(v == 1, "tile", "tiles"), p.Tiles[t]), fmt.Sprintf("%s %s (en a %d)", Count(v, "tuile", "tuiles", "fr"), tileFR[t], p.Tiles[t])
		}
	}
	if b.Markers > p.Markers {
		return fmt.Sprintf("%d ownership markers (holds %d)", b.Markers, p.Markers), fmt.Sprintf("%d marqueurs de propriété (en a %d)", b.Markers, p.Markers)
	}
	return "", ""
}

// transferOf writes b as a Transfer event.
func (s *State) transferOf(from, to engine.Seat, reason string, b bundle) Transfer {
	t := Transfer{From: from, To: to, Reason: reason, Ducats: b.Ducats, Markers: b.Markers}
	for g, v := range b.Goods {
		if v > 0 {
			if t.Goods == nil {
				t.Goods = map[string]int{}
			}
			t.Goods[s.d.prof.Goods[g]] = v
		}
	}
	for _, c := range b.Cards {
		t.Cards = append(t.Cards, s.d.cards[c].ID)
	}
	sort.Strings(t.Cards)
	for k, v := range b.Tiles {
		if v > 0 {
			if t.Tiles == nil {
				t.Tiles = map[string]int{}
			}
			t.Tiles[tileKeys[k]] = v
		}
	}
	return t
}

// transfer applies a Transfer.
func (s *State) transfer(e Transfer) error {
	b, err := s.bundleOf(e.Ducats, e.Goods, e.Cards, e.Tiles, e.Markers)
	if err != nil {
		return err
	}
	if e.From == e.To {
		return fmt.Errorf("transfer to oneself")
	}
	for _, x := range []engine.Seat{e.From, e.To} {
		if x != engine.NoSeat {
			if err := s.seatOK(x); err != nil {
				return err
			}
		}
	}
	if e.From != engine.NoSeat {
		if m, _ := s.missing(e.From, b); m != "" {
			return fmt.Errorf("%v lacks %s", e.From, m)
		}
	} else {
		for g, v := range b.Goods {
			if v > s.Supply[g] {
				return fmt.Errorf("the supply lacks %s", s.d.prof.Goods[g])
			}
		}
		for t, v := range b.Tiles {
			if v > s.TileSup[t] {
				return fmt.Errorf("the supply lacks tile %s", tileKeys[t])
			}
		}
		for _, c := range b.Cards {
			if s.loc(c) != -1 {
				return fmt.Errorf("card %s is not in its deck", s.d.cards[c].ID)
			}
		}
	}
	if e.To != engine.NoSeat && b.Markers > s.Common[e.To] {
		return fmt.Errorf("the common supply lacks markers of %v's colour", e.To)
	}
	// Take.
	if e.From == engine.NoSeat {
		s.BankPaid += b.Ducats
		for g, v := range b.Goods {
			s.Supply[g] -= v
		}
		for t, v := range b.Tiles {
			s.TileSup[t] -= v
		}
	} else {
		p := &s.P[e.From]
		p.Ducats -= b.Ducats
		for g, v := range b.Goods {
			p.Goods[g] -= int8(v)
		}
		for t, v := range b.Tiles {
			p.Tiles[t] -= int8(v)
		}
		for _, c := range b.Cards {
			p.Cards = p.Cards.Without(c)
			s.CardLoc[c] = -1
		}
		p.Markers -= b.Markers
		s.Common[e.From] += b.Markers
	}
	// Give.
	if e.To == engine.NoSeat {
		s.BankPaid -= b.Ducats
		for g, v := range b.Goods {
			s.Supply[g] += v
		}
		for t, v := range b.Tiles {
			s.TileSup[t] += v
		}
	} else {
		p := &s.P[e.To]
		p.Ducats += b.Ducats
		for g, v := range b.Goods {
			p.Goods[g] += int8(v)
		}
		for t, v := range b.Tiles {
			p.Tiles[t] += int8(v)
		}
		for _, c := range b.Cards {
			p.Cards = p.Cards.With(c)
			s.CardLoc[c] = int8(e.To)
		}
		p.Markers += b.Markers
		s.Common[e.To] -= b.Markers
	}
	return nil
}
