package genoa

import (
	"fmt"
	"slices"

	"comptoir/engine"
)

// phase is the step of the turn the game is in.
type phase uint8

const (
	phStart   phase = iota // the merchant rolls or plays a start-space tile
	phMove                 // movement, actions, negotiation
	phAcquire              // acquisition of buildings
	phOver                 // the game is over
)

var phaseKeys = [...]string{"start", "move", "acquire", "over"}

func (p phase) String() string { return phaseKeys[p] }

// player is what one player holds.
type player struct {
	Ducats  int
	Goods   [maxGoods]int8
	Tiles   [nTiles]int8
	Markers int     // in the player's own reserve
	Cards   cardSet // the cards held
}

// pend is a draw the rules asked for and the cards are still to be named.
type pend struct {
	Seat engine.Seat
	Deck int
	N    int
}

// offer is a standing offer for the current building's action.
type offer struct {
	Seat engine.Seat
	Pay  bundle
}

// window is the action window of the last player who acted: small order
// and tiles of the action's timing are allowed until it closes.
type window struct {
	Seat engine.Seat // NoSeat: closed
	Bld  int
}

// State is a position of Genoa. States are values: Apply returns a new one.
// The fields that hold pointers come first and the players' holdings hold
// none, so that the collector and the copy of a clone see pointers in the
// first few words only.
type State struct {
	d     *Data
	setup engine.Setup
	// Slices are shared between states and never written in place (clone
	// clips their capacity, so that an append copies).
	Path    []int // squares visited this turn, in order; the last holds the pawn
	Pending []pend
	Offers  []offer
	Discs   []int // street squares that still carry a disc (acquisition)
	// Corr are the money corrections, for each corrected seat's own view.
	Corr []correction

	n int
	// rounds is the number of rounds of this game (by player count).
	rounds int

	P       [maxPlayers]player // P[:n] are the players
	Supply  [maxGoods]int      // goods in the warehouses, by good
	TileSup [nTiles]int        // tiles in the supply
	Common  [maxPlayers]int    // markers of each colour in the common supply
	Owner   [maxBlds]int8      // building → seat holding a marker there, or -1
	CardLoc [maxCards]int8     // card → seat holding it, or -1 in its deck
	// BankPaid is what the bank paid out, less what it took in.
	BankPaid int
	// StaffMoney is the money the staff's corrections made (less what
	// they took away).
	StaffMoney int

	Phase    phase
	Track    int // round marker position, 1..rounds
	Round    int // rounds begun
	Merchant engine.Seat

	// Turn.
	Done     [maxBlds]bool // building → action taken this turn
	Assigned engine.Seat
	After    [maxGoods]int // goods the assigned actor pays after the action
	AfterT   [nTiles]int
	Used     [maxPlayers]int8 // actions taken this turn, by seat
	Extras   [maxPlayers]int8 // extra-action tiles played this turn, by seat
	SmallOK  [maxPlayers]bool
	Win      window
	Acq      engine.Seat
	AcqCount int // players asked so far in the acquisition
}

// players are the players' holdings.
func (s *State) players() []player { return s.P[:s.n] }

// loc is the seat holding card c, or -1 when it is in its deck.
func (s *State) loc(c int) int { return int(s.CardLoc[c]) }

func (s *State) clone() *State {
	c := *s
	// Slices that are only ever replaced or appended to are shared, their
	// capacity clipped so that an append copies; the others are copied.
	c.Path = slices.Clip(s.Path)
	c.Corr = slices.Clip(s.Corr)
	c.Pending = slices.Clip(s.Pending)
	c.Offers = slices.Clip(s.Offers)
	c.Discs = slices.Clip(s.Discs)
	return &c
}

// newState is the position before the first card is dealt.
func newState(d *Data, setup engine.Setup, rounds int) *State {
	n := len(setup.Players)
	s := &State{d: d, setup: setup, n: n, rounds: rounds, Track: 1, Round: 1, Merchant: 0, Assigned: engine.NoSeat,
		Win: window{Seat: engine.NoSeat}, Acq: engine.NoSeat}
	s.d = d
	for i := range n {
		s.P[i] = player{Ducats: d.prof.StartDucats}
	}
	for i := range s.Supply {
		s.Supply[i] = d.prof.GoodsEach
	}
	s.TileSup = d.prof.TileCounts
	for i := range n {
		s.Common[i] = d.prof.MarkersPerColour
	}
	for i := range s.Owner {
		s.Owner[i] = -1
	}
	for i := range s.CardLoc {
		s.CardLoc[i] = -1
	}
	s.resetTurn()
	for i := 0; i < n; i++ {
		for k := 0; k < nDecks; k++ {
			if d.deckSize[k] > 0 && d.prof.StartCards > 0 {
				s.Pending = append(s.Pending, pend{Seat: engine.Seat(i), Deck: k, N: d.prof.StartCards})
			}
		}
	}
	return s
}

