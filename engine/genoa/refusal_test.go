package genoa

import (
	"strings"
	"testing"

	"comptoir/engine"
)

// One test per way a command can be illegal, each checking the rule and
// that the reason is given in both languages.
func TestRefusals(t *testing.T) {
	r := realRules(t)
	fresh := func(t *testing.T, ed string, n int) *State {
		return game(t, r, ed, []string{"Anna", "Bruno", "Chloé", "Denis", "Emma"}[:n]...)
	}
	moving := func(t *testing.T) *State { return play(t, fresh(t, "filosofia-2008", 3), "roll blue=2 red=2") }
	atHarbour := func(t *testing.T) *State { return play(t, moving(t), "move to=harbour") }
	acquiring := func(t *testing.T) *State {
		s := fresh(t, "filosofia-2008", 3)
		markers(t, s, "Anna", 2)
		markers(t, s, "Bruno", 2)
		return play(t, s, rollOn(s, "guild-hall"), "move to=6-3", "move to=coach-house", "move to=7-2", "end")
	}
	cases := []struct {
		name  string
		state func(*testing.T) *State
		line  string
		rule  *engine.Rule
		says  string // in the English reason
	}{
		{"draw first", func(t *testing.T) *State {
			st, _ := r.Start(engine.Setup{Game: "genoa", Variant: "alea-2001", Players: []string{"Anna", "Bruno"}})
			return st.(*State)
		}, "roll blue=1 red=1", ErrDrawFirst, "must first draw"},
		{"card not in the deck", func(t *testing.T) *State {
			st, _ := r.Start(engine.Setup{Game: "genoa", Variant: "alea-2001", Players: []string{"Anna", "Bruno"}})
			s := st.(*State)
			return s
		}, "draw card=S01", ErrCard, "is not a large-order card"},
		{"roll by another player", func(t *testing.T) *State { return fresh(t, "alea-2001", 2) }, "Bruno: roll blue=1 red=1", ErrNotMerchant, "only the merchant"},
		{"die off the board", func(t *testing.T) *State { return fresh(t, "alea-2001", 2) }, "roll blue=9 red=1", ErrBadDice, "1 to 8"},
		{"start tile not held", func(t *testing.T) *State { return fresh(t, "alea-2001", 2) }, "start square=market", ErrNoTile, "no start-space tile"},
		{"move before the roll", func(t *testing.T) *State { return fresh(t, "alea-2001", 2) }, "move to=3-2", engine.ErrNotNow, "roll the dice"},
		{"unknown square", moving, "move to=bakery", ErrUnknownSquare, "no square"},
		{"not adjacent", moving, "move to=market", ErrNotAdjacent, "does not touch"},
		{"visited twice", func(t *testing.T) *State { return play(t, moving(t), "move to=3-2") }, "move to=2-2", ErrVisited, "already visited"},
		{"fifth move", func(t *testing.T) *State {
			return play(t, moving(t), "move to=3-2", "move to=4-2", "move to=5-2", "move to=6-2")
		}, "move to=7-2", ErrNoMovesLeft, "4 moves"},
		{"move with an offer standing", func(t *testing.T) *State { return play(t, atHarbour(t), "Bruno: offer ducats=5") }, "move to=villa-monetti", ErrPending, "offer"},
		{"act on a street", moving, "Anna: act", ErrNoBuilding, "no action"},
		{"act twice at a building", func(t *testing.T) *State { return play(t, atHarbour(t), "Anna: act") }, "Anna: act", ErrActionTaken, "already taken"},
		{"act for the merchant", atHarbour, "Bruno: act", ErrNotYourAction, "may make an offer"},
		{"second action", func(t *testing.T) *State {
			return play(t, atHarbour(t), "Anna: act", "move to=villa-monetti")
		}, "Anna: act", ErrNoActionLeft, "no action left"},
		{"empty deal", moving, "deal from=Bruno to=harbour", ErrEmptyDeal, "must give something"},
		{"deal beyond one's purse", moving, "deal from=Bruno to=harbour ducats=500", engine.ErrCannotPay, "cannot give 500 ducats"},
		{"deal with goods not held", moving, "deal from=Bruno to=harbour goods=silk:1", engine.ErrCannotPay, "silk"},
		{"deal with the merchant himself", moving, "deal from=Anna to=harbour ducats=5", ErrMerchantOffer, "merchant"},
		{"deal by a third player", moving, "Chloé: deal from=Bruno to=harbour ducats=5", engine.ErrNotYourTurn, "between the merchant"},
		{"money-only offer with two", func(t *testing.T) *State { return play(t, fresh(t, "filosofia-2008", 2), "roll blue=2 red=2") },
			"deal from=Bruno to=harbour ducats=5", ErrMoneyOnly, "two players"},
		{"promise in Filosofia", moving, `deal from=Bruno to=harbour ducats=5 promise="I will bring you next turn"`, ErrPromise, "no promises"},
		{"promise alone in Alea", func(t *testing.T) *State { return play(t, fresh(t, "alea-2001", 3), "roll blue=2 red=2") },
			`deal from=Bruno to=harbour promise="later"`, ErrPromise, "on top of money or goods"},
		{"after-payment a street cannot give", moving, "deal from=Bruno to=3-2 after=silver:1", ErrAfter, "street"},
		{"after-payment the building does not give", moving, "deal from=Bruno to=harbour after=silver:1", ErrAfter, "will not give"},
		{"offer by the merchant", atHarbour, "Anna: offer ducats=5", ErrMerchantOffer, "merchant"},
		{"accept without an offer", atHarbour, "accept from=Bruno", ErrNoOffer, "made no offer"},
		{"small order without acting", atHarbour, "Bruno: deliver card=S13", ErrSmallOrder, "right after"},
		{"small order not held", func(t *testing.T) *State { return play(t, atHarbour(t), "Anna: act") }, "Anna: deliver card=S05", ErrCard, "holds no small order"},
		{"large order at the wrong villa", func(t *testing.T) *State {
			s := moving(t)
			hand(t, s, "Anna", "L16")
			return play(t, s, "move to=harbour", "move to=villa-monetti")
		}, "Anna: act order=L16 tile=extra", ErrCard, "is delivered at"},
		{"extra tile not held", moving, "Bruno: extra", ErrNoTile, "holds no extra tile"},
		{"goods tile out of one's action", func(t *testing.T) *State {
			s := moving(t)
			tiles(t, s, "Bruno", "goods")
			return s
		}, "Bruno: take good=silk", ErrTileTiming, "own action"},
		{"goods tile for a good the supply lacks", func(t *testing.T) *State {
			s := atHarbour(t)
			tiles(t, s, "Anna", "goods")
			goods(t, s, "Bruno", "silk", "silk", "silk", "silk", "silk")
			return s
		}, "Anna: take good=silk", ErrSupplyEmpty, "no silk"},
		{"trade of an unknown item", func(t *testing.T) *State {
			s := atHarbour(t)
			tiles(t, s, "Anna", "trade")
			return s
		}, "Anna: trade give=gold get=silk", ErrBadItem, "give a good"},
		{"trade of a good not held", func(t *testing.T) *State {
			s := atHarbour(t)
			tiles(t, s, "Anna", "trade")
			return s
		}, "Anna: trade give=silk get=wine", engine.ErrCannotPay, "silk"},
		{"building action without a marker", func(t *testing.T) *State {
			s := atHarbour(t)
			tiles(t, s, "Anna", "build")
			return s
		}, "Anna: build building=park", ErrNotOwner, "no ownership marker"},
		{"large order by a building-action tile", func(t *testing.T) *State {
			s := atHarbour(t)
			tiles(t, s, "Anna", "build")
			s.Owner[s.bldIdx("villa-monetti")] = 0
			s.Common[0]--
			hand(t, s, "Anna", "L01")
			return play(t, s, "Anna: act")
		}, "Anna: build building=villa-monetti order=L01 tile=extra", ErrCard, "not by a building-action tile"},
		{"end with a deal's action pending", func(t *testing.T) *State { return play(t, moving(t), "deal from=Bruno to=harbour ducats=5") },
			"end", ErrPending, "must first take the action"},
		{"acquire out of turn", acquiring, "Bruno: acquire street=6-3 place=guild-hall", engine.ErrNotYourTurn, "turn to acquire"},
		{"acquire from a street not visited", acquiring, "Anna: acquire street=3-2 place=town-hall", ErrNoDisc, "no disc"},
		{"acquire a building away from the street", acquiring, "Anna: acquire street=6-3 place=park", ErrNotTouching, "does not touch"},
		{"acquire three buildings in Filosofia", func(t *testing.T) *State {
			s := acquiring(t)
			markers(t, s, "Anna", 3)
			return s
		}, "Anna: acquire street=6-3 place=guild-hall,coach-house remove=post-office", ErrTooMany, "at most 2"},
		{"remove an empty building", acquiring, "Anna: acquire street=6-3 remove=guild-hall", ErrNoMarker, "no opponent's marker"},
		{"place on one's own building", func(t *testing.T) *State {
			s := acquiring(t)
			s.Owner[s.bldIdx("guild-hall")] = 0
			s.P[0].Markers--
			return s
		}, "Anna: acquire street=6-3 place=guild-hall", ErrOwnMarker, "already carries your marker"},
		{"acquire without markers", func(t *testing.T) *State {
			s := acquiring(t)
			s.Common[0] += s.P[0].Markers - 1
			s.P[0].Markers = 1
			s.Owner[s.bldIdx("coach-house")] = 1
			s.Common[1]--
			return s
		}, "Anna: acquire street=6-3 place=coach-house", engine.ErrCannotPay, "takes 2 markers"},
		{"game over", func(t *testing.T) *State {
			s := fresh(t, "alea-2001", 2)
			s.Phase = phOver
			return s
		}, "roll blue=1 red=1", engine.ErrGameOver, "over"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ref := refused(t, c.state(t), c.line, c.rule)
			if !strings.Contains(ref.EN, c.says) {
				t.Errorf("reason %q does not say %q", ref.EN, c.says)
			}
		})
	}
}
