package dashboard

import (
	"fmt"

	"comptoir/games/negoce"
)

// moreGameInfo adds a game's fixed data to its GameInfo, for the games
// other than Genoa that have names to show (each registers itself).
var moreGameInfo = map[string]func(GameInfo) (GameInfo, error){}

func init() { moreGameInfo[negoce.Name] = negoceInfo }

// negoceInfo gives Négoce's goods (key → name with the number printed
// on the cards, by which the seller may name a good) and the cards' names.
// The views carry the names of the cards they show; this is for the
// forms (the goods to name, the cards of one's hand).
func negoceInfo(info GameInfo) (GameInfo, error) {
	cat, err := negoce.DefaultCatalog()
	if err != nil {
		return info, fmt.Errorf("game info: %w", err)
	}
	info.Goods = map[string]InfoName{}
	for _, g := range cat.Goods {
		info.Goods[string(g.Key)] = InfoName{FR: fmt.Sprintf("%s (%d)", g.FR, g.Number), EN: fmt.Sprintf("%s (%d)", g.EN, g.Number)}
	}
	info.Cards = map[string]InfoCard{}
	for i, id := range cat.IDs() {
		info.Cards[string(id)] = InfoCard{Deck: "goods", FR: cat.CardName(i, "fr"), EN: cat.CardName(i, "en")}
	}
	return info, nil
}
