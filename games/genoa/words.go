package genoa

import (
	"fmt"
	"strings"

	"comptoir/engine"
)

// Words for people: squares, cards, goods and tiles named as the board
// and the cards print them, never by key or grid cell. The game's log,
// its refusals and the phone's buttons (package genoakit) all use them.

// feminine lists the buildings whose French name takes "la": the others
// take "le", or "l'" before a vowel or a mute h.
var feminine = map[string]bool{
	"guild-hall": true, "cathedral": true, "taverna": true,
	"villa-monetti": true, "villa-ricci": true, "villa-zasteri": true, "villa-colini": true,
}

// streetName names a street by the blue and red numbers printed on the
// board's edges, the way players point at it.
func streetName(c cell, lang string) string {
	if lang == "fr" {
		return fmt.Sprintf("rue bleu %d, rouge %d", c.X, c.Y)
	}
	return fmt.Sprintf("street at blue %d, red %d", c.X, c.Y)
}

// SquareName names the square p as the board prints it, without an
// article: "Inn", "Villa Monetti", "market", "street at blue 6, red 3"
// ("Restaurant", "marché", "rue bleu 6, rouge 3" in French). An unknown
// place is returned as written.
func (s *State) SquareName(p Place, lang string) string {
	sq, ok := s.d.squareOf(p)
	if !ok {
		return string(p)
	}
	if b := s.d.squares[sq].Bld; b >= 0 {
		return s.d.bldName(b, lang)
	}
	if sq == s.d.market {
		if lang == "fr" {
			return "marché"
		}
		return "market"
	}
	return streetName(s.d.squares[sq].Cells[0], lang)
}

// SquareThe names the square p with its article, after the preposition
// prep: "" ("the Inn", "le Restaurant"), "to" ("to the Inn", "au
// Restaurant", "à la Guilde", "à l'Hôtel de ville") or "of" ("of the
// Inn", "du Restaurant", "de la Guilde"). Villas take no article in
// English ("to Villa Monetti").
func (s *State) SquareThe(p Place, lang, prep string) string {
	name := s.SquareName(p, lang)
	sq, ok := s.d.squareOf(p)
	key := ""
	if ok {
		key = s.d.squares[sq].Key
	}
	if lang != "fr" {
		art := "the "
		if strings.HasPrefix(key, "villa-") || !ok {
			art = ""
		}
		switch prep {
		case "to":
			return "to " + art + name
		case "of":
			return "of " + art + name
		}
		return art + name
	}
	if !ok {
		switch prep {
		case "to":
			return "à " + name
		case "of":
			return "de " + name
		}
		return name
	}
	fem := feminine[key] || s.d.squares[sq].Kind == kStreet
	elide := strings.ContainsRune("aeiouyhéèêàâîôûAEIOUYHÉÈÊÀÂÎÔÛ", []rune(name)[0])
	// The printed name keeps its capital: "le Restaurant".
	switch {
	case elide:
		return map[string]string{"": "l'", "to": "à l'", "of": "de l'"}[prep] + name
	case fem:
		return map[string]string{"": "la ", "to": "à la ", "of": "de la "}[prep] + name
	}
	return map[string]string{"": "le ", "to": "au ", "of": "du "}[prep] + name
}

// GoodName names a good by its key ("silk": "silk", "soie").
func (s *State) GoodName(key, lang string) string {
	g, ok := s.d.goodByK[key]
	if !ok {
		return key
	}
	return s.d.goodName(g, lang)
}

func (d *Data) goodName(g int, lang string) string {
	if lang == "fr" {
		return d.prof.GoodsFR[g]
	}
	if g < len(d.prof.GoodsEN) && d.prof.GoodsEN[g] != "" {
		return d.prof.GoodsEN[g]
	}
	return d.prof.Goods[g]
}

// Goods lists the goods' keys of the edition, in catalog order.
func (s *State) Goods() []string { return append([]string(nil), s.d.prof.Goods...) }

// Tiles lists the special tiles' keys.
func Tiles() []string { return append([]string(nil), tileKeys[:]...) }

var tileEN = [nTiles]string{"start space", "extra action", "commodity of choice", "trade 1:1", "building action"}

// TileName names a special tile by its key ("extra": "extra action",
// "action supplémentaire").
func TileName(key, lang string) string {
	k := tileIndex(key)
	if k < 0 {
		return key
	}
	if lang == "fr" {
		return tileFR[k]
	}
	return tileEN[k]
}

