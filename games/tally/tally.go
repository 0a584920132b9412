// Package tally is Tally (engine/enginetest), the small test game, at a
// Comptoir table: a table adapter, a renderer and a BG Stats entry. It is
// not in the production list of games (package games): tests and the
// simulations add it where they need it.
package tally

import (
	"embed"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/games/kit"
)

//go:embed tally.js
var web embed.FS

// Game is Tally for a test registry. It announces its take commands.
func Game() kit.Game {
	return kit.Game{
		Name:     "tally",
		Rules:    func() engine.Rules { return enginetest.Rules{} },
		Adapter:  func(engine.Rules) kit.Adapter { return tallyAdapter{} },
		Dice:     func(blue, red int) bool { return blue >= 1 && blue <= 8 && red >= 1 && red <= 8 },
		Announce: func(cmd engine.Command) bool { return cmd.Name() == "take" },
		Web:      web,
		BGStats:  kit.BGStats{Name: "Tally"},
		Play:     play,
	}
}
