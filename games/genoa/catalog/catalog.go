package catalog

import (
	"errors"
	"fmt"
	"strings"

	"comptoir/games/genoa/board"
)

// NumGoods is the number of kinds of goods in both editions.
const NumGoods = 8

// Good is an edition-neutral kind of good: a slot of a warehouse, numbered
// nw-1, nw-2, ne-1, ne-2, sw-1, sw-2, se-1, se-2 (0 to 7). An Edition says
// what each slot is called (nw-1 is silver in both editions, sw-1 wheat in
// the Alea edition and ale in Filosofia's).
type Good uint8

var goodKeys = [NumGoods]string{"nw-1", "nw-2", "ne-1", "ne-2", "sw-1", "sw-2", "se-1", "se-2"}

// String returns the slot name, for example "nw-1".
func (g Good) String() string {
	if int(g) < NumGoods {
		return goodKeys[g]
	}
	return fmt.Sprintf("Good(%d)", uint8(g))
}

// Warehouse returns the board key of the warehouse that gives g, for
// example "warehouse-nw".
func (g Good) Warehouse() string { return "warehouse-" + g.String()[:2] }

// ParseGood returns the good of slot name s ("nw-1").
func ParseGood(s string) (Good, bool) {
	for i, k := range goodKeys {
		if k == s {
			return Good(i), true
		}
	}
	return 0, false
}

// Deck is one of the four decks of cards.
type Deck uint8

const (
	LargeOrder Deck = iota // Grosse commande, Großer Auftrag
	SmallOrder             // Petite commande, Kleiner Auftrag
	Message                // Message, Botschaft
	Contract               // Contrat, Privileg
	NumDecks
)

var deckKeys = [NumDecks]string{"large-order", "small-order", "message", "contract"}

// deckLetters start the card ids of each deck.
var deckLetters = [NumDecks]byte{'L', 'S', 'M', 'C'}

func (d Deck) String() string {
	if d < NumDecks {
		return deckKeys[d]
	}
	return fmt.Sprintf("Deck(%d)", uint8(d))
}

// ParseDeck returns the deck named s ("large-order").
func ParseDeck(s string) (Deck, bool) {
	for i, k := range deckKeys {
		if k == s {
			return Deck(i), true
		}
	}
	return 0, false
}

// Tile is a kind of special tile (the Alea edition's "cartes spéciales").
type Tile uint8

const (
	TileStart Tile = iota // start space of one's choice (coach house)
	TileExtra             // one extra action (park)
	TileGoods             // one good of one's choice (harbour)
	TileTrade             // trade 1:1 (taverna, trattoria)
	TileBuild             // the action of a building one owns (palazzo)
	NumTiles
)

var tileKeys = [NumTiles]string{"start", "extra", "goods", "trade", "build"}

func (t Tile) String() string {
	if t < NumTiles {
		return tileKeys[t]
	}
	return fmt.Sprintf("Tile(%d)", uint8(t))
}

// ParseTile returns the tile named s ("start").
func ParseTile(s string) (Tile, bool) {
	for i, k := range tileKeys {
		if k == s {
			return Tile(i), true
		}
	}
	return 0, false
}

// ActionKind is what a building's action does.
type ActionKind uint8

const (
	// ActDraw draws Count cards of Deck.
	ActDraw ActionKind = iota
	// ActMarkers takes Count ownership markers of one's colour.
	ActMarkers
	// ActTile takes one special tile of kind Tile.
	ActTile
	// ActWarehouse takes one good of each of Goods.
	ActWarehouse
	// ActVilla draws a contract card or delivers a large order.
	ActVilla
)

var actionKeys = []string{"draw", "markers", "tile", "warehouse", "villa"}

func (k ActionKind) String() string {
	if int(k) < len(actionKeys) {
		return actionKeys[k]
	}
	return fmt.Sprintf("ActionKind(%d)", uint8(k))
}

// Action is what taking a building's action gives.
type Action struct {
	Building string // board key
	Kind     ActionKind
	Deck     Deck    // ActDraw
	Count    int     // ActDraw, ActMarkers
	Tile     Tile    // ActTile
	Goods    [2]Good // ActWarehouse, from the edition's warehouses
}

// GoodInfo names a good in one edition.
type GoodInfo struct {
	Good           Good
	Key            string // "silver", in commands and records
	NameFR, NameEN string
	Colour         string // colour of the cube, "" when the text gives none
}

