package dschunke

import (
	"fmt"
	"sort"
	"strings"

	"comptoir/engine"
)

// Decide validates the action and returns its events, followed by the
// events the game then produces by itself (the wealth announced, the bids
// revealed, the goods sold, the end of the round).
func (s *State) Decide(a engine.Action) ([]engine.Event, error) {
	if s.step == stepOver {
		return nil, engine.Refuse(engine.ErrGameOver, "", "")
	}
	evs, err := s.decide(a)
	if err != nil {
		return nil, err
	}
	cur := s
	for _, ev := range evs {
		if cur, err = cur.apply(ev); err != nil {
			return nil, fmt.Errorf("dschunke: decided %s does not apply: %w", ev.Name(), err)
		}
	}
	for ev := cur.auto(); ev != nil; ev = cur.auto() {
		evs = append(evs, ev)
		if cur, err = cur.apply(ev); err != nil {
			return nil, fmt.Errorf("dschunke: automatic %s does not apply: %w", ev.Name(), err)
		}
	}
	return evs, nil
}

// The actions and timings in words, for refusals.
var (
	actionEN = [...]string{"to load two palettes", "an income", "goods cards"}
	actionFR = [...]string{"de charger deux palettes", "des revenus", "des cartes marchandises"}
	timingEN = [...]string{"always, face up", "as an extra action", "at the end of the game"}
	pawnEN   = map[string]string{WithMerchant: "the merchant", WithHelper: "the bottom row's helper", WithHelper2: "the top row's helper"}
	pawnFR   = map[string]string{WithMerchant: "le marchand", WithHelper: "l'aide de la rangée du bas", WithHelper2: "l'aide de la rangée du haut"}
	timingFR = [...]string{"toujours, face visible", "en action supplémentaire", "à la fin de la partie"}
)

func (s *State) name(seat int) string { return s.setup.Players[seat] }

func notNow(what string) error {
	return engine.Refusef(engine.ErrNotNow, "this is not the moment to %s", "ce n'est pas le moment de %s", what)
}

// actor returns the seat a sequential step's command acts for: the
// player in turn, who may send it, or the table on his behalf.
func (s *State) actor(by engine.Seat) (int, error) {
	cur := s.current()
	if by == engine.NoSeat || int(by) == cur {
		return cur, nil
	}
	return 0, engine.Refusef(engine.ErrNotYourTurn, "it is %s's turn", "c'est le tour de %s", s.name(cur))
}

// goods reads a goods bundle. Counts must be positive.
func (s *State) goods(m map[string]int, arg string) ([NumGoods]int, error) {
	var out [NumGoods]int
	for k, c := range m {
		g, ok := s.d.GoodsIndex(k)
		if !ok {
			return out, engine.Refusef(ErrUnknownGoods, "%s: %q is not a goods; goods are %s", "%s : %q n'est pas une marchandise ; les marchandises sont %s", arg, k, s.goodsKeys())
		}
		if c <= 0 {
			return out, engine.Refusef(engine.ErrBadArgument, "%s: %d cards of %s; give a count from 1 or leave the goods out", "%s : %d cartes de %s ; donnez un nombre à partir de 1 ou omettez la marchandise", arg, c, k)
		}
		out[g] = c
	}
	return out, nil
}

func (s *State) goodsKeys() string {
	var k []string
	for _, g := range s.d.Goods {
		k = append(k, g.Key)
	}
	return strings.Join(k, ", ")
}

func (s *State) junkKeys(js []int) string {
	var k []string
	for _, j := range js {
		k = append(k, s.d.Junks[j].Key)
	}
	return strings.Join(k, ", ")
}

// goodsMap writes a bundle as a map, without zero counts.
func (s *State) goodsMap(g [NumGoods]int) map[string]int {
	out := map[string]int{}
	for k, c := range g {
		if c > 0 {
			out[s.d.Goods[k].Key] = c
		}
	}
	return out
}

