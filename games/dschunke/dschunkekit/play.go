package dschunkekit

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"comptoir/engine"
	"comptoir/games/dschunke"
	"comptoir/games/kit"
)

// play is Dschunke played from the phones, in the game's words: the
// junks and goods by their colours and names, the special cards by what
// they do, the market card by its prices, a palette's place as a row or a
// column of the junk's hold.
//
// Everything a seat's actions say comes from that seat's view and from
// its own legal actions. The table's own steps go to one phone: the
// market card to the first player, who holds the junk and turns the card
// over; a special card to the player taking it, the only one who may see
// it. The list of special cards offered is every card not known to be
// elsewhere from that player's view (face-up and played cards, the
// player's own), never the cards still in the piles: that list would tell
// which secret cards the others hold.
var play = &kit.Play{Actions: actions, Prompt: prompt, Consent: consent, Undoable: undoable}

// consent is nil for every command: in Dschunke nothing moves another
// player's money, goods or cards but that player's own command.
func consent(engine.State, engine.Action) []engine.Seat { return nil }

// undoable is true for a player's own step that revealed nothing and
// drew nothing: not a card turned over or taken, not a bid that completed
// the bidding (the bids are revealed with it), not a step after which the
// wealth was announced.
func undoable(before engine.State, a engine.Action, evs []engine.Event) bool {
	if a.By < 0 {
		return false
	}
	switch a.Cmd.(type) {
	case dschunke.Reveal, dschunke.Draw:
		return false
	}
	for _, ev := range evs {
		switch ev.(type) {
		case dschunke.MarketRevealed, dschunke.SpecialDrawn, dschunke.WealthAnnounced,
			dschunke.BidsRevealed, dschunke.Sold, dschunke.Rebid, dschunke.RoundEnded:
			return false
		}
	}
	return true
}

// words in both languages.
func tx(fr, en string) kit.Text { return kit.Text{FR: fr, EN: en} }

// txf formats fr and en with the same arguments, a kit.Text argument
// giving its own language to each.
func txf(fr, en string, args ...any) kit.Text {
	frArgs, enArgs := make([]any, len(args)), make([]any, len(args))
	for i, a := range args {
		frArgs[i], enArgs[i] = a, a
		if t, ok := a.(kit.Text); ok {
			frArgs[i], enArgs[i] = t.FR, t.EN
		}
	}
	return kit.Text{FR: fmt.Sprintf(fr, frArgs...), EN: fmt.Sprintf(en, enArgs...)}
}

// plural picks the singular or the plural: French keeps 0 and 1 in the
// singular, English only 1.
func plural(n int, lang, one, many string) string {
	if n == 1 || (lang == "fr" && n == 0) {
		return one
	}
	return many
}

// count writes "1 card", "3 cards", "1 carte", "0 carte".
func count(n int, oneFR, manyFR, oneEN, manyEN string) kit.Text {
	return kit.Text{FR: fmt.Sprintf("%d %s", n, plural(n, "fr", oneFR, manyFR)),
		EN: fmt.Sprintf("%d %s", n, plural(n, "en", oneEN, manyEN))}
}

