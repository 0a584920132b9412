package negocekit

import (
	"fmt"

	"comptoir/engine"
	"comptoir/games/kit"
	"comptoir/games/negoce"
)

// Info gives Négoce's goods (key → name with the number printed
// on the cards, by which the seller may name a good) and the cards' names.
// The views carry the names of the cards they show; this is for the
// forms (the goods to name, the cards of one's hand).
func Info(setup engine.Setup, _ engine.Rules) (kit.Info, error) {
	info := kit.Info{Game: setup.Game, Variant: setup.Variant}
	cat, err := negoce.DefaultCatalog()
	if err != nil {
		return info, fmt.Errorf("game info: %w", err)
	}
	info.Goods = map[string]kit.Name{}
	for _, g := range cat.Goods {
		info.Goods[string(g.Key)] = kit.Name{FR: fmt.Sprintf("%s (%d)", g.FR, g.Number), EN: fmt.Sprintf("%s (%d)", g.EN, g.Number)}
	}
	info.Cards = map[string]kit.Card{}
	for i, id := range cat.IDs() {
		info.Cards[string(id)] = kit.Card{Deck: "goods", FR: cat.CardName(i, "fr"), EN: cat.CardName(i, "en")}
	}
	return info, nil
}