func (s *State) junk(key string) (int, error) {
	j, ok := s.d.JunkIndex(key)
	if !ok {
		all := []int{0, 1, 2, 3, 4}
		return 0, engine.Refusef(ErrUnknownJunk, "%q is not a junk; junks are %s", "%q n'est pas une jonque ; les jonques sont %s", key, s.junkKeys(all))
	}
	return j, nil
}

func (s *State) decide(a engine.Action) ([]engine.Event, error) {
	switch c := a.Cmd.(type) {
	case Hand:
		return s.decideHand(a.By, c)
	case Reveal:
		if s.step != stepReveal {
			return nil, notNow("reveal a market card")
		}
		i, ok := s.d.MarketIndex(c.Market)
		if !ok {
			return nil, engine.Refusef(ErrUnknownCard, "%q is not a market card", "%q n'est pas une carte marché", c.Market)
		}
		if s.mUsed[i] {
			return nil, engine.Refusef(ErrMarketUsed, "market card %s was already revealed", "la carte marché %s a déjà été révélée", c.Market)
		}
		return []engine.Event{MarketRevealed{Card: c.Market}}, nil
	case Exchange:
		return s.decideExchange(a.By, c)
	case Pass:
		return s.decidePass(a.By)
	case Draw:
		return s.decideDraw(a.By, c)
	case Load:
		return s.decideLoad(a.By, c)
	case Income:
		return s.decideIncome(a.By, c)
	case Take:
		return s.decideTake(a.By, c)
	case Play:
		return s.decidePlay(a.By, c)
	case Restock:
		return s.decideRestock(a.By, c)
	case Bid:
		return s.decideBid(a.By, c)
	}
	return nil, engine.Refusef(engine.ErrUnknownCommand, "dschunke has no command %q", "dschunke n'a pas de commande %q", a.Cmd.Name())
}

// dealLeft is the cards of each goods still to deal.
func (s *State) dealLeft() [NumGoods]int {
	var left [NumGoods]int
	for g := range left {
		left[g] = Deal(s.n)
	}
	for i, h := range s.hand {
		if s.dealt[i] {
			for g, c := range h {
				left[g] -= c
			}
		}
	}
	return left
}

func (s *State) decideHand(by engine.Seat, c Hand) ([]engine.Event, error) {
	if s.step != stepHands {
		return nil, engine.Refuse(ErrHandDealt, "the starting hands are recorded; the game has begun", "les mains de départ sont notées ; la partie a commencé")
	}
	seat := int(by)
	if by == engine.NoSeat {
		for i, d := range s.dealt {
			if !d {
				seat = i
				break
			}
		}
	} else if seat < 0 || seat >= s.n {
		return nil, engine.Refuse(engine.ErrNotYourTurn, "only a player or the table records a hand", "seul un joueur ou la table note une main")
	}
	if s.dealt[seat] {
		return nil, engine.Refusef(ErrHandDealt, "%s's hand is already recorded", "la main de %s est déjà notée", s.name(seat))
	}
	g, err := s.goods(c.Goods, "goods")
	if err != nil {
		return nil, err
	}
	if sum(g) != HandSize {
		return nil, refusef(ErrHandSize, "%s; a starting hand has %d", "%s ; une main de départ en a %d", nCards(sum(g)), HandSize)
	}
	left := s.dealLeft()
	for k, n := range g {
		if n > left[k] {
			return nil, refusef(ErrDealShort, "only %s left to deal", "il ne reste que %s à distribuer", s.goodsCards(left[k], k))
		}
	}
	return []engine.Event{HandDealt{By: engine.Seat(seat), Goods: s.goodsMap(g)}}, nil
}

