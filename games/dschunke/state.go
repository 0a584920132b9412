package dschunke

import (
	"errors"
	"fmt"
	"strings"

	"comptoir/engine"
)

// ErrPlayerCount is returned by Start for a count other than 3 or 4.
var ErrPlayerCount = errors.New("dschunke: Dschunke is played by 3 or 4 players")

// ErrVariant is returned by Start for a variant or option: Dschunke has
// none.
var ErrVariant = errors.New("dschunke: Dschunke has no variants or options")

// HandSize is a player's starting hand.
const HandSize = 8

// The pawns, by index: the three merchants (by their action), then the
// helpers of the bottom and the top row.
const (
	pawnHelper  = NumMerchants     // bottom row, always played
	pawnHelper2 = NumMerchants + 1 // top row, four players only
	numPawns    = NumMerchants + 2
)

// Pawn names in commands: with=merchant (the verb says which of the three
// merchants), with=helper (bottom row), with=helper2 (top row).
const (
	WithMerchant = "merchant"
	WithHelper   = "helper"
	WithHelper2  = "helper2"
)

// step is where a round stands.
type step int

// The steps of a game.
const (
	stepHands    step = iota // the starting hands are recorded
	stepReveal               // phase 1: the market card
	stepExchange             // phase 1: holders of an exchange card, in turn
	stepEvents               // phase 1: S and Y of the helpers' squares
	stepDraw                 // a special card taken (S square or S won)
	stepAction               // phase 2, in turn
	stepRestock              // phase 3, in turn
	stepBid                  // phase 4: sealed bids
	stepSell                 // phase 4: the bids revealed, each goods sold
	stepOver                 // after round 10
)

var stepNames = [...]string{"hands", "market", "exchange", "events", "draw", "actions", "restock", "bidding", "sale", "over"}

func (s step) String() string { return stepNames[s] }

// Rules are Dschunke's rules, on the embedded data or on data given to
// NewWithData.
type Rules struct {
	data *Data // nil: the embedded configs (LoadData)
}

// New returns Dschunke's rules on the embedded data.
func New() engine.Rules { return Rules{} }

// NewWithData returns Dschunke's rules on d: the board and cards files
// as the staff corrected them (a stand-in checked against the box, see
// Data.StandIns), decoded by Decode. A table swaps them in for the game
// running (table.StaffRules), which replays under them if it fits.
func NewWithData(d *Data) engine.Rules { return Rules{data: d} }

// Name is "dschunke".
func (Rules) Name() string { return Name }

// Codec knows Dschunke's commands and events.
func (Rules) Codec() *engine.Codec { return codec }

// Variants is nil: Dschunke has no editions.
func (Rules) Variants() []string { return nil }

// PlayerCounts is 3 and 4.
func (Rules) PlayerCounts() []int { return []int{3, 4} }

var _ engine.Catalog = Rules{}

// State is a Dschunke position. It is a value: Apply returns a new one.
type State struct {
	setup engine.Setup
	d     *Data
	n     int

	step  step
	round int // 1 to 10
	first int // the first player's seat
	turn  int // index in turn order (0 = first player) of the player who acts

	dealt     []bool
	hand      [][NumGoods]int
	money     []int
	paid      int   // yuans the bank paid, in all
	announced []int // wealth announced at a Y while it is shown, else -1
	palettes  []int // palettes left in each player's supply
	holds     [NumJunks]hold
	piles     [NumGoods]int // goods cards on the junks
	merchants [NumMerchants]int
	used      [numPawns]bool
	mUsed     []bool // market cards revealed
	market    int    // the round's market card, -1 before it is revealed

	evQ []SquareEvent // square events still to happen this round

	owner    []int // special card owner, -1 while in a pile
	spent    []bool
	pileLeft [NumPiles]int

	drawQ        []int // seats still to take a special card, in order
	drawTaken    [NumPiles]bool
	drawDistinct bool
	drawAfter    step

	acted     bool // the player in turn took his action
	extraUsed bool // ... played his extra-action card, or passed

	sealed   []bool
	bids     [][NumGoods]int
	revealed bool
	bidAny   bool // a bid of cards of one goods in this bidding
	sold     [NumGoods]bool
	sellNext int

	// What the table shows of this round's bidding until the next market
	// card: the bids of each bidding once revealed, and the sales.
	shownBids [][]string
	sales     []SaleView
}

