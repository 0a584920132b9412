package dashboard

import (
	"slices"

	"comptoir/bgstats"
	"comptoir/engine"
	"comptoir/games/kit"
)

// BGStatsGame is what BG Stats needs to know of a game: its kit's entry
// (names, BoardGameGeek id, points or not, the command that names the
// start player, the rounds played) and the player counts its rules allow
// (engine.Catalog). The dashboard's downloads and the comptoir command's
// export both read it.
func BGStatsGame(k kit.Game) bgstats.Game {
	b := k.BGStats
	g := bgstats.Game{
		Name: b.Name, BGGID: b.BGGID, BGGName: b.BGGName, BGGYear: b.BGGYear,
		NoPoints: b.NoPoints, StartCommand: b.StartCommand, Rounds: b.Rounds,
	}
	if g.Name == "" {
		g.Name = k.Name
	}
	if k.Rules != nil {
		if c, ok := k.Rules().(engine.Catalog); ok && len(c.PlayerCounts()) > 0 {
			g.MinPlayers, g.MaxPlayers = slices.Min(c.PlayerCounts()), slices.Max(c.PlayerCounts())
		}
	}
	return g
}
