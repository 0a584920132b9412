package genoa

import (
	"fmt"
	"slices"
	"strings"

	"comptoir/engine"
)

// tx collects the events a command produces, applying each to a scratch
// state so that later checks see the effect of earlier events.
type tx struct {
	s   *State
	evs []engine.Event
}

func (t *tx) emit(ev engine.Event) {
	if err := t.s.apply(ev); err != nil {
		// Decide only emits events it checked; an error here is a bug.
		panic(fmt.Sprintf("genoa: decided event %s does not apply: %v", ev.Name(), err))
	}
	t.evs = append(t.evs, ev)
}

func (t *tx) give(from, to engine.Seat, reason string, b bundle) {
	if b.empty() {
		return
	}
	t.emit(t.s.transferOf(from, to, reason, b))
}

func (t *tx) closeWindow() {
	if t.s.Win.Seat != engine.NoSeat {
		t.emit(ActionEnded{})
	}
}

// Decide checks an action and returns the events it produces.
func (s *State) Decide(a engine.Action) (evs []engine.Event, err error) {
	if s.Phase == phOver {
		return nil, engine.Refuse(engine.ErrGameOver, "", "")
	}
	if a.Cmd == nil {
		return nil, engine.Refuse(engine.ErrBadArgument, "no command", "pas de commande")
	}
	if a.By != engine.NoSeat && a.By != engine.Staff && (a.By < 0 || int(a.By) >= s.n) {
		return nil, refuse(engine.ErrNotYourTurn).enf("%v is not a player of this game", a.By).frf("%v n'est pas un joueur de cette partie", a.By)
	}
	if c, ok := a.Cmd.(Correct); ok {
		t := &tx{s: s.clone()}
		if err := t.correct(a.By, c); err != nil {
			return nil, err
		}
		return t.evs, nil
	}
	if a.By == engine.Staff {
		// The staff play a game command as the table does.
		a.By = engine.NoSeat
	}
	if _, ok := a.Cmd.(Draw); !ok && len(s.Pending) > 0 {
		p := s.Pending[0]
		return nil, refuse(ErrDrawFirst).enf("%s must first draw %s of the %s deck", s.name(p.Seat), Count(p.N, "card", "cards", "en"), deckEN[p.Deck]).frf("%s doit d'abord piocher %s %s", s.name(p.Seat), Count(p.N, "carte", "cartes", "fr"), deckFR[p.Deck])
	}
	t := &tx{s: s.clone(), evs: make([]engine.Event, 0, 8)}
	switch c := a.Cmd.(type) {
	case Roll:
		err = t.roll(a.By, c)
	case Start:
		err = t.start(a.By, c)
	case Move:
		err = t.move(a.By, c)
	case Deal:
		err = t.deal(a.By, c)
	case Offer:
		err = t.offer(a.By, c)
	case Accept:
		err = t.accept(a.By, c)
	case Act:
		err = t.act(a.By, c)
	case Draw:
		err = t.draw(a.By, c)
	case Deliver:
		err = t.deliver(a.By, c)
	case Extra:
		err = t.extra(a.By)
	case Take:
		err = t.take(a.By, c)
	case Trade:
		err = t.trade(a.By, c)
	case Build:
		err = t.build(a.By, c)
	case End:
		err = t.end(a.By)
	case Acquire:
		err = t.acquire(a.By, c)
	case Pass:
		err = t.pass(a.By)
	default:
		return nil, refuse(engine.ErrUnknownCommand).enf("genoa has no command %q", a.Cmd.Name()).frf("genoa n'a pas de commande %q", a.Cmd.Name())
	}
	if err != nil {
		return nil, err
	}
	t.messages()
	return t.evs, nil
}

// messages delivers every message whose two buildings the pawn visited
// this turn, whoever acted there.
func (t *tx) messages() {
	s := t.s
	if s.Phase != phMove || len(s.Pending) > 0 || len(s.Path) < 2 {
		return
	}
	for seat := range s.players() {
		// The hand changes as messages are delivered: find them first.
		var due []int
		for c := range s.P[seat].Cards.All() {
			cd := s.d.cards[c]
			if cd.Deck == deckMessage && s.visited(s.d.blds[cd.Pair[0]].Square) && s.visited(s.d.blds[cd.Pair[1]].Square) {
				due = append(due, c)
			}
		}
		for _, c := range due {
			t.give(engine.Seat(seat), engine.NoSeat, "message", bundle{Cards: []int{c}})
			t.give(engine.NoSeat, engine.Seat(seat), "message", bundle{Ducats: s.d.prof.Message})
			t.emit(Delivered{Seat: engine.Seat(seat), Card: s.d.cards[c].ID})
		}
	}
}

// merchantOnly checks that by is the merchant or the table.
func (s *State) merchantOnly(by engine.Seat, what, whatFR string) error {
	if by != engine.NoSeat && by != s.Merchant {
		return refuse(ErrNotMerchant).enf("only the merchant (%s) may %s", s.name(s.Merchant), what).frf("seul le marchand (%s) peut %s", s.name(s.Merchant), whatFR)
	}
	return nil
}

func (s *State) inPhase(p phase, what, whatFR string) error {
	if s.Phase == p {
		return nil
	}
	var en, fr string
	switch s.Phase {
	case phStart:
		en, fr = "the merchant must first roll the dice or play a start-space tile", "le marchand doit d'abord lancer les dés ou jouer une tuile case départ"
	case phMove:
		en, fr = "the merchant is moving the pawn", "le marchand déplace le pion"
	case phAcquire:
		en, fr = "this is the acquisition of buildings", "c'est l'acquisition de bâtiments"
	}
	return refuse(engine.ErrNotNow).enf("you cannot %s now: %s", what, en).frf("vous ne pouvez pas %s maintenant : %s", whatFR, fr)
}

func (t *tx) placePawn(sq int, blue, red int) {
	s := t.s
	t.emit(PawnPlaced{Square: s.d.place(sq), Blue: blue, Red: red})
	if sq == s.d.market && s.marketAdvances() && !(s.d.prof.LastRoundFull && s.lastRound()) {
		t.emit(TrackAdvanced{Track: s.Track + 1})
	}
}

