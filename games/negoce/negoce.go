package negoce

import (
	"errors"
	"fmt"

	"comptoir/engine"
)

// Name is the game's name in setups and records.
const Name = "negoce"

// The numbers the rules fix.
const (
	// Players is the only player count: eight goods of four cards, two
	// whole goods per player (RULES-NOTES).
	Players = 4
	// StartCoins is each player's purse at the start.
	StartCoins = 15
	// TotalCoins is the coins in play at the start: 4 × 15, the 60 of the box.
	TotalCoins = Players * StartCoins
	// HandSize is a player's hand after the deal: two goods of four cards.
	HandSize = 2 * CardsPerGood
	// SellerHand is the hand of the player who sells: one card more.
	SellerHand = HandSize + 1
	// WinGoods and WinCoins are what a player needs to win.
	WinGoods = NumGoods
	WinCoins = 10
)

// ErrPlayerCount is returned by Start for any count but four.
var ErrPlayerCount = errors.New("negoce: Négoce 2 is played by exactly 4 players")

// Ways a command can be illegal.
var (
	ErrUnknownCard    = engine.NewRule("negoce.unknown-card", "there is no such card in Négoce", "cette carte n'existe pas dans Négoce")
	ErrUnknownGood    = engine.NewRule("negoce.unknown-good", "there is no such good in Négoce", "cette marchandise n'existe pas dans Négoce")
	ErrAlreadyDealt   = engine.NewRule("negoce.already-dealt", "this card was already dealt", "cette carte a déjà été distribuée")
	ErrDealContraband = engine.NewRule("negoce.deal-contraband", "the Contraband card is not dealt: it starts on the market", "la carte Contrebande n'est pas distribuée : elle commence sur le marché")
	ErrWholeGoods     = engine.NewRule("negoce.whole-goods", "each player is dealt two whole goods: the four cards of a good go to one player", "chaque joueur reçoit deux séries complètes : les quatre cartes d'une marchandise vont au même joueur")
	ErrHandFull       = engine.NewRule("negoce.hand-full", "a player is dealt 8 cards", "un joueur reçoit 8 cartes")
	ErrOpenAtOne      = engine.NewRule("negoce.open-at-one", "the auction opens at 1 coin", "les enchères débutent obligatoirement à 1")
	ErrMustOpen       = engine.NewRule("negoce.must-open", "the player drawn to start must bid 1; nobody may pass before", "le joueur tiré au sort doit dire 1 ; personne ne peut passer avant")
	ErrRaise          = engine.NewRule("negoce.raise", "a raise is of 1 or 2 coins", "on surenchérit d'une ou deux pièces")
	ErrPassedOut      = engine.NewRule("negoce.passed-out", "a player who passed is out of the auction for good", "un joueur qui s'est retiré l'est définitivement")
	ErrNotSeller      = engine.NewRule("negoce.not-seller", "only the seller may do that", "seul le vendeur peut faire cela")
	ErrSellerBuys     = engine.NewRule("negoce.seller-buys", "the seller cannot make an offer for their own card", "le vendeur ne peut pas faire d'offre pour sa propre carte")
	ErrNotYourCard    = engine.NewRule("negoce.not-your-card", "you can only lay or offer a card you hold", "on ne peut poser ou proposer qu'une carte qu'on a en main")
	ErrCannotTurn     = engine.NewRule("negoce.cannot-turn", "a card laid face down can no longer be turned face up", "une carte posée face cachée ne peut plus être retournée")
	ErrNoTakeBack     = engine.NewRule("negoce.no-take-back", "the card on the market cannot be taken back: it must be sold", "la carte mise en vente ne peut plus être récupérée : elle devra être vendue")
	ErrForcedUp       = engine.NewRule("negoce.forced-face-down", "the second card of a forced sale is laid face down", "la deuxième carte d'une vente forcée est posée face cachée")
	ErrEmptyOffer     = engine.NewRule("negoce.empty-offer", "an offer is a card, coins, or both", "une offre est une carte, des pièces, ou les deux")
	ErrNoOffer        = engine.NewRule("negoce.no-offer", "this player has no offer on the table", "ce joueur n'a pas d'offre sur la table")
	ErrNameContraband = engine.NewRule("negoce.name-contraband", "Contraband is not a good: name a good", "la Contrebande n'est pas une marchandise : annoncez une marchandise")
	ErrNameHeld       = engine.NewRule("negoce.name-held", "the seller cannot ask for a good already in their hand", "le vendeur ne peut pas demander une marchandise qu'il a déjà en main")
	ErrNameNobody     = engine.NewRule("negoce.name-nobody", "no buyer holds that good: name another", "aucun acheteur n'a cette marchandise : annoncez-en une autre")
	ErrNotRevealed    = engine.NewRule("negoce.not-revealed", "the seller picks one of the cards the buyers revealed", "le vendeur choisit une des cartes que les acheteurs ont montrées")
)

// Commands.