// DeckName names a deck by its key ("small-order": "small order",
// "petite commande").
func DeckName(key, lang string) string {
	k := deckIndex(key)
	if k < 0 {
		return key
	}
	return deckName(k, lang == "fr")
}

// CardName names a card by what it prints: "Large order for Villa
// Monetti: wheat, silver, linen", "Small order at the Guild hall:
// silver", "Message: Guild hall and Harbour", "Contract: Harbour". An
// unknown ID is returned as written.
func (s *State) CardName(id, lang string) string {
	c, ok := s.d.cardByID[id]
	if !ok {
		return id
	}
	return s.d.cardName(c, lang)
}

func (d *Data) cardName(c int, lang string) string {
	cd := d.cards[c]
	fr := lang == "fr"
	goods := func() string {
		out := make([]string, len(cd.Goods))
		for i, g := range cd.Goods {
			out[i] = d.goodName(g, lang)
		}
		return strings.Join(out, ", ")
	}
	bld := func(b int) string { return d.bldName(b, lang) }
	s := &State{d: d}
	switch cd.Deck {
	case deckLarge:
		if fr {
			return "Grosse commande pour " + s.SquareThe(d.bldPlace(cd.Villa), lang, "") + " : " + goods()
		}
		return "Large order for " + s.SquareThe(d.bldPlace(cd.Villa), lang, "") + ": " + goods()
	case deckSmall:
		if fr {
			return "Petite commande " + s.SquareThe(d.bldPlace(cd.Bld), lang, "to") + " : " + goods()
		}
		return "Small order at " + s.SquareThe(d.bldPlace(cd.Bld), lang, "") + ": " + goods()
	case deckMessage:
		if fr {
			return "Message : " + bld(cd.Pair[0]) + " et " + bld(cd.Pair[1])
		}
		return "Message: " + bld(cd.Pair[0]) + " and " + bld(cd.Pair[1])
	}
	if fr {
		return "Contrat : " + bld(cd.Bld)
	}
	return "Contract: " + bld(cd.Bld)
}

// DeckCards lists the IDs of every card of the deck (its key), in
// catalog order, wherever they are now.
func (s *State) DeckCards(deck string) []string {
	k := deckIndex(deck)
	var out []string
	for _, c := range s.d.cards {
		if c.Deck == k {
			out = append(out, c.ID)
		}
	}
	return out
}

// CardDeck is the deck key of the card id, or "".
func (s *State) CardDeck(id string) string {
	c, ok := s.d.cardByID[id]
	if !ok {
		return ""
	}
	return deckKeys[s.d.cards[c].Deck]
}

// OfferOf returns the standing offer of seat for the current building's
// action, as the command that made it. Offers are made aloud at the
// table: what they hold is public.
func (s *State) OfferOf(seat engine.Seat) (Offer, bool) {
	for _, o := range s.Offers {
		if o.Seat == seat {
			t := s.transferOf(seat, engine.NoSeat, "", o.Pay)
			return Offer{Ducats: t.Ducats, Goods: t.Goods, Cards: t.Cards, Tiles: t.Tiles, Markers: t.Markers}, true
		}
	}
	return Offer{}, false
}

// PayWords says what a payment holds, for people: "5 ducats, 1 silk",
// "5 ducats, 1 soie". Cards are counted by deck, never named.
func (s *State) PayWords(ducats int, goods map[string]int, cards []string, tiles map[string]int, markers int, lang string) string {
	fr := lang == "fr"
	var items []string
	if ducats != 0 {
		items = append(items, Count(ducats, "ducat", "ducats", lang))
	}
	for _, k := range s.d.prof.Goods {
		if n := goods[k]; n != 0 {
			items = append(items, fmt.Sprintf("%d %s", n, s.GoodName(k, lang)))
		}
	}
	var byDeck [nDecks]int
	for _, id := range cards {
		if c, ok := s.d.cardByID[id]; ok {
			byDeck[s.d.cards[c].Deck]++
		}
	}
	for k, n := range byDeck {
		if n == 0 {
			continue
		}
		if fr {
			items = append(items, Count(n, "carte", "cartes", lang)+" "+deckFR[k])
		} else {
			items = append(items, fmt.Sprintf("%d %s %s", n, deckEN[k], either(n == 1, "card", "cards")))
		}
	}
	for _, k := range tileKeys {
		if n := tiles[k]; n != 0 {
			if fr {
				items = append(items, Count(n, "tuile", "tuiles", lang)+" "+TileName(k, lang))
			} else {
				items = append(items, fmt.Sprintf("%d %s %s", n, TileName(k, lang), either(n == 1, "tile", "tiles")))
			}
		}
	}
	if markers != 0 {
		if fr {
			items = append(items, Count(markers, "marqueur", "marqueurs", lang))
		} else {
			items = append(items, Count(markers, "marker", "markers", lang))
		}
	}
	if len(items) == 0 {
		return either(fr, "rien", "nothing")
	}
	return strings.Join(items, ", ")
}

