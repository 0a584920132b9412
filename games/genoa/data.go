package genoa

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"comptoir/games/genoa/board"
	"comptoir/games/genoa/catalog"
)

// The engine's own view of the data it plays with: the board's geometry,
// the edition profile and the card catalog. They are built once from the
// packages board and catalog (see adapt.go) and only read afterwards.

// sqKind is what a square of the board is.
type sqKind uint8

const (
	kStreet sqKind = iota
	kBuilding
	kMarket
)

// actKind is what the action of a building does.
type actKind uint8

const (
	aNone      actKind = iota
	aWarehouse         // two goods, one of each of the warehouse's pair
	aTile              // one special tile of the building's kind
	aDraw              // cards from a deck (guild hall, town hall, post office)
	aMarkers           // ownership markers of one's colour (cathedral)
	aVilla             // a contract card, or the delivery of a large order
)

// Sizes of the game, for the fixed-size parts of the state.
const (
	maxPlayers = 5
	maxGoods   = catalog.NumGoods
	maxBlds    = board.NumBuildings
	maxCards   = 64
)

// Decks, in the order of the catalog.
const (
	deckLarge = iota
	deckSmall
	deckMessage
	deckContract
	nDecks
)

var deckKeys = [nDecks]string{"large-order", "small-order", "message", "contract"}
var deckFR = [nDecks]string{"grosse commande", "petite commande", "message", "contrat"}
var deckEN = [nDecks]string{"large order", "small order", "message", "contract"}

// Special tiles. What each does is rules code; how many there are and
// which building gives which is data.
const (
	tileStart = iota // start space of one's choice
	tileExtra        // one extra action
	tileGoods        // one commodity of one's choice
	tileTrade        // trade 1:1
	tileBuild        // the action of a building one owns
	nTiles
)

var tileKeys = [nTiles]string{"start", "extra", "goods", "trade", "build"}
var tileFR = [nTiles]string{"case départ", "action supplémentaire", "marchandise au choix", "échange 1:1", "action bâtiment"}

func tileIndex(key string) int {
	for i, k := range tileKeys {
		if k == key {
			return i
		}
	}
	return -1
}

func deckIndex(key string) int {
	for i, k := range deckKeys {
		if k == key {
			return i
		}
	}
	return -1
}

// cell is a board cell, blue coordinate X (column) and red Y (row), 1 to 8.
type cell struct{ X, Y int }

func (c cell) String() string { return fmt.Sprintf("%d-%d", c.X, c.Y) }

// square is one square of the board: a building, a street or the market.
type square struct {
	Key   string // "guild-hall", "market", or "x-y" for a street
	Kind  sqKind
	Bld   int // building index, or -1
	Cells []cell
}

// building is one of the 18 buildings and its action.
type building struct {
	Key            string
	NameFR, NameEN string
	Square         int
	Act            actKind
	Goods          [2]int // aWarehouse: the pair of goods
	Tile           int    // aTile: the tile kind
	Deck           int    // aDraw: the deck
	Count          int    // aDraw, aMarkers: how many
	Edge           bool   // one of the 14 buildings with contract cards
}

// card is one card of the catalog.
type card struct {
	ID    string
	Deck  int
	Villa int    // large order: the villa (building index)
	Goods []int  // large order: three goods; small order: one good
	Bld   int    // small order or contract: the building
	Pair  [2]int // message: the two buildings
}

// profile is an edition's rules, as numbers and switches.
type profile struct {
	Edition          string
	Goods            []string // keys, in catalog order
	GoodsFR          []string
	GoodsEN          []string    // English names (the keys when empty)
	GoodsEach        int         // tiles of each good (5)
	Rounds           map[int]int // by player count
	StartDucats      int
	StartCards       int // cards of each deck in a starting hand
	MarkersPerColour int
	// RemovalCost is how many of one's markers removing an opponent's costs.
	RemovalCost int
	// MarketOptional: a table may switch the market rule off.
	MarketOptional bool
	TileCounts     [nTiles]int
	// MarketAdvances: a start on the market advances the round track.
	MarketAdvances bool
	// LastRoundFull: a start on the market during the last round does not
	// advance the track.
	LastRoundFull bool
	// MaxPlacements is how many buildings one acquisition may touch (0: any
	// number of the buildings next to the street).
	MaxPlacements int
	// TwoPlayerOfferGoods: in a 2-player game an offer must hold something
	// other than money.
	TwoPlayerOfferGoods bool
	// TwoPlayerSecondAction: in a 2-player game the merchant may take a
	// second action once the opponent has taken one.
	TwoPlayerSecondAction bool
	// TieBreakAll: the tie-break counts goods, tiles and cards (else goods
	// only).
	TieBreakAll bool
	// Promises: a deal may carry a promise (as words, not enforced) on top
	// of money or goods.
	Promises bool
	Income   int // to an owner when another player acts in their building
	PerMark  int // at the end, per marker on the board
	Large    int // ducats for a large order
	Small    int // ducats for a small order
	Message  int // ducats for a message
	// Scale is what a group of n adjacent contract buildings scores
	// (index n-1); beyond it each further building adds Beyond.
	Scale  []int
	Beyond int
}

// Data is everything an edition's game needs: geometry, profile, cards.
type Data struct {
	prof     profile
	squares  []square
	at       [8][8]int // [x-1][y-1] → square
	adj      [][]int   // square → neighbouring squares
	touch    [][]int   // street square → buildings touching it
	blds     []building
	bldAdj   [][]bool // building → building adjacency (contracts)
	market   int
	cards    []card
	cardByID map[string]int
	deckSize [nDecks]int
	sqByKey  map[string]int
	goodByK  map[string]int
}

