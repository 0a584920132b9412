package genoa

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"comptoir/engine"
)

// Rules of the texts, paragraph by paragraph, each test quoting the
// sentence it checks. [B] is Berclaz's translation (Alea 2001), [Q] the
// quick reference, [F] the Filosofia 2008 rulebook.

// quietTurn plays the merchant's turn doing nothing: the pawn starts on
// the street 2-2, the merchant ends the movement and everyone passes the
// acquisition.
func quietTurn(t testing.TB, s *State) *State {
	t.Helper()
	if s.Phase != phStart {
		t.Fatalf("phase %v, want the start of a turn", s.Phase)
	}
	s = play(t, s, "roll blue=2 red=2", "end")
	for s.Phase == phAcquire {
		s = play(t, s, "pass")
	}
	return s
}

// drawAll draws the pending cards, avoiding the cards of keep.
func drawAll(t testing.TB, s *State, keep ...string) *State {
	t.Helper()
	for len(s.Pending) > 0 {
		for _, a := range s.Legal() {
			if !slices.Contains(keep, a.Cmd.(Draw).Card) {
				s = mustPlay(t, s, a)
				break
			}
		}
	}
	return s
}

func TestTileBeforeTheActionBindsIt(t *testing.T) {
	// [B] 6.5.3: "lorsqu'en tant que joueur en phase il effectue lui même
	// l'action, il peut jouer cette carte avant même d'effectuer l'action
	// liée au bâtiment"; [F] "Il ne peut jouer cette tuile qu'au début,
	// pendant ou à la fin de l'une de ses actions". A tile played at the
	// start of an action is played for that action: it must be taken.
	r := realRules(t)
	for _, tc := range []struct{ ed, tile, line string }{
		{"filosofia-2008", "goods", "Anna: take good=wine"},
		{"alea-2001", "trade", "Anna: trade give=silver get=silk"},
		{"alea-2001", "build", "Anna: build building=park"},
	} {
		t.Run(tc.ed+"-"+tc.tile, func(t *testing.T) {
			s := game(t, r, tc.ed, "Anna", "Bruno", "Chloé")
			tiles(t, s, "Anna", tc.tile)
			goods(t, s, "Anna", "silver")
			s.Owner[s.bldIdx("park")] = 0
			s.Common[0]--
			s = play(t, s, "roll blue=2 red=2", "move to=harbour", tc.line)
			ref := refused(t, s, "move to=villa-monetti", ErrPending)
			if !strings.Contains(ref.EN, "played a tile at the start") || !strings.Contains(ref.FR, "a joué une tuile au début") {
				t.Errorf("reason %q / %q", ref.EN, ref.FR)
			}
			refused(t, s, "end", ErrPending)
			refused(t, s, "Bruno: offer ducats=5", ErrNotYourAction)
			s = play(t, s, "Anna: act", "move to=villa-monetti")
			if s.Used[0] != 1 {
				t.Errorf("Anna took %d actions, want 1", s.Used[0])
			}
		})
	}
	// At the end of the action, the tile binds nothing more.
	s := game(t, r, "filosofia-2008", "Anna", "Bruno", "Chloé")
	s = play(t, s, "roll blue=2 red=2", "move to=harbour", "Anna: act", "Anna: take good=wine", "move to=villa-monetti")
	if s.Used[0] != 1 || s.P[0].Goods[s.good("wine")] != 1 {
		t.Errorf("used %d, goods %v", s.Used[0], s.P[0].Goods)
	}
}

var _ = fmt.Sprint
var _ = engine.NoSeat