func (s *State) marketAdvances() bool {
	return s.d.prof.MarketAdvances && s.setup.Options[OptMarketAdvance] != "off"
}

func (t *tx) roll(by engine.Seat, c Roll) error {
	s := t.s
	if err := s.inPhase(phStart, "roll the dice", "lancer les dés"); err != nil {
		return err
	}
	if err := s.merchantOnly(by, "roll the dice", "lancer les dés"); err != nil {
		return err
	}
	if c.Blue < 1 || c.Blue > 8 || c.Red < 1 || c.Red > 8 {
		return refuse(ErrBadDice).enf("blue %d, red %d: each die reads 1 to 8", c.Blue, c.Red).frf("bleu %d, rouge %d : chaque dé donne 1 à 8", c.Blue, c.Red)
	}
	t.placePawn(s.d.at[c.Blue-1][c.Red-1], c.Blue, c.Red)
	return nil
}

func (t *tx) start(by engine.Seat, c Start) error {
	s := t.s
	if err := s.inPhase(phStart, "choose the start square", "choisir la case départ"); err != nil {
		return err
	}
	if err := s.merchantOnly(by, "choose the start square", "choisir la case départ"); err != nil {
		return err
	}
	if s.P[s.Merchant].Tiles[tileStart] == 0 {
		return refuse(ErrNoTile).enf("%s holds no start-space tile: roll the dice", s.name(s.Merchant)).frf("%s n'a pas de tuile case départ : lancez les dés", s.name(s.Merchant))
	}
	sq, err := s.square(c.Square)
	if err != nil {
		return err
	}
	t.playTile(s.Merchant, tileStart)
	t.placePawn(sq, 0, 0)
	return nil
}

func (t *tx) playTile(seat engine.Seat, tile int) {
	var b bundle
	b.Tiles[tile] = 1
	t.give(seat, engine.NoSeat, "tile", b)
	t.emit(TilePlayed{Seat: seat, Tile: tileKeys[tile]})
}

func (s *State) square(p Place) (int, error) {
	sq, ok := s.d.squareOf(p)
	if !ok {
		return -1, refuse(ErrUnknownSquare).enf("no square %q: write a building (%s), market, or a cell as blue-red, e.g. 3-2", p, s.bldKeys()).frf("pas de case %q : écrivez un bâtiment (%s), market, ou une case bleu-rouge, p. ex. 3-2", p, s.bldKeys())
	}
	return sq, nil
}

func (s *State) bldKeys() string {
	keys := make([]string, len(s.d.blds))
	for i, b := range s.d.blds {
		keys[i] = b.Key
	}
	return strings.Join(keys, ", ")
}

// step checks that the pawn may go to p now.
func (s *State) step(p Place) (int, error) {
	if en, fr := s.obligation(); en != "" {
		return -1, engine.Refuse(ErrPending, en, fr)
	}
	sq, err := s.square(p)
	if err != nil {
		return -1, err
	}
	if len(s.Path) > 4 {
		return -1, engine.Refuse(ErrNoMovesLeft, "the pawn has made its 4 moves: end the movement", "le pion a fait ses 4 déplacements : terminez le déplacement")
	}
	if s.visited(sq) {
		next, nextFR := s.nextSquares()
		return -1, refuse(ErrVisited).enf("%s was already visited this turn; the pawn can go to: %s", s.sqName(sq, "en"), next).frf("déjà visité ce tour-ci : %s ; le pion peut aller sur : %s", s.sqName(sq, "fr"), nextFR)
	}
	if !slices.Contains(s.d.adj[s.pawn()], sq) {
		next, nextFR := s.nextSquares()
		return -1, refuse(ErrNotAdjacent).enf("%s does not touch %s, where the pawn stands; the pawn can go to: %s", s.sqName(sq, "en"), s.sqName(s.pawn(), "en"), next).frf("%s ne touche pas %s, où se trouve le pion ; le pion peut aller sur : %s", s.sqName(sq, "fr"), s.sqName(s.pawn(), "fr"), nextFR)
	}
	return sq, nil
}

// nextSquares lists the squares the pawn can move to in one move, in both
// languages, for refusals.
func (s *State) nextSquares() (string, string) {
	var out []int
	for _, sq := range s.d.adj[s.pawn()] {
		if !s.visited(sq) {
			out = append(out, sq)
		}
	}
	if len(out) == 0 {
		return "none (end the movement)", "aucune (terminez le déplacement)"
	}
	return s.sqNames(out, "en"), s.sqNames(out, "fr")
}

func (t *tx) move(by engine.Seat, c Move) error {
	s := t.s
	if err := s.inPhase(phMove, "move the pawn", "déplacer le pion"); err != nil {
		return err
	}
	if err := s.merchantOnly(by, "move the pawn", "déplacer le pion"); err != nil {
		return err
	}
	t.closeWindow()
	for _, p := range append(slices.Clip(c.Via), c.To) {
		sq, err := s.step(p)
		if err != nil {
			return err
		}
		t.emit(PawnMoved{To: s.d.place(sq)})
	}
	return nil
}

// payment reads and checks what an offerer gives: held, not empty, within
// the edition's offer rules.
func (s *State) payment(from engine.Seat, ducats int, goods map[string]int, cards []string, tiles map[string]int, markers int, promise string, hasAfter bool) (bundle, error) {
	b, err := s.bundleOf(ducats, goods, cards, tiles, markers)
	if err != nil {
		return b, refuse(engine.ErrBadArgument).enf("%v", err).frf("%v", err)
	}
	if m, mfr := s.missing(from, b); m != "" {
		return b, refuse(engine.ErrCannotPay).enf("%s cannot give %s", s.name(from), m).frf("%s ne peut pas donner %s", s.name(from), mfr)
	}
	if promise != "" {
		if !s.d.prof.Promises {
			return b, engine.Refuse(ErrPromise, "this edition allows no promises in an offer: only goods in hand (or from the action)", "cette édition ne permet aucune promesse dans une offre : seulement des biens possédés (ou issus de l'action)")
		}
		if b.empty() && !hasAfter {
			return b, engine.Refuse(ErrPromise, "a promise comes only on top of money or goods", "une promesse ne vient qu'en plus d'argent ou de biens")
		}
	}
	if s.n == 2 && s.d.prof.TwoPlayerOfferGoods && b.onlyMoney() && !hasAfter {
		return b, engine.Refuse(ErrMoneyOnly, "with two players an offer must hold at least one good, card, tile or marker besides money", "à deux joueurs, une offre doit contenir au moins une marchandise, carte, tuile ou un marqueur en plus de l'argent")
	}
	return b, nil
}

