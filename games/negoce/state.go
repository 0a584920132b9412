package negoce

import (
	"fmt"
	"slices"
	"strings"

	"comptoir/engine"
)

// Phase is the step of the game.
type Phase int

// The phases, in the order a game goes through them; a game loops from
// PhaseLay to PhaseNegotiate (and through the two forced-sale phases)
// until someone wins.
const (
	// PhaseDeal: each player is dealt two whole goods.
	PhaseDeal Phase = iota
	// PhaseAuction: the Contraband card is auctioned.
	PhaseAuction
	// PhaseLay: the seller (the player with 9 cards) lays a card for sale.
	PhaseLay
	// PhaseNegotiate: buyers offer, the seller accepts one or forces.
	PhaseNegotiate
	// PhaseForceName: the seller laid a second card and names a good.
	PhaseForceName
	// PhaseForcePick: the buyers revealed their cards of the good; the
	// seller picks one.
	PhaseForcePick
	// PhaseOver: someone won.
	PhaseOver
)

func (p Phase) String() string { return p.Key() }

// Key is the phase's stable name in views: "deal", "auction", "lay",
// "negotiate", "force-name", "force-pick", "over".
func (p Phase) Key() string {
	switch p {
	case PhaseDeal:
		return "deal"
	case PhaseAuction:
		return "auction"
	case PhaseLay:
		return "lay"
	case PhaseNegotiate:
		return "negotiate"
	case PhaseForceName:
		return "force-name"
	case PhaseForcePick:
		return "force-pick"
	case PhaseOver:
		return "over"
	}
	return fmt.Sprintf("phase(%d)", int(p))
}

// Where a card is, beside a seat 0 to 3.
const (
	locUndealt int8 = -1
	locMarket  int8 = -2
	noCard     int8 = -1
)

// offer is a buyer's offer. Its card and coins stay in the buyer's hand
// and purse until the sale.
type offer struct {
	active bool
	card   int8 // noCard when coins only
	up     bool
	coins  int
}

// State is a Négoce 2 position. All its fields are values: copying the
// struct copies the position.
type State struct {
	cat   *Catalog
	setup engine.Setup
	phase Phase

	loc     [NumCards]int8 // where each card is: a seat, locUndealt or locMarket
	coins   [Players]int   // purses, public
	removed int            // coins taken out of the game by the auction

	// The auction.
	opened bool
	price  int
	high   engine.Seat
	turn   engine.Seat
	passed [Players]bool

	// The sale.
	seller engine.Seat
	market [2]int8 // the card for sale, then the forced sale's second card
	up     bool    // the card for sale is face up
	bonus  int     // the seller's coins on his card
	offers [Players]offer
	named  int // the good named in a forced sale, -1 when none
	sales  int // sales made

	winner engine.Seat
}

var _ engine.Checker = (*State)(nil)
var _ engine.Describer = (*State)(nil)

// Setup is the setup the game started from.
func (s *State) Setup() engine.Setup { return s.setup }

// Catalog is the deck the game is played with.
func (s *State) Catalog() *Catalog { return s.cat }

// Phase is the step of the game.
func (s *State) Phase() Phase { return s.phase }

// Seller is the player who sells now, or engine.NoSeat before the first
// sale.
func (s *State) Seller() engine.Seat { return s.seller }

// Coins is a player's purse.
func (s *State) Coins(seat engine.Seat) int { return s.coins[seat] }

// Hand lists the ids of a player's cards, in catalog order.
func (s *State) Hand(seat engine.Seat) []CardID {
	var out []CardID
	for i, l := range s.loc {
		if l == int8(seat) {
			out = append(out, s.cat.ID(i))
		}
	}
	return out
}

// Winner is the winner, or engine.NoSeat.
func (s *State) Winner() engine.Seat { return s.winner }

func (s *State) player(seat engine.Seat) string {
	if seat >= 0 && int(seat) < len(s.setup.Players) {
		return s.setup.Players[seat]
	}
	return seat.String()
}

func isTable(by engine.Seat) bool { return by == engine.NoSeat || by == engine.Staff }

func (s *State) handSize(seat engine.Seat) int {
	n := 0
	for _, l := range s.loc {
		if l == int8(seat) {
			n++
		}
	}
	return n
}