func (s *State) resetTurn() {
	s.Path = nil
	s.Done = [maxBlds]bool{}
	s.Assigned = engine.NoSeat
	s.After = [maxGoods]int{}
	s.AfterT = [nTiles]int{}
	s.Offers = nil
	s.Used = [maxPlayers]int8{}
	s.Extras = [maxPlayers]int8{}
	s.SmallOK = [maxPlayers]bool{}
	s.Win = window{Seat: engine.NoSeat}
	s.Discs = nil
	s.Acq = engine.NoSeat
	s.AcqCount = 0
}

// Setup is the setup the game started from.
func (s *State) Setup() engine.Setup { return s.setup }

// Over reports whether the game has ended.
func (s *State) Over() bool { return s.Phase == phOver }

// pawn is the square the pawn stands on, or -1 before the start square.
func (s *State) pawn() int {
	if len(s.Path) == 0 {
		return -1
	}
	return s.Path[len(s.Path)-1]
}

// curBld is the building the pawn stands on, or -1.
func (s *State) curBld() int {
	p := s.pawn()
	if p < 0 {
		return -1
	}
	return s.d.squares[p].Bld
}

func (s *State) visited(sq int) bool { return slices.Contains(s.Path, sq) }

// allowed is how many actions seat may take this turn.
func (s *State) allowed(seat engine.Seat) int {
	a := 1 + int(s.Extras[seat])
	if seat == s.Merchant && s.n == 2 && s.d.prof.TwoPlayerSecondAction && s.Used[1-seat] > 0 {
		a++
	}
	return a
}

func (s *State) canAct(seat engine.Seat) bool { return int(s.Used[seat]) < s.allowed(seat) }

// open reports whether the current building's action may still be taken.
func (s *State) open() bool {
	b := s.curBld()
	return s.Phase == phMove && b >= 0 && !s.Done[b]
}

// obligation says why the merchant may not move on or end now, or "".
func (s *State) obligation() (string, string) {
	if s.Assigned != engine.NoSeat && s.Assigned == s.Merchant {
		p := s.name(s.Assigned)
		return p + " played a tile at the start of this building's action and must now take it", p + " a joué une tuile au début de l'action de ce bâtiment et doit maintenant la faire"
	}
	if s.Assigned != engine.NoSeat {
		p := s.name(s.Assigned)
		return p + " must first take the action of the building (the deal says so)", p + " doit d'abord faire l'action du bâtiment (le marché conclu l'y oblige)"
	}
	if s.bound() {
		return "an offer was made for this building's action: take it yourself or accept an offer", "une offre a été faite pour l'action de ce bâtiment : faites-la vous-même ou acceptez une offre"
	}
	return "", ""
}

// obligationFree reports whether nothing holds the pawn where it is.
func (s *State) obligationFree() bool {
	en, _ := s.obligation()
	return en == ""
}

// bound reports whether a standing offer binds the merchant to have the
// current building's action taken: an offer its maker can still pay, by a
// player who still has an action.
func (s *State) bound() bool {
	if !s.open() {
		return false
	}
	for _, o := range s.Offers {
		if m, _ := s.missing(o.Seat, o.Pay); m == "" && s.canAct(o.Seat) {
			return true
		}
	}
	return false
}

func (s *State) name(seat engine.Seat) string {
	if seat >= 0 && int(seat) < s.n {
		return s.setup.Players[seat]
	}
	return seat.String()
}

// Apply returns the state after ev.
func (s *State) Apply(ev engine.Event) (engine.State, error) {
	n := s.clone()
	if err := n.apply(ev); err != nil {
		return nil, fmt.Errorf("genoa: %s: %w", ev.Name(), err)
	}
	return n, nil
}

