package genoa

import "comptoir/engine"

// Place names a square in a command: a building's key ("guild-hall"),
// "market", or the blue-red cell of any square ("3-2"). Events always
// write the square's canonical key.
type Place string

// Commands. In the game record each is one line, for example
// "Bruno: deal from=Bruno to=harbour ducats=5 goods=silk:1".

// Roll is the merchant's roll: blue is the column, red the row of the start
// square. A device (the dice camera) sends it as the table.
type Roll struct {
	Blue int `json:"blue"`
	Red  int `json:"red"`
}

// Start spends a start-space tile instead of rolling: the pawn starts on
// Square.
type Start struct {
	Square Place `json:"square"`
}

// Move moves the pawn to a neighbouring square without a deal, or, with
// Via, through the squares of Via in order and then to To: one move per
// square, as if each were a Move of its own (the actions of the buildings
// passed through are let go).
type Move struct {
	To  Place   `json:"to"`
	Via []Place `json:"via,omitempty"`
}

// Deal records a deal made with the merchant: From pays what is listed
// (now), the merchant moves the pawn to To, and if To is a building From
// takes its action there. After lists goods or tiles From pays once the
// action has given them. The Merchant* fields are what the merchant gives
// From in exchange. Promise is words only, where the edition allows it.
// The merchant concludes a deal (his line, or his phone accepting From's
// proposal), or the table or the staff; From alone may not.
type Deal struct {
	From           engine.Seat    `json:"from"`
	To             Place          `json:"to"`
	Ducats         int            `json:"ducats,omitempty"`
	Goods          map[string]int `json:"goods,omitempty"`
	Cards          []string       `json:"cards,omitempty"`
	Tiles          map[string]int `json:"tiles,omitempty"`
	Markers        int            `json:"markers,omitempty"`
	After          map[string]int `json:"after,omitempty"`
	MerchantDucats int            `json:"merchantDucats,omitempty"`
	MerchantGoods  map[string]int `json:"merchantGoods,omitempty"`
	MerchantCards  []string       `json:"merchantCards,omitempty"`
	MerchantTiles  map[string]int `json:"merchantTiles,omitempty"`
	Promise        string         `json:"promise,omitempty"`
}

// Offer is a player's offer for the action of the building the pawn stands
// on when no deal brought it there: from then on the action must be taken,
// by the merchant or by an offerer the merchant accepts. A new offer from
// the same player replaces the old one.
type Offer struct {
	Ducats  int            `json:"ducats,omitempty"`
	Goods   map[string]int `json:"goods,omitempty"`
	Cards   []string       `json:"cards,omitempty"`
	Tiles   map[string]int `json:"tiles,omitempty"`
	Markers int            `json:"markers,omitempty"`
	Promise string         `json:"promise,omitempty"`
}

// Accept is the merchant accepting From's offer for the current building.
type Accept struct {
	From engine.Seat `json:"from"`
}

// Act takes the action of the building the pawn stands on. At a villa,
// Order names the large order to deliver and Tile the tile chosen in
// reward; without Order the player draws a contract card.
type Act struct {
	Order string `json:"order,omitempty"`
	Tile  string `json:"tile,omitempty"`
}

// Draw names the card drawn (scanned) for a draw the rules asked for.
type Draw struct {
	Card string `json:"card"`
}

// Deliver delivers a small order right after one's own action at its
// building.
type Deliver struct {
	Card string `json:"card"`
}

// Extra spends an extra-action tile: one more action this turn.
type Extra struct{}

// Take spends a commodity-of-choice tile: one good of Good from the supply.
type Take struct {
	Good string `json:"good"`
}

// Trade spends a trade 1:1 tile: Give one item, get one. An item is a good
// ("silk"), a tile ("tile:extra"), an ownership marker ("marker"), a card
// ("card:M3", to give) or the top card of a deck ("deck:message", to get).
type Trade struct {
	Give string `json:"give"`
	Get  string `json:"get"`
}

// Build spends a building-action tile: the action of Building, which must
// carry the player's marker. At a villa, as with Act: Order and Tile
// deliver a large order for that villa, without them a contract card is
// drawn. No small order follows it.
type Build struct {
	Building Place  `json:"building"`
	Order    string `json:"order,omitempty"`
	Tile     string `json:"tile,omitempty"`
}

// End ends the merchant's movement: the acquisition phase follows.
type End struct{}

// Acquire, in the acquisition phase, names a street the pawn left a disc on,
// the buildings next to it to put one's marker on (an opponent's marker
// there is removed first, which costs one more of one's markers) and the
// buildings to clear of an opponent's marker only.
type Acquire struct {
	Street Place   `json:"street"`
	Place  []Place `json:"place,omitempty"`
	Remove []Place `json:"remove,omitempty"`
}

// Pass declines to acquire.
type Pass struct{}

func (Roll) Name() string    { return "roll" }
func (Start) Name() string   { return "start" }
func (Move) Name() string    { return "move" }
func (Deal) Name() string    { return "deal" }
func (Offer) Name() string   { return "offer" }
func (Accept) Name() string  { return "accept" }
func (Act) Name() string     { return "act" }
func (Draw) Name() string    { return "draw" }
func (Deliver) Name() string { return "deliver" }
func (Extra) Name() string   { return "extra" }
func (Take) Name() string    { return "take" }
func (Trade) Name() string   { return "trade" }
func (Build) Name() string   { return "build" }
func (End) Name() string     { return "end" }
func (Acquire) Name() string { return "acquire" }
func (Pass) Name() string    { return "pass" }