// goods counts a player's cards of each good.
func (s *State) goods(seat engine.Seat) [NumGoods]int {
	var g [NumGoods]int
	for i, l := range s.loc[:contrabandIdx] {
		if l == int8(seat) {
			g[GoodOf(i)]++
		}
	}
	return g
}

func (s *State) distinctGoods(seat engine.Seat) int {
	n := 0
	for _, c := range s.goods(seat) {
		if c > 0 {
			n++
		}
	}
	return n
}

// qualifies tells whether a player has what it takes to win: eight
// different goods and at least ten coins.
func (s *State) qualifies(seat engine.Seat) bool {
	return s.distinctGoods(seat) == WinGoods && s.coins[seat] >= WinCoins
}

// firstShort is the first player still short of cards in the deal.
func (s *State) firstShort() engine.Seat {
	for p := range Players {
		if s.handSize(engine.Seat(p)) < HandSize {
			return engine.Seat(p)
		}
	}
	return engine.NoSeat
}

// notHolding refuses a card that p does not hold, naming it as printed
// (its good, or the Contraband).
func (s *State) notHolding(p engine.Seat, i int) error {
	if i == contrabandIdx {
		return engine.Refuse(ErrNotYourCard, fmt.Sprintf("%s does not hold the %s card", s.player(p), s.cat.ContrabandEN),
			fmt.Sprintf("%s n'a pas la carte %s en main", s.player(p), s.cat.ContrabandFR))
	}
	return engine.Refuse(ErrNotYourCard, fmt.Sprintf("%s does not hold that %s card", s.player(p), s.cat.Name(i, "en")),
		fmt.Sprintf("%s n'a pas cette carte %s en main", s.player(p), s.cat.Name(i, "fr")))
}

// card resolves a card id.
func (s *State) card(id CardID) (int, error) {
	if id == "" {
		return 0, engine.Refuse(engine.ErrBadArgument, "which card? give card=ID, for example card=silk-2", "quelle carte ? donnez card=ID, par exemple card=silk-2")
	}
	i, ok := s.cat.Card(id)
	if !ok {
		return 0, engine.Refusef(ErrUnknownCard, "there is no card %q: cards are named like %s or %s", "il n'y a pas de carte %q : les cartes s'appellent par exemple %s ou %s",
			id, s.cat.ID(5), s.cat.ContrabandID)
	}
	return i, nil
}

// Decide checks an action and returns its events.
func (s *State) Decide(a engine.Action) ([]engine.Event, error) {
	if s.phase == PhaseOver {
		return nil, engine.Refusef(engine.ErrGameOver, "the game is over: %s won", "la partie est terminée : %s a gagné", s.player(s.winner))
	}
	if a.By >= Players || a.By < engine.Staff {
		return nil, engine.Refusef(engine.ErrBadArgument, "there is no %s at this table of %d players", "il n'y a pas de %s à cette table de %d joueurs", a.By, Players)
	}
	switch c := a.Cmd.(type) {
	case Deal:
		return s.decideDeal(a.By, c)
	case Bid:
		return s.decideBid(a.By, c)
	case Pass:
		return s.decidePass(a.By)
	case Lay:
		return s.decideLay(a.By, c)
	case Offer:
		return s.decideOffer(a.By, c)
	case Withdraw:
		return s.decideWithdraw(a.By)
	case Bonus:
		return s.decideBonus(a.By, c)
	case Accept:
		return s.decideAccept(a.By, c)
	case Force:
		return s.decideForce(a.By, c)
	case NameGood:
		return s.decideName(a.By, c)
	case Pick:
		return s.decidePick(a.By, c)
	}
	name := "?"
	if a.Cmd != nil {
		name = a.Cmd.Name()
	}
	return nil, engine.Refusef(engine.ErrUnknownCommand, "Négoce has no command %q; commands: %s", "Négoce n'a pas de commande %q ; commandes : %s",
		name, strings.Join(codec.CommandNames(), ", "))
}