func (s *State) decideExchange(by engine.Seat, c Exchange) ([]engine.Event, error) {
	if s.step != stepExchange {
		return nil, engine.Refuse(ErrNoExchange, "", "")
	}
	seat, err := s.actor(by)
	if err != nil {
		return nil, err
	}
	give, err := s.goods(c.Give, "give")
	if err != nil {
		return nil, err
	}
	take, err := s.goods(c.Take, "take")
	if err != nil {
		return nil, err
	}
	if n := sum(give); n < 1 || n > 2 || sum(take) != n {
		return nil, refusef(ErrExchangeCount, "you give %s and take %d: give 1 or 2 and take as many", "vous donnez %s et en prenez %d : donnez-en 1 ou 2 et prenez-en autant", nCards(sum(give)), sum(take))
	}
	for k := range give {
		if give[k] > 0 && take[k] > 0 {
			return nil, refusef(ErrExchangeCount, "you give and take %s: take other goods", "vous donnez et prenez des cartes %s : prenez d'autres marchandises", s.goodsWord(k))
		}
		if give[k] > s.hand[seat][k] {
			return nil, refusef(ErrNotHeld, "you hold %s", "vous avez %s", s.goodsCards(s.hand[seat][k], k))
		}
		if take[k] > s.piles[k] {
			return nil, refusef(ErrPileShort, "the %s junk has %s", "la jonque %s a %s", s.junkWord(s.d.Goods[k].Junk), s.goodsCards(s.piles[k], k))
		}
	}
	return []engine.Event{Exchanged{By: engine.Seat(seat), Give: s.goodsMap(give), Take: s.goodsMap(take)}}, nil
}

func (s *State) decidePass(by engine.Seat) ([]engine.Event, error) {
	switch s.step {
	case stepExchange:
	case stepAction:
		if !s.acted {
			seat, err := s.actor(by)
			if err != nil {
				return nil, err
			}
			return nil, engine.Refusef(ErrMustAct, "%s has not taken an action yet", "%s n'a pas encore effectué d'action", s.name(seat))
		}
	default:
		return nil, engine.Refuse(ErrNothingToPass, "", "")
	}
	seat, err := s.actor(by)
	if err != nil {
		return nil, err
	}
	return []engine.Event{Passed{By: engine.Seat(seat)}}, nil
}

func (s *State) decideDraw(by engine.Seat, c Draw) ([]engine.Event, error) {
	if s.step != stepDraw {
		return nil, engine.Refuse(ErrNotDrawing, "nobody takes a special card now", "personne ne prend de carte spéciale maintenant")
	}
	seat, err := s.actor(by)
	if err != nil {
		return nil, engine.Refusef(ErrNotDrawing, "%s takes a special card now", "%s prend une carte spéciale maintenant", s.name(s.current()))
	}
	i, ok := s.d.SpecialIndex(c.Card)
	if !ok {
		return nil, engine.Refusef(ErrUnknownCard, "%q is not a special card", "%q n'est pas une carte spéciale", c.Card)
	}
	if s.owner[i] != empty {
		return nil, engine.Refusef(ErrCardDrawn, "%s was already drawn", "%s a déjà été piochée", c.Card)
	}
	piles := s.drawPiles()
	p := -1
	if c.Pile == "" {
		for _, q := range piles {
			if p < 0 || s.pileLeft[q] > s.pileLeft[p] {
				p = q
			}
		}
	} else {
		if p, ok = s.d.PileIndex(c.Pile); !ok {
			return nil, engine.Refusef(engine.ErrBadArgument, "%q is not a pile; piles are square, circle, triangle, star", "%q n'est pas un paquet ; les paquets sont square, circle, triangle, star", c.Pile)
		}
		if s.drawDistinct && s.drawTaken[p] {
			return nil, engine.Refusef(ErrPileTaken, "the %s pile was taken by another player this time", "le paquet %s a déjà été pris par un autre joueur cette fois-ci", c.Pile)
		}
		if s.pileLeft[p] == 0 {
			return nil, engine.Refusef(ErrPileEmpty, "the %s pile is empty", "le paquet %s est vide", c.Pile)
		}
	}
	return []engine.Event{SpecialDrawn{By: engine.Seat(seat), Pile: s.d.Piles[p].Key, Card: c.Card}}, nil
}