func (s *State) seatOK(seat engine.Seat) error {
	if seat < 0 || int(seat) >= s.n {
		return fmt.Errorf("no seat %d", seat)
	}
	return nil
}

// apply changes s in place.
func (s *State) apply(ev engine.Event) error {
	d := s.d
	switch e := ev.(type) {
	case CardDrawn:
		if len(s.Pending) == 0 || s.Pending[0].Seat != e.Seat {
			return fmt.Errorf("no draw due for %v", e.Seat)
		}
		c, ok := d.cardByID[e.Card]
		if !ok || s.loc(c) != -1 || d.cards[c].Deck != s.Pending[0].Deck {
			return fmt.Errorf("card %q cannot be drawn now", e.Card)
		}
		s.CardLoc[c] = int8(e.Seat)
		s.P[e.Seat].Cards = s.P[e.Seat].Cards.With(c)
		if s.Pending[0].N <= 1 {
			s.Pending = s.Pending[1:]
		} else {
			s.Pending = slices.Clone(s.Pending) // shared: never written in place
			s.Pending[0].N--
		}
	case DrawsDue:
		k := deckIndex(e.Deck)
		if k < 0 || e.N <= 0 {
			return fmt.Errorf("bad draw %q x%d", e.Deck, e.N)
		}
		if err := s.seatOK(e.Seat); err != nil {
			return err
		}
		s.Pending = append(s.Pending, pend{Seat: e.Seat, Deck: k, N: e.N})
	case PawnPlaced:
		sq, ok := d.squareOf(e.Square)
		if !ok || s.Phase != phStart {
			return fmt.Errorf("cannot place the pawn on %q now", e.Square)
		}
		s.Path = []int{sq}
		s.Phase = phMove
	case TrackAdvanced:
		s.Track = e.Track
	case PawnMoved:
		sq, ok := d.squareOf(e.To)
		if !ok || s.Phase != phMove || s.visited(sq) {
			return fmt.Errorf("cannot move the pawn to %q", e.To)
		}
		s.Path = append(s.Path, sq)
		s.Offers = nil
		s.Assigned = engine.NoSeat
	case Transfer:
		return s.transfer(e)
	case OfferMade:
		if err := s.seatOK(e.Seat); err != nil {
			return err
		}
		b, err := s.bundleOf(e.Ducats, e.Goods, e.Cards, e.Tiles, e.Markers)
		if err != nil {
			return err
		}
		offers := make([]offer, 0, len(s.Offers)+1)
		for _, o := range s.Offers {
			if o.Seat != e.Seat {
				offers = append(offers, o)
			}
		}
		s.Offers = append(offers, offer{Seat: e.Seat, Pay: b})
	case ActorChosen:
		if err := s.seatOK(e.Seat); err != nil {
			return err
		}
		s.Assigned = e.Seat
		s.Offers = nil
		s.After = [maxGoods]int{}
		s.AfterT = [nTiles]int{}
		for k, v := range e.After {
			if g, ok := d.goodByK[k]; ok {
				s.After[g] += v
			} else if t := tileIndex(k); t >= 0 {
				s.AfterT[t] += v
			} else {
				return fmt.Errorf("unknown item %q", k)
			}
		}
	case ActionTaken:
		if err := s.seatOK(e.Seat); err != nil {
			return err
		}
		sq, ok := d.squareOf(e.Building)
		if !ok || d.squares[sq].Bld < 0 {
			return fmt.Errorf("no building %q", e.Building)
		}
		b := d.squares[sq].Bld
		if e.ByTile {
			if int(s.Owner[b]) != int(e.Seat) {
				return fmt.Errorf("%v has no marker on %q", e.Seat, e.Building)
			}
			return nil
		}
		if b != s.curBld() || s.Done[b] || s.Phase != phMove {
			return fmt.Errorf("the action of %q cannot be taken now", e.Building)
		}
		s.Done[b] = true
		s.Used[e.Seat]++
		s.Offers = nil
		if s.Assigned == e.Seat {
			s.Assigned = engine.NoSeat
		}
		s.Win = window{Seat: e.Seat, Bld: b}
	case ActionEnded:
		s.Win = window{Seat: engine.NoSeat}
		s.After = [maxGoods]int{}
		s.AfterT = [nTiles]int{}
	case TilePlayed:
		if err := s.seatOK(e.Seat); err != nil {
			return err
		}
		if e.Tile == tileKeys[tileExtra] {
			s.Extras[e.Seat]++
		}
	case Delivered:
		if err := s.seatOK(e.Seat); err != nil {
			return err
		}
		c, ok := d.cardByID[e.Card]
		if !ok {
			return fmt.Errorf("no card %q", e.Card)
		}
		if d.cards[c].Deck == deckSmall {
			s.SmallOK[e.Seat] = true
		}
	case MovementEnded:
		if s.Phase != phMove {
			return fmt.Errorf("not in the movement")
		}
		s.Phase = phAcquire
		s.Win = window{Seat: engine.NoSeat}
		s.Discs = nil
		for _, sq := range s.Path {
			if d.squares[sq].Kind == kStreet {
				s.Discs = append(s.Discs, sq)
			}
		}
		s.Acq = s.Merchant
		s.AcqCount = 0
		s.skipAcquirers()
	case Acquired:
		if s.Phase != phAcquire || e.Seat != s.Acq {
			return fmt.Errorf("%v may not acquire now", e.Seat)
		}
		st, ok := d.squareOf(e.Street)
		if !ok || !slices.Contains(s.Discs, st) {
			return fmt.Errorf("no disc on %q", e.Street)
		}
		p := &s.P[e.Seat]
		for _, r := range e.Removed {
			b, ok := s.bldOf(r)
			if !ok || s.Owner[b] < 0 {
				return fmt.Errorf("no marker to remove on %q", r)
			}
			s.Common[s.Owner[b]]++
			s.Owner[b] = -1
			p.Markers -= d.prof.RemovalCost
			s.Common[e.Seat] += d.prof.RemovalCost
		}
		for _, r := range e.Placed {
			b, ok := s.bldOf(r)
			if !ok {
				return fmt.Errorf("no building %q", r)
			}
			if o := s.Owner[b]; o >= 0 {
				s.Common[o]++
				p.Markers -= d.prof.RemovalCost
				s.Common[e.Seat] += d.prof.RemovalCost
			}
			s.Owner[b] = int8(e.Seat)
			p.Markers--
		}
		if p.Markers < 0 {
			return fmt.Errorf("%v has not enough markers", e.Seat)
		}
		discs := make([]int, 0, len(s.Discs))
		for _, x := range s.Discs {
			if x != st {
				discs = append(discs, x)
			}
		}
		s.Discs = discs
		s.nextAcquirer()
	case Corrected:
		return s.applyCorrected(e)
	case Passed:
		if s.Phase != phAcquire || e.Seat != s.Acq {
			return fmt.Errorf("%v may not pass now", e.Seat)
		}
		s.nextAcquirer()
	default:
		return fmt.Errorf("unknown event")
	}
	return nil
}