// notNow refuses a command that does not fit the phase, saying what the
// game waits for.
func (s *State) notNow(what string) error {
	var en, fr string
	switch s.phase {
	case PhaseDeal:
		en, fr = "the cards are being dealt", "les cartes sont en cours de distribution"
	case PhaseAuction:
		en, fr = "the Contraband auction is on: bid or pass", "la Contrebande est aux enchères : surenchérissez ou retirez-vous"
	case PhaseLay:
		en, fr = fmt.Sprintf("%s must first lay a card for sale", s.player(s.seller)), fmt.Sprintf("%s doit d'abord mettre une carte en vente", s.player(s.seller))
	case PhaseNegotiate:
		en, fr = "the negotiation is on: offers, then the seller accepts one or forces the sale", "la négociation est en cours : les acheteurs proposent, puis le vendeur accepte une offre ou force la vente"
	case PhaseForceName:
		en, fr = fmt.Sprintf("the sale is forced: %s must name the good they want", s.player(s.seller)), fmt.Sprintf("la vente est forcée : %s doit annoncer la marchandise recherchée", s.player(s.seller))
	case PhaseForcePick:
		en, fr = fmt.Sprintf("the sale is forced: %s must pick one of the revealed cards", s.player(s.seller)), fmt.Sprintf("la vente est forcée : %s doit choisir une des cartes montrées", s.player(s.seller))
	}
	wen, wfr := doing(what)
	return engine.Refuse(engine.ErrNotNow, fmt.Sprintf("%s: not now, %s", wen, en), fmt.Sprintf("%s : pas maintenant, %s", wfr, fr))
}

// sellerActs returns the seller if by may act for him: the seller himself
// or the table.
func (s *State) sellerActs(by engine.Seat, what string) (engine.Seat, error) {
	if isTable(by) || by == s.seller {
		return s.seller, nil
	}
	wen, wfr := doing(what)
	return 0, engine.Refuse(ErrNotSeller, fmt.Sprintf("%s: only %s, the seller, may do that", wen, s.player(s.seller)),
		fmt.Sprintf("%s : seul %s, le vendeur, peut le faire", wfr, s.player(s.seller)))
}

// doing names what a command does, in English and French, for the
// refusals: a player reads "bid: not now", "enchérir : pas maintenant",
// never the French player an English command's name.
func doing(command string) (en, fr string) {
	switch command {
	case "bid":
		return "bid", "enchérir"
	case "pass":
		return "pass", "passer"
	case "lay":
		return "lay a card", "poser une carte"
	case "offer":
		return "offer", "faire une offre"
	case "withdraw":
		return "take back an offer", "retirer une offre"
	case "bonus":
		return "lay coins on the card for sale", "poser des pièces sur la carte en vente"
	case "accept":
		return "accept an offer", "accepter une offre"
	case "force":
		return "force the sale", "forcer la vente"
	case "name":
		return "name a good", "annoncer une marchandise"
	case "pick":
		return "pick a card", "choisir une carte"
	}
	return command, command
}

