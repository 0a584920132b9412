package dashboard

import (
	"comptoir/games/kit"
)

// GameInfo is the fixed data a page needs to draw a game (kit.Info),
// served once at /api/game.
type GameInfo = kit.Info

// gameInfo is the game info of u's game, from its kit and u's rules.
func (s *Server) gameInfo(u *Update) (GameInfo, error) {
	setup := u.State.Setup()
	if s.kit.Info == nil {
		return GameInfo{Game: setup.Game, Variant: setup.Variant}, nil
	}
	return s.kit.Info(setup, u.Rules)
}
