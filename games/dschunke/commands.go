package dschunke

import "comptoir/engine"

// Name is the game's name in setups and records.
const Name = "dschunke"

// Ways a command can be illegal.
var (
	ErrUnknownGoods   = engine.NewRule("dschunke.unknown-goods", "there is no such goods in Dschunke", "cette marchandise n'existe pas dans Dschunke")
	ErrUnknownJunk    = engine.NewRule("dschunke.unknown-junk", "there is no such junk", "cette jonque n'existe pas")
	ErrUnknownCard    = engine.NewRule("dschunke.unknown-card", "there is no such card in Dschunke", "cette carte n'existe pas dans Dschunke")
	ErrUnknownPawn    = engine.NewRule("dschunke.unknown-pawn", "use the merchant or a helper", "utilisez le marchand ou un aide")
	ErrHandDealt      = engine.NewRule("dschunke.hand-dealt", "each player's hand is recorded once, at the start", "la main de chaque joueur est notée une seule fois, au début")
	ErrHandSize       = engine.NewRule("dschunke.hand-size", "each player is dealt 8 goods cards", "chaque joueur reçoit 8 cartes marchandises")
	ErrDealShort      = engine.NewRule("dschunke.deal-short", "the deal has no more cards of that goods", "la donne n'a plus de cartes de cette marchandise")
	ErrMarketUsed     = engine.NewRule("dschunke.market-used", "that market card was already revealed", "cette carte marché a déjà été révélée")
	ErrPawnUsed       = engine.NewRule("dschunke.pawn-used", "each merchant and helper acts once per round", "chaque marchand et chaque aide n'agit qu'une fois par tour")
	ErrPawnAction     = engine.NewRule("dschunke.pawn-action", "a merchant or helper offers only the action of its square", "un marchand ou un aide n'offre que son action")
	ErrWrongJunk      = engine.NewRule("dschunke.wrong-junk", "a merchant acts on its junk; a helper on a junk without a merchant", "un marchand agit sur sa jonque ; un aide sur une jonque sans marchand")
	ErrAlreadyActed   = engine.NewRule("dschunke.already-acted", "each player takes one action per round", "chaque joueur effectue une seule action par tour")
	ErrMustAct        = engine.NewRule("dschunke.must-act", "take your action before ending your turn", "effectuez votre action avant de finir votre tour")
	ErrSlot           = engine.NewRule("dschunke.slot", "palettes fill a layer before the next one, across the layer below", "les palettes remplissent une couche avant la suivante, en travers de la couche du dessous")
	ErrGoodsCount     = engine.NewRule("dschunke.goods-count", "take as many goods cards as you are owed", "prenez autant de cartes marchandises qu'il vous en revient")
	ErrGoodsSource    = engine.NewRule("dschunke.goods-source", "the cards come from the junk of the action; another junk only when it runs out", "les cartes viennent de la jonque de l'action ; d'une autre seulement quand elle est vide")
	ErrPileShort      = engine.NewRule("dschunke.pile-short", "the junk has fewer goods cards", "la jonque a moins de cartes marchandises")
	ErrNotHeld        = engine.NewRule("dschunke.not-held", "you can only give or bid goods cards you hold", "on ne peut donner ou miser que des cartes qu'on a en main")
	ErrNoExchange     = engine.NewRule("dschunke.no-exchange", "only the holder of an exchange card may exchange, once per round, right after the market card", "seul le détenteur d'une carte d'échange peut échanger, une fois par tour, juste après la carte marché")
	ErrExchangeCount  = engine.NewRule("dschunke.exchange-count", "exchange 1 or 2 goods cards for as many others", "échangez 1 ou 2 cartes marchandises contre autant d'autres")
	ErrPileTaken      = engine.NewRule("dschunke.pile-taken", "each player takes a different pile of special cards", "chaque joueur prend un paquet de cartes spéciales différent")
	ErrPileEmpty      = engine.NewRule("dschunke.pile-empty", "that pile of special cards is empty", "ce paquet de cartes spéciales est vide")
	ErrCardDrawn      = engine.NewRule("dschunke.card-drawn", "that special card was already drawn", "cette carte spéciale a déjà été piochée")
	ErrNotYourCard    = engine.NewRule("dschunke.not-your-card", "you can only play a special card you hold", "on ne peut jouer qu'une carte spéciale qu'on a en main")
	ErrNotExtra       = engine.NewRule("dschunke.not-extra", "only extra-action cards are played, in phase 2", "seules les cartes d'action supplémentaire se jouent, en phase 2")
	ErrOneExtra       = engine.NewRule("dschunke.one-extra", "one extra-action card per player per round", "une seule carte d'action supplémentaire par joueur et par tour")
	ErrNoPalette      = engine.NewRule("dschunke.no-palette", "you have no palette left", "vous n'avez plus de palette")
	ErrNotVisible     = engine.NewRule("dschunke.not-visible", "move one of your palettes that is wholly visible", "déplacez une de vos palettes entièrement visible")
	ErrSameJunk       = engine.NewRule("dschunke.same-junk", "a palette moves to another junk", "une palette est déplacée vers une autre jonque")
	ErrRestockCount   = engine.NewRule("dschunke.restock-count", "take at most one goods card per restock card", "prenez au plus une carte marchandise par carte réapprovisionnement")
	ErrAlreadyBid     = engine.NewRule("dschunke.already-bid", "your bid is sealed", "votre mise est scellée")
	ErrSoldGoods      = engine.NewRule("dschunke.sold-goods", "only goods not yet sold may be bid again", "seules les marchandises pas encore vendues peuvent être remisées")
	ErrNotDrawing     = engine.NewRule("dschunke.not-drawing", "it is another player's turn to take a special card", "c'est à un autre joueur de prendre une carte spéciale")
	ErrNothingToPass  = engine.NewRule("dschunke.nothing-to-pass", "there is nothing to pass now", "il n'y a rien à passer maintenant")
	ErrUnwantedOption = engine.NewRule("dschunke.unwanted-argument", "this argument does not belong here", "cet argument n'a pas sa place ici")
)