func (t *tx) deal(by engine.Seat, c Deal) error {
	s := t.s
	if err := s.inPhase(phMove, "make a deal", "conclure un marché"); err != nil {
		return err
	}
	if c.From < 0 || int(c.From) >= s.n {
		return refuse(engine.ErrBadArgument).enf("deal: from= must name the player who offers").frf("deal : from= doit nommer le joueur qui offre")
	}
	if c.From == s.Merchant {
		return engine.Refuse(ErrMerchantOffer, "the merchant makes no offer to themselves: the merchant moves the pawn (move) and takes an action (act); offers come from the other players", "le marchand ne se fait pas d'offre à lui-même : il déplace le pion (move) et fait lui-même une action (act)")
	}
	if by != engine.NoSeat && by != s.Merchant {
		// The offerer proposes; the merchant concludes (his phone
		// accepting the proposal, or a line of his), or the table.
		return refuse(ErrDealByMerchant).enf("only the merchant (%s) concludes a deal: %s, send it as an offer (a proposal) to the merchant, who accepts it or not", s.name(s.Merchant), s.name(by)).frf("seul le marchand (%s) conclut un marché : %s, envoyez-le comme offre (une proposition) au marchand, qui l'accepte ou non", s.name(s.Merchant), s.name(by))
	}
	if to, ok := s.d.squareOf(c.To); ok && !s.visited(to) && !slices.Contains(s.d.adj[s.pawn()], to) && s.obligationFree() {
		next, nextFR := s.nextSquares()
		return refuse(ErrNotAdjacent).enf("a deal is made for a square next to the pawn (%s); an offer for %s, farther away, is only a suggestion until the pawn stands next to it", next, s.sqName(to, "en")).frf("un marché se conclut pour une case voisine du pion (%s) ; une offre pour %s, plus loin, n'est qu'une suggestion tant que le pion n'est pas à côté", nextFR, s.sqName(to, "fr"))
	}
	sq, err := s.step(c.To)
	if err != nil {
		return err
	}
	pay, err := s.payment(c.From, c.Ducats, c.Goods, c.Cards, c.Tiles, c.Markers, c.Promise, len(c.After) > 0)
	if err != nil {
		return err
	}
	back, err := s.bundleOf(c.MerchantDucats, c.MerchantGoods, c.MerchantCards, c.MerchantTiles, 0)
	if err != nil {
		return refuse(engine.ErrBadArgument).enf("%v", err).frf("%v", err)
	}
	if m, mfr := s.missing(s.Merchant, back); m != "" {
		return refuse(engine.ErrCannotPay).enf("the merchant cannot give %s", m).frf("le marchand ne peut pas donner %s", mfr)
	}
	if pay.empty() && back.empty() && len(c.After) == 0 {
		return engine.Refuse(ErrEmptyDeal, "a deal must give something: ducats, goods, cards, tiles or markers", "un marché doit donner quelque chose : ducats, marchandises, cartes, tuiles ou marqueurs")
	}
	if pay.Markers > s.Common[s.Merchant] {
		return refuse(engine.ErrCannotPay).enf("the common supply has only %d markers of the merchant's colour", s.Common[s.Merchant]).frf("la réserve commune n'a que %d marqueurs de la couleur du marchand", s.Common[s.Merchant])
	}
	b := s.d.squares[sq].Bld
	if b >= 0 && !s.canAct(c.From) {
		return refuse(ErrNoActionLeft).enf("%s has taken their action this turn and could not take the action there (an extra-action tile played first gives one more; a deal for a street needs no action)", s.name(c.From)).frf("%s a déjà fait son action ce tour-ci et ne pourrait pas faire celle de ce bâtiment (une tuile action supplémentaire jouée d'abord en donne une de plus ; un marché pour une rue ne demande pas d'action)", s.name(c.From))
	}
	if len(c.After) > 0 {
		if err := s.checkAfter(b, c.After); err != nil {
			return err
		}
	}
	t.closeWindow()
	t.give(c.From, s.Merchant, "deal", pay)
	t.give(s.Merchant, c.From, "deal", back)
	t.emit(PawnMoved{To: s.d.place(sq)})
	if b >= 0 {
		t.emit(ActorChosen{Seat: c.From, After: c.After})
	}
	return nil
}

// checkAfter checks that what is to be paid after the action is what the
// action of building b gives now (a warehouse's goods, a tile).
func (s *State) checkAfter(b int, after map[string]int) error {
	if b < 0 {
		return engine.Refuse(ErrAfter, "a street gives nothing to pay with after the move: pay with what you hold now", "une rue ne rapporte rien qui puisse payer après le déplacement : payez avec ce que vous avez maintenant")
	}
	bl := s.d.blds[b]
	for k, v := range after {
		ok := v >= 0
		if g, isGood := s.d.goodByK[k]; isGood {
			ok = ok && bl.Act == aWarehouse && (bl.Goods[0] == g || bl.Goods[1] == g) && v <= 1 && s.Supply[g] >= v
		} else if ti := tileIndex(k); ti >= 0 {
			ok = ok && bl.Act == aTile && bl.Tile == ti && v <= 1 && s.TileSup[ti] >= v
		} else {
			ok = false
		}
		if !ok {
			gives := "nothing that can be promised (cards drawn are unknown until drawn)"
			givesFR := "rien qui puisse être promis (les cartes piochées sont inconnues avant la pioche)"
			switch bl.Act {
			case aWarehouse:
				gives = "one " + s.d.prof.Goods[bl.Goods[0]] + " and one " + s.d.prof.Goods[bl.Goods[1]] + ", while the supply has them"
				givesFR = "1 " + s.d.prof.GoodsFR[bl.Goods[0]] + " et 1 " + s.d.prof.GoodsFR[bl.Goods[1]] + ", tant que la réserve en a"
			case aTile:
				gives = "one " + tileKeys[bl.Tile] + " tile, while the supply has one"
				givesFR = "une tuile " + tileFR[bl.Tile] + ", tant que la réserve en a"
			}
			return refuse(ErrAfter).enf("%d %s: the action of %s will not give it; it gives %s", v, k, bl.NameEN, gives).frf("%d %s : l'action de %s ne le donnera pas ; elle donne %s", v, k, bl.NameFR, givesFR)
		}
	}
	return nil
}

