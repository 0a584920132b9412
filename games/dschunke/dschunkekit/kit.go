// Package dschunkekit is Dschunke at a Comptoir table: its table adapter
// (cards laid on the reader), its page data and renderer, its card catalog
// for enrolment and its BG Stats entry. The pure rules are package
// dschunke.
package dschunkekit

import (
	"embed"
	"fmt"

	"comptoir/configs"
	"comptoir/engine"
	"comptoir/games/dschunke"
	"comptoir/games/kit"
)

//go:embed dschunke.js dschunke.css
var web embed.FS

// Game is Dschunke for the registry. It announces no command.
func Game() kit.Game {
	return kit.Game{
		Name:    dschunke.Name,
		Rules:   dschunke.New,
		Adapter: func(engine.Rules) kit.Adapter { return dschunkeAdapter{} },
		Info:    Info,
		Edit:    editor,
		Play:    play,
		Web:     web,
		Cards:   &kit.Cards{Keys: []string{"special", "restock"}, Decode: cards},
		// Dschunke: Michael Schacht, Queen Games, 2002
		// (boardgameguys.com/dschunke; knobelritter.at "Jahrgang 2002");
		// no BoardGameGeek id we can cite, so BG Stats matches it by name.
		BGStats: kit.BGStats{Name: "Dschunke", BGGName: "Dschunke", BGGYear: 2002,
			Rounds: func(s engine.State) int {
				if d, ok := s.(*dschunke.State); ok {
					return min(d.Round(), dschunke.Rounds)
				}
				return 0
			}},
		Demo:     "configs/tables/demo-dschunke.yaml",
		Notation: "docs/notation-dschunke.md",
	}
}

// cards reads a Dschunke cards file (configs/dschunke/cards.yaml), with
// the embedded board it refers to: market, special and restock cards,
// labelled by their kind or effect.
func cards(data []byte, path string) ([]kit.CatalogCard, error) {
	boardData, err := configs.FS.ReadFile(dschunke.BoardFile)
	if err != nil {
		return nil, fmt.Errorf("embedded %s: %w", dschunke.BoardFile, err)
	}
	d, err := dschunke.Decode(boardData, dschunke.BoardFile, data, path)
	if err != nil {
		return nil, err
	}
	var out []kit.CatalogCard
	for _, c := range d.Market {
		out = append(out, kit.CatalogCard{ID: c.ID, Label: "market"})
	}
	for i, c := range d.Special {
		out = append(out, kit.CatalogCard{ID: c.ID, Label: d.CardName(i, "en")})
	}
	for _, c := range d.Restock {
		out = append(out, kit.CatalogCard{ID: c.ID, Label: "restock " + d.Colours[c.Colour]})
	}
	return out, nil
}
