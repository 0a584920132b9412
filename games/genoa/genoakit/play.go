package genoakit

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"comptoir/engine"
	"comptoir/games/genoa"
	"comptoir/games/kit"
)

// Genoa played from the phones: every legal command of the rules
// (State.Legal) is grouped into actions described in the game's printed
// words. One action per square the pawn can go to, per deal partner and
// square, per card to deliver; amounts are steppers (a deal's ducats, the
// goods it gives) and choices are pickers (the card drawn, the dice, the
// good a tile gives), so that every legal command is one action with some
// values, and no phone shows a key, a cell or a card ID.
//
// Whose phone gets what:
//   - the merchant's: the dice, the start-space tile, the moves, the
//     deals (played as the merchant, who concludes them; the other side
//     must accept them first: Consent), accepting an offer, ending the
//     movement;
//   - the phone of whoever has the current building's action: taking it,
//     the small order after it, the tiles of the action's timing;
//   - the other players' phones: a deal proposed to the merchant for a
//     square next to the pawn (played as the table once the merchant
//     accepted it: Consent), an offer for the current building's action,
//     the extra-action tile;
//   - the acquiring player's: acquiring from each street, or passing;
//   - the drawing player's phone: the card drawn, by name, played as the
//     table (engine.NoSeat) as a card reader would. The drawer holds the
//     card and is the only one who may see it; any other phone would
//     learn a card that is not theirs. The choice lists every card of the
//     deck that the drawer does not hold, including the ones in other
//     hands: listing only the cards left in the deck would tell the drawer
//     which cards the others hold.
//
// The dice are the merchant's roll (the rules list them as the
// merchant's; a dice camera sends them as the table).
var play = &kit.Play{Actions: actions, Prompt: prompt, Consent: consent, Undoable: undoable}

// ducatsMax bounds a deal's ducats on the merchant's phone: the other
// player's money is secret, so the stepper cannot stop at it (the rules
// refuse what the payer does not hold, without saying how much that is).
const ducatsMax = 999

func tx(en, fr string) kit.Text { return kit.Text{EN: en, FR: fr} }

// say builds a text from one function of the language.
func say(f func(lang string) string) kit.Text { return kit.Text{EN: f("en"), FR: f("fr")} }

// refusal is a wrong value sent by a page.
func refusal(en, fr string) error { return engine.Refuse(engine.ErrBadArgument, en, fr) }

// builder collects one seat's actions.
type builder struct {
	g    *genoa.State
	v    genoa.View
	seat engine.Seat
	out  []kit.Action
	seen map[string]bool
}

func (b *builder) add(a kit.Action) {
	if b.seen[a.ID] {
		return
	}
	b.seen[a.ID] = true
	b.out = append(b.out, a)
}

func (b *builder) name(seat engine.Seat) string { return b.g.Setup().Players[seat] }

// here is the square the pawn stands on, or "".
func (b *builder) here() genoa.Place {
	if n := len(b.v.Path); n > 0 {
		return b.v.Path[n-1]
	}
	return ""
}