// Warehouse is a warehouse in one edition.
type Warehouse struct {
	Key            string // board key, "warehouse-nw"
	Name           string // as the edition's text calls it, "Metallager"
	NameFR, NameEN string
	Goods          [2]Good
}

// TieBreak says how ties for the richest player are broken.
type TieBreak uint8

const (
	// TieGoods: most goods in reserve.
	TieGoods TieBreak = iota
	// TieGoodsTilesCards: most goods, tiles and cards.
	TieGoodsTilesCards
)

var tieKeys = []string{"goods", "goods-tiles-cards"}

func (t TieBreak) String() string {
	if int(t) < len(tieKeys) {
		return tieKeys[t]
	}
	return fmt.Sprintf("TieBreak(%d)", uint8(t))
}

// Edition is one edition's profile: every rule that differs between the
// editions, and the numbers both share, as data. See editions.yaml for the
// source of each field.
type Edition struct {
	Key            string // "alea-2001", "filosofia-2008"
	NameFR, NameEN string
	Sources        []string // rules texts

	Goods      [NumGoods]GoodInfo
	Warehouses [4]Warehouse // in the order of board.WarehouseKeys
	// Actions of the 18 buildings, in the order of their keys.
	Actions []Action

	// Rounds maps a player count (2 to 5) to the number of rounds.
	Rounds map[int]int
	// MarketAdvances: a start on the market advances the round track.
	MarketAdvances bool
	// LastRoundExempt: not during the last round, played in full.
	LastRoundExempt bool
	// MarketAdvanceOptional: a table may switch the market rule off (house
	// rule, off by default).
	MarketAdvanceOptional bool

	StartDucats       int
	StartCardsPerDeck int

	MarkersPerColour int
	// MaxMarkersPerStreet is how many markers a player may place from one
	// street square; 0 means no limit but the adjacent buildings.
	MaxMarkersPerStreet   int
	MaxMarkersPerBuilding int
	// RemovalCost is the number of markers a player sacrifices to remove an
	// opponent's.
	RemovalCost int
	Income      int // to an owner when another player acts in their building
	EndValue    int // per marker on the board at the end

	TwoPlayerOfferNeedsGoods bool
	TwoPlayerSecondAction    bool
	TieBreak                 TieBreak
	// Promises may ride on top of money or goods in an offer (unenforced).
	Promises bool

	LargeOrderDucats int
	LargeOrderTiles  int
	SmallOrderDucats int
	MessageDucats    int
	// ContractScale[n-1] is what a group of n adjacent contract buildings
	// scores; each building beyond adds ContractBeyond.
	ContractScale  []int
	ContractBeyond int

	GoodsPerKind int
	Tiles        [NumTiles]int
	Decks        [NumDecks]int
	DeckNames    [NumDecks]string
	TileNames    [NumTiles]string
}

// GoodByKey returns the good this edition calls key ("silver").
func (e *Edition) GoodByKey(key string) (Good, bool) {
	for _, g := range e.Goods {
		if g.Key == key {
			return g.Good, true
		}
	}
	return 0, false
}

// Action returns the action of the building with the given board key.
func (e *Edition) Action(building string) (Action, bool) {
	for _, a := range e.Actions {
		if a.Building == building {
			return a, true
		}
	}
	return Action{}, false
}

// Warehouse returns the warehouse with the given board key.
func (e *Edition) Warehouse(key string) (*Warehouse, bool) {
	for i := range e.Warehouses {
		if e.Warehouses[i].Key == key {
			return &e.Warehouses[i], true
		}
	}
	return nil, false
}

// ContractScore returns what a group of n adjacent contract buildings
// scores: 10, 30, 60, 100, then 50 more per building.
func (e *Edition) ContractScore(n int) int {
	if n <= 0 {
		return 0
	}
	if n <= len(e.ContractScale) {
		return e.ContractScale[n-1]
	}
	return e.ContractScale[len(e.ContractScale)-1] + (n-len(e.ContractScale))*e.ContractBeyond
}

// RoundsFor returns the number of rounds for a player count, or an error
// saying which counts the edition supports.
func (e *Edition) RoundsFor(players int) (int, error) {
	if r, ok := e.Rounds[players]; ok {
		return r, nil
	}
	return 0, fmt.Errorf("%w: %s is played by 2 to 5 players, not %d", ErrPlayers, e.Key, players)
}

// Name returns the name of a board square in this edition: a warehouse's
// edition name ("Metallager"), else the name the edition's text uses, else
// the French name.
func (e *Edition) Name(sq *board.Square) string {
	if w, ok := e.Warehouse(sq.Key); ok {
		return w.Name
	}
	return sq.Name(e.Key)
}