func (s *State) openFor(what, whatFR string) (int, error) {
	if err := s.inPhase(phMove, what, whatFR); err != nil {
		return -1, err
	}
	b := s.curBld()
	if b < 0 {
		return -1, refuse(ErrNoBuilding).enf("the pawn is on %s, where there is no action: actions are taken in the 18 buildings", s.sqName(s.pawn(), "en")).frf("le pion est sur %s, où il n'y a pas d'action : les actions se font dans les 18 bâtiments", s.sqName(s.pawn(), "fr"))
	}
	if s.Done[b] {
		return -1, refuse(ErrActionTaken).enf("the action of %s was already taken this turn: it is taken once per turn; the merchant may move the pawn on", s.d.blds[b].NameEN).frf("l'action de %s a déjà été faite ce tour-ci : elle ne se fait qu'une fois par tour ; le marchand peut déplacer le pion plus loin", s.d.blds[b].NameFR)
	}
	return b, nil
}

func (t *tx) offer(by engine.Seat, c Offer) error {
	s := t.s
	b, err := s.openFor("make an offer", "faire une offre")
	if err != nil {
		return err
	}
	if by == engine.NoSeat {
		return engine.Refuse(engine.ErrBadArgument, "an offer comes from a player: write \"Name: offer ...\"", "une offre vient d'un joueur : écrivez « Nom: offer ... »")
	}
	if by == s.Merchant {
		return engine.Refuse(ErrMerchantOffer, "the merchant makes no offer to themselves: the merchant moves the pawn (move) and takes an action (act); offers come from the other players", "le marchand ne se fait pas d'offre à lui-même : il déplace le pion (move) et fait lui-même une action (act)")
	}
	if s.Assigned != engine.NoSeat {
		return refuse(ErrNotYourAction).enf("%s already has the action of %s (by a deal, or a tile played at its start): no offer can be made for it", s.name(s.Assigned), s.d.blds[b].NameEN).frf("%s a déjà l'action de %s (par un marché, ou une tuile jouée à son début) : on ne peut plus faire d'offre pour elle", s.name(s.Assigned), s.d.blds[b].NameFR)
	}
	if !s.canAct(by) {
		return refuse(ErrNoActionLeft).enf("%s has no action left this turn (an extra-action tile played first gives one more)", s.name(by)).frf("%s n'a plus d'action ce tour-ci (une tuile action supplémentaire jouée d'abord en donne une de plus)", s.name(by))
	}
	pay, err := s.payment(by, c.Ducats, c.Goods, c.Cards, c.Tiles, c.Markers, c.Promise, false)
	if err != nil {
		return err
	}
	if pay.empty() {
		return engine.Refuse(ErrEmptyDeal, "an offer must give something: ducats, goods, cards, tiles or markers", "une offre doit donner quelque chose : ducats, marchandises, cartes, tuiles ou marqueurs")
	}
	if pay.Markers > s.Common[s.Merchant] {
		return refuse(engine.ErrCannotPay).enf("the common supply has only %d markers of the merchant's colour", s.Common[s.Merchant]).frf("la réserve commune n'a que %d marqueurs de la couleur du marchand", s.Common[s.Merchant])
	}
	t.emit(OfferMade{Seat: by, Ducats: c.Ducats, Goods: c.Goods, Cards: c.Cards, Tiles: c.Tiles, Markers: c.Markers, Promise: c.Promise})
	return nil
}

func (t *tx) accept(by engine.Seat, c Accept) error {
	s := t.s
	if _, err := s.openFor("accept an offer", "accepter une offre"); err != nil {
		return err
	}
	if err := s.merchantOnly(by, "accept an offer", "accepter une offre"); err != nil {
		return err
	}
	i := slices.IndexFunc(s.Offers, func(o offer) bool { return o.Seat == c.From })
	if i < 0 {
		var from []string
		for _, o := range s.Offers {
			from = append(from, s.name(o.Seat))
		}
		if len(from) == 0 {
			return refuse(ErrNoOffer).enf("%s made no offer for this action, and nobody else did: take the action or move on", s.name(c.From)).frf("%s n'a pas fait d'offre pour cette action, ni personne d'autre : faites l'action ou continuez", s.name(c.From))
		}
		return refuse(ErrNoOffer).enf("%s made no offer for this action; offers stand from: %s", s.name(c.From), strings.Join(from, ", ")).frf("%s n'a pas fait d'offre pour cette action ; offres de : %s", s.name(c.From), strings.Join(from, ", "))
	}
	o := s.Offers[i]
	if m, mfr := s.missing(o.Seat, o.Pay); m != "" {
		return refuse(engine.ErrCannotPay).enf("%s can no longer give %s", s.name(o.Seat), m).frf("%s ne peut plus donner %s", s.name(o.Seat), mfr)
	}
	if !s.canAct(o.Seat) {
		return refuse(ErrNoActionLeft).enf("%s has no action left this turn", s.name(o.Seat)).frf("%s n'a plus d'action ce tour-ci", s.name(o.Seat))
	}
	t.give(o.Seat, s.Merchant, "deal", o.Pay)
	t.emit(ActorChosen{Seat: o.Seat})
	return nil
}

// actor is who may take the current building's action, if anyone.
func (s *State) actor() engine.Seat {
	if s.Assigned != engine.NoSeat {
		return s.Assigned
	}
	if s.open() && s.canAct(s.Merchant) {
		return s.Merchant
	}
	return engine.NoSeat
}