// Deal deals cards to a player at set-up: the cards listed and the four
// cards of each good listed. To may be left out by the table (the card
// scanner, the dealing program): the cards go to the first player still
// short of cards. A player may record his own hand from his phone.
//
//	deal to=Anna goods=jade,silk
//	deal cards=tea-3
type Deal struct {
	To    engine.Seat `json:"to"`
	Cards []CardID    `json:"cards,omitempty"`
	Goods []Good      `json:"goods,omitempty"`
}

// Bid is a bid in the contraband auction: the new price, 1 to open, then
// the last price plus 1 or 2.
//
//	Bruno: bid price=1
type Bid struct {
	Price int `json:"price"`
}

// Pass leaves the contraband auction, for good.
type Pass struct{}

// Lay lays a card on the table. By the seller: the card for sale (face
// up when Up), or during the negotiation a second card, which forces the
// sale. By a buyer: that card as his offer (face up when Up), his coins
// unchanged. From the table (the card scanner), the card's holder lays it:
// the rules know who holds which card; during a forced sale, the seller's
// pick shown on the reader.
//
//	Anna: lay card=silk-2 up=true
//	lay card=tea-1
type Lay struct {
	Card CardID `json:"card"`
	Up   bool   `json:"up,omitempty"`
}

// Offer is a buyer's offer: at most one card (face up when Up) and coins.
// It replaces the buyer's last offer.
//
//	Chloé: offer card=wine-3 coins=2
type Offer struct {
	Card  CardID `json:"card,omitempty"`
	Up    bool   `json:"up,omitempty"`
	Coins int    `json:"coins,omitempty"`
}

// Withdraw takes a buyer's offer back.
type Withdraw struct{}

// Bonus sets the coins the seller lays on his card for sale, going with
// it to the buyer; 0 takes them back.
type Bonus struct {
	Coins int `json:"coins"`
}

// Accept is the seller accepting a buyer's offer: the sale is made.
//
//	Anna: accept from=Chloé
type Accept struct {
	From engine.Seat `json:"from"`
}

// Force forces the sale: the seller lays a second card, face down; every
// offer is taken back and the seller's coins return to him.
type Force struct {
	Card CardID `json:"card"`
}

// NameGood is the seller naming the good he wants in a forced sale (by
// key, number or name).
//
//	Anna: name good=silk
type NameGood struct {
	Good Good `json:"good"`
}

// Pick is the seller picking one of the revealed cards in a forced sale:
// its holder gets the two cards of the market.
type Pick struct {
	Card CardID `json:"card"`
}

// Name is "deal".
func (Deal) Name() string { return "deal" }

// Name is "bid".
func (Bid) Name() string { return "bid" }

// Name is "pass".
func (Pass) Name() string { return "pass" }

// Name is "lay".
func (Lay) Name() string { return "lay" }

// Name is "offer".
func (Offer) Name() string { return "offer" }

// Name is "withdraw".
func (Withdraw) Name() string { return "withdraw" }

// Name is "bonus".
func (Bonus) Name() string { return "bonus" }

// Name is "accept".
func (Accept) Name() string { return "accept" }

// Name is "force".
func (Force) Name() string { return "force" }

// Name is "name".
func (NameGood) Name() string { return "name" }

// Name is "pick".
func (Pick) Name() string { return "pick" }

// Events.

// Dealt records cards dealt to a player.
type Dealt struct {
	To    engine.Seat `json:"to"`
	Cards []CardID    `json:"cards"`
}

// BidMade records a bid; the first one (price 1) opens the auction.
type BidMade struct {
	By    engine.Seat `json:"by"`
	Price int         `json:"price"`
}

// Passed records a player leaving the auction.
type Passed struct {
	By engine.Seat `json:"by"`
}

// AuctionWon records the end of the auction: By takes the Contraband card
// and pays Price, which leaves the game.
type AuctionWon struct {
	By    engine.Seat `json:"by"`
	Price int         `json:"price"`
}

// Laid records the seller's card for sale.
type Laid struct {
	By   engine.Seat `json:"by"`
	Card CardID      `json:"card"`
	Up   bool        `json:"up,omitempty"`
}

// Offered records a buyer's offer, replacing his last.
type Offered struct {
	By    engine.Seat `json:"by"`
	Card  CardID      `json:"card,omitempty"`
	Up    bool        `json:"up,omitempty"`
	Coins int         `json:"coins,omitempty"`
}

// Withdrawn records a buyer taking his offer back.
type Withdrawn struct {
	By engine.Seat `json:"by"`
}

// BonusSet records the seller's coins on his card.
type BonusSet struct {
	Coins int `json:"coins"`
}

// Sold records a sale by negotiation: the seller gives the market card
// and Bonus coins to the buyer, who gives Paid (if any) and Coins.
type Sold struct {
	Seller engine.Seat `json:"seller"`
	Buyer  engine.Seat `json:"buyer"`
	Card   CardID      `json:"card"`
	Bonus  int         `json:"bonus,omitempty"`
	Paid   CardID      `json:"paid,omitempty"`
	Coins  int         `json:"coins,omitempty"`
}

