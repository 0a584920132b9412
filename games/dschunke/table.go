package dschunke

import "comptoir/engine"

// ErrNotACard is refused for a scanned tag whose id is no market or
// special card.
var ErrNotACard = engine.NewRule("dschunke.not-a-card", "this tag is not a Dschunke market or special card", "ce badge n'est pas une carte marché ou spéciale de Dschunke")

// Scanned is the action of a card laid on the table's NFC reader: a
// market card is the round's card turned over ([Reveal]); a special card
// is the card just taken from a pile by whoever must take one ([Draw],
// from the largest pile he may take). The table session's adapter turns
// a tap of an enrolled card's tag into this action, which Decide then
// judges like any other.
func (s *State) Scanned(id string) (engine.Action, error) {
	if _, ok := s.d.MarketIndex(id); ok {
		return engine.Action{By: engine.NoSeat, Cmd: Reveal{Market: id}}, nil
	}
	if _, ok := s.d.SpecialIndex(id); ok {
		return engine.Action{By: engine.NoSeat, Cmd: Draw{Card: id}}, nil
	}
	return engine.Action{}, engine.Refusef(ErrNotACard, "%q is not a market or special card", "%q n'est pas une carte marché ou spéciale", id)
}

// AwaitsCard reports whether the game waits for a card on the reader:
// the market card at the start of a round, or a special card taken from a
// pile.
func (s *State) AwaitsCard() bool { return s.step == stepReveal || s.step == stepDraw }

// AwaitsBids reports whether the sealed bidding is open: every phone that
// has not bid shows its bid form.
func (s *State) AwaitsBids() bool { return s.step == stepBid }