// Commands.

// Hand records a player's starting hand of 8 goods cards, from his phone
// (secret). From the table it is the hand of the first player without one.
//
//	Anna: hand goods=fish:2,rice:3,spices:1,vegetables:2
type Hand struct {
	Goods map[string]int `json:"goods"`
}

// Reveal is the market card turned over at the start of a round, scanned
// by the NFC reader or drawn by a program.
//
//	reveal market=market-07
type Reveal struct {
	Market string `json:"market"`
}

// Exchange is the exchange card's use, right after the market card: put
// back 1 or 2 goods cards and take as many others.
//
//	Bruno: exchange give=fish:2 take=spices:1,rice:1
type Exchange struct {
	Give map[string]int `json:"give"`
	Take map[string]int `json:"take"`
}

// Pass declines what is optional now: the exchange, or an extra-action
// card after one's action (it ends one's turn).
type Pass struct{}

// Draw is a special card taken from a pile (an S square, or an S won in
// the bidding). Pile may be left out: the card comes from the largest
// pile the player may take. From the table (the card scanned), it is the
// card of whoever must draw now.
//
//	Chloé: draw pile=star card=win-ties
type Draw struct {
	Pile string `json:"pile,omitempty"`
	Card string `json:"card"`
}

// Load is the action "load two palettes" of a merchant or a helper: At
// gives the slot (1 to 3) of each palette in the layer it fills. A
// merchant loads on his junk (Junk may be left out).
//
//	Anna: load with=merchant at=1,3
//	Bruno: load with=helper junk=purple at=2,1
type Load struct {
	With string `json:"with"`
	Junk string `json:"junk,omitempty"`
	At   []int  `json:"at,omitempty"`
}

// Income is the action "income": one yuan per visible crate of the player
// on the junk, at least 3.
//
//	Chloé: income with=merchant
type Income struct {
	With string `json:"with"`
	Junk string `json:"junk,omitempty"`
}