func (s *State) decideDeal(by engine.Seat, c Deal) ([]engine.Event, error) {
	if s.phase != PhaseDeal {
		return nil, engine.Refuse(ErrAlreadyDealt, "the cards were dealt already", "les cartes ont déjà été distribuées")
	}
	to := c.To
	if !isTable(by) {
		if to == engine.NoSeat {
			to = by
		} else if to != by {
			return nil, engine.Refusef(engine.ErrNotYourTurn, "%s records only their own hand; the table deals to %s", "%s n'enregistre que sa propre main ; c'est la table qui distribue à %s", s.player(by), s.player(to))
		}
	}
	if to == engine.NoSeat {
		to = s.firstShort()
	}
	if to < 0 || to >= Players {
		return nil, engine.Refuse(engine.ErrBadArgument, "deal to whom? give to=Name", "distribuer à qui ? donnez to=Nom")
	}
	var cards []int
	for _, id := range c.Cards {
		i, err := s.card(id)
		if err != nil {
			return nil, err
		}
		cards = append(cards, i)
	}
	for _, g := range c.Goods {
		gi, ok := s.cat.Good(g)
		if !ok {
			return nil, s.unknownGood(g)
		}
		for k := range CardsPerGood {
			cards = append(cards, gi*CardsPerGood+k)
		}
	}
	if len(cards) == 0 {
		return nil, engine.Refuse(engine.ErrBadArgument, "deal which cards? give cards=ID,ID or goods=good,good", "distribuer quelles cartes ? donnez cards=ID,ID ou goods=marchandise,marchandise")
	}
	seen := map[int]bool{}
	for _, i := range cards {
		switch {
		case i == contrabandIdx:
			return nil, engine.Refuse(ErrDealContraband, "", "")
		case seen[i]:
			return nil, engine.Refuse(ErrAlreadyDealt, fmt.Sprintf("%s is dealt twice in this deal", s.cat.Phrase(i, "en")), fmt.Sprintf("%s est distribuée deux fois dans cette donne", s.cat.Phrase(i, "fr")))
		case s.loc[i] != locUndealt:
			return nil, engine.Refuse(ErrAlreadyDealt, fmt.Sprintf("%s was dealt already", s.cat.Phrase(i, "en")), fmt.Sprintf("%s a déjà été distribuée", s.cat.Phrase(i, "fr")))
		}
		seen[i] = true
	}
	if n := s.handSize(to); n+len(cards) > HandSize {
		return nil, engine.Refusef(ErrHandFull, "%s has %d cards: %d more would make %d, and a hand is %d cards", "%s a %d cartes : %d de plus feraient %d, et une main compte %d cartes",
			s.player(to), n, len(cards), n+len(cards), HandSize)
	}
	goods := map[int]bool{}
	for i, l := range s.loc[:contrabandIdx] {
		if l == int8(to) {
			goods[GoodOf(i)] = true
		}
	}
	for _, i := range cards {
		g := GoodOf(i)
		goods[g] = true
		for k := range CardsPerGood {
			if l := s.loc[g*CardsPerGood+k]; l >= 0 && l != int8(to) {
				// Not saying who has them: hands are secret, even while dealing.
				return nil, engine.Refuse(ErrWholeGoods,
					fmt.Sprintf("the four %s cards go to one player, and another player was dealt some already", s.cat.GoodName(g, "en")),
					fmt.Sprintf("les quatre cartes %s vont au même joueur, et un autre joueur en a déjà reçu", s.cat.GoodName(g, "fr")))
			}
		}
	}
	if len(goods) > 2 {
		return nil, engine.Refusef(ErrWholeGoods, "%s would hold %d different goods; each player gets exactly two whole goods", "%s aurait %d marchandises différentes ; chaque joueur reçoit exactement deux séries complètes",
			s.player(to), len(goods))
	}
	slices.Sort(cards)
	ev := Dealt{To: to}
	for _, i := range cards {
		ev.Cards = append(ev.Cards, s.cat.ID(i))
	}
	return []engine.Event{ev}, nil
}

func (s *State) decideBid(by engine.Seat, c Bid) ([]engine.Event, error) {
	if s.phase != PhaseAuction {
		return nil, s.notNow("bid")
	}
	if !s.opened {
		if isTable(by) {
			return nil, engine.Refuse(engine.ErrBadArgument, "who opens? the player drawn at random bids 1 themselves (Name: bid price=1)", "qui commence ? le joueur tiré au sort dit 1 lui-même (Nom: bid price=1)")
		}
		if c.Price != 1 {
			return nil, engine.Refusef(ErrOpenAtOne, "%s opens at %d: the auction opens at 1", "%s ouvre à %d : les enchères débutent obligatoirement à 1", s.player(by), c.Price)
		}
		if s.coins[by] < 1 {
			return nil, engine.Refusef(engine.ErrCannotPay, "%s has no coin to bid", "%s n'a pas de pièce pour enchérir", s.player(by))
		}
		return []engine.Event{BidMade{By: by, Price: 1}}, nil
	}
	if !isTable(by) && s.passed[by] {
		return nil, engine.Refusef(ErrPassedOut, "%s passed and is out of the auction", "%s s'est retiré des enchères, définitivement", s.player(by))
	}
	if !isTable(by) && by != s.turn {
		return nil, engine.Refusef(engine.ErrNotYourTurn, "it is %s's turn to raise or pass", "c'est à %s de surenchérir ou de se retirer", s.player(s.turn))
	}
	p := s.turn
	raise := c.Price - s.price
	if raise != 1 && raise != 2 {
		return nil, engine.Refusef(ErrRaise, "a bid of %d is a raise of %d: the price is %d, so bid %d or %d", "une enchère de %d est une surenchère de %d : le prix est de %d, dites %d ou %d",
			c.Price, raise, s.price, s.price+1, s.price+2)
	}
	if c.Price > s.coins[p] {
		return nil, engine.Refusef(engine.ErrCannotPay, "%s has %d coins and cannot bid %d", "%s a %d pièces et ne peut pas enchérir à %d", s.player(p), s.coins[p], c.Price)
	}
	return []engine.Event{BidMade{By: p, Price: c.Price}}, nil
}

