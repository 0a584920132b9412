package negocekit

import (
	"fmt"
	"strconv"
	"strings"

	"comptoir/engine"
	"comptoir/games/kit"
	"comptoir/games/negoce"
)

// play is Négoce played from the phones, in the words of the cards:
// goods by their printed names and numbers ("Silk (6)"), never by key
// or card id.
//
// Each seat's actions are built from that seat's own view
// ([negoce.State.View]): its hand, the public coins, the offers as the
// seat may see them (a face-down card shows its back to the seller too).
// So an action can name nothing the seat may not know, by construction.
//
// The table's only step in Négoce is the deal (the card reader, or a
// seeded shuffle). A player may record their own hand: the rules accept a
// deal from a phone to its own seat, so each phone records the goods its
// player was dealt, all four at once and in any order, as that player's
// own command (By is the seat, not the table: the record says who said
// it, and a mis-tap can be taken back).
//
// Consent is nil: nothing in Négoce moves a player's holdings without
// their own command. A sale takes the buyer's card and coins only as the
// buyer offered them (and offers stand until withdrawn); the forced sale
// is forced by the rules, the buyer has no say; the auction's price is
// paid by the bidder who won it.
var play = &kit.Play{Actions: actions, Prompt: prompt, Undoable: undoable}

func text(en, fr string) kit.Text { return kit.Text{FR: fr, EN: en} }

// Units of the coin steppers.
var (
	coinUnit  = text("coin", "pièce")
	coinUnits = text("coins", "pièces")
)

// coins is an amount of coins in words: "1 coin", "2 coins"; "0 pièce",
// "1 pièce", "2 pièces" (French takes the singular below 2).
func coins(n int) kit.Text {
	t := text(fmt.Sprintf("%d coins", n), fmt.Sprintf("%d pièces", n))
	if n == 1 {
		t.EN = "1 coin"
	}
	if n < 2 {
		t.FR = fmt.Sprintf("%d pièce", n)
	}
	return t
}

// The face field of a card laid for sale, offered or forcing the sale.
const (
	faceDown = "down"
	faceUp   = "up"
)

func faceField() kit.Field {
	return kit.Field{Key: "face", Label: text("Laid face up or face down", "Posée face visible ou face cachée"), Options: []kit.Option{
		{Value: faceDown, Label: text("face down", "face cachée")},
		{Value: faceUp, Label: text("face up", "face visible")},
	}}
}

// face reads the face field: up or down, nothing else.
func face(values map[string]string) (bool, error) {
	switch values["face"] {
	case faceUp:
		return true, nil
	case faceDown:
		return false, nil
	}
	return false, engine.Refuse(engine.ErrBadArgument, "face up or face down?", "face visible ou face cachée ?")
}

// amount reads a number field between lo and hi. A field left out is lo.
func amount(values map[string]string, key string, lo, hi int) (int, error) {
	v, ok := values[key]
	if !ok || v == "" {
		return lo, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, engine.Refuse(engine.ErrBadArgument, fmt.Sprintf("%q: give a number of coins from %d to %d", v, lo, hi),
			fmt.Sprintf("« %s » : donnez un nombre de pièces de %d à %d", v, lo, hi))
	}
	return n, nil
}

// goodOption is a good as a choice: its printed name and number.
func goodOption(g negoce.GoodInfo) kit.Option {
	return kit.Option{Value: string(g.Key), Label: text(fmt.Sprintf("%s (%d)", g.EN, g.Number), fmt.Sprintf("%s (%d)", g.FR, g.Number))}
}

// chosen returns the good of the "good" field if it is one of opts.
func chosen(cat *negoce.Catalog, opts []kit.Option, values map[string]string) (int, error) {
	v := values["good"]
	for _, o := range opts {
		if o.Value == v {
			if g, ok := cat.Good(negoce.Good(v)); ok {
				return g, nil
			}
		}
	}
	return 0, engine.Refuse(engine.ErrBadArgument, "which good? choose one of the list", "quelle marchandise ? choisissez-en une de la liste")
}

// held is one kind of card in a hand: its first card (the four cards of a
// good are alike in play, so one stands for all), a key for action IDs
// (the good's key, or the Contraband's id) and its index in the catalog.
type held struct {
	card negoce.CardID
	key  string
	idx  int
}