// Take is the action "goods cards": one card per visible crate on the
// junk, at least 3, from that junk's pile (on the grey junk: the pile of
// one junk of one's choice); when the pile runs out, the rest from others.
//
//	David: take with=merchant goods=fish:4
type Take struct {
	With  string         `json:"with"`
	Junk  string         `json:"junk,omitempty"`
	Goods map[string]int `json:"goods,omitempty"`
}

// Play plays an extra-action card in phase 2, before or after one's
// action. The arguments are the card's: Junk and At for a palette laid
// (place-palette, and the palette's new junk for move-palette); Goods for
// take-goods (Junk the junk whose crates count); From and Slot (1 to 3)
// for the palette moved.
//
//	Anna: play card=place-palette-1 junk=grey at=2
//	Bruno: play card=income-white
//	Chloé: play card=take-goods-2 junk=orange goods=spices:3
//	David: play card=move-palette-1 from=brown slot=2 junk=white at=1
type Play struct {
	Card  string         `json:"card"`
	Junk  string         `json:"junk,omitempty"`
	At    []int          `json:"at,omitempty"`
	Goods map[string]int `json:"goods,omitempty"`
	From  string         `json:"from,omitempty"`
	Slot  int            `json:"slot,omitempty"`
}

// Restock is a player's restock: one goods card of his choice per restock
// card (and restock-plus card), from any junks.
//
//	Anna: restock goods=rice:1,fish:1
type Restock struct {
	Goods map[string]int `json:"goods,omitempty"`
}

// Bid is a player's sealed bid, from his phone: cards of one goods (none
// at all to bid nothing). Cards of several goods are a bluff: they count
// as nothing and go back to the hand.
//
//	Anna: bid goods=rice:1
//	Bruno: bid
type Bid struct {
	Goods map[string]int `json:"goods,omitempty"`
}

// Name is "hand".
func (Hand) Name() string { return "hand" }

// Name is "reveal".
func (Reveal) Name() string { return "reveal" }

// Name is "exchange".
func (Exchange) Name() string { return "exchange" }

// Name is "pass".
func (Pass) Name() string { return "pass" }

// Name is "draw".
func (Draw) Name() string { return "draw" }

// Name is "load".
func (Load) Name() string { return "load" }

// Name is "income".
func (Income) Name() string { return "income" }

// Name is "take".
func (Take) Name() string { return "take" }

// Name is "play".
func (Play) Name() string { return "play" }

// Name is "restock".
func (Restock) Name() string { return "restock" }

// Name is "bid".
func (Bid) Name() string { return "bid" }

// Events.

// HandDealt records a player's starting hand (secret).
type HandDealt struct {
	By    engine.Seat    `json:"by"`
	Goods map[string]int `json:"goods"`
}

// MarketRevealed records the round's market card.
type MarketRevealed struct {
	Card string `json:"card"`
}

// Exchanged records an exchange (public: the cards go to and come from
// the junks).
type Exchanged struct {
	By   engine.Seat    `json:"by"`
	Give map[string]int `json:"give"`
	Take map[string]int `json:"take"`
}

// Passed records a player declining an exchange or ending his turn.
type Passed struct {
	By engine.Seat `json:"by"`
}

// WealthAnnounced records the Y event: every player's money, made public.
type WealthAnnounced struct {
	Money []int `json:"money"`
}

// SpecialDrawn records a special card taken from a pile. The card is
// secret unless it is an "always" card, laid face up.
type SpecialDrawn struct {
	By   engine.Seat `json:"by"`
	Pile string      `json:"pile"`
	Card string      `json:"card"`
}

// Loaded records palettes laid on a junk (by a merchant or helper With,
// or by a place-palette Card), in slots At.
type Loaded struct {
	By   engine.Seat `json:"by"`
	With string      `json:"with,omitempty"`
	Card string      `json:"card,omitempty"`
	Junk string      `json:"junk"`
	At   []int       `json:"at,omitempty"`
}

// IncomeReceived records an income: Yuans from the bank.
type IncomeReceived struct {
	By    engine.Seat `json:"by"`
	With  string      `json:"with,omitempty"`
	Card  string      `json:"card,omitempty"`
	Junk  string      `json:"junk"`
	Yuans int         `json:"yuans"`
}