func (s *State) decidePass(by engine.Seat) ([]engine.Event, error) {
	if s.phase != PhaseAuction {
		return nil, s.notNow("pass")
	}
	if !s.opened {
		return nil, engine.Refuse(ErrMustOpen, "", "")
	}
	if !isTable(by) && s.passed[by] {
		return nil, engine.Refusef(ErrPassedOut, "%s passed already", "%s s'est déjà retiré", s.player(by))
	}
	if !isTable(by) && by != s.turn {
		return nil, engine.Refusef(engine.ErrNotYourTurn, "it is %s's turn to raise or pass", "c'est à %s de surenchérir ou de se retirer", s.player(s.turn))
	}
	evs := []engine.Event{Passed{By: s.turn}}
	left := 0
	for p, out := range s.passed {
		if !out && engine.Seat(p) != s.turn {
			left++
		}
	}
	if left == 1 {
		evs = append(evs, AuctionWon{By: s.high, Price: s.price})
	}
	return evs, nil
}

func (s *State) decideLay(by engine.Seat, c Lay) ([]engine.Event, error) {
	switch s.phase {
	case PhaseDeal:
		return s.decideDeal(by, Deal{To: engine.NoSeat, Cards: []CardID{c.Card}})
	case PhaseAuction, PhaseForceName:
		return nil, s.notNow("lay")
	case PhaseForcePick:
		return s.decidePick(by, Pick{Card: c.Card})
	}
	i, err := s.card(c.Card)
	if err != nil {
		return nil, err
	}
	if s.phase == PhaseLay {
		p, err := s.sellerActs(by, "lay")
		if err != nil {
			return nil, err
		}
		if s.loc[i] != int8(p) {
			return nil, s.notHolding(p, i)
		}
		return []engine.Event{Laid{By: p, Card: c.Card, Up: c.Up}}, nil
	}
	// PhaseNegotiate: a second card of the seller forces the sale; a
	// buyer's card is his offer.
	switch l := s.loc[i]; {
	case l == locMarket && !isTable(by) && by != s.seller:
		// A buyer must not learn the face-down card by probing it.
		return nil, s.notHolding(by, i)
	case l == locMarket:
		if !s.up && c.Up {
			return nil, engine.Refusef(ErrCannotTurn, "the card for sale was laid face down and stays so", "la carte en vente a été posée face cachée et le reste")
		}
		return nil, engine.Refusef(ErrNoTakeBack, "that card is on the market already and stays there until it is sold", "cette carte est déjà sur le marché et y reste jusqu'à sa vente")
	case engine.Seat(l) == s.seller:
		if !isTable(by) && by != s.seller {
			return nil, s.notHolding(by, i)
		}
		if c.Up {
			return nil, engine.Refuse(ErrForcedUp, "", "")
		}
		return s.decideForce(s.seller, Force{Card: c.Card})
	default:
		b := engine.Seat(l)
		if !isTable(by) && by != b {
			return nil, s.notHolding(by, i)
		}
		return s.decideOffer(b, Offer{Card: c.Card, Up: c.Up, Coins: s.offers[b].coins})
	}
}

func (s *State) decideOffer(by engine.Seat, c Offer) ([]engine.Event, error) {
	if s.phase != PhaseNegotiate {
		return nil, s.notNow("offer")
	}
	if isTable(by) {
		return nil, engine.Refuse(engine.ErrBadArgument, "an offer comes from a buyer: write Name: offer ...", "une offre vient d'un acheteur : écrivez Nom: offer ...")
	}
	if by == s.seller {
		return nil, engine.Refusef(ErrSellerBuys, "%s sells and cannot offer for their own card", "%s vend et ne peut pas faire d'offre pour sa propre carte", s.player(by))
	}
	if c.Coins < 0 {
		return nil, engine.Refusef(engine.ErrBadArgument, "coins=%d: an offer of coins is 0 or more", "coins=%d : une offre de pièces est de 0 ou plus", c.Coins)
	}
	if c.Card == "" && c.Coins == 0 {
		return nil, engine.Refuse(ErrEmptyOffer, "an offer is a card, coins, or both; to take an offer back, withdraw it", "une offre est une carte, des pièces, ou les deux ; pour annuler une offre, retirez-la")
	}
	if c.Card != "" {
		i, err := s.card(c.Card)
		if err != nil {
			return nil, err
		}
		if s.loc[i] != int8(by) {
			return nil, s.notHolding(by, i)
		}
	} else {
		c.Up = false
	}
	if c.Coins > s.coins[by] {
		return nil, engine.Refusef(engine.ErrCannotPay, "%s has %d coins and cannot offer %d", "%s a %d pièces et ne peut pas en proposer %d", s.player(by), s.coins[by], c.Coins)
	}
	return []engine.Event{Offered{By: by, Card: c.Card, Up: c.Up, Coins: c.Coins}}, nil
}

