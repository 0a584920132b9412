package dschunkekit

import (
	"fmt"

	"comptoir/engine"
	"comptoir/games/dschunke"
	"comptoir/games/kit"
	"comptoir/input"
)

// dschunkeAdapter plays Dschunke at a table: a tap of a card's tag is the
// card laid on the reader ([dschunke.State.Scanned]): a market card is the
// round's card turned over; a special card is the card just taken from a
// pile by whoever must take one. Hands, actions and the sealed bids come
// from the phones. Dice, sensors and buttons mean nothing here.
type dschunkeAdapter struct{}

func (dschunkeAdapter) Translate(s engine.State, ev input.Event, t kit.Target) (engine.Action, error) {
	st, ok := s.(*dschunke.State)
	if !ok {
		return engine.Action{}, fmt.Errorf("dschunke adapter: the state is a %T, not a Dschunke game: %w", s, kit.ErrNoCommand)
	}
	if ev, ok := ev.(input.TagTapped); ok {
		if t.Kind != "card" {
			return engine.Action{}, engine.Refusef(kit.ErrTagNotForGame, "a %s tag means nothing in Dschunke (tag %s)", "un badge %s ne veut rien dire dans Dschunke (badge %s)", t.Kind, ev.UID)
		}
		return st.Scanned(t.ID)
	}
	return engine.Action{}, fmt.Errorf("dschunke: %v: %w", ev, kit.ErrNoCommand)
}

// AwaitsTable is true when the game waits for the round's market card or
// for a special card taken from a pile.
func (dschunkeAdapter) AwaitsTable(s engine.State) bool {
	st, ok := s.(*dschunke.State)
	return ok && st.AwaitsCard()
}