func upper(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

func lower(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[n:]
}

var (
	cardUnit  = tx("carte", "card")
	cardUnits = tx("cartes", "cards")
)

// game is a state with what its texts need.
type game struct {
	s *dschunke.State
	d *dschunke.Data
	v dschunke.View // the viewer's view
}

func newGame(s engine.State, viewer engine.Seat) (game, bool) {
	st, ok := s.(*dschunke.State)
	if !ok {
		return game{}, false
	}
	v, ok := st.View(viewer).(dschunke.View)
	return game{s: st, d: st.Data(), v: v}, ok
}

func (g game) name(seat engine.Seat) string {
	if p := g.s.Setup().Players; seat >= 0 && int(seat) < len(p) {
		return p[seat]
	}
	return seat.String()
}

// names joins "Anna, Bruno and Chloé" / "Anna, Bruno et Chloé".
func (g game) names(seats []engine.Seat) kit.Text {
	var l []string
	for _, s := range seats {
		l = append(l, g.name(s))
	}
	if len(l) < 2 {
		return tx(strings.Join(l, ""), strings.Join(l, ""))
	}
	head := strings.Join(l[:len(l)-1], ", ")
	return tx(head+" et "+l[len(l)-1], head+" and "+l[len(l)-1])
}

func (g game) goodsIndex(key string) int {
	i, _ := g.d.GoodsIndex(key)
	return i
}

func (g game) goods(i int) kit.Text { return tx(g.d.Goods[i].FR, g.d.Goods[i].EN) }

// junk is "la jonque brune" / "the brown junk".
func (g game) junk(key string) kit.Text {
	j, ok := g.d.JunkIndex(key)
	if !ok {
		return tx(key, key)
	}
	return tx("la jonque "+g.d.Junks[j].FR, "the "+g.d.Junks[j].EN+" junk")
}

// card is a special card's name in « » / quotes.
func (g game) card(id string) kit.Text {
	i, ok := g.d.SpecialIndex(id)
	if !ok {
		return tx(id, id)
	}
	return tx("« "+g.d.CardName(i, "fr")+" »", "“"+g.d.CardName(i, "en")+"”")
}

// pawn is "le marchand" / "the merchant", or which helper.
func (g game) pawn(with string) kit.Text {
	switch {
	case with == dschunke.WithMerchant:
		return tx("le marchand", "the merchant")
	case with == dschunke.WithHelper2:
		return tx("l'aide de la rangée du haut", "the top-row helper")
	case len(g.v.Players) == 4:
		return tx("l'aide de la rangée du bas", "the bottom-row helper")
	}
	return tx("l'aide", "the helper")
}

// bundle writes goods cards: "3 cartes poisson, 1 carte riz" / "3 fish
// cards, 1 rice card".
func (g game) bundle(m map[string]int) kit.Text {
	var fr, en []string
	for i := range g.d.Goods {
		if n := m[g.d.Goods[i].Key]; n > 0 {
			fr = append(fr, g.d.GoodsCards(n, i, "fr"))
			en = append(en, g.d.GoodsCards(n, i, "en"))
		}
	}
	if len(fr) == 0 {
		return tx("aucune carte", "no card")
	}
	return tx(strings.Join(fr, ", "), strings.Join(en, ", "))
}

// slotName names a palette's place: layers along the rows (even) or the
// columns (odd) of the hold, as the board draws it.
func slotName(layer, slot int) kit.Text {
	if layer%2 == 0 {
		return [...]kit.Text{tx("rangée du haut", "top row"), tx("rangée du milieu", "middle row"), tx("rangée du bas", "bottom row")}[slot-1]
	}
	return [...]kit.Text{tx("colonne de gauche", "left column"), tx("colonne du milieu", "middle column"), tx("colonne de droite", "right column")}[slot-1]
}

// slotsName names the places of palettes laid one after the other on
// junk key: "top row and bottom row", "bottom row, then left column".
func (g game) slotsName(key string, at []int) kit.Text {
	layer, filled := g.filling(key)
	var out kit.Text
	sep := kit.Text{}
	for _, a := range at {
		if a < 1 || a > dschunke.Layer {
			continue
		}
		name := slotName(layer, a)
		out.FR += sep.FR + name.FR
		out.EN += sep.EN + name.EN
		sep = tx(" et ", " and ")
		if filled[a-1] = true; filled[0] && filled[1] && filled[2] {
			layer++
			filled = [dschunke.Layer]bool{}
			sep = tx(", puis ", ", then ")
		}
	}
	return tx(upper(out.FR), upper(out.EN))
}

// filling is the layer being filled on junk key (0 for the bottom one)
// and which of its slots hold a palette.
func (g game) filling(key string) (layer int, filled [dschunke.Layer]bool) {
	var layers [][dschunke.Layer]int
	for _, j := range g.v.Junks {
		if j.Key == key {
			layers = j.Layers
		}
	}
	n := len(layers)
	if n == 0 {
		return 0, filled
	}
	for i, o := range layers[n-1] {
		filled[i] = o >= 0
	}
	if filled[0] && filled[1] && filled[2] {
		return n, [dschunke.Layer]bool{}
	}
	return n - 1, filled
}

// sameLayer reports whether palettes laid in slots at on junk key all go
// in the layer being filled: their order then makes no difference.
func (g game) sameLayer(key string, at []int) bool {
	_, filled := g.filling(key)
	free := 0
	for _, f := range filled {
		if !f {
			free++
		}
	}
	return len(at) <= free
}

func atValue(at []int) string {
	var l []string
	for _, a := range at {
		l = append(l, strconv.Itoa(a))
	}
	return strings.Join(l, ",")
}

// values reads the fields' values: a missing one is the field's default
// (its Value, its first option); a number out of its range or an unknown
// option is refused, naming the field.
type values map[string]string

func read(fields []kit.Field, in map[string]string) (values, error) {
	out := values{}
	for _, f := range fields {
		v, ok := in[f.Key]
		if len(f.Options) > 0 {
			if !ok {
				out[f.Key] = f.Options[0].Value
				continue
			}
			if !slices.ContainsFunc(f.Options, func(o kit.Option) bool { return o.Value == v }) {
				return nil, engine.Refuse(engine.ErrBadArgument, fmt.Sprintf("%s: choose one of the choices shown", f.Label.EN),
					fmt.Sprintf("%s : choisissez parmi les choix proposés", f.Label.FR))
			}
			out[f.Key] = v
			continue
		}
		if !ok {
			out[f.Key] = strconv.Itoa(f.Value)
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < f.Min || n > f.Max {
			return nil, engine.Refuse(engine.ErrBadArgument, fmt.Sprintf("%s: choose a number from %d to %d", f.Label.EN, f.Min, f.Max),
				fmt.Sprintf("%s : choisissez un nombre de %d à %d", f.Label.FR, f.Min, f.Max))
		}
		out[f.Key] = strconv.Itoa(n)
	}
	return out, nil
}

func (v values) num(key string) int {
	n, _ := strconv.Atoi(v[key])
	return n
}

// goodsFields are one stepper per goods of idx, keyed prefix+goods key,
// from 0 to max(g), starting at def(g).
func (g game) goodsFields(prefix string, idx []int, maxOf, def func(int) int) []kit.Field {
	var out []kit.Field
	for _, i := range idx {
		name := g.goods(i)
		out = append(out, kit.Field{Key: prefix + g.d.Goods[i].Key, Label: tx(upper(name.FR), upper(name.EN)),
			Min: 0, Max: maxOf(i), Value: def(i), Unit: cardUnit, Units: cardUnits})
	}
	return out
}

// goodsOf reads the steppers of goodsFields as a bundle, without zeros.
func (g game) goodsOf(v values, prefix string, idx []int) map[string]int {
	out := map[string]int{}
	for _, i := range idx {
		if n := v.num(prefix + g.d.Goods[i].Key); n > 0 {
			out[g.d.Goods[i].Key] = n
		}
	}
	return out
}

// build returns the Build of an action with fields: the values read,
// then the command made of them.
func build(fields []kit.Field, cmd func(values) (engine.Command, error)) func(map[string]string) (engine.Command, error) {
	return func(in map[string]string) (engine.Command, error) {
		v, err := read(fields, in)
		if err != nil {
			return nil, err
		}
		return cmd(v)
	}
}

// fixed is the Build of an action without choice.
func fixed(c engine.Command) func(map[string]string) (engine.Command, error) {
	return func(map[string]string) (engine.Command, error) { return c, nil }
}

func actions(s engine.State, seat engine.Seat) []kit.Action {
	out := seatActions(s, seat)
	// A player's step that cannot be taken back (the last bid reveals
	// them all, a pass that opens the wealth's announcement) asks to be
	// confirmed; the table's steps are confirmed by their sheet's choice.
	for i, a := range out {
		if a.By < 0 {
			continue
		}
		values := map[string]string{}
		for _, f := range a.Fields {
			if len(f.Options) > 0 {
				values[f.Key] = f.Options[0].Value
			} else {
				values[f.Key] = strconv.Itoa(f.Value)
			}
		}
		cmd, err := a.Build(values)
		if err != nil {
			continue
		}
		act := engine.Action{By: a.By, Cmd: cmd}
		if evs, err := s.Decide(act); err == nil && !undoable(s, act, evs) {
			out[i].Confirm = true
		}
	}
	return out
}

func seatActions(s engine.State, seat engine.Seat) []kit.Action {
	g, ok := newGame(s, seat)
	if !ok || seat < 0 || int(seat) >= len(g.v.Players) || g.v.Me == nil {
		return nil
	}
	waits := slices.Contains(g.v.Waiting, seat)
	switch g.v.Phase {
	case "hands":
		if waits {
			return []kit.Action{g.hand(seat)}
		}
	case "market":
		// The first player holds the junk and turns the card over.
		if seat == g.v.First {
			return g.reveal()
		}
	case "draw":
		// The card taken is secret to whoever takes it.
		if seat == g.v.Turn {
			return g.draw(seat)
		}
	case "exchange", "actions", "restock":
		if seat == g.v.Turn {
			return g.turn(seat)
		}
	case "bidding":
		if waits {
			return g.bid(seat)
		}
	}
	return nil
}

// legal lists seat's legal commands now.
func (g game) legal(seat engine.Seat) []engine.Command {
	var out []engine.Command
	for _, a := range g.s.Legal() {
		if a.By == seat {
			out = append(out, a.Cmd)
		}
	}
	return out
}

// hand records the seat's starting hand card by card: for each of the
// cards in the hand, its goods. Any choice makes a hand of the right
// size, so the only refusal left is a goods the deal has no more cards of.
// Every goods is offered for every card: leaving out those the others
// were dealt to the last would tell their secret hands.
//
// The last hand to record is the only one left (the whole deck is
// dealt): it is one tap, named, and tells nothing the player does not hold.
func (g game) hand(seat engine.Seat) kit.Action {
	label := txf("Noter ma main de départ (%d cartes)", "Record my starting hand (%d cards)", dschunke.HandSize)
	var left []map[string]int
	for _, a := range g.s.Legal() {
		if c, ok := a.Cmd.(dschunke.Hand); ok {
			left = append(left, c.Goods)
		}
	}
	if len(left) == 1 {
		return kit.Action{ID: "hand", Group: "hand", By: seat, Build: fixed(dschunke.Hand{Goods: left[0]}),
			Label: txf("Noter ma main de départ : %s", "Record my starting hand: %s", g.bundle(left[0]))}
	}
	var opts []kit.Option
	for i := range g.d.Goods {
		name := g.goods(i)
		opts = append(opts, kit.Option{Value: g.d.Goods[i].Key, Label: tx(upper(name.FR), upper(name.EN))})
	}
	var fields []kit.Field
	for k := 1; k <= dschunke.HandSize; k++ {
		fields = append(fields, kit.Field{Key: cardKey(k), Label: txf("Carte %d", "Card %d", k), Options: opts})
	}
	return kit.Action{ID: "hand", Group: "hand", By: seat, Fields: fields, Label: label,
		Build: build(fields, func(v values) (engine.Command, error) {
			m := map[string]int{}
			for k := 1; k <= dschunke.HandSize; k++ {
				m[v[cardKey(k)]]++
			}
			return dschunke.Hand{Goods: m}, nil
		})}
}

// cardKey is the field of the kth card of a starting hand.
func cardKey(k int) string { return "card" + strconv.Itoa(k) }

// bundleValue is a bundle's option value: "fish2,rice1".
func (g game) bundleValue(m map[string]int) string {
	var l []string
	for _, gd := range g.d.Goods {
		if n := m[gd.Key]; n > 0 {
			l = append(l, gd.Key+strconv.Itoa(n))
		}
	}
	return strings.Join(l, ",")
}

// bundleField is a choice among bundles of goods cards, each by its
// cards ("2 fish cards, 1 rice card"), and the command of each choice: every choice
// offered is legal, where steppers by goods would let the total go wrong.
func (g game) bundleField(label kit.Text, bundles []map[string]int, cmd func(map[string]int) engine.Command) (kit.Field, map[string]engine.Command) {
	f := kit.Field{Key: "goods", Label: label}
	byValue := map[string]engine.Command{}
	for _, b := range bundles {
		v := g.bundleValue(b)
		if _, ok := byValue[v]; ok {
			continue
		}
		byValue[v] = cmd(b)
		f.Options = append(f.Options, kit.Option{Value: v, Label: tx(upper(g.bundle(b).FR), upper(g.bundle(b).EN))})
	}
	return f, byValue
}

// marketName names a market card by its prices, as printed.
func (g game) marketName(i int) kit.Text {
	var fr, en []string
	for k, p := range g.d.Market[i].Prices {
		name := g.goods(k)
		if p == dschunke.PriceSpecial {
			fr = append(fr, name.FR+" carte spéciale")
			en = append(en, name.EN+" special card")
			continue
		}
		fr = append(fr, fmt.Sprintf("%s %d", name.FR, p))
		en = append(en, fmt.Sprintf("%s %d", name.EN, p))
	}
	return tx(upper(strings.Join(fr, " · ")), upper(strings.Join(en, " · ")))
}

// reveal is the market card turned over, chosen among those left.
func (g game) reveal() []kit.Action {
	var opts []kit.Option
	for _, a := range g.s.Legal() {
		if c, ok := a.Cmd.(dschunke.Reveal); ok && a.By == engine.NoSeat {
			i, _ := g.d.MarketIndex(c.Market)
			opts = append(opts, kit.Option{Value: c.Market, Label: g.marketName(i)})
		}
	}
	if len(opts) == 0 {
		return nil
	}
	fields := []kit.Field{{Key: "market", Label: tx("Carte marché retournée", "Market card turned over"), Options: opts}}
	return []kit.Action{{ID: "reveal", Group: "draw", By: engine.NoSeat, Fields: fields,
		Label: tx("J'ai retourné la carte marché", "I turned over the market card"),
		Build: build(fields, func(v values) (engine.Command, error) { return dschunke.Reveal{Market: v["market"]}, nil })}}
}

// draw is a special card taken from a pile: the pile, and the card by
// its name among the cards that may still be in the piles as far as the
// player knows.
func (g game) draw(seat engine.Seat) []kit.Action {
	var piles []string
	byName := map[string][]string{} // the cards in the piles, by name: only Build reads it
	for _, a := range g.s.Legal() {
		c, ok := a.Cmd.(dschunke.Draw)
		if !ok || a.By != engine.NoSeat {
			continue
		}
		if !slices.Contains(piles, c.Pile) {
			piles = append(piles, c.Pile)
		}
		i, _ := g.d.SpecialIndex(c.Card)
		name := g.d.CardName(i, "en")
		if !slices.Contains(byName[name], c.Card) {
			byName[name] = append(byName[name], c.Card)
		}
	}
	if len(piles) == 0 {
		return nil
	}
	left := map[string]int{}
	for _, p := range g.v.Piles {
		left[p.Key] = p.Cards
	}
	// The largest pile first: the one taken when none is said.
	slices.SortStableFunc(piles, func(a, b string) int { return left[b] - left[a] })
	var pileOpts []kit.Option
	for _, key := range piles {
		p, _ := g.d.PileIndex(key)
		n := left[key]
		pileOpts = append(pileOpts, kit.Option{Value: key, Label: txf("Paquet %s (%s)", "%s pile (%s)",
			tx(g.d.Piles[p].FR, upper(g.d.Piles[p].EN)), count(n, "carte", "cartes", "card", "cards"))})
	}
	// The cards known to be out of the piles: face up, played, the
	// player's own.
	out := map[string]int{}
	for _, p := range g.v.Players {
		for _, id := range append(append([]string(nil), p.Always...), p.Played...) {
			out[id]++
		}
	}
	for _, id := range g.v.Me.Special {
		out[id]++
	}
	var cardOpts []kit.Option
	seen := map[string]int{} // cards of each name
	known := map[string]int{}
	for i, c := range g.d.Special {
		name := g.d.CardName(i, "en")
		seen[name]++
		known[name] += out[c.ID]
	}
	for i := range g.d.Special {
		name := g.d.CardName(i, "en")
		if seen[name] == 0 {
			continue // listed already, by its first card
		}
		if seen[name] > known[name] {
			cardOpts = append(cardOpts, kit.Option{Value: kindValue(i), Label: tx(upper(g.d.CardName(i, "fr")), upper(name))})
		}
		seen[name] = 0
	}
	fields := []kit.Field{
		{Key: "pile", Label: tx("Paquet", "Pile"), Options: pileOpts},
		{Key: "card", Label: tx("Carte prise", "Card taken"), Options: cardOpts},
	}
	return []kit.Action{{ID: "draw", Group: "draw", By: engine.NoSeat, Fields: fields,
		Label: tx("J'ai pris une carte spéciale", "I took a special card"),
		Build: build(fields, func(v values) (engine.Command, error) {
			i, _ := strconv.Atoi(strings.TrimPrefix(v["card"], "kind-"))
			ids := byName[g.d.CardName(i, "en")]
			if len(ids) == 0 {
				return nil, engine.Refuse(dschunke.ErrCardDrawn, "no such card is left in the piles: check the card's name",
					"il ne reste pas de telle carte dans les paquets : vérifiez le nom de la carte")
			}
			return dschunke.Draw{Pile: v["pile"], Card: ids[0]}, nil
		})}}
}

// kindValue is the value of a special card's option: the kind of card
// (its name), by the index of the first card of that name, never a card's
// id, which would name a card another player may hold.
func kindValue(i int) string { return "kind-" + strconv.Itoa(i) }

// turn lists the actions of the player in turn in phases 1 to 3: the
// exchange or its pass, an action with a merchant or a helper, an
// extra-action card, the end of the turn, the restock.
func (g game) turn(seat engine.Seat) []kit.Action {
	legal := g.legal(seat)
	var out []kit.Action
	type group struct {
		id   string
		cmds []engine.Command
	}
	var groups []*group
	find := func(id string, c engine.Command) {
		for _, gr := range groups {
			if gr.id == id {
				gr.cmds = append(gr.cmds, c)
				return
			}
		}
		groups = append(groups, &group{id: id, cmds: []engine.Command{c}})
	}
	for _, c := range legal {
		switch c := c.(type) {
		case dschunke.Pass:
			find("pass", c)
		case dschunke.Exchange:
			find("exchange", c)
		case dschunke.Restock:
			find("restock", c)
		case dschunke.Load:
			find(pawnID("load", c.With, c.Junk), c)
		case dschunke.Income:
			find(pawnID("income", c.With, c.Junk), c)
		case dschunke.Take:
			find(pawnID("take", c.With, c.Junk), c)
		case dschunke.Play:
			i, _ := g.d.SpecialIndex(c.Card)
			switch g.d.Special[i].Effect {
			case dschunke.EffPlacePalette, dschunke.EffTakeGoods:
				find("play:"+c.Card+":"+c.Junk, c)
			default:
				find("play:"+c.Card, c)
			}
		}
	}
	for _, gr := range groups {
		if a, ok := g.describe(seat, gr.id, gr.cmds); ok {
			out = append(out, a)
		}
	}
	return out
}

// pawnID is an action's ID: "load:merchant", "take:helper:white".
func pawnID(verb, with, junk string) string {
	if junk == "" {
		return verb + ":" + with
	}
	return verb + ":" + with + ":" + junk
}

// merchantJunk is the junk of the merchant offering act.
func (g game) merchantJunk(act dschunke.Action) string {
	for _, p := range g.v.Pawns {
		if p.With == dschunke.WithMerchant && p.Action == act.String() {
			return p.Junk
		}
	}
	return ""
}

// describe makes the one action of a group of legal commands.
func (g game) describe(seat engine.Seat, id string, cmds []engine.Command) (kit.Action, bool) {
	a := kit.Action{ID: id, By: seat}
	switch c := cmds[0].(type) {
	case dschunke.Pass:
		if g.v.Phase == "exchange" {
			a.Group, a.Label = "pass", tx("Ne pas échanger", "Do not exchange")
		} else {
			a.Group, a.Label = "end", tx("Finir mon tour", "End my turn")
		}
		a.Build = fixed(c)
	case dschunke.Exchange:
		return g.exchange(seat, cmds), true
	case dschunke.Restock:
		return g.restock(seat, cmds), true
	case dschunke.Load:
		junk := c.Junk
		if junk == "" {
			junk = g.merchantJunk(dschunke.ActLoad)
		}
		a.Group, a.Target = "load", junk
		pawn, on := g.pawn(c.With), g.junk(junk)
		n := len(c.At)
		if n == 0 {
			a.Label = txf("Charger avec %s sur %s (plus de palette)", "Load with %s on %s (no palette left)", pawn, on)
			a.Build = fixed(c)
			break
		}
		what := count(n, "palette", "palettes", "palette", "palettes")
		a.Label = txf("Charger %s sur %s avec %s", "Load %s on %s with %s", what, on, pawn)
		// Two palettes in the same layer: one choice for both orders.
		var opts []kit.Option
		byValue := map[string]engine.Command{}
		for _, x := range cmds {
			l := x.(dschunke.Load)
			if g.sameLayer(junk, l.At) && !slices.IsSorted(l.At) {
				continue
			}
			opts = append(opts, kit.Option{Value: atValue(l.At), Label: g.slotsName(junk, l.At)})
			byValue[atValue(l.At)] = l
		}
		a.Fields = []kit.Field{{Key: "at", Label: tx("Place des palettes", "Where the palettes go"), Options: opts}}
		a.Build = build(a.Fields, func(v values) (engine.Command, error) { return byValue[v["at"]], nil })
	case dschunke.Income:
		junk := c.Junk
		if junk == "" {
			junk = g.merchantJunk(dschunke.ActIncome)
		}
		a.Group, a.Target = "income", junk
		pawn, on := g.pawn(c.With), g.junk(junk)
		yuans := g.owed(seat, junk)
		a.Label = txf("Revenus de %s avec %s (%s)", "Income from %s with %s (%s)", on, pawn, count(yuans, "yuan", "yuans", "yuan", "yuans"))
		a.Build = fixed(c)
	case dschunke.Take:
		junk := c.Junk
		if junk == "" {
			junk = g.merchantJunk(dschunke.ActGoods)
		}
		a.Group, a.Target = "take", junk
		pawn, on := g.pawn(c.With), g.junk(junk)
		var bundles []map[string]int
		for _, x := range cmds {
			bundles = append(bundles, x.(dschunke.Take).Goods)
		}
		head := txf("Prendre des cartes marchandises pour %s avec %s", "Take goods cards for %s with %s", on, pawn)
		g.goodsChoice(&a, head, bundles, func(m map[string]int) engine.Command {
			return dschunke.Take{With: c.With, Junk: c.Junk, Goods: m}
		})
	case dschunke.Play:
		return g.playCard(seat, cmds), true
	default:
		return a, false
	}
	return a, true
}

// owed is what an income or a goods action on junk gives seat: one per
// visible crate, at least 3.
func (g game) owed(seat engine.Seat, junk string) int {
	for _, j := range g.v.Junks {
		if j.Key == junk && int(seat) < len(j.Crates) {
			return max(3, j.Crates[seat])
		}
	}
	return 3
}

// goodsChoice sets a's label and fields for goods cards taken as one of
// bundles: no field when there is one way, else the choice of a bundle.
func (g game) goodsChoice(a *kit.Action, head kit.Text, bundles []map[string]int, cmd func(map[string]int) engine.Command) {
	if len(bundles) == 1 {
		b := g.bundle(bundles[0])
		a.Label = txf("%s : %s", "%s: %s", head, b)
		a.Build = fixed(cmd(bundles[0]))
		return
	}
	f, byValue := g.bundleField(tx("Cartes prises", "Cards taken"), bundles, cmd)
	a.Label = head
	a.Fields = []kit.Field{f}
	a.Build = build(a.Fields, func(v values) (engine.Command, error) { return byValue[v["goods"]], nil })
}

// exchange gives 1 or 2 goods cards for as many others: a stepper per
// goods held to give, one per goods on the junks to take, starting at
// the first exchange listed.
func (g game) exchange(seat engine.Seat, cmds []engine.Command) kit.Action {
	first := cmds[0].(dschunke.Exchange)
	var give, take []int
	piles := g.piles()
	for i, gd := range g.d.Goods {
		if g.v.Me.Hand[gd.Key] > 0 {
			give = append(give, i)
		}
		if piles[i] > 0 {
			take = append(take, i)
		}
	}
	fields := append(g.goodsFields("give-", give, func(i int) int { return min(2, g.v.Me.Hand[g.d.Goods[i].Key]) }, func(i int) int { return first.Give[g.d.Goods[i].Key] }),
		g.goodsFields("take-", take, func(i int) int { return min(2, piles[i]) }, func(i int) int { return first.Take[g.d.Goods[i].Key] })...)
	for k := range fields {
		if strings.HasPrefix(fields[k].Key, "give-") {
			fields[k].Label = txf("Je rends : %s", "I give: %s", tx(lower(fields[k].Label.FR), lower(fields[k].Label.EN)))
		} else {
			fields[k].Label = txf("Je prends : %s", "I take: %s", tx(lower(fields[k].Label.FR), lower(fields[k].Label.EN)))
		}
	}
	return kit.Action{ID: "exchange", Group: "exchange", By: seat, Fields: fields,
		Label: tx("Échanger 1 ou 2 cartes marchandises", "Exchange 1 or 2 goods cards"),
		Build: build(fields, func(v values) (engine.Command, error) {
			return dschunke.Exchange{Give: g.goodsOf(v, "give-", give), Take: g.goodsOf(v, "take-", take)}, nil
		})}
}

// piles is the goods cards left on the junks, by goods.
func (g game) piles() [dschunke.NumGoods]int {
	var out [dschunke.NumGoods]int
	for _, j := range g.v.Junks {
		if j.Goods != "" {
			out[g.goodsIndex(j.Goods)] = j.Cards
		}
	}
	return out
}

// restock takes goods cards of one's choice, as many as owed: one
// choice among the bundles the junks' piles allow.
func (g game) restock(seat engine.Seat, cmds []engine.Command) kit.Action {
	total := 0
	for _, n := range cmds[0].(dschunke.Restock).Goods {
		total += n
	}
	var bundles []map[string]int
	for _, c := range cmds {
		bundles = append(bundles, c.(dschunke.Restock).Goods)
	}
	a := kit.Action{ID: "restock", Group: "restock", By: seat}
	if len(bundles) == 1 {
		a.Label = txf("Me réapprovisionner : %s", "Restock: %s", g.bundle(bundles[0]))
		a.Build = fixed(cmds[0])
		return a
	}
	what := count(total, "carte marchandise", "cartes marchandises", "goods card", "goods cards")
	g.goodsChoice(&a, txf("Me réapprovisionner : %s", "Restock: %s", what), bundles, func(m map[string]int) engine.Command {
		return dschunke.Restock{Goods: m}
	})
	return a
}

// playCard plays an extra-action card: on a junk of one's choice for a
// palette laid or goods taken (one action per junk), a palette moved from
// where to where, an income.
func (g game) playCard(seat engine.Seat, cmds []engine.Command) kit.Action {
	c := cmds[0].(dschunke.Play)
	i, _ := g.d.SpecialIndex(c.Card)
	card := g.card(c.Card)
	a := kit.Action{ID: "play:" + c.Card, Group: "card", Target: c.Card, By: seat}
	switch g.d.Special[i].Effect {
	case dschunke.EffIncome:
		a.Label = txf("Jouer la carte %s", "Play the card %s", card)
		a.Build = fixed(c)
	case dschunke.EffPlacePalette:
		a.ID += ":" + c.Junk
		on := g.junk(c.Junk)
		a.Label = txf("Jouer la carte %s : une palette sur %s", "Play the card %s: a palette on %s", card, on)
		var opts []kit.Option
		byValue := map[string]engine.Command{}
		for _, x := range cmds {
			p := x.(dschunke.Play)
			opts = append(opts, kit.Option{Value: atValue(p.At), Label: g.slotsName(p.Junk, p.At)})
			byValue[atValue(p.At)] = p
		}
		a.Fields = []kit.Field{{Key: "at", Label: tx("Place de la palette", "Where the palette goes"), Options: opts}}
		a.Build = build(a.Fields, func(v values) (engine.Command, error) { return byValue[v["at"]], nil })
	case dschunke.EffTakeGoods:
		a.ID += ":" + c.Junk
		on := g.junk(c.Junk)
		head := txf("Jouer la carte %s pour %s", "Play the card %s for %s", card, on)
		var bundles []map[string]int
		for _, x := range cmds {
			bundles = append(bundles, x.(dschunke.Play).Goods)
		}
		g.goodsChoice(&a, head, bundles, func(m map[string]int) engine.Command {
			return dschunke.Play{Card: c.Card, Junk: c.Junk, Goods: m}
		})
	case dschunke.EffMovePalette:
		a.Label = txf("Jouer la carte %s", "Play the card %s", card)
		var from, to []kit.Option
		for _, x := range cmds {
			p := x.(dschunke.Play)
			f := p.From + ":" + strconv.Itoa(p.Slot)
			if !slices.ContainsFunc(from, func(o kit.Option) bool { return o.Value == f }) {
				name, where := g.junk(p.From), g.topSlotName(p.From, p.Slot)
				from = append(from, kit.Option{Value: f, Label: txf("%s, %s", "%s, %s", tx(upper(name.FR), upper(name.EN)), tx(lower(where.FR), lower(where.EN)))})
			}
			t := p.Junk + ":" + atValue(p.At)
			if !slices.ContainsFunc(to, func(o kit.Option) bool { return o.Value == t }) {
				name, where := g.junk(p.Junk), g.slotsName(p.Junk, p.At)
				to = append(to, kit.Option{Value: t, Label: txf("%s, %s", "%s, %s", tx(upper(name.FR), upper(name.EN)), tx(lower(where.FR), lower(where.EN)))})
			}
		}
		// The first place to go is on another junk than the first
		// palette's, so that the first choices are a move.
		fromJunk, _, _ := strings.Cut(from[0].Value, ":")
		slices.SortStableFunc(to, func(x, y kit.Option) int {
			return boolInt(strings.HasPrefix(x.Value, fromJunk+":")) - boolInt(strings.HasPrefix(y.Value, fromJunk+":"))
		})
		a.Fields = []kit.Field{
			{Key: "from", Label: tx("Palette déplacée", "Palette moved"), Options: from},
			{Key: "to", Label: tx("Vers", "To"), Options: to},
		}
		a.Build = build(a.Fields, func(v values) (engine.Command, error) {
			fj, fs, _ := strings.Cut(v["from"], ":")
			tj, ts, _ := strings.Cut(v["to"], ":")
			slot, _ := strconv.Atoi(fs)
			at, _ := strconv.Atoi(ts)
			return dschunke.Play{Card: c.Card, From: fj, Slot: slot, Junk: tj, At: []int{at}}, nil
		})
	}
	return a
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// topSlotName names slot of junk's top layer.
func (g game) topSlotName(junk string, slot int) kit.Text {
	for _, j := range g.v.Junks {
		if j.Key == junk && len(j.Layers) > 0 {
			return slotName(len(j.Layers)-1, slot)
		}
	}
	return slotName(0, slot)
}

// bid is the sealed bid: nothing, or cards (one goods; several are a
// bluff and count as nothing), a stepper per goods held not yet sold.
func (g game) bid(seat engine.Seat) []kit.Action {
	most := map[int]int{}
	var idx []int
	for _, c := range g.legal(seat) {
		b, ok := c.(dschunke.Bid)
		if !ok || len(b.Goods) != 1 {
			continue
		}
		for k, n := range b.Goods {
			i := g.goodsIndex(k)
			if _, ok := most[i]; !ok {
				idx = append(idx, i)
			}
			most[i] = max(most[i], n)
		}
	}
	out := []kit.Action{{ID: "bid:none", Group: "bid", By: seat, Label: tx("Ne rien miser", "Bid nothing"), Build: fixed(dschunke.Bid{})}}
	if len(idx) == 0 {
		return out
	}
	slices.Sort(idx)
	fields := g.goodsFields("", idx, func(i int) int { return most[i] }, func(i int) int { return boolInt(i == idx[0]) })
	return append(out, kit.Action{ID: "bid", Group: "bid", By: seat, Fields: fields,
		Label: tx("Sceller ma mise secrète", "Seal my secret bid"),
		Build: build(fields, func(v values) (engine.Command, error) {
			m := g.goodsOf(v, "", idx)
			if len(m) == 0 {
				return nil, engine.Refuse(engine.ErrBadArgument, "choose at least one card, or bid nothing", "choisissez au moins une carte, ou ne misez rien")
			}
			return dschunke.Bid{Goods: m}, nil
		})})
}

// prompt says what the game waits for: to the player it waits for, the
// step itself; to everyone else, that player's name before it.
func prompt(s engine.State, viewer engine.Seat) kit.Text {
	g, ok := newGame(s, engine.NoSeat)
	if !ok {
		return kit.Text{}
	}
	to := func(seat engine.Seat, t kit.Text) kit.Text {
		if seat == viewer {
			return t
		}
		n := g.name(seat)
		return tx(n+", "+lower(t.FR), n+", "+lower(t.EN))
	}
	waits := slices.Contains(g.v.Waiting, viewer)
	switch g.v.Phase {
	case "hands":
		if waits {
			return txf("Notez votre main de départ : vos %d cartes marchandises", "Record your starting hand: your %d goods cards", dschunke.HandSize)
		}
		who := g.names(g.v.Waiting)
		return txf("Mains de départ : on attend %s", "Starting hands: waiting for %s", who)
	case "market":
		return to(g.v.First, txf("Retournez la carte marché du tour %d", "Turn over the market card of round %d", g.v.Round))
	case "exchange":
		return to(g.v.Turn, tx("Échangez 1 ou 2 cartes marchandises, ou n'échangez pas", "Exchange 1 or 2 goods cards, or do not exchange"))
	case "draw":
		return to(g.v.Turn, tx("Prenez une carte spéciale d'un paquet", "Take a special card from a pile"))
	case "actions":
		if p := g.v.Players[g.v.Turn]; p.Acted {
			return to(g.v.Turn, tx("Jouez une carte d'action supplémentaire ou finissez votre tour", "Play an extra-action card or end your turn"))
		}
		return to(g.v.Turn, tx("Faites votre action avec un marchand ou un aide", "Take your action with a merchant or a helper"))
	case "restock":
		n := min(g.v.Players[g.v.Turn].Restock, sumPiles(g.piles()))
		what := count(n, "carte marchandise", "cartes marchandises", "goods card", "goods cards")
		return to(g.v.Turn, txf("Réapprovisionnez-vous : prenez %s", "Restock: take %s", what))
	case "bidding":
		if waits {
			return tx("Scellez votre mise secrète", "Seal your secret bid")
		}
		who := g.names(g.v.Waiting)
		return txf("Enchère secrète : on attend %s", "Secret bidding: waiting for %s", who)
	case "over":
		return tx("La partie est finie", "The game is over")
	}
	return tx("Un instant…", "One moment…")
}

func sumPiles(p [dschunke.NumGoods]int) int { return p[0] + p[1] + p[2] + p[3] }
