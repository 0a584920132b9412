package dashboard

import (
	"fmt"

	"comptoir/games/dschunke"
)

func init() { moreGameInfo[dschunke.Name] = dschunkeInfo }

// dschunkeInfo gives Dschunke's names: the goods (coloured like the junk
// their cards lie on), the junks (Extra, "junk-KEY"), the piles of special
// cards (Decks) and each special card's effect (Cards, the deck being its
// timing: always, extra or end).
func dschunkeInfo(info GameInfo) (GameInfo, error) {
	d, err := dschunke.LoadData()
	if err != nil {
		return info, fmt.Errorf("game info: %w", err)
	}
	info.Goods = map[string]InfoName{}
	for _, g := range d.Goods {
		info.Goods[g.Key] = InfoName{FR: g.FR, EN: g.EN, Colour: d.Junks[g.Junk].Key}
	}
	info.Extra = map[string]InfoName{}
	for _, j := range d.Junks {
		info.Extra["junk-"+j.Key] = InfoName{FR: j.FR, EN: j.EN, Colour: j.Key}
	}
	info.Decks = map[string]InfoName{}
	for _, p := range d.Piles {
		info.Decks[p.Key] = InfoName{FR: p.FR, EN: p.EN}
	}
	info.Cards = map[string]InfoCard{}
	for i, c := range d.Special {
		info.Cards[c.ID] = InfoCard{Deck: c.Timing.String(), FR: d.CardName(i, "fr"), EN: d.CardName(i, "en")}
	}
	return info, nil
}
