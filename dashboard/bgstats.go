package dashboard

import (
	"comptoir/bgstats"
	"comptoir/engine"
	"comptoir/engine/dschunke"
	"comptoir/engine/genoa"
)

// BGStatsGames is what BG Stats needs to know of each game, by the game's
// name: the one table of it (the dashboard's downloads and the comptoir
// command's export read it).
//
// BoardGameGeek ids: The Traders of Genoa is 2136. Dschunke (Michael
// Schacht, Queen Games, 2002: boardgameguys.com/dschunke,
// knobelritter.at "Jahrgang 2002") and Négoce 2 have no id we can cite:
// 0, so BG Stats matches them by name.
var BGStatsGames = map[string]bgstats.Game{
	"genoa": {Name: "The Traders of Genoa", BGGID: 2136, BGGName: "The Traders of Genoa", BGGYear: 2001, MinPlayers: 2, MaxPlayers: 5,
		Rounds: func(s engine.State) int {
			if g, ok := s.(*genoa.State); ok {
				return g.Round
			}
			return 0
		}},
	// Négoce has a winner and no points; the Contraband auction's opening
	// bid, drawn at random at the table, names the start player.
	"negoce": {Name: "Négoce", MinPlayers: 4, MaxPlayers: 4, NoPoints: true, StartCommand: "bid"},
	"dschunke": {Name: "Dschunke", BGGName: "Dschunke", BGGYear: 2002, MinPlayers: 3, MaxPlayers: 4,
		Rounds: func(s engine.State) int {
			if d, ok := s.(*dschunke.State); ok {
				return min(d.Round(), dschunke.Rounds)
			}
			return 0
		}},
}

// BGStatsGame returns the game's BG Stats metadata; a game missing from
// BGStatsGames is named by its rules' name.
func BGStatsGame(name string) bgstats.Game {
	if g, ok := BGStatsGames[name]; ok {
		return g
	}
	return bgstats.Game{Name: name}
}