// GoodsTaken records goods cards taken by an action or a take-goods card
// (Junk is the junk whose crates counted).
type GoodsTaken struct {
	By    engine.Seat    `json:"by"`
	With  string         `json:"with,omitempty"`
	Card  string         `json:"card,omitempty"`
	Junk  string         `json:"junk"`
	Goods map[string]int `json:"goods,omitempty"`
}

// PaletteMoved records a move-palette card: the palette in slot Slot of
// From's top layer goes to Junk, slot At.
type PaletteMoved struct {
	By   engine.Seat `json:"by"`
	Card string      `json:"card"`
	From string      `json:"from"`
	Slot int         `json:"slot"`
	Junk string      `json:"junk"`
	At   int         `json:"at"`
}

// Restocked records a player's restock (public).
type Restocked struct {
	By    engine.Seat    `json:"by"`
	Goods map[string]int `json:"goods,omitempty"`
}

// BidSealed records a sealed bid. Its cards are secret until
// BidsRevealed: views and the game's log show only that By has bid.
type BidSealed struct {
	By    engine.Seat    `json:"by"`
	Goods map[string]int `json:"goods,omitempty"`
}

// BidsRevealed records the bids shown together, in seat order: "fish:3",
// "" for nothing, "fish:1+rice:1" for a bluff.
type BidsRevealed struct {
	Bids []string `json:"bids"`
}

// Sold records the bidding of one goods: the winners (several on a tie),
// the yuans each receives, or the special card for a single winner. A
// black marker goes on the goods.
type Sold struct {
	Goods   string        `json:"goods"`
	Winners []engine.Seat `json:"winners"`
	Yuans   int           `json:"yuans,omitempty"`
	Special bool          `json:"special,omitempty"`
}

// Rebid records a new bidding for the goods not sold.
type Rebid struct {
	Goods []string `json:"goods"`
}

// RoundEnded records phases 5 and 6: the merchants move to the next junk,
// the helpers one square, the junk passes to the next first player. After
// round 10 the game is over.
type RoundEnded struct {
	Round int `json:"round"`
}

// Name is "hand-dealt".
func (HandDealt) Name() string { return "hand-dealt" }

// Name is "market-revealed".
func (MarketRevealed) Name() string { return "market-revealed" }

// Name is "exchanged".
func (Exchanged) Name() string { return "exchanged" }

// Name is "passed".
func (Passed) Name() string { return "passed" }

// Name is "wealth-announced".
func (WealthAnnounced) Name() string { return "wealth-announced" }

// Name is "special-drawn".
func (SpecialDrawn) Name() string { return "special-drawn" }

// Name is "loaded".
func (Loaded) Name() string { return "loaded" }

// Name is "income-received".
func (IncomeReceived) Name() string { return "income-received" }

// Name is "goods-taken".
func (GoodsTaken) Name() string { return "goods-taken" }

// Name is "palette-moved".
func (PaletteMoved) Name() string { return "palette-moved" }

// Name is "restocked".
func (Restocked) Name() string { return "restocked" }

// Name is "bid-sealed".
func (BidSealed) Name() string { return "bid-sealed" }

// Name is "bids-revealed".
func (BidsRevealed) Name() string { return "bids-revealed" }

// Name is "sold".
func (Sold) Name() string { return "sold" }

// Name is "rebid".
func (Rebid) Name() string { return "rebid" }

// Name is "round-ended".
func (RoundEnded) Name() string { return "round-ended" }

var codec = engine.NewCodec(Name,
	[]engine.Command{Hand{}, Reveal{}, Exchange{}, Pass{}, Draw{}, Load{}, Income{}, Take{}, Play{}, Restock{}, Bid{}},
	[]engine.Event{HandDealt{}, MarketRevealed{}, Exchanged{}, Passed{}, WealthAnnounced{}, SpecialDrawn{}, Loaded{},
		IncomeReceived{}, GoodsTaken{}, PaletteMoved{}, Restocked{}, BidSealed{}, BidsRevealed{}, Sold{}, Rebid{}, RoundEnded{}})
