// Package games lists the games Comptoir knows, by name. It is the one
// place that imports every game's rules.
package games

import (
	"fmt"
	"sort"
	"strings"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/games/dschunke"
	"comptoir/games/genoa"
	"comptoir/games/negoce"
)

// all returns every game's rules. Tally (engine/enginetest) is the small
// game that tests the game-agnostic parts.
func all() []engine.Rules {
	return []engine.Rules{
		enginetest.Rules{},
		negoce.New(),
		genoa.New(),
		dschunke.New(),
	}
}

// ByName returns the rules of the named game.
func ByName(name string) (engine.Rules, error) {
	for _, r := range all() {
		if r.Name() == name {
			return r, nil
		}
	}
	return nil, fmt.Errorf("unknown game %q; games: %s", name, strings.Join(Names(), ", "))
}

// Names lists the games' names, sorted.
func Names() []string {
	var out []string
	for _, r := range all() {
		out = append(out, r.Name())
	}
	sort.Strings(out)
	return out
}