func actions(s engine.State, seat engine.Seat) []kit.Action {
	g, ok := s.(*genoa.State)
	if !ok || seat < 0 || int(seat) >= len(g.Setup().Players) {
		return nil
	}
	b := &builder{g: g, v: g.View(seat).(genoa.View), seat: seat, seen: map[string]bool{}}
	legal := g.Legal()
	mine := func(a engine.Action) bool { return a.By == seat }
	for _, a := range legal {
		switch c := a.Cmd.(type) {
		case genoa.Draw:
			if a.By == engine.NoSeat && b.v.Drawing != nil && b.v.Drawing.Seat == seat {
				b.draw()
			}
		case genoa.Roll:
			if mine(a) {
				b.roll()
			}
		case genoa.Start:
			if mine(a) {
				b.start(c)
			}
		case genoa.Move:
			if mine(a) {
				b.move(c)
			}
		case genoa.Deal:
			if mine(a) {
				b.deal(c, legal)
			}
			if c.From == seat {
				b.propose(c)
			}
		case genoa.Offer:
			if mine(a) {
				b.offer()
			}
		case genoa.Accept:
			if mine(a) {
				b.accept(c)
			}
			if c.From == seat {
				// A standing offer may be changed while the merchant
				// could still accept it.
				b.offer()
			}
		case genoa.Act:
			if mine(a) {
				b.act(c, legal)
			}
		case genoa.Deliver:
			if mine(a) {
				b.deliver(c)
			}
		case genoa.Extra:
			if mine(a) {
				b.add(kit.Action{ID: "extra", Group: "tile", By: seat, Label: tx("Play the extra-action tile", "Jouer la tuile action supplémentaire"),
					Build: func(map[string]string) (engine.Command, error) { return genoa.Extra{}, nil }})
			}
		case genoa.Take:
			if mine(a) {
				b.take(legal)
			}
		case genoa.Trade:
			if mine(a) {
				b.trade(c)
			}
		case genoa.Build:
			if mine(a) {
				b.build(c, legal)
			}
		case genoa.End:
			if mine(a) {
				b.add(kit.Action{ID: "end", Group: "end", By: seat, Label: tx("End the movement", "Terminer le déplacement"),
					Build: func(map[string]string) (engine.Command, error) { return genoa.End{}, nil }})
			}
		case genoa.Pass:
			if mine(a) {
				b.add(kit.Action{ID: "pass", Group: "pass", By: seat, Label: tx("Acquire nothing", "Ne rien acquérir"),
					Build: func(map[string]string) (engine.Command, error) { return genoa.Pass{}, nil }})
			}
		case genoa.Acquire:
			if mine(a) {
				b.acquire(c.Street, legal)
			}
		}
	}
	return b.out
}

// choice returns the value of an option field, refusing one that is not
// among its options.
func choice(values map[string]string, f kit.Field) (string, error) {
	v, ok := values[f.Key]
	if !ok && len(f.Options) > 0 {
		v = f.Options[0].Value
	}
	for _, o := range f.Options {
		if o.Value == v {
			return v, nil
		}
	}
	return "", refusal("choose one of the choices offered for "+strings.ToLower(f.Label.EN), "choisissez l'un des choix proposés pour "+strings.ToLower(f.Label.FR))
}