// Start returns the state before the starting hands are recorded.
func (r Rules) Start(setup engine.Setup) (engine.State, error) {
	n := len(setup.Players)
	if n < 3 || n > 4 {
		return nil, fmt.Errorf("%w: %d players", ErrPlayerCount, n)
	}
	if setup.Variant != "" || len(setup.Options) > 0 {
		return nil, fmt.Errorf("%w: remove the variant %q and options", ErrVariant, setup.Variant)
	}
	d := r.data
	if d == nil {
		var err error
		if d, err = LoadData(); err != nil {
			return nil, err
		}
	}
	return newState(setup, d), nil
}

// Deal is the cards of each goods shuffled into the starting hands: 8 of
// each with four players, 6 with three.
func Deal(players int) int { return players * HandSize / NumGoods }

func newState(setup engine.Setup, d *Data) *State {
	n := len(setup.Players)
	s := &State{setup: setup, d: d, n: n, round: 1, market: -1,
		dealt: make([]bool, n), hand: make([][NumGoods]int, n), money: make([]int, n),
		announced: make([]int, n), palettes: make([]int, n), mUsed: make([]bool, len(d.Market)),
		owner: make([]int, len(d.Special)), spent: make([]bool, len(d.Special)),
		sealed: make([]bool, n), bids: make([][NumGoods]int, n), merchants: d.Merchants}
	for i := range s.announced {
		s.announced[i] = -1
		s.palettes[i] = d.Palettes
	}
	for i := range s.owner {
		s.owner[i] = empty
	}
	for g := range s.piles {
		s.piles[g] = d.Goods[g].Cards - Deal(n)
	}
	for j, owners := range d.StartPalettes[n] {
		for _, o := range owners {
			s.holds[j] = s.holds[j].place(o, s.holds[j].free()[0])
			s.palettes[o]--
		}
	}
	for i := range s.pileLeft {
		s.pileLeft[i] = len(d.Special) / NumPiles
		if i < len(d.Special)%NumPiles {
			s.pileLeft[i]++
		}
	}
	return s
}

func (s *State) clone() *State {
	c := *s
	c.dealt = append([]bool(nil), s.dealt...)
	c.hand = append([][NumGoods]int(nil), s.hand...)
	c.money = append([]int(nil), s.money...)
	c.announced = append([]int(nil), s.announced...)
	c.palettes = append([]int(nil), s.palettes...)
	c.mUsed = append([]bool(nil), s.mUsed...)
	c.evQ = append([]SquareEvent(nil), s.evQ...)
	c.owner = append([]int(nil), s.owner...)
	c.spent = append([]bool(nil), s.spent...)
	c.drawQ = append([]int(nil), s.drawQ...)
	c.sealed = append([]bool(nil), s.sealed...)
	c.bids = append([][NumGoods]int(nil), s.bids...)
	c.shownBids = append([][]string(nil), s.shownBids...)
	c.sales = append([]SaleView(nil), s.sales...)
	return &c
}

// Setup is the game's setup.
func (s *State) Setup() engine.Setup { return s.setup }

// Data is the game's data.
func (s *State) Data() *Data { return s.d }

// Round is the round, 1 to 10 (11 once over).
func (s *State) Round() int { return s.round }

// Over reports whether the game has ended.
func (s *State) Over() bool { return s.step == stepOver }

// order returns the seat at index i of the turn order.
func (s *State) order(i int) int { return (s.first + i) % s.n }

// current is the seat in turn in a step played in turn order.
func (s *State) current() int {
	switch s.step {
	case stepDraw:
		return s.drawQ[0]
	case stepExchange, stepAction, stepRestock:
		return s.order(s.turn)
	}
	return empty
}

// pawns is the number of pawns in play: three merchants and one helper per
// row played.
func (s *State) pawns() int {
	if s.n == 4 {
		return numPawns
	}
	return numPawns - 1
}

// pawnAction is what pawn p offers this round.
func (s *State) pawnAction(p int) Action {
	if p < NumMerchants {
		return Action(p)
	}
	return s.d.Track[p-pawnHelper][min(s.round, Rounds)-1].Action
}

