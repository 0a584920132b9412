package dashboard

import (
	"comptoir/engine"
)

// announces reports whether cmd, accepted, is announced to every screen:
// the game's kit says so (kit.Game.Announce); a game that says nothing
// announces nothing.
func (s *Server) announces(u *Update, cmd engine.Command) bool {
	return u != nil && s.kit.Announce != nil && s.kit.Announce(cmd)
}

// recordSealed reports whether the game record must wait for the end: a
// record names every card drawn or dealt (Genoa's "draw card=L01"), every
// face-down card and every sealed bid ("Bruno: bid goods=spices:3"), which
// any phone on the café's network could read before the end. The staff
// may download it at any time with the PIN.
func (s *Server) recordSealed() bool {
	u := s.latestUpdate()
	return u != nil && !u.State.Result().Over && u.Outcome == ""
}
