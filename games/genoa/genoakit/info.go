package genoakit

import (
	"fmt"
	"strings"

	"comptoir/engine"
	"comptoir/games/genoa"
	"comptoir/games/genoa/board"
	"comptoir/games/genoa/catalog"
	"comptoir/games/kit"
)

// Info returns the game info of a Genoa setup on the rules' board.
func Info(setup engine.Setup, rules engine.Rules) (kit.Info, error) {
	info := kit.Info{Game: setup.Game, Variant: setup.Variant}
	b := board.Default()
	if r, ok := rules.(*genoa.Rules); ok && r.Board() != nil {
		b = r.Board()
	}
	ed := setup.Variant
	if ed == "" {
		ed = "filosofia-2008"
	}
	e, cat, err := catalog.Load(ed)
	if err != nil {
		return info, fmt.Errorf("game info: %w", err)
	}
	info.Variant = ed
	names := map[string]kit.Name{}
	for _, sq := range b.Squares() {
		s := kit.InfoSquare{Key: sq.Key, Kind: sq.Kind.String(), FR: sq.NameFR, EN: sq.NameEN}
		if w, ok := e.Warehouse(sq.Key); ok {
			s.FR, s.EN = w.NameFR, w.NameEN
		}
		if sq.Kind == board.Street && len(sq.Cells) > 0 {
			// A street is pointed at by the blue and red numbers printed on
			// the board's edges, never written as a cell.
			c := sq.Cells[0]
			s.FR, s.EN = fmt.Sprintf("Rue bleu %d, rouge %d", c.X, c.Y), fmt.Sprintf("Street at blue %d, red %d", c.X, c.Y)
		}
		for _, c := range sq.Cells {
			s.Cells = append(s.Cells, [2]int{c.X, c.Y})
		}
		names[sq.Key] = kit.Name{FR: s.FR, EN: s.EN}
		info.Squares = append(info.Squares, s)
	}
	info.Goods = map[string]kit.Name{}
	goodName := func(g catalog.Good, lang string) string {
		gi := e.Goods[g]
		if lang == "fr" {
			return gi.NameFR
		}
		return gi.NameEN
	}
	for _, g := range e.Goods {
		info.Goods[g.Key] = kit.Name{FR: g.NameFR, EN: g.NameEN, Colour: g.Colour}
	}
	tileFR := map[string]string{"start": "case départ", "extra": "action supplémentaire", "goods": "marchandise au choix", "trade": "échange 1:1", "build": "action bâtiment"}
	tileEN := map[string]string{"start": "start space", "extra": "extra action", "goods": "commodity of choice", "trade": "trade 1:1", "build": "building action"}
	info.Tiles = map[string]kit.Name{}
	for k := range tileFR {
		info.Tiles[k] = kit.Name{FR: tileFR[k], EN: tileEN[k]}
	}
	info.Decks = map[string]kit.Name{
		"large-order": {FR: "grosses commandes", EN: "large orders"},
		"small-order": {FR: "petites commandes", EN: "small orders"},
		"message":     {FR: "messages", EN: "messages"},
		"contract":    {FR: "contrats", EN: "contracts"},
	}
	info.Cards = map[string]kit.Card{}
	for _, c := range cat.Cards {
		var goodsFR, goodsEN []string
		for _, g := range c.Goods {
			goodsFR = append(goodsFR, goodName(g, "fr"))
			goodsEN = append(goodsEN, goodName(g, "en"))
		}
		var ic kit.Card
		ic.Deck = c.Deck.String()
		switch c.Deck {
		case catalog.LargeOrder:
			v := names[c.Villa]
			ic.FR = fmt.Sprintf("Grosse commande : une action à %s avec %s rapporte %d ducats et %s", v.FR, strings.Join(goodsFR, ", "), e.LargeOrderDucats, genoa.Count(e.LargeOrderTiles, "tuile", "tuiles", "fr"))
			ic.EN = fmt.Sprintf("Large order: an action at %s with %s brings %d ducats and %s", v.EN, strings.Join(goodsEN, ", "), e.LargeOrderDucats, genoa.Count(e.LargeOrderTiles, "tile", "tiles", "en"))
		case catalog.SmallOrder:
			bl := names[c.Building]
			ic.FR = fmt.Sprintf("Petite commande : juste après votre propre action à %s, rendez %s : %d ducats", bl.FR, strings.Join(goodsFR, ", "), e.SmallOrderDucats)
			ic.EN = fmt.Sprintf("Small order: right after your own action at %s, hand in %s: %d ducats", bl.EN, strings.Join(goodsEN, ", "), e.SmallOrderDucats)
		case catalog.Message:
			a, b := names[c.Buildings[0]], names[c.Buildings[1]]
			ic.FR = fmt.Sprintf("Message : livré si le pion passe par %s et %s ce tour-ci : %d ducats", a.FR, b.FR, e.MessageDucats)
			ic.EN = fmt.Sprintf("Message: delivered if the pawn visits %s and %s this turn: %d ducats", a.EN, b.EN, e.MessageDucats)
		case catalog.Contract:
			bl := names[c.Building]
			ic.FR = fmt.Sprintf("Contrat : %s ; en fin de partie, vos contrats sur des bâtiments voisins portant votre marqueur rapportent ensemble", bl.FR)
			ic.EN = fmt.Sprintf("Contract: %s; at the end, your contracts for neighbouring buildings that carry your marker score together", bl.EN)
		}
		info.Cards[c.ID] = ic
	}
	info.Extra = map[string]kit.Name{
		"phase-roll":    {FR: "lancer des dés", EN: "roll the dice"},
		"phase-move":    {FR: "déplacement du marchand", EN: "the merchant moves"},
		"phase-acquire": {FR: "acquisition", EN: "acquisition"},
	}
	return info, nil
}
