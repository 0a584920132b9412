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
	info := GameInfo{Game: setup.Game, Variant: setup.Variant}
	if s.kit.Info != nil {
		var err error
		if info, err = s.kit.Info(setup, u.Rules); err != nil {
			return info, err
		}
	}
	info.Dice = s.kit.Dice != nil
	return info, nil
}
