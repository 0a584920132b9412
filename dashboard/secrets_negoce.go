package dashboard

import (
	"slices"

	"comptoir/engine"
	"comptoir/games/negoce"
)

// quietGames are the games whose commands named in Opts.Announce may hold
// a secret: a Négoce offer names its card even when it is laid face down
// ("offer card=wine-2 coins=2"). Their views show every offer as its owner
// laid it, so the dashboard announces nothing for them.
var quietGames = map[string]bool{negoce.Name: true}

// announces reports whether cmd, accepted, is announced to every screen.
func (s *Server) announces(cmd engine.Command) bool {
	return !quietGames[s.sess.Rules().Name()] && slices.Contains(s.opts.Announce, cmd.Name())
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
