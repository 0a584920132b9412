package dashboard

import (
	"comptoir/engine"
	"comptoir/games/negoce"
)

// announces reports whether cmd, accepted, is announced to every screen:
// the game's kit says so (kit.Game.Announce); a game that says nothing
// announces nothing.
func (s *Server) announces(u *Update, cmd engine.Command) bool {
	return u != nil && s.kit.Announce != nil && s.kit.Announce(cmd)
}

// publicWords are, per game, words a seat's view may hold that are never
// a secret in the game's log, though the table's view may not show them
// now: in Négoce the goods' keys and names (the game's vocabulary: every
// player may name any good) and the Contraband card, auctioned in front
// of everyone at the start ("Anna wins the Contraband for 5 coins"). The
// cards' ids stay secret words. Without them the log would mask a good's
// name for everyone but the players who hold it.
var publicWords = map[string][]string{}

func init() {
	words := []string{"contraband", "Contraband", "Contrebande"}
	if cat, err := negoce.DefaultCatalog(); err == nil {
		for _, g := range cat.Goods {
			words = append(words, string(g.Key), g.FR, g.EN)
		}
		words = append(words, string(cat.ContrabandID), cat.ContrabandFR, cat.ContrabandEN)
	}
	publicWords[negoce.Name] = words
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