func (t *tx) act(by engine.Seat, c Act) error {
	s := t.s
	b, err := s.openFor("take an action", "faire une action")
	if err != nil {
		return err
	}
	who := s.Assigned
	if who == engine.NoSeat {
		who = s.Merchant
		if by != engine.NoSeat && by != who {
			return refuse(ErrNotYourAction).enf("the action of %s is the merchant's; %s may make an offer for it", s.d.blds[b].NameEN, s.name(by)).frf("l'action de %s revient au marchand ; %s peut faire une offre", s.d.blds[b].NameFR, s.name(by))
		}
		if !s.canAct(who) {
			return refuse(ErrNoActionLeft).enf("the merchant has no action left this turn; accept an offer or move on").frf("le marchand n'a plus d'action ce tour-ci ; acceptez une offre ou continuez")
		}
	} else if by != engine.NoSeat && by != who {
		return refuse(ErrNotYourAction).enf("the action of %s is %s's by the deal", s.d.blds[b].NameEN, s.name(who)).frf("l'action de %s revient à %s par le marché", s.d.blds[b].NameFR, s.name(who))
	}
	after := s.After
	afterT := s.AfterT
	t.closeWindow()
	if err := t.effect(who, b, c.Order, c.Tile, false); err != nil {
		return err
	}
	if o := int(s.Owner[b]); o >= 0 && engine.Seat(o) != who {
		t.give(engine.NoSeat, engine.Seat(o), "income", bundle{Ducats: s.d.prof.Income})
	}
	if who != s.Merchant {
		ab := bundle{Goods: after[:], Tiles: afterT}
		if m, mfr := s.missing(who, ab); m != "" {
			return refuse(engine.ErrCannotPay).enf("%s cannot pay what the deal said after the action: %s", s.name(who), m).frf("%s ne peut pas payer ce que le marché prévoyait après l'action : %s", s.name(who), mfr)
		}
		t.give(who, s.Merchant, "deal", ab)
	}
	return nil
}

// effect gives who the yield of building b's action (the action itself is
// recorded first, so that the window opens).
func (t *tx) effect(who engine.Seat, b int, order, tile string, byTile bool) error {
	s := t.s
	bl := s.d.blds[b]
	if bl.Act != aVilla && (order != "" || tile != "") {
		return refuse(engine.ErrBadArgument).enf("order= and tile= are for the villas; %s has no choice", bl.NameEN).frf("order= et tile= sont pour les villas ; %s n'a pas de choix", bl.NameFR)
	}
	taken := ActionTaken{Seat: who, Building: s.d.bldPlace(b), ByTile: byTile}
	switch bl.Act {
	case aWarehouse:
		t.emit(taken)
		r := bundle{Goods: make([]int, s.d.nGoods())}
		for _, g := range bl.Goods {
			if s.Supply[g] > 0 {
				r.Goods[g] = 1
			}
		}
		t.give(engine.NoSeat, who, "warehouse", r)
	case aTile:
		t.emit(taken)
		if s.TileSup[bl.Tile] > 0 {
			var r bundle
			r.Tiles[bl.Tile] = 1
			t.give(engine.NoSeat, who, "tile", r)
		}
	case aDraw:
		t.emit(taken)
		t.drawDue(who, bl.Deck, bl.Count)
	case aMarkers:
		t.emit(taken)
		t.give(engine.NoSeat, who, "cathedral", bundle{Markers: min(bl.Count, s.Common[who])})
	case aVilla:
		if order == "" {
			if tile != "" {
				return engine.Refuse(engine.ErrBadArgument, "tile= comes with order= (a large order delivered)", "tile= va avec order= (une grosse commande livrée)")
			}
			taken.Option = "contract"
			t.emit(taken)
			t.drawDue(who, deckContract, 1)
			return nil
		}
		ci, ok := s.d.cardByID[order]
		if !ok || s.loc(ci) != int(who) || s.d.cards[ci].Deck != deckLarge {
			return refuse(ErrCard).enf("%s holds no large order %q", s.name(who), order).frf("%s n'a pas de grosse commande %q", s.name(who), order)
		}
		cd := s.d.cards[ci]
		if cd.Villa != b {
			return refuse(ErrCard).enf("large order %s is delivered at %s, not here", order, s.d.blds[cd.Villa].NameEN).frf("la grosse commande %s se livre à %s, pas ici", order, s.d.blds[cd.Villa].NameFR)
		}
		pay := bundle{Goods: make([]int, s.d.nGoods()), Cards: []int{ci}}
		for _, g := range cd.Goods {
			pay.Goods[g]++
		}
		if m, mfr := s.missing(who, pay); m != "" {
			return refuse(engine.ErrCannotPay).enf("large order %s needs %s", order, m).frf("la grosse commande %s demande %s", order, mfr)
		}
		reward := bundle{Ducats: s.d.prof.Large}
		if tile == "" {
			for k := range nTiles {
				if s.TileSup[k] > 0 {
					return engine.Refuse(engine.ErrBadArgument, "a large order gives a tile of your choice: add tile=start|extra|goods|trade|build", "une grosse commande donne une tuile au choix : ajoutez tile=start|extra|goods|trade|build")
				}
			}
		} else {
			k := tileIndex(tile)
			if k < 0 {
				return refuse(engine.ErrBadArgument).enf("%q is not a tile (tiles: %s)", tile, strings.Join(tileKeys[:], ", ")).frf("%q n'est pas une tuile (tuiles : %s)", tile, strings.Join(tileKeys[:], ", "))
			}
			if s.TileSup[k] == 0 {
				return refuse(ErrSupplyEmpty).enf("no %s tile is left in the supply", tile).frf("il ne reste aucune tuile %s", tileFR[k])
			}
			reward.Tiles[k] = 1
		}
		taken.Option = "order"
		t.emit(taken)
		t.give(who, engine.NoSeat, "large-order", pay)
		t.give(engine.NoSeat, who, "large-order", reward)
		t.emit(Delivered{Seat: who, Card: order})
	}
	return nil
}