func (s *State) bldOf(p Place) (int, bool) {
	sq, ok := s.d.squareOf(p)
	if !ok || s.d.squares[sq].Bld < 0 {
		return -1, false
	}
	return s.d.squares[sq].Bld, true
}

// canAcquire reports whether seat could place or remove a marker now.
func (s *State) canAcquire(seat engine.Seat) bool {
	return len(s.Discs) > 0 && s.P[seat].Markers > 0
}

// skipAcquirers moves past the players who cannot acquire; the turn ends
// when everyone has been asked.
func (s *State) skipAcquirers() {
	for s.AcqCount < s.n && !s.canAcquire(s.Acq) {
		s.AcqCount++
		s.Acq = (s.Acq + 1) % engine.Seat(s.n)
	}
	if s.AcqCount >= s.n {
		s.endTurn()
	}
}

func (s *State) nextAcquirer() {
	s.AcqCount++
	s.Acq = (s.Acq + 1) % engine.Seat(s.n)
	s.skipAcquirers()
}

// endTurn passes the pawn on; the last merchant of a round ends the round,
// and the last round ends the game.
func (s *State) endTurn() {
	last := int(s.Merchant) == s.n-1
	s.resetTurn()
	s.Phase = phStart
	s.Merchant = (s.Merchant + 1) % engine.Seat(s.n)
	if last {
		if s.Track >= s.rounds {
			s.Phase = phOver
			return
		}
		s.Track++
		s.Round++
	}
}

// lastRound reports whether the round being played is the last.
func (s *State) lastRound() bool { return s.Track >= s.rounds }
