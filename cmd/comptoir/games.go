package main

import (
	"comptoir/engine"
	"comptoir/games"
	"comptoir/games/kit"
	"comptoir/games/tally"
)

// commandGames are the games the command line knows: the production list
// (games.All) and Tally, the test game, whose records and simulations
// test the game-agnostic parts.
func commandGames() []kit.Game { return append(games.All(), tally.Game()) }

// rulesOf returns the rules of the named game of commandGames.
func rulesOf(name string) (engine.Rules, error) {
	g, err := games.Find(commandGames(), name)
	if err != nil {
		return nil, err
	}
	return g.Rules(), nil
}
