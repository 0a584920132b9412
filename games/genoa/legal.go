package genoa

import (
	"slices"

	"comptoir/engine"
)

// Legal lists the legal actions of every seat that may act now. Commands
// with a free amount (deals, offers) are listed with one representative
// payment; Decide is the judge of any other.
func (s *State) Legal() []engine.Action {
	if s.Phase == phOver {
		return nil
	}
	var out []engine.Action
	add := func(seat engine.Seat, c engine.Command) { out = append(out, engine.Action{By: seat, Cmd: c}) }
	if len(s.Pending) > 0 {
		// The draws are the table's (the NFC reader, the shuffled deck):
		// listed for the drawer, they would let a player choose a card
		// and tell a phone which cards are not in the deck.
		p := s.Pending[0]
		for i, c := range s.d.cards {
			if c.Deck == p.Deck && s.loc(i) == -1 {
				add(engine.NoSeat, Draw{Card: c.ID})
			}
		}
		return out
	}
	switch s.Phase {
	case phStart:
		m := s.Merchant
		for b := 1; b <= 8; b++ {
			for r := 1; r <= 8; r++ {
				add(m, Roll{Blue: b, Red: r})
			}
		}
		if s.P[m].Tiles[tileStart] > 0 {
			for _, sq := range s.d.squares {
				add(m, Start{Square: Place(sq.Key)})
			}
		}
	case phMove:
		s.legalMove(add)
	case phAcquire:
		s.legalAcquire(add)
	}
	return out
}

func (s *State) legalMove(add func(engine.Seat, engine.Command)) {
	d := s.d
	m := s.Merchant
	free := s.Assigned == engine.NoSeat && !s.bound()
	if free {
		add(m, End{})
		if len(s.Path) <= 4 {
			for _, sq := range d.adj[s.pawn()] {
				if s.visited(sq) {
					continue
				}
				add(m, Move{To: d.place(sq)})
				isBld := d.squares[sq].Bld >= 0
				for o := range s.n {
					seat := engine.Seat(o)
					if seat == m || isBld && !s.canAct(seat) {
						continue
					}
					if duc, goods, ok := s.repPay(seat); ok {
						add(m, Deal{From: seat, To: d.place(sq), Ducats: duc, Goods: goods})
					}
					// A deal paid with goods the action will give.
					if b := d.squares[sq].Bld; b >= 0 && d.blds[b].Act == aWarehouse {
						if g := d.blds[b].Goods[0]; s.Supply[g] > 0 {
							add(m, Deal{From: seat, To: d.place(sq), After: map[string]int{d.prof.Goods[g]: 1}})
						}
					}
				}
			}
		}
	}
	if free {
		// Longer moves: every square reachable in more than one move, with
		// its path.
		for _, r := range s.Reachable() {
			if len(r.Path) > 1 {
				add(m, Move{To: r.Square, Via: r.Path[:len(r.Path)-1]})
			}
		}
	}
	if s.open() {
		b := s.curBld()
		if who := s.actor(); who != engine.NoSeat {
			s.legalEffect(b, func(order, tile string) { add(who, Act{Order: order, Tile: tile}) }, who)
		}
		if s.Assigned == engine.NoSeat {
			for _, o := range s.Offers {
				if s.canAct(o.Seat) {
					if miss, _ := s.missing(o.Seat, o.Pay); miss == "" {
						add(m, Accept{From: o.Seat})
					}
				}
			}
			for o := range s.n {
				seat := engine.Seat(o)
				if seat == m {
					continue
				}
				if s.canAct(seat) && !slices.ContainsFunc(s.Offers, func(x offer) bool { return x.Seat == seat }) {
					if duc, goods, ok := s.repPay(seat); ok {
						add(seat, Offer{Ducats: duc, Goods: goods})
					}
				}
				if !s.canAct(seat) && s.P[seat].Tiles[tileExtra] > 0 {
					add(seat, Extra{})
				}
			}
			if !s.canAct(m) && s.P[m].Tiles[tileExtra] > 0 {
				add(m, Extra{})
			}
		}
	}
	// Tiles of the action's timing, and the small order.
	for o := range s.n {
		seat := engine.Seat(o)
		if !s.inWindow(seat) {
			continue
		}
		p := &s.P[seat]
		if s.Win.Seat == seat && !s.SmallOK[seat] {
			for c := range p.Cards.All() {
				cd := d.cards[c]
				if cd.Deck == deckSmall && cd.Bld == s.Win.Bld && p.Goods[cd.Goods[0]] > 0 {
					add(seat, Deliver{Card: cd.ID})
				}
			}
		}
		if p.Tiles[tileGoods] > 0 {
			for g, n := range s.Supply {
				if n > 0 {
					add(seat, Take{Good: d.prof.Goods[g]})
				}
			}
		}
		if p.Tiles[tileTrade] > 0 && !s.owes(seat) {
			if p.Markers > 0 && s.inDeck(deckContract) > 0 {
				add(seat, Trade{Give: "marker", Get: "deck:" + deckKeys[deckContract]})
			}
			if p.Cards.Len() > 0 && s.Common[seat] > 0 {
				add(seat, Trade{Give: "card:" + d.cards[p.Cards.First()].ID, Get: "marker"})
			}
			for g, n := range p.Goods {
				if n == 0 {
					continue
				}
				for h, k := range s.Supply {
					if h != g && k > 0 {
						add(seat, Trade{Give: d.prof.Goods[g], Get: d.prof.Goods[h]})
					}
				}
				break
			}
		}
		if p.Tiles[tileBuild] > 0 {
			for b, own := range s.Owner {
				if int(own) == o {
					s.legalBuild(b, func(order, tile string) { add(seat, Build{Building: d.bldPlace(b), Order: order, Tile: tile}) }, seat)
				}
			}
		}
	}
}