// pawnName is the pawn's name in commands.
func pawnName(p int) string {
	switch {
	case p < NumMerchants:
		return WithMerchant
	case p == pawnHelper:
		return WithHelper
	}
	return WithHelper2
}

// hasMerchant reports whether a merchant stands on junk j.
func (s *State) hasMerchant(j int) bool {
	for _, m := range s.merchants {
		if m == j {
			return true
		}
	}
	return false
}

// pawnJunks lists the junks pawn p acts on: a merchant's own, or for a
// helper the junks without a merchant.
func (s *State) pawnJunks(p int) []int {
	if p < NumMerchants {
		return []int{s.merchants[p]}
	}
	var out []int
	for j := range s.holds {
		if !s.hasMerchant(j) {
			out = append(out, j)
		}
	}
	return out
}

// holds of special cards.
func (s *State) holdsEffect(seat int, e Effect) int {
	n := 0
	for i, o := range s.owner {
		if o == seat && s.d.Special[i].Effect == e && !s.spent[i] {
			n++
		}
	}
	return n
}

func (s *State) holdsExtra(seat int) bool {
	for i, o := range s.owner {
		if o == seat && s.d.Special[i].Timing == Extra && !s.spent[i] {
			return true
		}
	}
	return false
}

func (s *State) undrawn() int {
	n := 0
	for _, o := range s.owner {
		if o == empty {
			n++
		}
	}
	return n
}

// drawPiles lists the piles the drawer may take now.
func (s *State) drawPiles() []int {
	var out []int
	for p, left := range s.pileLeft {
		if left > 0 && !(s.drawDistinct && s.drawTaken[p]) {
			out = append(out, p)
		}
	}
	return out
}

func (s *State) canDraw() bool { return s.undrawn() > 0 && len(s.drawPiles()) > 0 }

// allowance is the goods cards seat takes at the restock.
func (s *State) allowance(seat int) int {
	return s.d.restockCards(seat) + s.holdsEffect(seat, EffRestockPlus)
}

func sum(g [NumGoods]int) int { return g[0] + g[1] + g[2] + g[3] }

// owed is the cards or yuans an income or goods action gives: one per
// visible crate, at least 3.
func (s *State) owed(seat, junk int) int { return max(3, s.holds[junk].visible(seat)) }

// validBid returns the goods of a bid of one goods, or -1 for nothing or
// a bluff.
func validBid(b [NumGoods]int) int {
	g := -1
	for k, c := range b {
		if c > 0 {
			if g >= 0 {
				return -1
			}
			g = k
		}
	}
	return g
}

// winsTies returns the seat holding the win-ties card, or -1.
func (s *State) winsTies() int {
	for i, o := range s.owner {
		if o != empty && s.d.Special[i].Effect == EffWinTies {
			return o
		}
	}
	return empty
}

// sale is the outcome of the revealed bids for goods g: the winners and
// what each receives. ok is false when nobody bid g.
func (s *State) sale(g int) (winners []int, yuans int, special bool, ok bool) {
	best := 0
	for seat, b := range s.bids {
		if validBid(b) != g {
			continue
		}
		switch c := b[g]; {
		case c > best:
			best, winners = c, []int{seat}
		case c == best:
			winners = append(winners, seat)
		}
	}
	if best == 0 {
		return nil, 0, false, false
	}
	if w := s.winsTies(); len(winners) > 1 && w >= 0 {
		for _, x := range winners {
			if x == w {
				winners = []int{w}
				break
			}
		}
	}
	price := s.d.Market[s.market].Prices[g]
	if price == PriceSpecial {
		return winners, 0, len(winners) == 1, true
	}
	return winners, price / len(winners), false, true
}