// pawn resolves a pawn for verb, in the action phase.
func (s *State) pawn(with string, act Action) (int, error) {
	p := -1
	switch with {
	case WithMerchant:
		p = int(act)
	case WithHelper:
		p = pawnHelper
	case WithHelper2:
		if s.n == 4 {
			p = pawnHelper2
		}
	}
	if p < 0 {
		return 0, engine.Refusef(ErrUnknownPawn, "%q is not a pawn in play; use with=merchant, with=helper%s", "%q n'est pas un pion en jeu ; utilisez with=merchant, with=helper%s", with, map[bool]string{true: " or with=helper2", false: ""}[s.n == 4])
	}
	if s.used[p] {
		if p < NumMerchants {
			return 0, engine.Refuse(ErrPawnUsed, fmt.Sprintf("the merchant who offers %s already acted this round", actionEN[act]),
				fmt.Sprintf("le marchand qui offre %s a déjà agi ce tour-ci", actionFR[act]))
		}
		return 0, engine.Refuse(ErrPawnUsed, pawnEN[with]+" already acted this round", pawnFR[with]+" a déjà agi ce tour-ci")
	}
	if a := s.pawnAction(p); a != act {
		return 0, engine.Refuse(ErrPawnAction, fmt.Sprintf("%s offers %s this round, not %s", pawnEN[with], actionEN[a], actionEN[act]),
			fmt.Sprintf("%s offre %s ce tour-ci, pas %s", pawnFR[with], actionFR[a], actionFR[act]))
	}
	return p, nil
}

// pawnJunk resolves the junk a pawn acts on.
func (s *State) pawnJunk(p int, key string) (int, error) {
	ok := s.pawnJunks(p)
	if key == "" {
		if p < NumMerchants {
			return ok[0], nil
		}
		return 0, engine.Refusef(ErrWrongJunk, "name the junk the helper acts on: %s", "nommez la jonque où agit l'aide : %s", s.junkKeys(ok))
	}
	j, err := s.junk(key)
	if err != nil {
		return 0, err
	}
	for _, o := range ok {
		if o == j {
			return j, nil
		}
	}
	if p < NumMerchants {
		return 0, engine.Refusef(ErrWrongJunk, "the merchant is on the %s junk", "le marchand est sur la jonque %s", s.d.Junks[ok[0]].Key)
	}
	return 0, engine.Refusef(ErrWrongJunk, "a helper acts on a junk without a merchant: %s", "un aide agit sur une jonque sans marchand : %s", s.junkKeys(ok))
}

// pawnTurn checks a pawn's action: that by may take his action now
// (what names it in refusals), with the pawn with, which offers act this
// round, on the junk named key. It returns the seat and the junk.
func (s *State) pawnTurn(by engine.Seat, what, with string, act Action, key string) (seat, junk int, err error) {
	if seat, err = s.actionTurn(by, what); err != nil {
		return 0, 0, err
	}
	p, err := s.pawn(with, act)
	if err != nil {
		return 0, 0, err
	}
	if junk, err = s.pawnJunk(p, key); err != nil {
		return 0, 0, err
	}
	return seat, junk, nil
}

// actionTurn checks that seat may take his action now.
func (s *State) actionTurn(by engine.Seat, what string) (int, error) {
	if s.step != stepAction {
		return 0, notNow(what)
	}
	seat, err := s.actor(by)
	if err != nil {
		return 0, err
	}
	if s.acted {
		return 0, engine.Refusef(ErrAlreadyActed, "%s already took an action this round", "%s a déjà effectué une action ce tour-ci", s.name(seat))
	}
	return seat, nil
}

// slots checks the slots (1 to 3) of palettes laid one after the other on
// junk j.
func (s *State) slots(j int, at []int, want int) error {
	if len(at) != want {
		return engine.Refusef(ErrSlot, "give the slot of %d palette(s) with at= (1 to 3 in the layer being filled), not %d", "donnez la place de %d palette(s) avec at= (1 à 3 dans la couche en cours), pas %d", want, len(at))
	}
	h := s.holds[j]
	for _, a := range at {
		if a < 1 || a > Layer || !h.isFree(a-1) {
			return engine.Refusef(ErrSlot, "slot %d is not free on the %s junk; free now: %v", "la place %d n'est pas libre sur la jonque %s ; libres : %v", a, s.d.Junks[j].Key, plus1(h.free()))
		}
		h = h.place(0, a-1)
	}
	return nil
}