// amount returns the value of a stepper field, refusing one out of its
// range.
func amount(values map[string]string, f kit.Field) (int, error) {
	v, ok := values[f.Key]
	if !ok || v == "" {
		return f.Value, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < f.Min || n > f.Max {
		return 0, refusal(fmt.Sprintf("%s: a number from %d to %d", f.Label.EN, f.Min, f.Max), fmt.Sprintf("%s : un nombre de %d à %d", f.Label.FR, f.Min, f.Max))
	}
	return n, nil
}

func (b *builder) draw() {
	d := b.v.Drawing
	deck := d.Deck
	f := kit.Field{Key: "card", Label: tx("Card drawn", "Carte piochée"), Deck: true}
	held := map[string]bool{}
	if b.v.Mine != nil {
		for _, c := range b.v.Mine.Cards {
			held[c] = true
		}
	}
	for _, id := range b.g.DeckCards(deck) {
		if !held[id] {
			f.Options = append(f.Options, kit.Option{Value: id, Label: say(func(l string) string { return b.g.CardName(id, l) })})
		}
	}
	var left kit.Text
	if d.N > 1 {
		left = tx(fmt.Sprintf(" (%d to draw)", d.N), fmt.Sprintf(" (%d à piocher)", d.N))
	}
	b.add(kit.Action{ID: "draw", Group: "draw", By: engine.NoSeat, Fields: []kit.Field{f},
		Label: tx("I drew a "+genoa.DeckName(deck, "en")+" card"+left.EN, "J'ai pioché une carte "+genoa.DeckName(deck, "fr")+left.FR),
		Build: func(values map[string]string) (engine.Command, error) {
			id, err := choice(values, f)
			if err != nil {
				return nil, err
			}
			return genoa.Draw{Card: id}, nil
		}})
}

func (b *builder) roll() {
	die := func(key, colour string, label kit.Text) kit.Field {
		f := kit.Field{Key: key, Label: label, Colour: colour}
		for i := 1; i <= 8; i++ {
			f.Options = append(f.Options, kit.Option{Value: strconv.Itoa(i), Label: tx(strconv.Itoa(i), strconv.Itoa(i))})
		}
		return f
	}
	blue := die("blue", "blue", tx("Blue die", "Dé bleu"))
	red := die("red", "red", tx("Red die", "Dé rouge"))
	b.add(kit.Action{ID: "roll", Group: "roll", By: b.seat, Fields: []kit.Field{blue, red},
		Label: tx("The dice show…", "Les dés donnent…"),
		Build: func(values map[string]string) (engine.Command, error) {
			x, err := choice(values, blue)
			if err != nil {
				return nil, err
			}
			y, err := choice(values, red)
			if err != nil {
				return nil, err
			}
			bx, _ := strconv.Atoi(x)
			ry, _ := strconv.Atoi(y)
			return genoa.Roll{Blue: bx, Red: ry}, nil
		}})
}

func (b *builder) start(c genoa.Start) {
	g := b.g
	b.add(kit.Action{ID: "start:" + string(c.Square), Group: "start", By: b.seat, Target: string(c.Square),
		Label: tx("Start on "+g.SquareThe(c.Square, "en", "")+" (start-space tile)", "Partir "+g.SquareThe(c.Square, "fr", "of")+" (tuile case départ)"),
		Build: func(map[string]string) (engine.Command, error) { return c, nil }})
}

func (b *builder) move(c genoa.Move) {
	g := b.g
	label := tx("Move the merchant "+g.SquareThe(c.To, "en", "to"), "Déplacer le marchand "+g.SquareThe(c.To, "fr", "to"))
	if n := len(c.Via) + 1; n > 1 {
		label.EN += fmt.Sprintf(" (%d moves)", n)
		label.FR += fmt.Sprintf(" (%d déplacements)", n)
	}
	b.add(kit.Action{ID: "move:" + string(c.To), Group: "move", By: b.seat, Target: string(c.To), Label: label,
		Build: func(map[string]string) (engine.Command, error) { return c, nil }})
}

// payFields are the steppers of a payment from payer: ducats, and each
// good, tile and marker the payer holds (public), from zero.
func (b *builder) payFields(payer engine.Seat, ducatsMax, ducats int, goods map[string]int) []kit.Field {
	g := b.g
	fs := []kit.Field{{Key: "ducats", Label: tx("Ducats", "Ducats"), Min: 0, Max: ducatsMax, Value: ducats,
		Unit: tx("ducat", "ducat"), Units: tx("ducats", "ducats")}}
	pv := b.v.Players[payer]
	for _, k := range g.Goods() {
		if n := pv.Goods[k]; n > 0 {
			name := say(func(l string) string { return g.GoodName(k, l) })
			fs = append(fs, kit.Field{Key: "good:" + k, Label: name, Min: 0, Max: n, Value: goods[k], Unit: name, Units: name})
		}
	}
	for _, k := range genoa.Tiles() {
		if n := pv.Tiles[k]; n > 0 {
			fs = append(fs, kit.Field{Key: "tile:" + k, Label: say(func(l string) string { return either(l, "Tuile ", "") + genoa.TileName(k, l) + either(l, "", " tile") }),
				Min: 0, Max: n, Unit: tx("tile", "tuile"), Units: tx("tiles", "tuiles")})
		}
	}
	if pv.Markers > 0 {
		fs = append(fs, kit.Field{Key: "markers", Label: tx("Ownership markers", "Marqueurs de propriété"), Min: 0, Max: pv.Markers,
			Unit: tx("marker", "marqueur"), Units: tx("markers", "marqueurs")})
	}
	return fs
}

func either(lang, fr, en string) string {
	if lang == "fr" {
		return fr
	}
	return en
}

// payment reads the payment fields' values.
func payment(values map[string]string, fs []kit.Field) (ducats int, goods, tiles map[string]int, markers int, err error) {
	for _, f := range fs {
		if len(f.Options) > 0 {
			continue
		}
		n, err := amount(values, f)
		if err != nil {
			return 0, nil, nil, 0, err
		}
		if n == 0 {
			continue
		}
		switch k, v, _ := strings.Cut(f.Key, ":"); k {
		case "ducats":
			ducats = n
		case "markers":
			markers = n
		case "good":
			if goods == nil {
				goods = map[string]int{}
			}
			goods[v] = n
		case "tile":
			if tiles == nil {
				tiles = map[string]int{}
			}
			tiles[v] = n
		}
	}
	return ducats, goods, tiles, markers, nil
}

// deal is the merchant's deal with another player for a square next to
// the pawn: that player pays, the pawn goes there, and at a building that
// player takes its action. The payer must accept it (Consent) before it
// is played.
func (b *builder) deal(c genoa.Deal, legal []engine.Action) {
	g := b.g
	id := "deal:" + strconv.Itoa(int(c.From)) + ":" + string(c.To)
	if b.seen[id] {
		return
	}
	// Defaults: the rules' own example payment, its ducats never telling
	// the payer's money (5, or none where money alone is refused).
	ducats := 0
	if c.Ducats > 0 {
		ducats = 5
	}
	fs := b.payFields(c.From, ducatsMax, ducats, c.Goods)
	var after kit.Field
	if ys := g.Yields(c.To); len(ys) > 0 && slices.ContainsFunc(legal, func(a engine.Action) bool {
		d, ok := a.Cmd.(genoa.Deal)
		return ok && d.From == c.From && d.To == c.To && len(d.After) > 0
	}) {
		after = kit.Field{Key: "after", Label: tx("Paid from what the action gives", "Payé avec ce que l'action rapporte"),
			Options: []kit.Option{{Value: "none", Label: tx("nothing", "rien")}}}
		for _, y := range ys {
			after.Options = append(after.Options, kit.Option{Value: y, Label: say(func(l string) string { return g.ItemName(yieldItem(y, g), l) })})
		}
		if c.Ducats == 0 && len(c.Goods) == 0 {
			// The example deal is paid from the action: make it the default.
			for k := range c.After {
				if i := slices.IndexFunc(after.Options, func(o kit.Option) bool { return o.Value == k }); i > 0 {
					after.Options[0], after.Options[i] = after.Options[i], after.Options[0]
				}
			}
		}
		fs = append(fs, after)
	}
	who := b.name(c.From)
	label := tx(fmt.Sprintf("Deal with %s: %s pays, the merchant goes %s", who, who, g.SquareThe(c.To, "en", "to")),
		fmt.Sprintf("Marché avec %s : %s paie, le marchand va %s", who, who, g.SquareThe(c.To, "fr", "to")))
	if g.ActionGives(c.To, "en") != "" {
		label.EN += fmt.Sprintf(" and %s takes its action", who)
		label.FR += fmt.Sprintf(" et %s y fait l'action", who)
	}
	b.add(kit.Action{ID: id, Group: "deal", By: b.seat, Target: string(c.To), Label: label, Fields: fs,
		Build: func(values map[string]string) (engine.Command, error) {
			ducats, goods, tiles, markers, err := payment(values, fs)
			if err != nil {
				return nil, err
			}
			d := genoa.Deal{From: c.From, To: c.To, Ducats: ducats, Goods: goods, Tiles: tiles, Markers: markers}
			if after.Key != "" {
				y, err := choice(values, after)
				if err != nil {
					return nil, err
				}
				if y != "none" {
					d.After = map[string]int{y: 1}
				}
			}
			return d, nil
		}})
}

// propose is a deal a player proposes to the merchant for a square next
// to the pawn: the proposer pays (what they choose, up to their own
// money, which their phone may show), the pawn goes there, and at a
// building the proposer takes its action. It is played as the table,
// which may conclude a deal, once the merchant accepted it (Consent).
func (b *builder) propose(c genoa.Deal) {
	g := b.g
	id := "propose:" + string(c.To)
	if b.seen[id] {
		return
	}
	ducats := 0
	if b.v.Mine != nil {
		ducats = b.v.Mine.Ducats
	}
	def := 0
	if c.Ducats > 0 {
		def = min(5, ducats)
	}
	fs := b.payFields(b.seat, ducats, def, c.Goods)
	// The label names both sides, not "you": the merchant reads it too,
	// in the proposal to accept.
	merchant, who := b.name(b.v.Merchant), b.name(b.seat)
	label := tx(fmt.Sprintf("Deal with %s: %s pays, the merchant goes %s", merchant, who, g.SquareThe(c.To, "en", "to")),
		fmt.Sprintf("Marché avec %s : %s paie, le marchand va %s", merchant, who, g.SquareThe(c.To, "fr", "to")))
	if g.ActionGives(c.To, "en") != "" {
		label.EN += fmt.Sprintf(" and %s takes its action", who)
		label.FR += fmt.Sprintf(" et %s y fait l'action", who)
	}
	b.add(kit.Action{ID: id, Group: "deal", By: engine.NoSeat, Target: string(c.To), Label: label, Fields: fs,
		Build: func(values map[string]string) (engine.Command, error) {
			ducats, goods, tiles, markers, err := payment(values, fs)
			if err != nil {
				return nil, err
			}
			return genoa.Deal{From: b.seat, To: c.To, Ducats: ducats, Goods: goods, Tiles: tiles, Markers: markers}, nil
		}})
}

// yieldItem writes a yield (a good or a tile key) as a trade item, to
// name it.
func yieldItem(y string, g *genoa.State) string {
	if slices.Contains(genoa.Tiles(), y) && !slices.Contains(g.Goods(), y) {
		return "tile:" + y
	}
	return y
}

// offer is a player's offer for the action of the building the pawn
// stands on: what the offerer pays if the merchant accepts.
func (b *builder) offer() {
	g := b.g
	here := b.here()
	ducats := 0
	if b.v.Mine != nil {
		ducats = b.v.Mine.Ducats
	}
	fs := b.payFields(b.seat, ducats, min(5, ducats), nil)
	label := tx("Make an offer for the action "+g.SquareThe(here, "en", "of"), "Faire une offre pour l'action "+g.SquareThe(here, "fr", "of"))
	if o, ok := g.OfferOf(b.seat); ok {
		label = tx("Change your offer for the action "+g.SquareThe(here, "en", "of")+" (now: "+g.PayWords(o.Ducats, o.Goods, o.Cards, o.Tiles, o.Markers, "en")+")",
			"Changer votre offre pour l'action "+g.SquareThe(here, "fr", "of")+" (pour l'instant : "+g.PayWords(o.Ducats, o.Goods, o.Cards, o.Tiles, o.Markers, "fr")+")")
		fs[0].Value = min(o.Ducats, ducats)
		for i := range fs {
			if k, v, _ := strings.Cut(fs[i].Key, ":"); k == "good" {
				fs[i].Value = min(o.Goods[v], fs[i].Max)
			}
		}
	} else if ducats == 0 || b.legalOfferGoods() {
		// Money alone is refused here (two players, Filosofia) or there is
		// none: start from one good.
		fs[0].Value = 0
		for i := range fs {
			if strings.HasPrefix(fs[i].Key, "good:") {
				fs[i].Value = 1
				break
			}
		}
	}
	b.add(kit.Action{ID: "offer", Group: "offer", By: b.seat, Target: string(here), Label: label, Fields: fs,
		Build: func(values map[string]string) (engine.Command, error) {
			ducats, goods, tiles, markers, err := payment(values, fs)
			if err != nil {
				return nil, err
			}
			return genoa.Offer{Ducats: ducats, Goods: goods, Tiles: tiles, Markers: markers}, nil
		}})
}

// legalOfferGoods reports whether the rules' example offer of the seat is
// paid in goods (money alone being refused).
func (b *builder) legalOfferGoods() bool {
	for _, a := range b.g.Legal() {
		if o, ok := a.Cmd.(genoa.Offer); ok && a.By == b.seat {
			return o.Ducats == 0
		}
	}
	return false
}

func (b *builder) accept(c genoa.Accept) {
	g := b.g
	o, _ := g.OfferOf(c.From)
	who := b.name(c.From)
	b.add(kit.Action{ID: "accept:" + strconv.Itoa(int(c.From)), Group: "accept", By: b.seat, Target: string(b.here()),
		Label: tx(fmt.Sprintf("Accept %s's offer: %s", who, g.PayWords(o.Ducats, o.Goods, o.Cards, o.Tiles, o.Markers, "en")),
			fmt.Sprintf("Accepter l'offre %s : %s", deFR(who), g.PayWords(o.Ducats, o.Goods, o.Cards, o.Tiles, o.Markers, "fr"))),
		Build: func(map[string]string) (engine.Command, error) { return c, nil }})
}

// tileField is the choice of the special tile a large order gives, among
// those of the legal commands.
func tileField(tiles []string) kit.Field {
	f := kit.Field{Key: "tile", Label: tx("Tile in reward", "Tuile en récompense")}
	for _, t := range tiles {
		f.Options = append(f.Options, kit.Option{Value: t, Label: say(func(l string) string { return genoa.TileName(t, l) })})
	}
	return f
}

// orderTiles lists the tiles the legal commands offer with the large
// order id, by cmd's kind.
func orderTiles(legal []engine.Action, by engine.Seat, match func(engine.Command) (order, tile string, ok bool)) map[string][]string {
	out := map[string][]string{}
	for _, a := range legal {
		if a.By != by {
			continue
		}
		if order, tile, ok := match(a.Cmd); ok && order != "" && tile != "" {
			out[order] = append(out[order], tile)
		}
	}
	return out
}

func (b *builder) act(c genoa.Act, legal []engine.Action) {
	g := b.g
	here := b.here()
	if c.Order == "" {
		label := tx("Take the action "+g.SquareThe(here, "en", "of"), "Faire l'action "+g.SquareThe(here, "fr", "of"))
		if w := g.ActionGives(here, "en"); w != "" {
			label.EN += ": " + w
			label.FR += " : " + g.ActionGives(here, "fr")
		}
		if g.IsVilla(here) {
			label = tx("Take the action "+g.SquareThe(here, "en", "of")+": draw a contract card", "Faire l'action "+g.SquareThe(here, "fr", "of")+" : piocher une carte contrat")
		}
		b.add(kit.Action{ID: "act", Group: "act", By: b.seat, Target: string(here), Label: label,
			Build: func(map[string]string) (engine.Command, error) { return c, nil }})
		return
	}
	tiles := orderTiles(legal, b.seat, func(cmd engine.Command) (string, string, bool) {
		a, ok := cmd.(genoa.Act)
		return a.Order, a.Tile, ok
	})[c.Order]
	b.order("order:"+c.Order, c.Order, tiles, tx("Deliver the large order", "Livrer la grosse commande"), func(tile string) engine.Command {
		return genoa.Act{Order: c.Order, Tile: tile}
	})
}

// order adds the delivery of the large order id, with the choice of its
// reward tile when there is one.
func (b *builder) order(actionID, id string, tiles []string, what kit.Text, cmd func(tile string) engine.Command) {
	g := b.g
	var fs []kit.Field
	f := tileField(tiles)
	if len(tiles) > 0 {
		fs = append(fs, f)
	}
	b.add(kit.Action{ID: actionID, Group: "act", By: b.seat, Target: id, Fields: fs, Confirm: true,
		Label: tx(what.EN+": "+g.CardGoods(id, "en"), what.FR+" : "+g.CardGoods(id, "fr")),
		Build: func(values map[string]string) (engine.Command, error) {
			if len(fs) == 0 {
				return cmd(""), nil
			}
			t, err := choice(values, f)
			if err != nil {
				return nil, err
			}
			return cmd(t), nil
		}})
}

func (b *builder) deliver(c genoa.Deliver) {
	g := b.g
	b.add(kit.Action{ID: "deliver:" + c.Card, Group: "deliver", By: b.seat, Target: c.Card, Confirm: true,
		Label: tx("Deliver the small order: "+g.CardGoods(c.Card, "en"), "Livrer la petite commande : "+g.CardGoods(c.Card, "fr")),
		Build: func(map[string]string) (engine.Command, error) { return c, nil }})
}

func (b *builder) take(legal []engine.Action) {
	g := b.g
	f := kit.Field{Key: "good", Label: tx("Good", "Marchandise")}
	for _, a := range legal {
		if t, ok := a.Cmd.(genoa.Take); ok && a.By == b.seat {
			f.Options = append(f.Options, kit.Option{Value: t.Good, Label: say(func(l string) string { return g.GoodName(t.Good, l) })})
		}
	}
	b.add(kit.Action{ID: "take", Group: "tile", By: b.seat, Fields: []kit.Field{f},
		Label: tx("Play the commodity-of-choice tile", "Jouer la tuile marchandise au choix"),
		Build: func(values map[string]string) (engine.Command, error) {
			v, err := choice(values, f)
			if err != nil {
				return nil, err
			}
			return genoa.Take{Good: v}, nil
		}})
}

// trade is the trade 1:1 tile: one item given for one taken. The choices
// are what the seat holds and what the supply and the decks have; the
// rules' own example trade comes first.
func (b *builder) trade(example genoa.Trade) {
	if b.seen["trade"] {
		return
	}
	g := b.g
	pv := b.v.Players[b.seat]
	name := func(x string) kit.Text { return say(func(l string) string { return g.ItemName(x, l) }) }
	give := kit.Field{Key: "give", Label: tx("You give", "Vous donnez")}
	get := kit.Field{Key: "get", Label: tx("You take", "Vous prenez")}
	for _, k := range g.Goods() {
		if pv.Goods[k] > 0 {
			give.Options = append(give.Options, kit.Option{Value: k, Label: name(k)})
		}
		if b.v.Supply[k] > 0 {
			get.Options = append(get.Options, kit.Option{Value: k, Label: name(k)})
		}
	}
	for _, k := range genoa.Tiles() {
		if n := pv.Tiles[k]; n > 1 || n > 0 && k != "trade" {
			give.Options = append(give.Options, kit.Option{Value: "tile:" + k, Label: name("tile:" + k)})
		}
		if b.v.Tiles[k] > 0 {
			get.Options = append(get.Options, kit.Option{Value: "tile:" + k, Label: name("tile:" + k)})
		}
	}
	if pv.Markers > 0 {
		give.Options = append(give.Options, kit.Option{Value: "marker", Label: name("marker")})
	}
	get.Options = append(get.Options, kit.Option{Value: "marker", Label: name("marker")})
	if b.v.Mine != nil {
		for _, c := range b.v.Mine.Cards {
			give.Options = append(give.Options, kit.Option{Value: "card:" + c, Label: name("card:" + c)})
		}
	}
	for _, k := range []string{"large-order", "small-order", "message", "contract"} {
		if b.v.Decks[k] > 0 {
			get.Options = append(get.Options, kit.Option{Value: "deck:" + k, Label: name("deck:" + k)})
		}
	}
	first := func(f *kit.Field, v string) {
		if i := slices.IndexFunc(f.Options, func(o kit.Option) bool { return o.Value == v }); i > 0 {
			o := f.Options[i]
			f.Options = append([]kit.Option{o}, slices.Delete(f.Options, i, i+1)...)
		}
	}
	first(&give, example.Give)
	first(&get, example.Get)
	b.add(kit.Action{ID: "trade", Group: "tile", By: b.seat, Fields: []kit.Field{give, get},
		Label: tx("Play the trade 1:1 tile", "Jouer la tuile échange 1:1"),
		Build: func(values map[string]string) (engine.Command, error) {
			x, err := choice(values, give)
			if err != nil {
				return nil, err
			}
			y, err := choice(values, get)
			if err != nil {
				return nil, err
			}
			return genoa.Trade{Give: x, Get: y}, nil
		}})
}

func (b *builder) build(c genoa.Build, legal []engine.Action) {
	g := b.g
	if c.Order == "" {
		label := tx("Play the building-action tile: the action "+g.SquareThe(c.Building, "en", "of"), "Jouer la tuile action bâtiment : l'action "+g.SquareThe(c.Building, "fr", "of"))
		b.add(kit.Action{ID: "build:" + string(c.Building), Group: "tile", By: b.seat, Target: string(c.Building), Label: label,
			Build: func(map[string]string) (engine.Command, error) { return c, nil }})
		return
	}
	tiles := orderTiles(legal, b.seat, func(cmd engine.Command) (string, string, bool) {
		x, ok := cmd.(genoa.Build)
		return x.Order, x.Tile, ok && x.Building == c.Building
	})[c.Order]
	b.order("build:"+string(c.Building)+":"+c.Order, c.Order, tiles,
		tx("Play the building-action tile and deliver the large order", "Jouer la tuile action bâtiment et livrer la grosse commande"),
		func(tile string) engine.Command { return genoa.Build{Building: c.Building, Order: c.Order, Tile: tile} })
}

// acquire is the acquisition from one street: for each building next to
// it, leave it, place one's marker (over an opponent's, which costs one
// more marker) or only remove an opponent's marker. The choices are those
// of the rules' legal acquisitions; the first is the default.
func (b *builder) acquire(street genoa.Place, legal []engine.Action) {
	id := "acquire:" + string(street)
	if b.seen[id] {
		return
	}
	g := b.g
	var combos []genoa.Acquire
	for _, a := range legal {
		if c, ok := a.Cmd.(genoa.Acquire); ok && a.By == b.seat && c.Street == street {
			combos = append(combos, c)
		}
	}
	// The buildings in the order the rules name them, and each one's
	// choices.
	var blds []genoa.Place
	choices := map[genoa.Place][]string{}
	note := func(p genoa.Place, v string) {
		if !slices.Contains(blds, p) {
			blds = append(blds, p)
		}
		if !slices.Contains(choices[p], v) {
			choices[p] = append(choices[p], v)
		}
	}
	for _, c := range combos {
		for _, p := range c.Place {
			note(p, "place")
		}
		for _, p := range c.Remove {
			note(p, "remove")
		}
	}
	def := combos[0]
	var fs []kit.Field
	for _, p := range blds {
		owner, owned := b.v.Owners[p]
		f := kit.Field{Key: string(p), Label: say(func(l string) string { return g.SquareName(p, l) })}
		opts := append([]string{"none"}, choices[p]...)
		// The default first: what the first legal acquisition does here.
		switch {
		case slices.Contains(def.Place, p):
			opts = moveFirst(opts, "place")
		case slices.Contains(def.Remove, p):
			opts = moveFirst(opts, "remove")
		}
		for _, v := range opts {
			var label kit.Text
			switch v {
			case "none":
				label = tx("leave it", "ne rien faire")
			case "place":
				label = tx("place your marker", "poser votre marqueur")
				if owned {
					who := b.name(engine.Seat(owner))
					label = tx("replace "+who+"'s marker with yours (one more marker)", "remplacer le marqueur "+deFR(who)+" par le vôtre (un marqueur de plus)")
				}
			case "remove":
				who := b.name(engine.Seat(owner))
				label = tx("only remove "+who+"'s marker", "seulement retirer le marqueur "+deFR(who))
			}
			f.Options = append(f.Options, kit.Option{Value: v, Label: label})
		}
		fs = append(fs, f)
	}
	b.add(kit.Action{ID: id, Group: "acquire", By: b.seat, Target: string(street), Fields: fs,
		Label: tx("Acquire from "+g.SquareThe(street, "en", ""), "Acquérir depuis "+g.SquareThe(street, "fr", "")),
		Build: func(values map[string]string) (engine.Command, error) {
			c := genoa.Acquire{Street: street}
			for i, f := range fs {
				v, err := choice(values, f)
				if err != nil {
					return nil, err
				}
				switch v {
				case "place":
					c.Place = append(c.Place, blds[i])
				case "remove":
					c.Remove = append(c.Remove, blds[i])
				}
			}
			return c, nil
		}})
}

func moveFirst(opts []string, v string) []string {
	i := slices.Index(opts, v)
	if i <= 0 {
		return opts
	}
	return append([]string{v}, slices.Delete(slices.Clone(opts), i, i+1)...)
}

// deFR writes "de Bruno", "d'Anna": French elides "de" before a vowel or
// a mute h.
func deFR(name string) string {
	if name != "" && strings.ContainsRune("AEIOUYHÉÈÊÂÎÔaeiouyhéèêâîô", []rune(name)[0]) {
		return "d'" + name
	}
	return "de " + name
}