// kinds lists the kinds of card of a hand, in catalog order.
func kinds(cat *negoce.Catalog, hand []negoce.CardView) []held {
	var out []held
	seen := map[string]bool{}
	for _, cv := range hand {
		key := string(cv.Good)
		if key == "" {
			key = string(cv.Card)
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		i, _ := cat.Card(cv.Card)
		out = append(out, held{card: cv.Card, key: key, idx: i})
	}
	return out
}

func actions(s engine.State, seat engine.Seat) []kit.Action {
	st, ok := s.(*negoce.State)
	if !ok || seat < 0 || int(seat) >= len(st.Setup().Players) {
		return nil
	}
	v := st.View(seat).(negoce.View)
	cat := st.Catalog()
	switch st.Phase() {
	case negoce.PhaseDeal:
		return dealActions(cat, v, seat)
	case negoce.PhaseAuction:
		return bidActions(v, seat)
	case negoce.PhaseLay:
		if v.Seller == seat {
			return layActions(cat, v, seat)
		}
	case negoce.PhaseNegotiate:
		if v.Seller == seat {
			return sellerActions(st, cat, v, seat)
		}
		return buyerActions(cat, v, seat)
	case negoce.PhaseForceName:
		if v.Seller == seat {
			return nameActions(cat, v, seat)
		}
	case negoce.PhaseForcePick:
		if v.Seller == seat {
			return pickActions(st, cat, v, seat)
		}
	}
	return nil
}

// dealActions is the player recording the goods they were dealt: the
// goods they may still be dealt from what they know (their own hand).
// A good another player holds is refused by the rules, which the player,
// holding the cards, never meets.
func dealActions(cat *negoce.Catalog, v negoce.View, seat engine.Seat) []kit.Action {
	if len(v.Hand) >= negoce.HandSize {
		return nil
	}
	count := map[negoce.Good]int{}
	for _, cv := range v.Hand {
		count[cv.Good]++
	}
	var opts []kit.Option
	for _, g := range cat.Goods {
		n := count[g.Key]
		if n > 0 && n < negoce.CardsPerGood || n == 0 && len(count) < 2 {
			opts = append(opts, goodOption(g))
		}
	}
	if len(opts) == 0 {
		return nil
	}
	mine := map[negoce.CardID]bool{}
	for _, cv := range v.Hand {
		mine[cv.Card] = true
	}
	return []kit.Action{{
		ID: "deal", Group: "draw",
		Label:  text("I was dealt {good}", "J'ai reçu {good}"),
		Fields: []kit.Field{{Key: "good", Label: text("One of the two goods you were dealt", "Une des deux marchandises reçues"), Options: opts}},
		By:     seat,
		Build: func(values map[string]string) (engine.Command, error) {
			g, err := chosen(cat, opts, values)
			if err != nil {
				return nil, err
			}
			info := cat.Goods[g]
			if count[info.Key] == 0 {
				return negoce.Deal{To: seat, Goods: []negoce.Good{info.Key}}, nil
			}
			// Part of the good was scanned: the rest of its cards.
			var rest []negoce.CardID
			for _, id := range info.Cards {
				if !mine[id] {
					rest = append(rest, id)
				}
			}
			return negoce.Deal{To: seat, Cards: rest}, nil
		},
	}}
}

func bidActions(v negoce.View, seat engine.Seat) []kit.Action {
	a := v.Auction
	purse := v.Players[seat].Coins
	bid := func(price int, label kit.Text) kit.Action {
		return kit.Action{ID: "bid:" + strconv.Itoa(price), Group: "bid", Label: label, By: seat,
			Build: func(map[string]string) (engine.Command, error) { return negoce.Bid{Price: price}, nil }}
	}
	if !a.Opened {
		if purse < 1 {
			return nil
		}
		return []kit.Action{bid(1, text("Open the auction at 1 coin", "Ouvrir les enchères à 1 pièce"))}
	}
	if a.Turn != seat {
		return nil
	}
	var out []kit.Action
	for r := 1; r <= 2; r++ {
		if p := a.Price + r; p <= purse {
			c := coins(p)
			out = append(out, bid(p, text("Bid "+c.EN, "Enchérir à "+c.FR)))
		}
	}
	return append(out, kit.Action{ID: "pass", Group: "pass", Label: text("Pass: out of the auction for good", "Passer : hors des enchères, définitivement"), By: seat,
		Build: func(map[string]string) (engine.Command, error) { return negoce.Pass{}, nil }})
}

func layActions(cat *negoce.Catalog, v negoce.View, seat engine.Seat) []kit.Action {
	var out []kit.Action
	for _, k := range kinds(cat, v.Hand) {
		out = append(out, kit.Action{
			ID: "lay:" + k.key, Group: "sell", Target: string(k.card),
			Label:  text("Put "+cat.Phrase(k.idx, "en")+" up for sale, {face}", "Mettre en vente "+cat.Phrase(k.idx, "fr")+", {face}"),
			Fields: []kit.Field{faceField()},
			By:     seat,
			Build: func(values map[string]string) (engine.Command, error) {
				up, err := face(values)
				if err != nil {
					return nil, err
				}
				return negoce.Lay{Card: k.card, Up: up}, nil
			},
		})
	}
	return out
}

// offerWords is an offer as the seller sees it: "a Silk card and 2
// coins", "a face-down card".
func offerWords(cat *negoce.Catalog, o negoce.OfferView) kit.Text {
	var en, fr []string
	if o.HasCard {
		if o.Card != nil && o.Card.Up && o.Card.Card != "" {
			i, _ := cat.Card(o.Card.Card)
			en, fr = append(en, cat.Phrase(i, "en")), append(fr, cat.Phrase(i, "fr"))
		} else {
			en, fr = append(en, "a face-down card"), append(fr, "une carte face cachée")
		}
	}
	if o.Coins > 0 {
		c := coins(o.Coins)
		en, fr = append(en, c.EN), append(fr, c.FR)
	}
	return text(strings.Join(en, " and "), strings.Join(fr, " et "))
}

func sellerActions(st *negoce.State, cat *negoce.Catalog, v negoce.View, seat engine.Seat) []kit.Action {
	var out []kit.Action
	for _, o := range v.Offers {
		from := o.By
		name := st.Setup().Players[from]
		w := offerWords(cat, o)
		out = append(out, kit.Action{
			ID: acceptID(o), Group: "accept", Target: offerTarget(from),
			Label:   text(fmt.Sprintf("Accept %s's offer: %s", name, w.EN), fmt.Sprintf("Accepter l'offre %s : %s", de(name), w.FR)),
			By:      seat,
			Confirm: true,
			Build:   func(map[string]string) (engine.Command, error) { return negoce.Accept{From: from}, nil },
		})
	}
	purse := v.Players[seat].Coins
	if purse >= 1 {
		out = append(out, kit.Action{
			ID: "bonus", Group: "bonus",
			Label: text("Coins on your card for sale: {coins}", "Pièces sur votre carte en vente : {coins}"),
			Fields: []kit.Field{{Key: "coins", Label: text("Coins laid on your card, going with it to the buyer", "Pièces posées sur votre carte, qui iront à l'acheteur"),
				Min: 0, Max: purse, Value: v.Bonus, Unit: coinUnit, Units: coinUnits}},
			By: seat,
			Build: func(values map[string]string) (engine.Command, error) {
				n, err := amount(values, "coins", 0, purse)
				if err != nil {
					return nil, err
				}
				return negoce.Bonus{Coins: n}, nil
			},
		})
	}
	for _, k := range kinds(cat, v.Hand) {
		out = append(out, kit.Action{
			ID: "force:" + k.key, Group: "force", Target: string(k.card),
			Label: text("Force the sale: lay "+cat.Phrase(k.idx, "en")+" face down beside it",
				"Forcer la vente : poser "+cat.Phrase(k.idx, "fr")+" face cachée à côté"),
			By:      seat,
			Confirm: true,
			Build:   func(map[string]string) (engine.Command, error) { return negoce.Force{Card: k.card}, nil },
		})
	}
	return out
}

// acceptID names the acceptance of an offer as the seller sees it: the
// buyer, the card's good (or "down", a face-down card's back) and the
// coins. An offer changed after the seller's page was drawn no longer
// has the ID the seller tapped, and the server refuses the stale tap
// instead of accepting an offer the seller has not seen. A face-down card
// changed for another stays "down": the seller sees no difference.
func acceptID(o negoce.OfferView) string {
	card := ""
	switch {
	case o.Card != nil && o.Card.Up && o.Card.Card != "":
		card = string(o.Card.Good)
		if card == "" {
			card = string(o.Card.Card) // the Contraband
		}
	case o.HasCard:
		card = "down"
	}
	return fmt.Sprintf("accept:%d:%s:%d", o.By, card, o.Coins)
}

// offerTarget is the target of a buyer's offer on the table, which the
// seller taps to accept it.
func offerTarget(by engine.Seat) string { return "offer-" + strconv.Itoa(int(by)) }

func buyerActions(cat *negoce.Catalog, v negoce.View, seat engine.Seat) []kit.Action {
	purse := v.Players[seat].Coins
	var out []kit.Action
	for _, k := range kinds(cat, v.Hand) {
		fields := []kit.Field{faceField()}
		label := text("Offer "+cat.Phrase(k.idx, "en")+", {face}", "Proposer "+cat.Phrase(k.idx, "fr")+", {face}")
		if purse >= 1 {
			fields = append(fields, kit.Field{Key: "coins", Label: text("Coins with the card", "Pièces avec la carte"), Min: 0, Max: purse, Unit: coinUnit, Units: coinUnits})
			label = text(label.EN+", with {coins}", label.FR+", avec {coins}")
		}
		out = append(out, kit.Action{
			ID: "offer:" + k.key, Group: "offer", Target: string(k.card),
			Label: label, Fields: fields, By: seat,
			Build: func(values map[string]string) (engine.Command, error) {
				up, err := face(values)
				if err != nil {
					return nil, err
				}
				n, err := amount(values, "coins", 0, purse)
				if err != nil {
					return nil, err
				}
				return negoce.Offer{Card: k.card, Up: up, Coins: n}, nil
			},
		})
	}
	if purse >= 1 {
		out = append(out, kit.Action{
			ID: "offer-coins", Group: "offer",
			Label:  text("Offer {coins}", "Proposer {coins}"),
			Fields: []kit.Field{{Key: "coins", Label: text("Coins offered", "Pièces proposées"), Min: 1, Max: purse, Value: 1, Unit: coinUnit, Units: coinUnits}},
			By:     seat,
			Build: func(values map[string]string) (engine.Command, error) {
				n, err := amount(values, "coins", 1, purse)
				if err != nil {
					return nil, err
				}
				return negoce.Offer{Coins: n}, nil
			},
		})
	}
	for _, o := range v.Offers {
		if o.By == seat {
			out = append(out, kit.Action{ID: "withdraw", Group: "withdraw", Label: text("Take back your offer", "Retirer votre offre"), By: seat,
				Build: func(map[string]string) (engine.Command, error) { return negoce.Withdraw{}, nil }})
		}
	}
	return out
}

// nameActions is the seller naming a good for a forced sale: any good not
// in their hand (a buyer always holds some of it: four cards a good, at
// most two on the market).
func nameActions(cat *negoce.Catalog, v negoce.View, seat engine.Seat) []kit.Action {
	mine := map[negoce.Good]bool{}
	for _, cv := range v.Hand {
		mine[cv.Good] = true
	}
	var opts []kit.Option
	for _, g := range cat.Goods {
		if !mine[g.Key] {
			opts = append(opts, goodOption(g))
		}
	}
	return []kit.Action{{
		ID: "name", Group: "name",
		Label:   text("Ask for {good}", "Demander {good}"),
		Fields:  []kit.Field{{Key: "good", Label: text("A good you do not hold", "Une marchandise que vous n'avez pas"), Options: opts}},
		By:      seat,
		Confirm: true,
		Build: func(values map[string]string) (engine.Command, error) {
			g, err := chosen(cat, opts, values)
			if err != nil {
				return nil, err
			}
			return negoce.NameGood{Good: cat.Goods[g].Key}, nil
		},
	}}
}

// pickActions is the seller taking one of the cards shown: one action per
// buyer who shows some, since a buyer's cards of the good are alike.
func pickActions(st *negoce.State, cat *negoce.Catalog, v negoce.View, seat engine.Seat) []kit.Action {
	var out []kit.Action
	seen := map[engine.Seat]bool{}
	for _, r := range v.Revealed {
		if seen[r.By] {
			continue
		}
		seen[r.By] = true
		card := r.Card.Card
		i, _ := cat.Card(card)
		name := st.Setup().Players[r.By]
		out = append(out, kit.Action{
			ID: "pick:" + strconv.Itoa(int(r.By)), Group: "pick", Target: string(card),
			Label: text(fmt.Sprintf("Take %s from %s, who gets the two cards of the market", cat.Phrase(i, "en"), name),
				fmt.Sprintf("Prendre %s à %s, qui reçoit les deux cartes du marché", cat.Phrase(i, "fr"), name)),
			By:      seat,
			Confirm: true,
			Build:   func(map[string]string) (engine.Command, error) { return negoce.Pick{Card: card}, nil },
		})
	}
	return out
}

// de is "de Bruno", "d'Anna": French elides before a vowel.
func de(name string) string {
	if name != "" && strings.ContainsRune("AEIOUYÉÈÊÂÎÔaeiouyéèêâîô", []rune(name)[0]) {
		return "d'" + name
	}
	return "de " + name
}

// and joins names: "Anna", "Anna and Bruno", "Anna, Bruno and Chloé".
func and(names []string, word string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + word + " " + names[len(names)-1]
}

func prompt(s engine.State, viewer engine.Seat) kit.Text {
	st, ok := s.(*negoce.State)
	if !ok {
		return kit.Text{}
	}
	players := st.Setup().Players
	name := func(p engine.Seat) string {
		if p >= 0 && int(p) < len(players) {
			return players[p]
		}
		return "?"
	}
	v := st.View(viewer).(negoce.View)
	seller := name(v.Seller)
	me := viewer >= 0 && int(viewer) < len(players)
	switch st.Phase() {
	case negoce.PhaseDeal:
		if me && len(v.Hand) < negoce.HandSize {
			left := negoce.HandSize - len(v.Hand)
			cards := text(fmt.Sprintf("%d cards", left), fmt.Sprintf("%d cartes", left))
			if left == 1 {
				cards = text("1 card", "1 carte")
			}
			return text("Record your hand: the goods you were dealt ("+cards.EN+" to go)",
				"Enregistrez votre main : les marchandises reçues (encore "+cards.FR+")")
		}
		var names []string
		for _, p := range v.Waiting {
			names = append(names, name(p))
		}
		if len(names) == 1 {
			return text("Waiting for "+names[0]+" to record their hand", "En attente de "+names[0]+", qui enregistre sa main")
		}
		return text("Waiting for "+and(names, "and")+" to record their hands", "En attente de "+and(names, "et")+", qui enregistrent leur main")
	case negoce.PhaseAuction:
		a := v.Auction
		if !a.Opened {
			if me {
				return text("Contraband auction: if you were drawn to start, open at 1 coin",
					"Enchères de la Contrebande : si vous avez été tiré au sort, ouvrez à 1 pièce")
			}
			return text("Contraband auction: the player drawn at random opens at 1 coin",
				"Enchères de la Contrebande : le joueur tiré au sort ouvre à 1 pièce")
		}
		lead := coins(a.Price)
		if me && viewer == a.Turn {
			purse := v.Players[viewer].Coins
			var raises []string
			for r := 1; r <= 2; r++ {
				if a.Price+r <= purse {
					raises = append(raises, strconv.Itoa(a.Price+r))
				}
			}
			switch len(raises) {
			case 0:
				return text(fmt.Sprintf("Pass: %s bids %s and you cannot pay more", name(a.High), lead.EN),
					fmt.Sprintf("Passez : %s en est à %s et vous ne pouvez pas payer plus", name(a.High), lead.FR))
			case 1:
				c := coins(a.Price + 1)
				return text(fmt.Sprintf("Raise to %s or pass (%s bids %s)", c.EN, name(a.High), lead.EN),
					fmt.Sprintf("Surenchérissez à %s ou passez (%s en est à %s)", c.FR, name(a.High), lead.FR))
			}
			return text(fmt.Sprintf("Raise to %s or %s coins, or pass (%s bids %s)", raises[0], raises[1], name(a.High), lead.EN),
				fmt.Sprintf("Surenchérissez à %s ou %s pièces, ou passez (%s en est à %s)", raises[0], raises[1], name(a.High), lead.FR))
		}
		return text(fmt.Sprintf("%s, raise or pass (%s bids %s)", name(a.Turn), name(a.High), lead.EN),
			fmt.Sprintf("%s, surenchérissez ou passez (%s en est à %s)", name(a.Turn), name(a.High), lead.FR))
	case negoce.PhaseLay:
		if viewer == v.Seller {
			return text("Put a card of your hand up for sale", "Mettez en vente une carte de votre main")
		}
		return text(seller+", put a card up for sale", seller+", mettez une carte en vente")
	case negoce.PhaseNegotiate:
		n := len(v.Offers)
		offers := text(fmt.Sprintf("%d offers", n), fmt.Sprintf("%d offres", n))
		switch n {
		case 0:
			offers = text("no offer yet", "aucune offre pour l'instant")
		case 1:
			offers = text("1 offer", "1 offre")
		}
		if viewer == v.Seller {
			return text("Accept an offer or force the sale ("+offers.EN+")", "Acceptez une offre ou forcez la vente ("+offers.FR+")")
		}
		if me {
			for _, o := range v.Offers {
				if o.By == viewer {
					return text("Your offer stands: change it or take it back; "+seller+" decides",
						"Votre offre tient : modifiez-la ou retirez-la ; "+seller+" décide")
				}
			}
			return text("Make an offer for "+seller+"'s card", "Faites une offre pour la carte "+de(seller))
		}
		return text("Buyers, make your offers; "+seller+" accepts one or forces the sale ("+offers.EN+")",
			"Acheteurs, faites vos offres ; "+seller+" en accepte une ou force la vente ("+offers.FR+")")
	case negoce.PhaseForceName:
		if viewer == v.Seller {
			return text("Forced sale: name a good you do not hold", "Vente forcée : annoncez une marchandise que vous n'avez pas")
		}
		return text(seller+", name the good you ask for (forced sale)", seller+", annoncez la marchandise demandée (vente forcée)")
	case negoce.PhaseForcePick:
		var en, fr string
		if v.Named != nil {
			en, fr = v.Named.NameEN, v.Named.NameFR
		}
		if viewer == v.Seller {
			return text("Forced sale: take one of the "+en+" cards shown", "Vente forcée : prenez une des cartes "+fr+" montrées")
		}
		return text(seller+", take one of the "+en+" cards shown", seller+", prenez une des cartes "+fr+" montrées")
	case negoce.PhaseOver:
		if viewer == v.Winner {
			return text("You win: eight different goods and at least 10 coins make you the Grand negotiator",
				"Vous gagnez : huit marchandises différentes et au moins 10 pièces font de vous le Grand négociateur")
		}
		w := name(v.Winner)
		return text(w+" wins, Grand negotiator: eight different goods and at least 10 coins",
			w+" gagne, Grand négociateur : huit marchandises différentes et au moins 10 pièces")
	}
	return kit.Text{}
}

// undoable: a step may be taken back unless it showed a hidden card (a
// card laid or offered face up, a sale, whose cards change hands and are
// seen by their new owners, the buyers' cards shown in a forced sale) or
// ended the game. Négoce has no chance once the cards are dealt, and the
// deal is the players' own record of their hands.
func undoable(_ engine.State, _ engine.Action, evs []engine.Event) bool {
	for _, ev := range evs {
		switch e := ev.(type) {
		case negoce.Laid:
			if e.Up {
				return false
			}
		case negoce.Offered:
			if e.Card != "" && e.Up {
				return false
			}
		case negoce.Sold, negoce.Named, negoce.ForcedSold, negoce.Won:
			return false
		}
	}
	return true
}