func plus1(l []int) []int {
	out := make([]int, len(l))
	for i, x := range l {
		out[i] = x + 1
	}
	return out
}

func (s *State) decideLoad(by engine.Seat, c Load) ([]engine.Event, error) {
	seat, j, err := s.pawnTurn(by, "load palettes", c.With, ActLoad, c.Junk)
	if err != nil {
		return nil, err
	}
	if err := s.slots(j, c.At, min(2, s.palettes[seat])); err != nil {
		return nil, err
	}
	return []engine.Event{Loaded{By: engine.Seat(seat), With: c.With, Junk: s.d.Junks[j].Key, At: c.At}}, nil
}

func (s *State) decideIncome(by engine.Seat, c Income) ([]engine.Event, error) {
	seat, j, err := s.pawnTurn(by, "take an income", c.With, ActIncome, c.Junk)
	if err != nil {
		return nil, err
	}
	return []engine.Event{IncomeReceived{By: engine.Seat(seat), With: c.With, Junk: s.d.Junks[j].Key, Yuans: s.owed(seat, j)}}, nil
}

// checkTake checks goods cards taken for owed cards from source (a goods,
// or -1 for any one junk's pile: the grey junk).
func (s *State) checkTake(g [NumGoods]int, owed, source int) error {
	for k, c := range g {
		if c > s.piles[k] {
			return refusef(ErrPileShort, "the %s junk has %s", "la jonque %s a %s", s.junkWord(s.d.Goods[k].Junk), s.goodsCards(s.piles[k], k))
		}
	}
	want := min(owed, sum(s.piles))
	if sum(g) != want {
		return refusef(ErrGoodsCount, "you are owed %s: take %d, not %d", "il vous revient %s : prenez-en %d, pas %d", both{fmt.Sprintf("%d %s", owed, plural(owed, "fr", "carte marchandise", "cartes marchandises")), fmt.Sprintf("%d %s", owed, plural(owed, "en", "goods card", "goods cards"))}, want, sum(g))
	}
	for k := range g {
		if (source < 0 || source == k) && g[k] == min(owed, s.piles[k]) {
			return nil
		}
	}
	if source >= 0 {
		return refusef(ErrGoodsSource, "take %s from its junk first", "prenez d'abord %s sur sa jonque", s.goodsCards(min(owed, s.piles[source]), source))
	}
	return engine.Refuse(ErrGoodsSource, "take the cards from one junk of your choice, others only when it runs out", "prenez les cartes sur une jonque de votre choix, d'autres seulement quand elle est vide")
}

// taken reads the goods= of seat's take on junk j and checks them with
// checkTake: what the junk's crates owe, from the junk's own goods first.
func (s *State) taken(spec map[string]int, seat, j int) ([NumGoods]int, error) {
	g, err := s.goods(spec, "goods")
	if err != nil {
		return g, err
	}
	return g, s.checkTake(g, s.owed(seat, j), s.d.Junks[j].Goods)
}

func (s *State) decideTake(by engine.Seat, c Take) ([]engine.Event, error) {
	seat, j, err := s.pawnTurn(by, "take goods cards", c.With, ActGoods, c.Junk)
	if err != nil {
		return nil, err
	}
	g, err := s.taken(c.Goods, seat, j)
	if err != nil {
		return nil, err
	}
	return []engine.Event{GoodsTaken{By: engine.Seat(seat), With: c.With, Junk: s.d.Junks[j].Key, Goods: s.goodsMap(g)}}, nil
}

func unwanted(ok bool, card, arg string) error {
	if ok {
		return nil
	}
	return engine.Refusef(ErrUnwantedOption, "%s takes no %s=", "%s ne prend pas d'argument %s=", card, arg)
}