// Count writes n and the word for n in lang: "1 ducat", "2 ducats",
// "0 ducats"; in French 0 and 1 take the singular ("0 ducat").
func Count(n int, one, many, lang string) string {
	if n == 1 || n == -1 || lang == "fr" && n == 0 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

func either(c bool, yes, no string) string {
	if c {
		return yes
	}
	return no
}

// ActionGives says what the action of the building at p gives, for
// people: "1 silver and 1 copper", "1 extra action tile", "2 message
// cards", "2 ownership markers", "a contract card or a large order
// delivered"; "" for a street or the market.
func (s *State) ActionGives(p Place, lang string) string {
	b, ok := s.bldOf(p)
	if !ok {
		return ""
	}
	fr := lang == "fr"
	bl := s.d.blds[b]
	switch bl.Act {
	case aWarehouse:
		return fmt.Sprintf(either(fr, "1 %s et 1 %s", "1 %s and 1 %s"), s.d.goodName(bl.Goods[0], lang), s.d.goodName(bl.Goods[1], lang))
	case aTile:
		return either(fr, "1 tuile "+tileFR[bl.Tile], "1 "+tileEN[bl.Tile]+" tile")
	case aDraw:
		if fr {
			return Count(bl.Count, "carte", "cartes", lang) + " " + deckFR[bl.Deck]
		}
		return fmt.Sprintf("%d %s %s", bl.Count, deckEN[bl.Deck], either(bl.Count == 1, "card", "cards"))
	case aMarkers:
		return Count(bl.Count, either(fr, "marqueur de propriété", "ownership marker"), either(fr, "marqueurs de propriété", "ownership markers"), lang)
	case aVilla:
		return either(fr, "une carte contrat, ou une grosse commande livrée", "a contract card, or a large order delivered")
	}
	return ""
}

// Yields lists what the action of the building at p would give now that
// a deal may let its taker pay with afterwards (goods of a warehouse, a
// building's tile), by key, while the supply has them.
func (s *State) Yields(p Place) []string {
	b, ok := s.bldOf(p)
	if !ok {
		return nil
	}
	bl := s.d.blds[b]
	var out []string
	switch bl.Act {
	case aWarehouse:
		for _, g := range bl.Goods {
			if s.Supply[g] > 0 {
				out = append(out, s.d.prof.Goods[g])
			}
		}
	case aTile:
		if s.TileSup[bl.Tile] > 0 {
			out = append(out, tileKeys[bl.Tile])
		}
	}
	return out
}

// CardGoods names the goods a large or small order asks for: "wheat,
// silver, linen".
func (s *State) CardGoods(id, lang string) string {
	c, ok := s.d.cardByID[id]
	if !ok {
		return ""
	}
	var out []string
	for _, g := range s.d.cards[c].Goods {
		out = append(out, s.d.goodName(g, lang))
	}
	return strings.Join(out, ", ")
}

// ItemName names an item of a trade 1:1 ("silk", "tile:extra", "marker",
// "card:M03", "deck:contract") for people.
func (s *State) ItemName(x, lang string) string {
	fr := lang == "fr"
	k, v, _ := strings.Cut(x, ":")
	switch k {
	case "marker":
		return either(fr, "1 marqueur de propriété", "1 ownership marker")
	case "tile":
		return either(fr, "1 tuile "+TileName(v, lang), "1 "+TileName(v, lang)+" tile")
	case "card":
		return s.CardName(v, lang)
	case "deck":
		if i := deckIndex(v); i >= 0 {
			return either(fr, "la carte du dessus de la pioche "+deckFR[i], "the top card of the "+deckEN[i]+" deck")
		}
	}
	return "1 " + s.GoodName(x, lang)
}

// IsVilla reports whether p is a villa: its action draws a contract card
// or delivers a large order.
func (s *State) IsVilla(p Place) bool {
	b, ok := s.bldOf(p)
	return ok && s.d.blds[b].Act == aVilla
}
