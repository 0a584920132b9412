package negocekit

import (
	"fmt"

	"comptoir/engine"
	"comptoir/games/kit"
	"comptoir/games/negoce"
	"comptoir/input"
)

// negoceAdapter plays Négoce 2 at a table: a tap of a card's tag is that
// card laid on the reader ([negoce.Scanned]), and the rules know who holds
// it: while dealing it deals the card to the first player short of cards;
// the seller's card is the card for sale (face down unless his phone lays
// it face up); a buyer's card is his offer; during a forced sale's pick,
// the card picked. Everything else (bids, offers, the seller's choices)
// comes from the phones. Dice, sensors and buttons mean nothing here.
type negoceAdapter struct{}

func (negoceAdapter) Translate(s engine.State, ev input.Event, t kit.Target) (engine.Action, error) {
	if _, ok := s.(*negoce.State); !ok {
		return engine.Action{}, fmt.Errorf("negoce adapter: the state is a %T, not a Négoce game: %w", s, kit.ErrNoCommand)
	}
	if ev, ok := ev.(input.TagTapped); ok {
		if t.Kind != "card" {
			return engine.Action{}, engine.Refusef(kit.ErrTagNotForGame, "a %s tag means nothing in Négoce (tag %s)", "un badge %s ne veut rien dire au Négoce (badge %s)", t.Kind, ev.UID)
		}
		return negoce.Scanned(negoce.CardID(t.ID)), nil
	}
	return engine.Action{}, fmt.Errorf("negoce: %v: %w", ev, kit.ErrNoCommand)
}

// AwaitsTable is true while the hands are recorded, when the seller must
// lay his card for sale and when he must show the card he picks.
func (negoceAdapter) AwaitsTable(s engine.State) bool {
	st, ok := s.(*negoce.State)
	return ok && st.AwaitsCard()
}
