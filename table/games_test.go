package table

import (
	"testing"

	"comptoir/engine"
	"comptoir/games"
	"comptoir/games/kit"
	"comptoir/games/tally"
)

// testGames are the games the tests play: the production list and Tally.
func testGames() []kit.Game { return append(games.All(), tally.Game()) }

// kitOf is the kit of the rules' game among testGames.
func kitOf(t testing.TB, rules engine.Rules) kit.Game {
	t.Helper()
	k, err := games.Find(testGames(), rules.Name())
	if err != nil {
		t.Fatal(err)
	}
	return k
}