// drawDue asks for n cards of deck, or as many as the deck still has.
func (t *tx) drawDue(who engine.Seat, deck, n int) {
	n = min(n, t.s.inDeck(deck))
	if n > 0 {
		t.emit(DrawsDue{Seat: who, Deck: deckKeys[deck], N: n})
	}
}

func (s *State) inDeck(deck int) int {
	n := 0
	for i, c := range s.d.cards {
		if c.Deck == deck && s.loc(i) == -1 {
			n++
		}
	}
	return n
}

func (t *tx) draw(by engine.Seat, c Draw) error {
	s := t.s
	if len(s.Pending) == 0 {
		return engine.Refuse(engine.ErrNotNow, "no card is to be drawn now", "aucune carte n'est à piocher maintenant")
	}
	p := s.Pending[0]
	if by != engine.NoSeat && by != p.Seat {
		return refuse(engine.ErrNotYourTurn).enf("%s is drawing", s.name(p.Seat)).frf("%s pioche", s.name(p.Seat))
	}
	ci, ok := s.d.cardByID[c.Card]
	if !ok {
		return refuse(ErrCard).enf("no card %q in the catalog", c.Card).frf("pas de carte %q au catalogue", c.Card)
	}
	if s.d.cards[ci].Deck != p.Deck {
		return refuse(ErrCard).enf("“%s” is not a %s card: %s draws from the %s deck", s.CardName(c.Card, "en"), deckEN[p.Deck], s.name(p.Seat), deckEN[p.Deck]).frf("« %s » n'est pas une carte %s : %s pioche dans la pile %s", s.CardName(c.Card, "fr"), deckFR[p.Deck], s.name(p.Seat), deckFR[p.Deck])
	}
	if s.loc(ci) != -1 {
		// Whose hand is a secret: the refusal does not say.
		return refuse(ErrCard).enf("“%s” is not in the %s deck (it is in a hand): name the card drawn from the deck", s.CardName(c.Card, "en"), deckEN[p.Deck]).frf("« %s » n'est pas dans la pioche %s (elle est dans une main) : indiquez la carte piochée", s.CardName(c.Card, "fr"), deckFR[p.Deck])
	}
	t.emit(CardDrawn{Seat: p.Seat, Card: c.Card})
	return nil
}

// windowSeat is who may play a tile of the action's timing now: the player
// who just acted while the window is open, or the player who has the right
// to take the current building's action and has not yet.
func (s *State) inWindow(seat engine.Seat) bool {
	if s.Phase != phMove {
		return false
	}
	if s.Win.Seat == seat {
		return true
	}
	return s.open() && s.actor() == seat
}

func (s *State) tileHolder(by engine.Seat, tile int, what, whatFR string) (engine.Seat, error) {
	if by == engine.NoSeat {
		return by, refuse(engine.ErrBadArgument).enf("a tile is played by a player: write \"Name: %s ...\"", what).frf("une tuile est jouée par un joueur : écrivez « Nom: %s ... »", what)
	}
	if s.P[by].Tiles[tile] == 0 {
		return by, refuse(ErrNoTile).enf("%s holds no %s tile", s.name(by), tileKeys[tile]).frf("%s n'a pas de tuile %s", s.name(by), tileFR[tile])
	}
	if tile == tileTrade && s.owes(by) {
		return by, refuse(ErrTileTiming).enf("%s owes goods from this action to the merchant: trade after the action, once they are paid", s.name(by)).frf("%s doit au marchand des biens issus de cette action : échangez après l'action, une fois payés", s.name(by))
	}
	if tile != tileExtra && !s.inWindow(by) {
		return by, refuse(ErrTileTiming).enf("%s may play the %s tile only at the start, during or at the end of their own action", s.name(by), tileKeys[tile]).frf("%s ne peut jouer la tuile %s qu'au début, pendant ou à la fin de sa propre action", s.name(by), tileFR[tile])
	}
	return by, nil
}

// commit binds the merchant who plays a tile of the action's timing
// before taking the current building's action: the tile is played "au
// début [...] de sa propre action" (Berclaz 6.5.3), so the action must
// follow, as after a deal. A player who holds the right by a deal, or who
// has just acted, is bound already or is at the end of the action.
func (t *tx) commit(by engine.Seat) {
	s := t.s
	if s.Win.Seat != by && s.Assigned == engine.NoSeat && s.open() && s.actor() == by {
		t.emit(ActorChosen{Seat: by})
	}
}

// owes reports whether seat has the right to the current action by a deal
// that it pays partly with goods from the action.
func (s *State) owes(seat engine.Seat) bool {
	return s.Assigned == seat && (s.After != [maxGoods]int{} || s.AfterT != [nTiles]int{})
}

func (t *tx) deliver(by engine.Seat, c Deliver) error {
	s := t.s
	if by == engine.NoSeat {
		by = s.Win.Seat
	}
	if s.Phase != phMove || by == engine.NoSeat || s.Win.Seat != by {
		return engine.Refuse(ErrSmallOrder, "a small order is delivered right after one's own action at its building", "une petite commande se livre juste après sa propre action dans son bâtiment")
	}
	if s.SmallOK[by] {
		return refuse(ErrSmallOrder).enf("%s already delivered a small order this turn", s.name(by)).frf("%s a déjà livré une petite commande ce tour-ci", s.name(by))
	}
	ci, ok := s.d.cardByID[c.Card]
	if !ok || s.loc(ci) != int(by) || s.d.cards[ci].Deck != deckSmall {
		return refuse(ErrCard).enf("%s holds no small order %q", s.name(by), c.Card).frf("%s n'a pas de petite commande %q", s.name(by), c.Card)
	}
	cd := s.d.cards[ci]
	if cd.Bld != s.Win.Bld {
		return refuse(ErrSmallOrder).enf("small order %s is delivered at %s, not after an action at %s", c.Card, s.d.blds[cd.Bld].NameEN, s.d.blds[s.Win.Bld].NameEN).frf("la petite commande %s se livre à %s, pas après une action à %s", c.Card, s.d.blds[cd.Bld].NameFR, s.d.blds[s.Win.Bld].NameFR)
	}
	pay := bundle{Goods: make([]int, s.d.nGoods()), Cards: []int{ci}}
	for _, g := range cd.Goods {
		pay.Goods[g]++
	}
	if m, mfr := s.missing(by, pay); m != "" {
		return refuse(engine.ErrCannotPay).enf("small order %s needs %s", c.Card, m).frf("la petite commande %s demande %s", c.Card, mfr)
	}
	t.give(by, engine.NoSeat, "small-order", pay)
	t.give(engine.NoSeat, by, "small-order", bundle{Ducats: s.d.prof.Small})
	t.emit(Delivered{Seat: by, Card: c.Card})
	return nil
}