// Forced records the second card laid face down: the sale is forced.
type Forced struct {
	Card CardID `json:"card"`
}

// Named records the good the seller asks for and the buyers' cards of it,
// now face up.
type Named struct {
	Good     Good     `json:"good"`
	Revealed []CardID `json:"revealed"`
}

// ForcedSold records the end of a forced sale: the seller takes Card from
// Buyer, who takes the two Market cards.
type ForcedSold struct {
	Seller engine.Seat `json:"seller"`
	Buyer  engine.Seat `json:"buyer"`
	Card   CardID      `json:"card"`
	Market []CardID    `json:"market"`
}

// Won records the winner, the "Grand négociateur".
type Won struct {
	By engine.Seat `json:"by"`
}

// Name is "dealt".
func (Dealt) Name() string { return "dealt" }

// Name is "bid-made".
func (BidMade) Name() string { return "bid-made" }

// Name is "passed".
func (Passed) Name() string { return "passed" }

// Name is "auction-won".
func (AuctionWon) Name() string { return "auction-won" }

// Name is "laid".
func (Laid) Name() string { return "laid" }

// Name is "offered".
func (Offered) Name() string { return "offered" }

// Name is "withdrawn".
func (Withdrawn) Name() string { return "withdrawn" }

// Name is "bonus-set".
func (BonusSet) Name() string { return "bonus-set" }

// Name is "sold".
func (Sold) Name() string { return "sold" }

// Name is "forced".
func (Forced) Name() string { return "forced" }

// Name is "named".
func (Named) Name() string { return "named" }

// Name is "forced-sold".
func (ForcedSold) Name() string { return "forced-sold" }

// Name is "won".
func (Won) Name() string { return "won" }

var codec = engine.NewCodec(Name,
	[]engine.Command{Deal{}, Bid{}, Pass{}, Lay{}, Offer{}, Withdraw{}, Bonus{}, Accept{}, Force{}, NameGood{}, Pick{}},
	[]engine.Event{Dealt{}, BidMade{}, Passed{}, AuctionWon{}, Laid{}, Offered{}, Withdrawn{}, BonusSet{}, Sold{}, Forced{}, Named{}, ForcedSold{}, Won{}})

// Rules are Négoce 2's rules over a card catalog.
type Rules struct {
	cat *Catalog
	err error // the catalog's decoding error, returned by Start
}

// New returns Négoce 2's rules with the catalog embedded in
// comptoir/configs.
func New() engine.Rules {
	c, err := DefaultCatalog()
	return &Rules{cat: c, err: err}
}

// WithCatalog returns the rules over another catalog (a café's own card
// ids).
func WithCatalog(c *Catalog) engine.Rules { return &Rules{cat: c} }

// Name is "negoce".
func (*Rules) Name() string { return Name }

// Codec knows every command and event of Négoce 2.
func (*Rules) Codec() *engine.Codec { return codec }

// Variants is empty: Négoce 2 v2.5 has no editions.
func (*Rules) Variants() []string { return nil }

// PlayerCounts is 4: the only count the game allows.
func (*Rules) PlayerCounts() []int { return []int{Players} }

var _ engine.Catalog = (*Rules)(nil)

// Catalog is the rules' card catalog.
func (r *Rules) Catalog() *Catalog { return r.cat }

// Start returns the state before the deal: 15 coins each, the Contraband
// card on the market. Négoce 2 has no variants nor options.
func (r *Rules) Start(s engine.Setup) (engine.State, error) {
	if r.err != nil {
		return nil, r.err
	}
	if s.Game != "" && s.Game != Name {
		return nil, fmt.Errorf("negoce: setup is for game %q", s.Game)
	}
	if len(s.Players) != Players {
		return nil, fmt.Errorf("%w: %d players given; eight goods of four cards, two per player, make a game for four", ErrPlayerCount, len(s.Players))
	}
	if s.Variant != "" && s.Variant != "v2.5" {
		return nil, fmt.Errorf("negoce: unknown variant %q: Négoce 2 has one, \"v2.5\" (or none)", s.Variant)
	}
	for k := range s.Options {
		return nil, fmt.Errorf("negoce: unknown option %q: Négoce 2 has no options", k)
	}
	for i, p := range s.Players {
		for j := range i {
			if p == s.Players[j] {
				return nil, fmt.Errorf("negoce: two players are called %q; give each a name of their own", p)
			}
		}
	}
	st := &State{cat: r.cat, setup: s, seller: engine.NoSeat, high: engine.NoSeat, turn: engine.NoSeat, winner: engine.NoSeat, named: -1}
	for i := range st.loc {
		st.loc[i] = locUndealt
	}
	st.loc[contrabandIdx] = locMarket
	st.market[0], st.market[1] = contrabandIdx, noCard
	for i := range st.coins {
		st.coins[i] = StartCoins
		st.offers[i] = offer{card: noCard}
	}
	return st, nil
}
