package dashboard

import (
	"slices"

	"comptoir/engine"
	"comptoir/engine/negoce"
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