func (t *tx) extra(by engine.Seat) error {
	s := t.s
	if err := s.inPhase(phMove, "play an extra action", "jouer une action supplémentaire"); err != nil {
		return err
	}
	if _, err := s.tileHolder(by, tileExtra, "extra", "extra"); err != nil {
		return err
	}
	t.playTile(by, tileExtra)
	return nil
}

func (t *tx) take(by engine.Seat, c Take) error {
	s := t.s
	if _, err := s.tileHolder(by, tileGoods, "take", "take"); err != nil {
		return err
	}
	g, ok := s.d.goodByK[c.Good]
	if !ok {
		return refuse(engine.ErrBadArgument).enf("%q is not a good of this edition (goods: %s)", c.Good, strings.Join(s.d.prof.Goods, ", ")).frf("%q n'est pas une marchandise de cette édition (marchandises : %s)", c.Good, strings.Join(s.d.prof.Goods, ", "))
	}
	if s.Supply[g] == 0 {
		return refuse(ErrSupplyEmpty).enf("no %s is left: choose another good", c.Good).frf("il ne reste plus de %s : choisissez une autre marchandise", s.d.prof.GoodsFR[g])
	}
	t.commit(by)
	t.playTile(by, tileGoods)
	r := bundle{Goods: make([]int, s.d.nGoods())}
	r.Goods[g] = 1
	t.give(engine.NoSeat, by, "tile", r)
	return nil
}

// item is one thing traded with a trade 1:1 tile.
type item struct {
	kind string // "good", "tile", "card", "marker", "deck"
	idx  int
}

func (s *State) parseItem(x string) (item, bool) {
	k, v, _ := strings.Cut(x, ":")
	switch k {
	case "marker":
		return item{kind: "marker"}, v == ""
	case "tile":
		i := tileIndex(v)
		return item{kind: "tile", idx: i}, i >= 0
	case "card":
		i, ok := s.d.cardByID[v]
		return item{kind: "card", idx: i}, ok
	case "deck":
		i := deckIndex(v)
		return item{kind: "deck", idx: i}, i >= 0
	}
	g, ok := s.d.goodByK[x]
	return item{kind: "good", idx: g}, ok
}

func (s *State) itemBundle(it item) bundle {
	var b bundle
	switch it.kind {
	case "good":
		b.Goods = make([]int, s.d.nGoods())
		b.Goods[it.idx] = 1
	case "tile":
		b.Tiles[it.idx] = 1
	case "card":
		b.Cards = []int{it.idx}
	case "marker":
		b.Markers = 1
	}
	return b
}

func (t *tx) trade(by engine.Seat, c Trade) error {
	s := t.s
	if _, err := s.tileHolder(by, tileTrade, "trade", "trade"); err != nil {
		return err
	}
	give, ok1 := s.parseItem(c.Give)
	get, ok2 := s.parseItem(c.Get)
	if !ok1 || !ok2 || give.kind == "deck" || get.kind == "card" {
		return refuse(ErrBadItem).enf("trade give=%q get=%q: give a good (silk), tile:KIND, card:ID or marker; get a good, tile:KIND, marker or deck:%s", c.Give, c.Get, strings.Join(deckKeys[:], "|")).frf("trade give=%q get=%q : donnez une marchandise (silk), tile:TYPE, card:ID ou marker ; recevez une marchandise, tile:TYPE, marker ou deck:%s", c.Give, c.Get, strings.Join(deckKeys[:], "|"))
	}
	if give == get {
		return engine.Refuse(ErrBadItem, "a trade gives one item for a different one", "un échange donne un élément contre un autre")
	}
	gb := s.itemBundle(give)
	gb.Tiles[tileTrade]++ // the tile played goes back too
	if m, mfr := s.missing(by, gb); m != "" {
		return refuse(engine.ErrCannotPay).enf("%s cannot give %s", s.name(by), m).frf("%s ne peut pas donner %s", s.name(by), mfr)
	}
	t.commit(by)
	t.playTile(by, tileTrade)
	t.give(by, engine.NoSeat, "trade", s.itemBundle(give))
	switch get.kind {
	case "good":
		if s.Supply[get.idx] == 0 {
			return refuse(ErrSupplyEmpty).enf("no %s is left", s.d.prof.Goods[get.idx]).frf("il ne reste plus de %s", s.d.prof.GoodsFR[get.idx])
		}
	case "tile":
		if s.TileSup[get.idx] == 0 {
			return refuse(ErrSupplyEmpty).enf("no %s tile is left", tileKeys[get.idx]).frf("il ne reste plus de tuile %s", tileFR[get.idx])
		}
	case "marker":
		if s.Common[by] == 0 {
			return engine.Refuse(ErrSupplyEmpty, "no marker of your colour is left in the common supply", "il ne reste plus de marqueur de votre couleur dans la réserve commune")
		}
	case "deck":
		if s.inDeck(get.idx) == 0 {
			return refuse(ErrSupplyEmpty).enf("the %s deck is empty", deckKeys[get.idx]).frf("la pioche %s est vide", deckFR[get.idx])
		}
		t.drawDue(by, get.idx, 1)
		return nil
	}
	t.give(engine.NoSeat, by, "trade", s.itemBundle(get))
	return nil
}

