package dschunkekit

import (
	"fmt"

	"comptoir/engine"
	"comptoir/games/kit"
)

// Info gives Dschunke's names: the goods (coloured like the junk
// their cards lie on), the junks (Extra, "junk-KEY"), the piles of special
// cards (Decks) and each special card's effect (Cards, the deck being its
// timing: always, extra or end), and the stand-in values the staff may
// correct (Edit), all from the data the rules play on.
func Info(setup engine.Setup, rules engine.Rules) (kit.Info, error) {
	info := kit.Info{Game: setup.Game, Variant: setup.Variant}
	d, err := dataOf(rules)
	if err != nil {
		return info, fmt.Errorf("game info: %w", err)
	}
	for _, it := range d.Items() {
		info.Edit = append(info.Edit, kit.EditItem{Key: it.Key, Value: it.Value})
	}
	info.Goods = map[string]kit.Name{}
	for _, g := range d.Goods {
		info.Goods[g.Key] = kit.Name{FR: g.FR, EN: g.EN, Colour: d.Junks[g.Junk].Key}
	}
	info.Extra = map[string]kit.Name{}
	for _, j := range d.Junks {
		info.Extra["junk-"+j.Key] = kit.Name{FR: j.FR, EN: j.EN, Colour: j.Key}
	}
	info.Decks = map[string]kit.Name{}
	for _, p := range d.Piles {
		info.Decks[p.Key] = kit.Name{FR: p.FR, EN: p.EN}
	}
	info.Cards = map[string]kit.Card{}
	for i, c := range d.Special {
		info.Cards[c.ID] = kit.Card{Deck: c.Timing.String(), FR: d.CardName(i, "fr"), EN: d.CardName(i, "en")}
	}
	return info, nil
}