// settle moves through the steps that need neither a player nor an event.
func (s *State) settle() {
	for {
		switch s.step {
		case stepHands:
			for _, d := range s.dealt {
				if !d {
					return
				}
			}
			s.step = stepReveal
		case stepExchange:
			for s.turn < s.n && s.holdsEffect(s.order(s.turn), EffExchange) == 0 {
				s.turn++
			}
			if s.turn < s.n {
				return
			}
			s.step = stepEvents
		case stepEvents:
			if len(s.evQ) == 0 {
				s.step, s.turn, s.acted, s.extraUsed = stepAction, 0, false, false
				continue
			}
			if s.evQ[0] == EvWealth {
				return // WealthAnnounced, automatic
			}
			s.evQ = s.evQ[1:]
			q := make([]int, s.n)
			for i := range q {
				q[i] = s.order(i)
			}
			s.startDraw(q, true, stepEvents)
		case stepDraw:
			for len(s.drawQ) > 0 && !s.canDraw() {
				s.drawQ = s.drawQ[1:]
			}
			if len(s.drawQ) > 0 {
				return
			}
			s.step = s.drawAfter
		case stepAction:
			if s.turn >= s.n {
				s.step, s.turn = stepRestock, 0
				continue
			}
			if s.acted && (s.extraUsed || !s.holdsExtra(s.order(s.turn))) {
				s.turn, s.acted, s.extraUsed = s.turn+1, false, false
				continue
			}
			return
		case stepRestock:
			if s.turn >= s.n {
				s.step = stepBid
				s.resetBids()
				continue
			}
			if s.allowance(s.order(s.turn)) == 0 || sum(s.piles) == 0 {
				s.turn++
				continue
			}
			return
		default:
			return
		}
	}
}

func (s *State) startDraw(q []int, distinct bool, after step) {
	s.step, s.drawQ, s.drawDistinct, s.drawAfter = stepDraw, q, distinct, after
	s.drawTaken = [NumPiles]bool{}
}

func (s *State) resetBids() {
	s.sealed = make([]bool, s.n)
	s.bids = make([][NumGoods]int, s.n)
	s.revealed, s.bidAny, s.sellNext = false, false, 0
}

// auto returns the event the game produces by itself now, or nil when it
// waits for a player or the table.
func (s *State) auto() engine.Event {
	switch s.step {
	case stepEvents:
		if len(s.evQ) > 0 && s.evQ[0] == EvWealth {
			return WealthAnnounced{Money: append([]int(nil), s.money...)}
		}
	case stepBid:
		for _, x := range s.sealed {
			if !x {
				return nil
			}
		}
		out := make([]string, s.n)
		for i, b := range s.bids {
			out[i] = s.bidText(b)
		}
		return BidsRevealed{Bids: out}
	case stepSell:
		for g := s.sellNext; g < NumGoods; g++ {
			if w, y, sp, ok := s.sale(g); ok {
				return Sold{Goods: s.d.Goods[g].Key, Winners: seats(w), Yuans: y, Special: sp}
			}
		}
		var unsold []string
		for g, x := range s.sold {
			if !x {
				unsold = append(unsold, s.d.Goods[g].Key)
			}
		}
		if len(unsold) > 0 && s.bidAny {
			return Rebid{Goods: unsold}
		}
		return RoundEnded{Round: s.round}
	}
	return nil
}

func seats(l []int) []engine.Seat {
	out := make([]engine.Seat, len(l))
	for i, x := range l {
		out[i] = engine.Seat(x)
	}
	return out
}

// bidText writes a bid as "fish:3", "" or "fish:1+rice:1".
func (s *State) bidText(b [NumGoods]int) string {
	var parts []string
	for g, c := range b {
		if c > 0 {
			parts = append(parts, fmt.Sprintf("%s:%d", s.d.Goods[g].Key, c))
		}
	}
	return strings.Join(parts, "+")
}

// notYet lists the seats whose flag is not set: who has not been dealt
// a hand, who has not sealed a bid.
func notYet(done []bool) []engine.Seat {
	var out []engine.Seat
	for i, d := range done {
		if !d {
			out = append(out, engine.Seat(i))
		}
	}
	return out
}

// Waiting lists the seats the game waits for.
func (s *State) Waiting() []engine.Seat {
	switch s.step {
	case stepHands:
		return notYet(s.dealt)
	case stepReveal:
		return []engine.Seat{engine.Seat(s.first)}
	case stepExchange, stepDraw, stepAction, stepRestock:
		return []engine.Seat{engine.Seat(s.current())}
	case stepBid:
		return notYet(s.sealed)
	}
	return nil
}