func (s *State) decidePlay(by engine.Seat, c Play) ([]engine.Event, error) {
	if s.step != stepAction {
		return nil, engine.Refuse(ErrNotExtra, "", "")
	}
	seat, err := s.actor(by)
	if err != nil {
		return nil, err
	}
	i, ok := s.d.SpecialIndex(c.Card)
	if !ok {
		return nil, engine.Refusef(ErrUnknownCard, "%q is not a special card", "%q n'est pas une carte spéciale", c.Card)
	}
	if s.owner[i] != seat || s.spent[i] {
		return nil, engine.Refusef(ErrNotYourCard, "%s does not hold %s", "%s n'a pas la carte %s", s.name(seat), c.Card)
	}
	card := s.d.Special[i]
	if card.Timing != Extra {
		return nil, engine.Refuse(ErrNotExtra, fmt.Sprintf("%s is not an extra-action card: it acts %s", c.Card, timingEN[card.Timing]),
			fmt.Sprintf("%s n'est pas une carte d'action supplémentaire : elle agit %s", c.Card, timingFR[card.Timing]))
	}
	if s.extraUsed {
		return nil, engine.Refuse(ErrOneExtra, "", "")
	}
	who := engine.Seat(seat)
	switch card.Effect {
	case EffPlacePalette:
		if err := errorsJoin(unwanted(len(c.Goods) == 0, c.Card, "goods"), unwanted(c.From == "" && c.Slot == 0, c.Card, "from")); err != nil {
			return nil, err
		}
		if s.palettes[seat] == 0 {
			return nil, engine.Refuse(ErrNoPalette, "", "")
		}
		if c.Junk == "" {
			return nil, engine.Refuse(engine.ErrBadArgument, "name the junk with junk=", "nommez la jonque avec junk=")
		}
		j, err := s.junk(c.Junk)
		if err != nil {
			return nil, err
		}
		if err := s.slots(j, c.At, 1); err != nil {
			return nil, err
		}
		return []engine.Event{Loaded{By: who, Card: c.Card, Junk: c.Junk, At: c.At}}, nil
	case EffIncome:
		if err := errorsJoin(unwanted(len(c.Goods) == 0, c.Card, "goods"), unwanted(len(c.At) == 0, c.Card, "at"), unwanted(c.From == "" && c.Slot == 0, c.Card, "from"),
			unwanted(c.Junk == "" || c.Junk == s.d.Junks[card.Junk].Key, c.Card, "junk")); err != nil {
			return nil, err
		}
		return []engine.Event{IncomeReceived{By: who, Card: c.Card, Junk: s.d.Junks[card.Junk].Key, Yuans: s.owed(seat, card.Junk)}}, nil
	case EffTakeGoods:
		if err := errorsJoin(unwanted(len(c.At) == 0, c.Card, "at"), unwanted(c.From == "" && c.Slot == 0, c.Card, "from")); err != nil {
			return nil, err
		}
		if c.Junk == "" {
			return nil, engine.Refuse(engine.ErrBadArgument, "name the junk whose crates count with junk=", "nommez avec junk= la jonque dont les caisses comptent")
		}
		j, err := s.junk(c.Junk)
		if err != nil {
			return nil, err
		}
		g, err := s.taken(c.Goods, seat, j)
		if err != nil {
			return nil, err
		}
		return []engine.Event{GoodsTaken{By: who, Card: c.Card, Junk: c.Junk, Goods: s.goodsMap(g)}}, nil
	case EffMovePalette:
		if err := unwanted(len(c.Goods) == 0, c.Card, "goods"); err != nil {
			return nil, err
		}
		from, err := s.junk(c.From)
		if err != nil {
			return nil, err
		}
		if c.Slot < 1 || c.Slot > Layer || s.holds[from].top(c.Slot-1) != seat {
			return nil, engine.Refusef(ErrNotVisible, "slot %d of the top layer of the %s junk holds no palette of yours", "la place %d de la couche du dessus de la jonque %s n'a pas de palette à vous", c.Slot, c.From)
		}
		to, err := s.junk(c.Junk)
		if err != nil {
			return nil, err
		}
		if to == from {
			return nil, engine.Refuse(ErrSameJunk, "", "")
		}
		if err := s.slots(to, c.At, 1); err != nil {
			return nil, err
		}
		return []engine.Event{PaletteMoved{By: who, Card: c.Card, From: c.From, Slot: c.Slot, Junk: c.Junk, At: c.At[0]}}, nil
	}
	return nil, engine.Refusef(ErrNotExtra, "%s cannot be played", "%s ne se joue pas", c.Card)
}