func (d *Data) nGoods() int { return len(d.prof.Goods) }

// squareOf resolves a place written in a command: a building key, "market",
// or the "x-y" cell of any square.
func (d *Data) squareOf(p Place) (int, bool) {
	s := strings.TrimPrefix(strings.TrimSpace(strings.ToLower(string(p))), "street-")
	if i, ok := d.sqByKey[s]; ok {
		return i, true
	}
	x, y, ok := parseCell(s)
	if !ok {
		return -1, false
	}
	return d.at[x-1][y-1], true
}

func parseCell(s string) (int, int, bool) {
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		return 0, 0, false
	}
	x, err1 := strconv.Atoi(a)
	y, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || x < 1 || x > 8 || y < 1 || y > 8 {
		return 0, 0, false
	}
	return x, y, true
}

// place is the canonical text of a square.
func (d *Data) place(sq int) Place { return Place(d.squares[sq].Key) }

func (d *Data) bldPlace(b int) Place { return Place(d.blds[b].Key) }

func (d *Data) bldName(b int, lang string) string {
	if lang == "fr" {
		return d.blds[b].NameFR
	}
	return d.blds[b].NameEN
}

// layout is the input of newData: the grid of square keys, the buildings
// (Square filled in by newData), the profile and the cards.
type layout struct {
	grid  [8][8]string // [x-1][y-1]: building key, "market" or "" for a street
	blds  []building
	prof  profile
	cards []card
}

// newData builds the geometry and indexes, and checks what the engine
// relies on.
func newData(l layout) (*Data, error) {
	d := &Data{prof: l.prof, blds: append([]building(nil), l.blds...), sqByKey: map[string]int{}, goodByK: map[string]int{}, market: -1}
	for i, g := range l.prof.Goods {
		d.goodByK[g] = i
	}
	bldIdx := map[string]int{}
	for i, b := range d.blds {
		bldIdx[b.Key] = i
		d.blds[i].Square = -1
	}
	for y := 1; y <= 8; y++ {
		for x := 1; x <= 8; x++ {
			k := l.grid[x-1][y-1]
			c := cell{x, y}
			if k == "" {
				d.at[x-1][y-1] = len(d.squares)
				key := c.String()
				d.sqByKey[key] = len(d.squares)
				d.squares = append(d.squares, square{Key: key, Kind: kStreet, Bld: -1, Cells: []cell{c}})
				continue
			}
			if i, ok := d.sqByKey[k]; ok {
				d.at[x-1][y-1] = i
				d.squares[i].Cells = append(d.squares[i].Cells, c)
				continue
			}
			sq := square{Key: k, Kind: kMarket, Bld: -1, Cells: []cell{c}}
			if k != "market" {
				b, ok := bldIdx[k]
				if !ok {
					return nil, fmt.Errorf("genoa: cell %s: unknown building %q", c, k)
				}
				sq.Kind, sq.Bld = kBuilding, b
				d.blds[b].Square = len(d.squares)
			} else {
				d.market = len(d.squares)
			}
			d.sqByKey[k] = len(d.squares)
			d.at[x-1][y-1] = len(d.squares)
			d.squares = append(d.squares, sq)
		}
	}
	if len(d.prof.Goods) != maxGoods || len(d.blds) != maxBlds {
		return nil, fmt.Errorf("genoa: %d goods and %d buildings; the game has %d and %d", len(d.prof.Goods), len(d.blds), maxGoods, maxBlds)
	}
	if d.market < 0 {
		return nil, fmt.Errorf("genoa: the board has no market")
	}
	for _, b := range d.blds {
		if b.Square < 0 {
			return nil, fmt.Errorf("genoa: building %q has no cell on the board", b.Key)
		}
	}
	n := len(d.squares)
	adj := make([]map[int]bool, n)
	for i := range adj {
		adj[i] = map[int]bool{}
	}
	for x := 1; x <= 8; x++ {
		for y := 1; y <= 8; y++ {
			a := d.at[x-1][y-1]
			if x < 8 {
				if b := d.at[x][y-1]; b != a {
					adj[a][b], adj[b][a] = true, true
				}
			}
			if y < 8 {
				if b := d.at[x-1][y]; b != a {
					adj[a][b], adj[b][a] = true, true
				}
			}
		}
	}
	d.adj = make([][]int, n)
	d.touch = make([][]int, n)
	d.bldAdj = make([][]bool, len(d.blds))
	for i := range d.bldAdj {
		d.bldAdj[i] = make([]bool, len(d.blds))
	}
	for i := range adj {
		for j := range adj[i] {
			d.adj[i] = append(d.adj[i], j)
		}
		sort.Ints(d.adj[i])
		for _, j := range d.adj[i] {
			if d.squares[j].Kind == kBuilding {
				if d.squares[i].Kind == kStreet {
					d.touch[i] = append(d.touch[i], d.squares[j].Bld)
				}
				if d.squares[i].Kind == kBuilding {
					d.bldAdj[d.squares[i].Bld][d.squares[j].Bld] = true
				}
			}
		}
	}
	if len(l.cards) > maxCards {
		return nil, fmt.Errorf("genoa: %d cards; the engine holds at most %d", len(l.cards), maxCards)
	}
	d.cards = l.cards
	d.cardByID = map[string]int{}
	for i, c := range d.cards {
		if _, dup := d.cardByID[c.ID]; dup {
			return nil, fmt.Errorf("genoa: card %q listed twice", c.ID)
		}
		d.cardByID[c.ID] = i
		d.deckSize[c.Deck]++
	}
	return d, nil
}