func (t *tx) build(by engine.Seat, c Build) error {
	s := t.s
	if _, err := s.tileHolder(by, tileBuild, "build", "build"); err != nil {
		return err
	}
	sq, err := s.square(c.Building)
	if err != nil {
		return err
	}
	b := s.d.squares[sq].Bld
	if b < 0 || int(s.Owner[b]) != int(by) {
		var own []int
		for x, o := range s.Owner {
			if int(o) == int(by) {
				own = append(own, x)
			}
		}
		mine, mineFR := "none", "aucun"
		if len(own) > 0 {
			mine, mineFR = s.bldNames(own, "en"), s.bldNames(own, "fr")
		}
		return refuse(ErrNotOwner).enf("%s has no ownership marker on %s; the tile plays the action of a building of one's own (%s)", s.name(by), s.sqName(sq, "en"), mine).frf("%s n'a pas de marqueur de propriété sur %s ; la tuile fait l'action d'un bâtiment dont on est propriétaire (%s)", s.name(by), s.sqName(sq, "fr"), mineFR)
	}
	t.commit(by)
	t.playTile(by, tileBuild)
	return t.effect(by, b, c.Order, c.Tile, true)
}

func (t *tx) end(by engine.Seat) error {
	s := t.s
	if err := s.inPhase(phMove, "end the movement", "terminer le déplacement"); err != nil {
		return err
	}
	if err := s.merchantOnly(by, "end the movement", "terminer le déplacement"); err != nil {
		return err
	}
	if en, fr := s.obligation(); en != "" {
		return engine.Refuse(ErrPending, en, fr)
	}
	t.closeWindow()
	t.emit(MovementEnded{})
	return nil
}

func (s *State) acquirer(by engine.Seat, what, whatFR string) (engine.Seat, error) {
	if err := s.inPhase(phAcquire, what, whatFR); err != nil {
		return by, err
	}
	if by != engine.NoSeat && by != s.Acq {
		return by, refuse(engine.ErrNotYourTurn).enf("it is %s's turn to acquire", s.name(s.Acq)).frf("c'est à %s d'acquérir", s.name(s.Acq))
	}
	return s.Acq, nil
}

func (t *tx) acquire(by engine.Seat, c Acquire) error {
	s := t.s
	who, err := s.acquirer(by, "acquire buildings", "acquérir des bâtiments")
	if err != nil {
		return err
	}
	st, err := s.square(c.Street)
	if err != nil {
		return err
	}
	if !slices.Contains(s.Discs, st) {
		return refuse(ErrNoDisc).enf("%s carries no disc of the pawn now; streets with a disc: %s", s.sqName(st, "en"), s.sqNames(s.Discs, "en")).frf("%s ne porte pas de disque du pion maintenant ; rues avec un disque : %s", s.sqName(st, "fr"), s.sqNames(s.Discs, "fr"))
	}
	if len(c.Place)+len(c.Remove) == 0 {
		return engine.Refuse(engine.ErrBadArgument, "choose at least one building to place your marker on or to remove a marker from, or acquire nothing", "choisissez au moins un bâtiment où poser votre marqueur ou d'où retirer un marqueur, ou n'acquérez rien")
	}
	if m := s.d.prof.MaxPlacements; m > 0 && len(c.Place)+len(c.Remove) > m {
		return refuse(ErrTooMany).enf("at most %d buildings from one street (a marker removed counts as one): name fewer", m).frf("au plus %d bâtiments depuis une rue (un marqueur retiré compte pour un) : nommez-en moins", m)
	}
	seen := map[int]bool{}
	cost := 0
	ev := Acquired{Seat: who, Street: s.d.place(st)}
	check := func(p Place) (int, error) {
		b, ok := s.bldOf(p)
		if !ok {
			return -1, refuse(ErrUnknownSquare).enf("%q is not a building (buildings: %s)", p, s.bldKeys()).frf("%q n'est pas un bâtiment (bâtiments : %s)", p, s.bldKeys())
		}
		if !slices.Contains(s.d.touch[st], b) {
			return -1, refuse(ErrNotTouching).enf("%s does not touch %s, which touches: %s", s.d.blds[b].NameEN, s.sqName(st, "en"), s.bldNames(s.d.touch[st], "en")).frf("%s ne touche pas %s, qui touche : %s", s.d.blds[b].NameFR, s.sqName(st, "fr"), s.bldNames(s.d.touch[st], "fr"))
		}
		if seen[b] {
			return -1, refuse(engine.ErrBadArgument).enf("%s named twice: one marker per building", s.d.blds[b].NameEN).frf("%s nommé deux fois : un marqueur par bâtiment", s.d.blds[b].NameFR)
		}
		seen[b] = true
		return b, nil
	}
	for _, p := range c.Remove {
		b, err := check(p)
		if err != nil {
			return err
		}
		if o := int(s.Owner[b]); o < 0 || o == int(who) {
			return refuse(ErrNoMarker).enf("%s carries no opponent's marker: remove= takes an opponent's marker off; place= puts yours", s.d.blds[b].NameEN).frf("%s ne porte pas de marqueur adverse : remove= retire un marqueur adverse ; place= pose le vôtre", s.d.blds[b].NameFR)
		}
		cost += s.d.prof.RemovalCost
		ev.Removed = append(ev.Removed, s.d.bldPlace(b))
	}
	for _, p := range c.Place {
		b, err := check(p)
		if err != nil {
			return err
		}
		switch o := int(s.Owner[b]); {
		case o == int(who):
			return refuse(ErrOwnMarker).enf("%s already carries your marker", s.d.blds[b].NameEN).frf("%s porte déjà votre marqueur", s.d.blds[b].NameFR)
		case o >= 0:
			cost += 1 + s.d.prof.RemovalCost
		default:
			cost++
		}
		ev.Placed = append(ev.Placed, s.d.bldPlace(b))
	}
	if cost > s.P[who].Markers {
		return refuse(engine.ErrCannotPay).enf("that takes %d markers from your reserve (removing an opponent's marker costs one of yours); you have %d", cost, s.P[who].Markers).frf("cela demande %d marqueurs de votre réserve (retirer un marqueur adverse en coûte un des vôtres) ; vous en avez %d", cost, s.P[who].Markers)
	}
	t.emit(ev)
	return nil
}

func (t *tx) pass(by engine.Seat) error {
	who, err := t.s.acquirer(by, "pass", "passer")
	if err != nil {
		return err
	}
	t.emit(Passed{Seat: who})
	return nil
}
