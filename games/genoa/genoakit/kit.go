// Package genoakit is The Traders of Genoa at a Comptoir table: its table
// adapter (dice, square and card tags, board sensors, the confirm button),
// its page data and renderer, how it is played from the phones without
// notation (Play: play.go), its card catalog for enrolment, the staff's
// board editor and its BG Stats entry. The pure rules are package genoa.
package genoakit

import (
	"embed"

	"comptoir/engine"
	"comptoir/games/genoa"
	"comptoir/games/genoa/board"
	"comptoir/games/genoa/catalog"
	"comptoir/games/kit"
)

//go:embed genoa.js
var web embed.FS

// Game is Genoa for the registry.
func Game() kit.Game {
	return kit.Game{
		Name:  "genoa",
		Rules: genoa.New,
		Adapter: func(r engine.Rules) kit.Adapter {
			return Adapter(boardOf(r))
		},
		Dice:     func(blue, red int) bool { return blue >= 1 && blue <= 8 && red >= 1 && red <= 8 },
		Info:     Info,
		Play:     play,
		Announce: func(cmd engine.Command) bool { return cmd.Name() == "offer" },
		Edit:     &kit.Editor{Load: loadBoard, Apply: editCells, Encode: encodeBoard, File: "configs/genoa/board.yaml"},
		Web:      web,
		Cards:    &kit.Cards{Keys: []string{"large-orders", "small-orders", "messages", "contracts"}, Decode: cards},
		// BoardGameGeek: The Traders of Genoa is game 2136.
		BGStats: kit.BGStats{Name: "The Traders of Genoa", BGGID: 2136, BGGName: "The Traders of Genoa", BGGYear: 2001,
			Rounds: func(s engine.State) int {
				if g, ok := s.(*genoa.State); ok {
					return g.Round
				}
				return 0
			}},
		Demo:     "configs/tables/demo.yaml",
		Notation: "docs/notation-genoa.md",
	}
}

// boardOf is the board the rules play on (the default board for rules
// that are not Genoa's).
func boardOf(r engine.Rules) *board.Board {
	if g, ok := r.(*genoa.Rules); ok && g.Board() != nil {
		return g.Board()
	}
	return board.Default()
}

// cards reads a Genoa cards file (configs/genoa/cards.yaml), labelled by
// deck.
func cards(data []byte, path string) ([]kit.CatalogCard, error) {
	c, err := catalog.DecodeCards(data, path)
	if err != nil {
		return nil, err
	}
	var out []kit.CatalogCard
	for d := catalog.Deck(0); d < catalog.NumDecks; d++ {
		for _, k := range c.Deck(d) {
			out = append(out, kit.CatalogCard{ID: k.ID, Label: d.String()})
		}
	}
	return out, nil
}