// Card is one card of the catalog.
type Card struct {
	ID   string // "L01", "S07", "M12", "C03": stable, mapped to NFC tags
	Deck Deck
	// Villa is the villa of a large order.
	Villa string
	// Building is the building of a small order or a contract.
	Building string
	// Buildings are the two buildings of a message.
	Buildings [2]string
	// Goods: three for a large order, one for a small order.
	Goods []Good
}

// Catalog is the set of cards of the box.
type Catalog struct {
	// Cards by deck (large orders, small orders, messages, contracts), each
	// deck in file order.
	Cards []Card
	byID  map[string]int
	start [NumDecks + 1]int
}

// ByID returns the card with the given id.
func (c *Catalog) ByID(id string) (*Card, bool) {
	i, ok := c.byID[id]
	if !ok {
		return nil, false
	}
	return &c.Cards[i], true
}

// Deck returns the cards of deck d. The slice must not be modified.
func (c *Catalog) Deck(d Deck) []Card { return c.Cards[c.start[d]:c.start[d+1]] }

// Errors.
var (
	// ErrInvalid is wrapped by every error about a bad data file (a
	// *strictyaml.Error naming the file and line) or a catalog that does
	// not fit the board or the edition (led by "invalid Genoa data: ").
	ErrInvalid = errors.New("invalid Genoa data")
	// ErrUnknownEdition is returned by Load for an edition it does not know.
	ErrUnknownEdition = errors.New("unknown Genoa edition")
	// ErrPlayers is returned by RoundsFor for an unsupported player count.
	ErrPlayers = errors.New("unsupported player count")
)

// Check checks that the catalog and the edition fit each other and the
// board: every building named exists on the board and is of the right
// sort, the deck sizes match the edition's, there is one contract per edge
// building, small orders name only buildings that have them ([B] 6.2: not
// the villas, the warehouses or the town hall), and the edition gives an
// action to every building of the board.
func Check(b *board.Board, e *Edition, c *Catalog) error {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	bld := func(id, key string) *board.Square {
		sqID, ok := b.ByKey(key)
		if !ok || b.Square(sqID).Kind != board.Building {
			bad("card %s: %q is not a building of the board", id, key)
			return nil
		}
		return b.Square(sqID)
	}
	for d := Deck(0); d < NumDecks; d++ {
		if n := len(c.Deck(d)); n != e.Decks[d] {
			bad("%d %s cards in the catalog, but the %s box has %d", n, d, e.Key, e.Decks[d])
		}
	}
	contracts := map[string]string{}
	for i := range c.Cards {
		card := &c.Cards[i]
		switch card.Deck {
		case LargeOrder:
			if s := bld(card.ID, card.Villa); s != nil && !strings.HasPrefix(s.Key, "villa-") {
				bad("card %s: large order for %s, which is not a villa", card.ID, s.Key)
			}
		case SmallOrder:
			if s := bld(card.ID, card.Building); s != nil {
				if strings.HasPrefix(s.Key, "villa-") || strings.HasPrefix(s.Key, "warehouse-") || s.Key == "town-hall" {
					bad("card %s: no small order goes to %s (\"pas de petit contrat pour les villas, les dépôts et l'hôtel de ville\")", card.ID, s.Key)
				}
			}
		case Message:
			bld(card.ID, card.Buildings[0])
			bld(card.ID, card.Buildings[1])
		case Contract:
			if s := bld(card.ID, card.Building); s != nil {
				if !s.Edge {
					bad("card %s: contract for %s, which is not an edge building", card.ID, s.Key)
				}
				if prev, dup := contracts[s.Key]; dup {
					bad("cards %s and %s are both contracts for %s", prev, card.ID, s.Key)
				}
				contracts[s.Key] = card.ID
			}
		}
	}
	for _, id := range b.Buildings() {
		s := b.Square(id)
		if _, ok := e.Action(s.Key); !ok {
			bad("building %s of the board has no action in edition %s", s.Key, e.Key)
		}
		if s.Edge && len(c.Deck(Contract)) > 0 {
			if _, ok := contracts[s.Key]; !ok {
				bad("no contract card for edge building %s", s.Key)
			}
		}
	}
	for _, a := range e.Actions {
		if _, ok := b.ByKey(a.Building); !ok {
			bad("edition %s gives an action to %s, which is not on the board", e.Key, a.Building)
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%w: %s", ErrInvalid, strings.Join(errs, "; "))
	}
	return nil
}
