// Package negocekit is Négoce 2 at a Comptoir table: its table adapter
// (cards laid on the reader), its page data and renderer, its card
// catalog for enrolment and its BG Stats entry. The pure rules are
// package negoce.
package negocekit

import (
	"embed"

	"comptoir/engine"
	"comptoir/games/kit"
	"comptoir/games/negoce"
)

//go:embed negoce.js negoce.css
var web embed.FS

// Game is Négoce for the registry. It announces no command: an offer
// names its card even when it is laid face down ("offer card=wine-2
// coins=2"), and the views show every offer as its owner laid it.
func Game() kit.Game {
	return kit.Game{
		Name:       negoce.Name,
		Rules:      negoce.New,
		Adapter:    func(engine.Rules) kit.Adapter { return negoceAdapter{} },
		Info:       Info,
		Vocabulary: vocabulary,
		Play:       play,
		Web:        web,
		Cards:      &kit.Cards{Keys: []string{"contraband"}, Decode: cards},
		// Négoce has a winner and no points; the Contraband auction's
		// opening bid, drawn at random at the table, names the start player.
		BGStats:  kit.BGStats{Name: "Négoce", NoPoints: true, StartCommand: "bid"},
		Demo:     "configs/tables/demo-negoce.yaml",
		Notation: "docs/notation-negoce.md",
	}
}

// cards reads a Négoce catalog (configs/negoce/cards.yaml), labelled by
// the card's name.
func cards(data []byte, path string) ([]kit.CatalogCard, error) {
	c, err := negoce.DecodeCatalog(data, path)
	if err != nil {
		return nil, err
	}
	var out []kit.CatalogCard
	for i, id := range c.IDs() {
		out = append(out, kit.CatalogCard{ID: string(id), Label: c.CardName(i, "en")})
	}
	return out, nil
}

// vocabulary are the words a seat's view may hold that are never a secret
// in Négoce: the goods' keys and names (every player may name any good)
// and the Contraband card, auctioned in front of everyone at the start.
// The cards' ids stay secret words.
func vocabulary() []string {
	words := []string{"contraband", "Contraband", "Contrebande"}
	if cat, err := negoce.DefaultCatalog(); err == nil {
		for _, g := range cat.Goods {
			words = append(words, string(g.Key), g.FR, g.EN)
		}
		words = append(words, string(cat.ContrabandID), cat.ContrabandFR, cat.ContrabandEN)
	}
	return words
}
