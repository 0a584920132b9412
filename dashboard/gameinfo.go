package dashboard

import (
	"fmt"
	"strings"

	"comptoir/engine"
	"comptoir/games/genoa/board"
	"comptoir/games/genoa/catalog"
)

// GameInfo is the fixed data a page needs to draw a game, served once at
// /api/game: for Genoa the board's layout, the goods' and tiles' names and
// what each card asks for. It holds no state and no secret.
type GameInfo struct {
	Game    string              `json:"game"`
	Variant string              `json:"variant,omitempty"`
	Squares []InfoSquare        `json:"squares,omitempty"`
	Goods   map[string]InfoName `json:"goods,omitempty"`
	Tiles   map[string]InfoName `json:"tiles,omitempty"`
	Decks   map[string]InfoName `json:"decks,omitempty"`
	Cards   map[string]InfoCard `json:"cards,omitempty"`
	Extra   map[string]InfoName `json:"extra,omitempty"`
}

// InfoSquare is a board square: its key (as in views and commands), kind,
// names and cells [column, row].
type InfoSquare struct {
	Key   string   `json:"key"`
	Kind  string   `json:"kind"`
	FR    string   `json:"fr"`
	EN    string   `json:"en"`
	Cells [][2]int `json:"cells"`
}

// InfoName is a name in both languages, with a colour where the game has
// one.
type InfoName struct {
	FR     string `json:"fr"`
	EN     string `json:"en"`
	Colour string `json:"colour,omitempty"`
}

// InfoCard says what a card is and what it needs, in both languages.
type InfoCard struct {
	Deck string `json:"deck"`
	FR   string `json:"fr"`
	EN   string `json:"en"`
}

// GameInfoFor returns the game info of a setup. Games without a board or
// cards to describe get just their name. b is Genoa's board (nil: the
// default board).
func GameInfoFor(setup engine.Setup, b *board.Board) (GameInfo, error) {
	info := GameInfo{Game: setup.Game, Variant: setup.Variant}
	if more, ok := moreGameInfo[setup.Game]; ok {
		return more(info)
	}
	if setup.Game != "genoa" {
		return info, nil
	}
	if b == nil {
		b = board.Default()
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
	names := map[string]InfoName{}
	for _, sq := range b.Squares() {
		s := InfoSquare{Key: sq.Key, Kind: sq.Kind.String(), FR: sq.NameFR, EN: sq.NameEN}
		if w, ok := e.Warehouse(sq.Key); ok {
			s.FR, s.EN = w.NameFR, w.NameEN
		}
		for _, c := range sq.Cells {
			s.Cells = append(s.Cells, [2]int{c.X, c.Y})
		}
		names[sq.Key] = InfoName{FR: s.FR, EN: s.EN}
		info.Squares = append(info.Squares, s)
	}
	info.Goods = map[string]InfoName{}
	goodName := func(g catalog.Good, lang string) string {
		gi := e.Goods[g]
		if lang == "fr" {
			return gi.NameFR
		}
		return gi.NameEN
	}
	for _, g := range e.Goods {
		info.Goods[g.Key] = InfoName{FR: g.NameFR, EN: g.NameEN, Colour: g.Colour}
	}
	tileFR := map[string]string{"start": "case départ", "extra": "action supplémentaire", "goods": "marchandise au choix", "trade": "échange 1:1", "build": "action bâtiment"}
	tileEN := map[string]string{"start": "start space", "extra": "extra action", "goods": "commodity of choice", "trade": "trade 1:1", "build": "building action"}
	info.Tiles = map[string]InfoName{}
	for k := range tileFR {
		info.Tiles[k] = InfoName{FR: tileFR[k], EN: tileEN[k]}
	}
	info.Decks = map[string]InfoName{
		"large-order": {FR: "grosses commandes", EN: "large orders"},
		"small-order": {FR: "petites commandes", EN: "small orders"},
		"message":     {FR: "messages", EN: "messages"},
		"contract":    {FR: "contrats", EN: "contracts"},
	}
	info.Cards = map[string]InfoCard{}
	for _, c := range cat.Cards {
		var goodsFR, goodsEN []string
		for _, g := range c.Goods {
			goodsFR = append(goodsFR, goodName(g, "fr"))
			goodsEN = append(goodsEN, goodName(g, "en"))
		}
		var ic InfoCard
		ic.Deck = c.Deck.String()
		switch c.Deck {
		case catalog.LargeOrder:
			v := names[c.Villa]
			ic.FR = fmt.Sprintf("Grosse commande : une action à %s avec %s rapporte %d ducats et %d tuile(s)", v.FR, strings.Join(goodsFR, ", "), e.LargeOrderDucats, e.LargeOrderTiles)
			ic.EN = fmt.Sprintf("Large order: an action at %s with %s brings %d ducats and %d tile(s)", v.EN, strings.Join(goodsEN, ", "), e.LargeOrderDucats, e.LargeOrderTiles)
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
	info.Extra = map[string]InfoName{
		"phase-roll":    {FR: "lancer des dés", EN: "roll the dice"},
		"phase-move":    {FR: "déplacement du marchand", EN: "the merchant moves"},
		"phase-acquire": {FR: "acquisition", EN: "acquisition"},
	}
	return info, nil
}