// legalEffect lists the choices of building b's action for who.
func (s *State) legalEffect(b int, add func(order, tile string), who engine.Seat) {
	s.legalEffectBack(b, add, who, -1)
}

// legalBuild lists the choices of a building-action tile played by who at
// building b: those of its action, the tile played being back in its
// supply when a large order's reward is chosen.
func (s *State) legalBuild(b int, add func(order, tile string), who engine.Seat) {
	s.legalEffectBack(b, add, who, tileBuild)
}

// legalEffectBack lists the choices of building b's action for who, tile
// back (or -1) counted once more in the supply.
func (s *State) legalEffectBack(b int, add func(order, tile string), who engine.Seat, back int) {
	if s.d.blds[b].Act != aVilla {
		add("", "")
		return
	}
	add("", "")
	p := &s.P[who]
	for c := range p.Cards.All() {
		cd := s.d.cards[c]
		if cd.Deck != deckLarge || cd.Villa != b {
			continue
		}
		need := make([]int, s.d.nGoods())
		ok := true
		for _, g := range cd.Goods {
			need[g]++
			ok = ok && need[g] <= int(p.Goods[g])
		}
		if !ok {
			continue
		}
		any := false
		for k := range nTiles {
			if s.TileSup[k] > 0 || k == back {
				add(cd.ID, tileKeys[k])
				any = true
			}
		}
		if !any {
			add(cd.ID, "")
		}
	}
}

// repPay is a representative payment seat can make: a few ducats, or a good
// where money alone is not enough.
func (s *State) repPay(seat engine.Seat) (int, map[string]int, bool) {
	p := &s.P[seat]
	needGood := s.n == 2 && s.d.prof.TwoPlayerOfferGoods
	if !needGood && p.Ducats > 0 {
		return min(5, p.Ducats), nil, true
	}
	for g, n := range p.Goods {
		if n > 0 {
			return 0, map[string]int{s.d.prof.Goods[g]: 1}, true
		}
	}
	return 0, nil, false
}

// acqChoice is one way to use a street in the acquisition.
func (s *State) legalAcquire(add func(engine.Seat, engine.Command)) {
	d := s.d
	who := s.Acq
	add(who, Pass{})
	max := d.prof.MaxPlacements
	have := s.P[who].Markers
	for _, st := range s.Discs {
		bs := d.touch[st]
		// Each building: 0 skip, 1 place, 2 remove only.
		n := len(bs)
		total := 1
		for range n {
			total *= 3
		}
		for code := 1; code < total; code++ {
			var a Acquire
			cost, count, c, ok := 0, 0, code, true
			for _, b := range bs {
				choice := c % 3
				c /= 3
				own := int(s.Owner[b])
				switch choice {
				case 1:
					if own == int(who) {
						ok = false
					} else if own >= 0 {
						cost += 1 + d.prof.RemovalCost
					} else {
						cost++
					}
					a.Place = append(a.Place, d.bldPlace(b))
					count++
				case 2:
					if own < 0 || own == int(who) {
						ok = false
					}
					cost += d.prof.RemovalCost
					a.Remove = append(a.Remove, d.bldPlace(b))
					count++
				}
			}
			if !ok || cost > have || max > 0 && count > max {
				continue
			}
			a.Street = d.place(st)
			add(who, a)
		}
	}
}

// Route is a square the pawn can reach this turn and the way there.
type Route struct {
	Square Place   `json:"square"`
	Path   []Place `json:"path"`
}

// Reachable lists every square the pawn can still reach this turn with
// the moves it has left, with one shortest path each, for the dashboard
// and for hints.
func (s *State) Reachable() []Route {
	if s.Phase != phMove {
		return nil
	}
	left := 5 - len(s.Path)
	n := len(s.d.squares)
	// Breadth first from the pawn; parent[x] is the square before x on a
	// shortest path, depth[x] its number of moves (0: not reached).
	parent := make([]int, n)
	depth := make([]int, n)
	for _, v := range s.Path {
		depth[v] = -1
	}
	queue := make([]int, 0, n)
	queue = append(queue, s.pawn())
	var out []Route
	for qi := 0; qi < len(queue); qi++ {
		x := queue[qi]
		dx := max(depth[x], 0)
		if dx >= left {
			continue
		}
		for _, y := range s.d.adj[x] {
			if depth[y] != 0 {
				continue
			}
			depth[y], parent[y] = dx+1, x
			queue = append(queue, y)
			r := Route{Square: s.d.place(y), Path: make([]Place, dx+1)}
			for i, z := dx, y; i >= 0; i, z = i-1, parent[z] {
				r.Path[i] = s.d.place(z)
			}
			out = append(out, r)
		}
	}
	return out
}
