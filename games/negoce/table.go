package negoce

import "comptoir/engine"

// Scanned is the action of a card laid on the table's NFC reader: a Lay
// from the table, which the rules give to whoever holds the card (see the
// package doc, "The table and the phones"). The table session's adapter
// turns a tap of an enrolled card's tag into this action.
func Scanned(id CardID) engine.Action {
	return engine.Action{By: engine.NoSeat, Cmd: Lay{Card: id}}
}

// AwaitsCard reports whether the game waits for a card on the reader:
// while the hands are recorded, when the seller must lay his card for
// sale, and when he must pick one of the revealed cards. During a
// negotiation a scan is welcome too (a buyer's card, or the seller's
// second card), but the game does not wait for one.
func (s *State) AwaitsCard() bool {
	switch s.phase {
	case PhaseDeal, PhaseLay, PhaseForcePick:
		return true
	}
	return false
}