func errorsJoin(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

func (s *State) decideRestock(by engine.Seat, c Restock) ([]engine.Event, error) {
	if s.step != stepRestock {
		return nil, notNow("restock")
	}
	seat, err := s.actor(by)
	if err != nil {
		return nil, err
	}
	g, err := s.goods(c.Goods, "goods")
	if err != nil {
		return nil, err
	}
	if a := s.allowance(seat); sum(g) > a {
		return nil, refusef(ErrRestockCount, "%s takes at most %s, not %d", "%s prend au plus %s, pas %d", s.name(seat), nCards(a), sum(g))
	}
	for k, n := range g {
		if n > s.piles[k] {
			return nil, refusef(ErrPileShort, "the %s junk has %s", "la jonque %s a %s", s.junkWord(s.d.Goods[k].Junk), s.goodsCards(s.piles[k], k))
		}
	}
	return []engine.Event{Restocked{By: engine.Seat(seat), Goods: s.goodsMap(g)}}, nil
}

func (s *State) decideBid(by engine.Seat, c Bid) ([]engine.Event, error) {
	if s.step != stepBid {
		return nil, notNow("bid")
	}
	seat := int(by)
	if seat < 0 || seat >= s.n {
		return nil, engine.Refuse(engine.ErrNotYourTurn, "each player bids in secret from their own phone", "chaque joueur mise en secret depuis son téléphone")
	}
	if s.sealed[seat] {
		return nil, engine.Refuse(ErrAlreadyBid, "", "")
	}
	g, err := s.goods(c.Goods, "goods")
	if err != nil {
		return nil, err
	}
	for k, n := range g {
		if n > s.hand[seat][k] {
			return nil, refusef(ErrNotHeld, "you hold %s", "vous avez %s", s.goodsCards(s.hand[seat][k], k))
		}
		if n > 0 && s.sold[k] {
			return nil, refusef(ErrSoldGoods, "%s: already sold this round", "%s : déjà vendu ce tour-ci", s.goodsWord(k))
		}
	}
	return []engine.Event{BidSealed{By: engine.Seat(seat), Goods: s.goodsMap(g)}}, nil
}

// both is a word in both languages, an argument of refusef.
type both struct{ fr, en string }

// refusef is engine.Refusef with arguments that differ by language: a
// words argument gives each language its own.
func refusef(rule *engine.Rule, en, fr string, args ...any) *engine.Refusal {
	frArgs, enArgs := make([]any, len(args)), make([]any, len(args))
	for i, a := range args {
		frArgs[i], enArgs[i] = a, a
		if w, ok := a.(both); ok {
			frArgs[i], enArgs[i] = w.fr, w.en
		}
	}
	return engine.Refuse(rule, fmt.Sprintf(en, enArgs...), fmt.Sprintf(fr, frArgs...))
}

// nCards is "1 card" / "1 carte", "3 cards" / "3 cartes".
func nCards(n int) both {
	return both{fmt.Sprintf("%d %s", n, plural(n, "fr", "carte", "cartes")), fmt.Sprintf("%d %s", n, plural(n, "en", "card", "cards"))}
}

// goodsCards is "2 cartes poisson" / "2 fish cards".
func (s *State) goodsCards(n, k int) both {
	return both{s.d.GoodsCards(n, k, "fr"), s.d.GoodsCards(n, k, "en")}
}

// goodsWord is goods k's name; junkWord junk j's.
func (s *State) goodsWord(k int) both { return both{s.d.Goods[k].FR, s.d.Goods[k].EN} }
func (s *State) junkWord(j int) both  { return both{s.d.Junks[j].FR, s.d.Junks[j].EN} }

// sortedKeys lists a map's keys in order, for stable output.
func sortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
