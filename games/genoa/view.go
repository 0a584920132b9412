package genoa

import (
	"comptoir/engine"
)

// View is what one seat (or the table) may see. Money and cards are secret
// in Genoa: a seat sees its own and only counts of the others'.
type View struct {
	Edition  string          `json:"edition"`
	Phase    string          `json:"phase"`
	Round    int             `json:"round"`
	Track    int             `json:"track"`
	Rounds   int             `json:"rounds"`
	Merchant engine.Seat     `json:"merchant"`
	Path     []Place         `json:"path"`
	Moves    int             `json:"movesLeft"`
	Reach    []Route         `json:"reachable,omitempty"`
	Done     []Place         `json:"actionsTaken,omitempty"`
	Actor    engine.Seat     `json:"actor"`
	Offers   []engine.Seat   `json:"offers,omitempty"`
	Discs    []Place         `json:"discs,omitempty"`
	Acquirer engine.Seat     `json:"acquirer"`
	Drawing  *DrawView       `json:"drawing,omitempty"`
	Supply   map[string]int  `json:"supply"`
	Tiles    map[string]int  `json:"tiles"`
	Decks    map[string]int  `json:"decks"`
	Owners   map[Place]int   `json:"owners"`
	Players  []PlayerView    `json:"players"`
	Waiting  []engine.Seat   `json:"waiting"`
	Result   *engine.Result  `json:"result,omitempty"`
	Mine     *PrivateView    `json:"mine,omitempty"`
	Window   engine.Seat     `json:"window"`
	Legal    []engine.Action `json:"-"`
}

// DrawView is the draw the game waits for.
type DrawView struct {
	Seat engine.Seat `json:"seat"`
	Deck string      `json:"deck"`
	N    int         `json:"n"`
}

// PlayerView is what everyone sees of a player.
type PlayerView struct {
	Name    string         `json:"name"`
	Goods   map[string]int `json:"goods"`
	Tiles   map[string]int `json:"tiles"`
	Markers int            `json:"markers"`
	Cards   map[string]int `json:"cards"` // count by deck
	Actions int            `json:"actionsTaken"`
}

// PrivateView is a seat's secrets: money and cards.
type PrivateView struct {
	Ducats    int      `json:"ducats"`
	Cards     []string `json:"cards"`
	Contracts int      `json:"contractsWorth"`
	// Corrections are the staff's corrections of the seat's money.
	Corrections []CorrectionView `json:"corrections,omitempty"`
}

// View shows the table, and seat its own secrets.
func (s *State) View(seat engine.Seat) any {
	d := s.d
	v := View{Edition: d.prof.Edition, Phase: s.Phase.String(), Round: s.Round, Track: s.Track, Rounds: s.rounds,
		Merchant: s.Merchant, Actor: s.Assigned, Acquirer: s.Acq, Window: s.Win.Seat, Waiting: s.Waiting(),
		Supply: map[string]int{}, Tiles: map[string]int{}, Decks: map[string]int{}, Owners: map[Place]int{}}
	for _, sq := range s.Path {
		v.Path = append(v.Path, d.place(sq))
	}
	if s.Phase == phMove {
		v.Moves = 5 - len(s.Path)
		v.Reach = s.Reachable()
	}
	for b, done := range s.Done {
		if done {
			v.Done = append(v.Done, d.bldPlace(b))
		}
	}
	for _, o := range s.Offers {
		v.Offers = append(v.Offers, o.Seat)
	}
	for _, sq := range s.Discs {
		v.Discs = append(v.Discs, d.place(sq))
	}
	if len(s.Pending) > 0 {
		p := s.Pending[0]
		v.Drawing = &DrawView{Seat: p.Seat, Deck: deckKeys[p.Deck], N: p.N}
	}
	for g, n := range s.Supply {
		v.Supply[d.prof.Goods[g]] = n
	}
	for t, n := range s.TileSup {
		v.Tiles[tileKeys[t]] = n
	}
	for k := range nDecks {
		v.Decks[deckKeys[k]] = s.inDeck(k)
	}
	for b, o := range s.Owner {
		if o >= 0 {
			v.Owners[d.bldPlace(b)] = int(o)
		}
	}
	for i, p := range s.players() {
		pv := PlayerView{Name: s.setup.Players[i], Goods: map[string]int{}, Tiles: map[string]int{}, Cards: map[string]int{}, Markers: p.Markers, Actions: int(s.Used[i])}
		for g, n := range p.Goods {
			if n > 0 {
				pv.Goods[d.prof.Goods[g]] = int(n)
			}
		}
		for t, n := range p.Tiles {
			if n > 0 {
				pv.Tiles[tileKeys[t]] = int(n)
			}
		}
		for c := range p.Cards.All() {
			pv.Cards[deckKeys[d.cards[c].Deck]]++
		}
		v.Players = append(v.Players, pv)
	}
	if s.Phase == phOver {
		r := s.Result()
		v.Result = &r
	}
	if seat >= 0 && int(seat) < s.n {
		p := &s.P[seat]
		mine := &PrivateView{Ducats: p.Ducats, Contracts: s.contractScore(int(seat))}
		for c := range p.Cards.All() {
			mine.Cards = append(mine.Cards, d.cards[c].ID)
		}
		for _, c := range s.Corr {
			if c.Seat == seat {
				mine.Corrections = append(mine.Corrections, CorrectionView{Ducats: c.Ducats, Reason: c.Reason})
			}
		}
		v.Mine = mine
	}
	return v
}