// Events. Each records one fact; Apply turns them into the next state.

// CardDrawn: Seat drew Card.
type CardDrawn struct {
	Seat engine.Seat `json:"seat"`
	Card string      `json:"card"`
}

// DrawsDue: Seat must draw N cards of Deck.
type DrawsDue struct {
	Seat engine.Seat `json:"seat"`
	Deck string      `json:"deck"`
	N    int         `json:"n"`
}

// PawnPlaced: the pawn starts the turn on Square (from the dice, or from a
// start-space tile when Blue and Red are 0).
type PawnPlaced struct {
	Square Place `json:"square"`
	Blue   int   `json:"blue,omitempty"`
	Red    int   `json:"red,omitempty"`
}

// TrackAdvanced: a start on the market moved the round marker to Track.
type TrackAdvanced struct {
	Track int `json:"track"`
}

// PawnMoved: the pawn moved to To.
type PawnMoved struct {
	To Place `json:"to"`
}

// Transfer: items go from one holder to another. engine.NoSeat is the bank
// (ducats), the supply (goods, tiles), the decks (cards) or the common
// supply of markers (in the colour of the seat on the other side).
// Between two seats, markers go back to the common supply and the receiver
// takes as many of their own colour.
type Transfer struct {
	From    engine.Seat    `json:"from"`
	To      engine.Seat    `json:"to"`
	Reason  string         `json:"reason"`
	Ducats  int            `json:"ducats,omitempty"`
	Goods   map[string]int `json:"goods,omitempty"`
	Cards   []string       `json:"cards,omitempty"`
	Tiles   map[string]int `json:"tiles,omitempty"`
	Markers int            `json:"markers,omitempty"`
}

// OfferMade: Seat offered for the current building's action.
type OfferMade struct {
	Seat    engine.Seat    `json:"seat"`
	Ducats  int            `json:"ducats,omitempty"`
	Goods   map[string]int `json:"goods,omitempty"`
	Cards   []string       `json:"cards,omitempty"`
	Tiles   map[string]int `json:"tiles,omitempty"`
	Markers int            `json:"markers,omitempty"`
	Promise string         `json:"promise,omitempty"`
}

// ActorChosen: Seat has the right to take the current building's action
// (a deal, or an accepted offer). After is what Seat pays the merchant
// once the action gave it.
type ActorChosen struct {
	Seat  engine.Seat    `json:"seat"`
	After map[string]int `json:"after,omitempty"`
}

// ActionTaken: Seat took the action of Building (by a building-action tile
// when ByTile).
type ActionTaken struct {
	Seat     engine.Seat `json:"seat"`
	Building Place       `json:"building"`
	Option   string      `json:"option,omitempty"`
	ByTile   bool        `json:"byTile,omitempty"`
}

// ActionEnded: the action window of the last actor is closed: no more
// small order or tile of the action's timing.
type ActionEnded struct{}

// TilePlayed: Seat played a tile (it goes back to the supply in a Transfer).
type TilePlayed struct {
	Seat engine.Seat `json:"seat"`
	Tile string      `json:"tile"`
}

// Delivered: Seat delivered Card (a small order, large order or message).
type Delivered struct {
	Seat engine.Seat `json:"seat"`
	Card string      `json:"card"`
}

// MovementEnded: the merchant ended the movement; acquisition begins.
type MovementEnded struct{}

// Acquired: Seat used Street to place and remove markers.
type Acquired struct {
	Seat    engine.Seat `json:"seat"`
	Street  Place       `json:"street"`
	Placed  []Place     `json:"placed,omitempty"`
	Removed []Place     `json:"removed,omitempty"`
}

// Passed: Seat declined to acquire.
type Passed struct {
	Seat engine.Seat `json:"seat"`
}

func (CardDrawn) Name() string     { return "card-drawn" }
func (DrawsDue) Name() string      { return "draws-due" }
func (PawnPlaced) Name() string    { return "pawn-placed" }
func (TrackAdvanced) Name() string { return "track-advanced" }
func (PawnMoved) Name() string     { return "pawn-moved" }
func (Transfer) Name() string      { return "transfer" }
func (OfferMade) Name() string     { return "offer-made" }
func (ActorChosen) Name() string   { return "actor-chosen" }
func (ActionTaken) Name() string   { return "action-taken" }
func (ActionEnded) Name() string   { return "action-ended" }
func (TilePlayed) Name() string    { return "tile-played" }
func (Delivered) Name() string     { return "delivered" }
func (MovementEnded) Name() string { return "movement-ended" }
func (Acquired) Name() string      { return "acquired" }
func (Passed) Name() string        { return "passed" }

var codec = engine.NewCodec("genoa",
	[]engine.Command{Roll{}, Start{}, Move{}, Deal{}, Offer{}, Accept{}, Act{}, Draw{}, Deliver{}, Extra{}, Take{}, Trade{}, Build{}, End{}, Acquire{}, Pass{}, Correct{}},
	[]engine.Event{CardDrawn{}, DrawsDue{}, PawnPlaced{}, TrackAdvanced{}, PawnMoved{}, Transfer{}, OfferMade{}, ActorChosen{}, ActionTaken{}, ActionEnded{}, TilePlayed{}, Delivered{}, MovementEnded{}, Acquired{}, Passed{}, Corrected{}},
)