func (s *State) decideWithdraw(by engine.Seat) ([]engine.Event, error) {
	if s.phase != PhaseNegotiate {
		return nil, s.notNow("withdraw")
	}
	if isTable(by) {
		return nil, engine.Refuse(engine.ErrBadArgument, "whose offer? write Name: withdraw", "l'offre de qui ? écrivez Nom: withdraw")
	}
	if !s.offers[by].active {
		return nil, engine.Refusef(ErrNoOffer, "%s has no offer to take back", "%s n'a pas d'offre à retirer", s.player(by))
	}
	return []engine.Event{Withdrawn{By: by}}, nil
}

func (s *State) decideBonus(by engine.Seat, c Bonus) ([]engine.Event, error) {
	if s.phase != PhaseNegotiate {
		return nil, s.notNow("bonus")
	}
	p, err := s.sellerActs(by, "bonus")
	if err != nil {
		return nil, err
	}
	if c.Coins < 0 {
		return nil, engine.Refusef(engine.ErrBadArgument, "coins=%d: the seller lays 0 coins or more on their card", "coins=%d : le vendeur pose 0 pièce ou plus sur sa carte", c.Coins)
	}
	if c.Coins > s.coins[p] {
		return nil, engine.Refusef(engine.ErrCannotPay, "%s has %d coins and cannot lay %d on their card", "%s a %d pièces et ne peut pas en poser %d sur sa carte", s.player(p), s.coins[p], c.Coins)
	}
	return []engine.Event{BonusSet(c)}, nil
}

func (s *State) decideAccept(by engine.Seat, c Accept) ([]engine.Event, error) {
	if s.phase != PhaseNegotiate {
		return nil, s.notNow("accept")
	}
	p, err := s.sellerActs(by, "accept")
	if err != nil {
		return nil, err
	}
	b := c.From
	if b < 0 || b >= Players {
		return nil, engine.Refuse(engine.ErrBadArgument, "accept whose offer? give from=Name", "accepter l'offre de qui ? donnez from=Nom")
	}
	if b == p || !s.offers[b].active {
		return nil, engine.Refusef(ErrNoOffer, "%s has no offer on the table", "%s n'a pas d'offre sur la table", s.player(b))
	}
	o := s.offers[b]
	ev := Sold{Seller: p, Buyer: b, Card: s.cat.ID(int(s.market[0])), Bonus: s.bonus, Coins: o.coins}
	if o.card != noCard {
		ev.Paid = s.cat.ID(int(o.card))
	}
	return s.withWin(ev, b, p)
}

func (s *State) decideForce(by engine.Seat, c Force) ([]engine.Event, error) {
	if s.phase != PhaseNegotiate {
		return nil, s.notNow("force")
	}
	p, err := s.sellerActs(by, "force")
	if err != nil {
		return nil, err
	}
	i, err := s.card(c.Card)
	if err != nil {
		return nil, err
	}
	if s.loc[i] != int8(p) {
		return nil, s.notHolding(p, i)
	}
	return []engine.Event{Forced(c)}, nil
}

func (s *State) unknownGood(g Good) error {
	f := fold(string(g))
	if f == fold(string(s.cat.ContrabandID)) || f == fold(s.cat.ContrabandFR) || f == fold(s.cat.ContrabandEN) {
		return engine.Refuse(ErrNameContraband, "", "")
	}
	return engine.Refusef(ErrUnknownGood, "%q is not a good; goods: %s (or their numbers 1 to 8)", "%q n'est pas une marchandise ; marchandises : %s (ou leurs numéros de 1 à 8)",
		g, strings.Join(s.cat.GoodKeys(), ", "))
}

