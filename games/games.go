// Package games lists the games Comptoir plays: the one list the session,
// the dashboard and the command line go through. Each game is a directory
// under games/ whose kit (package kit) gives everything about it; adding a
// game is that directory plus one line in All.
package games

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"comptoir/engine"
	"comptoir/games/dschunke/dschunkekit"
	"comptoir/games/genoa/genoakit"
	"comptoir/games/kit"
	"comptoir/games/negoce/negocekit"
)

// All returns every game of the production list. Tally, the test game,
// is not in it (package games/tally).
func All() []kit.Game {
	return []kit.Game{
		genoakit.Game(),
		negocekit.Game(),
		dschunkekit.Game(),
	}
}

// Check checks every game of a list (kit.Game.Check) and that no name is
// given twice.
func Check(list []kit.Game) error {
	var errs []error
	seen := map[string]bool{}
	for _, g := range list {
		if err := g.Check(); err != nil {
			errs = append(errs, err)
		}
		if seen[g.Name] {
			errs = append(errs, fmt.Errorf("game %q is listed twice", g.Name))
		}
		seen[g.Name] = true
	}
	return errors.Join(errs...)
}

// Find returns the named game of a list, checked.
func Find(list []kit.Game, name string) (kit.Game, error) {
	for _, g := range list {
		if g.Name == name {
			if err := g.Check(); err != nil {
				return kit.Game{}, err
			}
			return g, nil
		}
	}
	return kit.Game{}, fmt.Errorf("unknown game %q; games: %s", name, strings.Join(NamesOf(list), ", "))
}

// Lookup returns the named game of the production list.
func Lookup(name string) (kit.Game, error) { return Find(All(), name) }

// ByName returns the rules of the named game of the production list.
func ByName(name string) (engine.Rules, error) {
	g, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	return g.Rules(), nil
}

// Names lists the production games' names, sorted.
func Names() []string { return NamesOf(All()) }

// NamesOf lists the names of a list's games, sorted.
func NamesOf(list []kit.Game) []string {
	var out []string
	for _, g := range list {
		out = append(out, g.Name)
	}
	sort.Strings(out)
	return out
}
