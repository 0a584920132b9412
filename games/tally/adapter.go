package tally

import (
	"fmt"
	"strconv"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/games/kit"
	"comptoir/input"
)

// tallyAdapter plays Tally (engine/enginetest) at a table, to test the
// session apart from a real game: a tag enrolled as {Kind: "coins", ID: "2"}
// takes that many coins, and a settled roll takes as many coins as the blue
// die shows, counted 1, 2, 3, 1, 2, 3, 1, 2 (the roll's face minus one,
// modulo 3, plus one).
type tallyAdapter struct{}

func (tallyAdapter) Translate(s engine.State, ev input.Event, t kit.Target) (engine.Action, error) {
	switch ev := ev.(type) {
	case input.DiceRolled:
		return engine.Action{By: engine.NoSeat, Cmd: enginetest.Take{N: (int(ev.Blue)-1)%3 + 1}}, nil
	case input.TagTapped:
		if t.Kind != "coins" {
			return engine.Action{}, engine.Refusef(kit.ErrTagNotForGame, "a %s tag means nothing in Tally", "un badge %s ne veut rien dire au Tally", t.Kind)
		}
		n, err := strconv.Atoi(t.ID)
		if err != nil {
			return engine.Action{}, engine.Refusef(kit.ErrTagNotForGame, "coin tag %q is not a number", "le badge de pièces %q n'est pas un nombre", t.ID)
		}
		return engine.Action{By: engine.NoSeat, Cmd: enginetest.Take{N: n}}, nil
	case input.Button:
		if ev.Name == "confirm" {
			return engine.Action{}, engine.Refuse(kit.ErrNothingToDo, "Tally has no step to confirm", "le Tally n'a pas d'étape à confirmer")
		}
	}
	return engine.Action{}, fmt.Errorf("tally: %v: %w", ev, kit.ErrNoCommand)
}

func (tallyAdapter) AwaitsTable(s engine.State) bool {
	return !s.Result().Over
}