func (s *State) decideName(by engine.Seat, c NameGood) ([]engine.Event, error) {
	if s.phase != PhaseForceName {
		return nil, s.notNow("name")
	}
	p, err := s.sellerActs(by, "name")
	if err != nil {
		return nil, err
	}
	g, ok := s.cat.Good(c.Good)
	if !ok {
		return nil, s.unknownGood(c.Good)
	}
	if s.goods(p)[g] > 0 {
		return nil, engine.Refuse(ErrNameHeld, fmt.Sprintf("%s has %s in hand and cannot ask for it", s.player(p), s.cat.GoodName(g, "en")),
			fmt.Sprintf("%s a déjà la marchandise %s en main et ne peut pas la demander", s.player(p), s.cat.GoodName(g, "fr")))
	}
	revealed := s.holdersOf(g)
	if len(revealed) == 0 {
		return nil, engine.Refuse(ErrNameNobody, fmt.Sprintf("no buyer holds %s: name another good", s.cat.GoodName(g, "en")),
			fmt.Sprintf("aucun acheteur n'a la marchandise %s : annoncez-en une autre", s.cat.GoodName(g, "fr")))
	}
	return []engine.Event{Named{Good: s.cat.Goods[g].Key, Revealed: revealed}}, nil
}

// holdersOf lists the buyers' cards of good g.
func (s *State) holdersOf(g int) []CardID {
	var out []CardID
	for k := range CardsPerGood {
		i := g*CardsPerGood + k
		if l := s.loc[i]; l >= 0 && engine.Seat(l) != s.seller {
			out = append(out, s.cat.ID(i))
		}
	}
	return out
}

func (s *State) decidePick(by engine.Seat, c Pick) ([]engine.Event, error) {
	if s.phase != PhaseForcePick {
		return nil, s.notNow("pick")
	}
	p, err := s.sellerActs(by, "pick")
	if err != nil {
		return nil, err
	}
	i, err := s.card(c.Card)
	if err != nil {
		return nil, err
	}
	revealed := s.holdersOf(s.named)
	if !slices.Contains(revealed, c.Card) {
		return nil, s.notRevealed(i, revealed)
	}
	ev := ForcedSold{Seller: p, Buyer: engine.Seat(s.loc[i]), Card: c.Card,
		Market: []CardID{s.cat.ID(int(s.market[0])), s.cat.ID(int(s.market[1]))}}
	return s.withWin(ev, ev.Buyer, p)
}

// notRevealed refuses to pick card i, which was not shown: it names the
// buyers who showed a card of the good asked for.
func (s *State) notRevealed(i int, revealed []CardID) error {
	var who []string
	for _, id := range revealed {
		if j, ok := s.cat.Card(id); ok && !slices.Contains(who, s.player(engine.Seat(s.loc[j]))) {
			who = append(who, s.player(engine.Seat(s.loc[j])))
		}
	}
	g := s.named
	return engine.Refuse(ErrNotRevealed,
		fmt.Sprintf("that %s card was not shown; take a %s card from %s", s.cat.Name(i, "en"), s.cat.GoodName(g, "en"), strings.Join(who, " or ")),
		fmt.Sprintf("cette carte %s n'a pas été montrée ; prenez une carte %s à %s", s.cat.Name(i, "fr"), s.cat.GoodName(g, "fr"), strings.Join(who, " ou ")))
}

// withWin returns the sale's event, followed by the win if the sale made
// a winner: the buyer when both he and the seller qualify.
func (s *State) withWin(sale engine.Event, buyer, seller engine.Seat) ([]engine.Event, error) {
	next, err := s.Apply(sale)
	if err != nil {
		return nil, err
	}
	n := next.(*State)
	order := []engine.Seat{buyer, seller}
	for p := range Players {
		if engine.Seat(p) != buyer && engine.Seat(p) != seller {
			order = append(order, engine.Seat(p))
		}
	}
	for _, p := range order {
		if n.qualifies(p) {
			return []engine.Event{sale, Won{By: p}}, nil
		}
	}
	return []engine.Event{sale}, nil
}
