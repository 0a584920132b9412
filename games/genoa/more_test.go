package genoa

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"comptoir/engine"
)

func TestTiles(t *testing.T) {
	r := realRules(t)
	t.Run("extra action", func(t *testing.T) {
		// Berclaz 6.5.2: "Elle permet, lorsqu'elle est jouée, d'effectuer
		// une action supplémentaire."
		s := game(t, r, "alea-2001", "Anna", "Bruno", "Chloé")
		tiles(t, s, "Anna", "extra")
		s = play(t, s, "roll blue=2 red=2", "move to=harbour", "Anna: act", "move to=villa-monetti")
		refused(t, s, "Anna: act", ErrNoActionLeft)
		s = play(t, s, "Anna: extra", "Anna: act")
		if s.Used[0] != 2 || s.P[0].Tiles[tileExtra] != 0 || s.TileSup[tileExtra] != 5 {
			t.Errorf("used %d, tiles %v, supply %v", s.Used[0], s.P[0].Tiles, s.TileSup)
		}
	})
	t.Run("commodity of choice, at the end of the action that gave it", func(t *testing.T) {
		// Berclaz 6.5.3: "y compris à la fin de l'action qui a permis de
		// prendre la carte"
		s := game(t, r, "filosofia-2008", "Anna", "Bruno", "Chloé")
		s = play(t, s, "roll blue=2 red=2", "move to=harbour", "Anna: act", "Anna: take good=wine")
		if s.P[0].Goods[s.good("wine")] != 1 || s.P[0].Tiles[tileGoods] != 0 {
			t.Errorf("goods %v tiles %v", s.P[0].Goods, s.P[0].Tiles)
		}
		// "une fois qu'il a dit avoir terminé son action, il ne pourra plus
		// utiliser cette carte"
		tiles(t, s, "Anna", "goods")
		s = play(t, s, "move to=villa-monetti")
		refused(t, s, "Anna: take good=wine", ErrTileTiming)
	})
	t.Run("trade 1:1", func(t *testing.T) {
		s := game(t, r, "filosofia-2008", "Anna", "Bruno", "Chloé")
		tiles(t, s, "Anna", "trade")
		goods(t, s, "Anna", "silk")
		s = play(t, s, "roll blue=2 red=2", "move to=harbour", "Anna: trade give=silk get=tile:extra")
		if s.P[0].Goods[s.good("silk")] != 0 || s.P[0].Tiles[tileExtra] != 1 || s.P[0].Tiles[tileTrade] != 0 {
			t.Errorf("goods %v tiles %v", s.P[0].Goods, s.P[0].Tiles)
		}
		tiles(t, s, "Anna", "trade")
		s = play(t, s, "Anna: trade give=tile:extra get=deck:contract")
		if len(s.Pending) != 1 || s.Pending[0].Deck != deckContract {
			t.Errorf("pending %v, want a contract to draw", s.Pending)
		}
	})
	t.Run("building action", func(t *testing.T) {
		// Filosofia: "le joueur n'utilise pas son action du tour [...] Il
		// n'est donc pas nécessaire que le marchand soit passé ce tour-ci
		// dans le bâtiment [...] peut même effectuer ainsi plusieurs actions
		// correspondant au même bâtiment."
		s := game(t, r, "filosofia-2008", "Anna", "Bruno", "Chloé")
		tiles(t, s, "Anna", "build", "build")
		s.Owner[s.bldIdx("warehouse-se")] = 0
		s.Common[0]--
		s = play(t, s, "roll blue=2 red=2", "move to=harbour", "Anna: act", "Anna: build building=warehouse-se", "Anna: build building=warehouse-se")
		if s.P[0].Goods[s.good("silk")] != 2 || s.P[0].Goods[s.good("linen")] != 2 || s.Used[0] != 1 || s.Done[s.bldIdx("warehouse-se")] {
			t.Errorf("goods %v used %d", s.P[0].Goods, s.Used[0])
		}
	})
	t.Run("start space", func(t *testing.T) {
		// Filosofia: "Si le joueur choisit la case du marché comme case
		// départ, le marqueur de manche est avancé d'un espace"
		s := game(t, r, "filosofia-2008", "Anna", "Bruno", "Chloé")
		tiles(t, s, "Anna", "start")
		s = play(t, s, "start square=market")
		if s.Track != 2 || s.pawn() != s.d.market || s.P[0].Tiles[tileStart] != 0 {
			t.Errorf("track %d, pawn %v, tiles %v", s.Track, s.pawn(), s.P[0].Tiles)
		}
	})
}

func TestDeals(t *testing.T) {
	r := realRules(t)
	t.Run("goods the offerer will get from the action", func(t *testing.T) {
		// Filosofia: "un joueur peut inclure dans son offre des biens qu'il
		// obtiendra après avoir réalisé l'action négociée. Dans ce cas, le
		// joueur les remet au marchand après avoir réalisé l'action."
		s := game(t, r, "filosofia-2008", "Anna", "Bruno", "Chloé")
		s = play(t, s, rollOn(s, "6-7"), "deal from=Bruno to=warehouse-se after=silk:1", "Bruno: act")
		if s.P[0].Goods[s.good("silk")] != 1 || s.P[1].Goods[s.good("silk")] != 0 || s.P[1].Goods[s.good("linen")] != 1 {
			t.Errorf("Anna %v Bruno %v", s.P[0].Goods, s.P[1].Goods)
		}
	})
	t.Run("markers, cards and tiles, and the merchant's side", func(t *testing.T) {
		s := game(t, r, "alea-2001", "Anna", "Bruno", "Chloé")
		markers(t, s, "Bruno", 2)
		tiles(t, s, "Bruno", "trade")
		goods(t, s, "Anna", "wheat")
		card := s.d.cards[s.P[1].Cards.First()].ID
		s = play(t, s, "roll blue=2 red=2", "deal from=Bruno to=harbour markers=1 cards="+card+" tiles=trade:1 merchantDucats=10 merchantGoods=wheat:1")
		if s.P[0].Markers != 1 || s.P[1].Markers != 1 || s.Common[1] != 6 || s.Common[0] != 6 {
			t.Errorf("markers: Anna %d Bruno %d common %v", s.P[0].Markers, s.P[1].Markers, s.Common)
		}
		if s.CardLoc[s.d.cardByID[card]] != 0 && s.CardLoc[s.d.cardByID[card]] != -1 {
			t.Errorf("card %s is with %d", card, s.CardLoc[s.d.cardByID[card]])
		}
		if s.P[0].Tiles[tileTrade] != 1 || s.P[1].Ducats != 140 || s.P[1].Goods[s.good("wheat")] != 1 {
			t.Errorf("Anna tiles %v; Bruno %d ducats, goods %v", s.P[0].Tiles, s.P[1].Ducats, s.P[1].Goods)
		}
	})
	t.Run("a deal for a street", func(t *testing.T) {
		// Berclaz: "Il est aussi possible de faire une offre pour déplacer
		// le pion sur une case de rue."
		s := game(t, r, "alea-2001", "Anna", "Bruno", "Chloé")
		s = play(t, s, "roll blue=2 red=2", "deal from=Chloé to=3-2 ducats=3", "move to=4-2")
		if s.P[2].Ducats != 127 || s.P[0].Ducats != 133 {
			t.Errorf("ducats %d %d", s.P[0].Ducats, s.P[2].Ducats)
		}
	})
}

func TestViewHidesSecrets(t *testing.T) {
	s := game(t, realRules(t), "alea-2001", "Anna", "Bruno", "Chloé")
	s.P[1].Ducats, s.P[0].Ducats = 117, 143 // only the sum is checked below
	table, err := json.Marshal(s.View(engine.NoSeat))
	if err != nil {
		t.Fatal(err)
	}
	mine, _ := json.Marshal(s.View(1))
	secret := func(seat int) []string {
		var out []string
		for c := range s.P[seat].Cards.All() {
			out = append(out, `"`+s.d.cards[c].ID+`"`)
		}
		return out
	}
	for _, id := range append(secret(0), secret(1)...) {
		if strings.Contains(string(table), id) {
			t.Errorf("the table view shows card %s", id)
		}
	}
	for _, id := range secret(0) {
		if strings.Contains(string(mine), id) {
			t.Errorf("Bruno's view shows Anna's card %s", id)
		}
	}
	for _, id := range secret(1) {
		if !strings.Contains(string(mine), id) {
			t.Errorf("Bruno's view lacks his card %s", id)
		}
	}
	if strings.Contains(string(table), "143") || strings.Contains(string(table), "117") || !strings.Contains(string(mine), `"ducats":117`) || strings.Contains(string(mine), "143") {
		t.Errorf("money leaks or is missing:\ntable %s\nBruno %s", table, mine)
	}
}

// TestJournalRoundTrip replays games from their events encoded as JSON and
// from their commands written as text: both give the same state.
func TestJournalRoundTrip(t *testing.T) {
	r := realRules(t)
	for _, ex := range exampleRecords[:2] {
		rec := botGame(t, r, ex.edition, ex.players, ex.seed)
		st, err := r.Start(rec.Setup)
		if err != nil {
			t.Fatal(err)
		}
		var journal []engine.Event
		for _, l := range rec.Lines {
			cmd, err := codec.ParseCommand(l.Command, rec.Setup.Players)
			if err != nil {
				t.Fatalf("%q: %v", l.Command, err)
			}
			if got := codec.FormatCommand(cmd, rec.Setup.Players); got != l.Command {
				t.Errorf("format(parse(%q)) = %q", l.Command, got)
			}
			next, evs, err := engine.Play(st, engine.Action{By: l.By, Cmd: cmd})
			if err != nil {
				t.Fatal(err)
			}
			for _, ev := range evs {
				data, err := codec.EncodeEvent(ev)
				if err != nil {
					t.Fatal(err)
				}
				back, err := codec.DecodeEvent(ev.Name(), data)
				if err != nil {
					t.Fatalf("%s %s: %v", ev.Name(), data, err)
				}
				journal = append(journal, back)
			}
			st = next
		}
		again, err := engine.Replay(r, rec.Setup, journal)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(again.Result(), st.Result()) || !reflect.DeepEqual(again.View(0), st.View(0)) {
			t.Errorf("%s: the replayed journal gives another state", ex.file)
		}
	}
}

// TestLegalCounts counts the legal actions of known positions, perft-style.
func TestLegalCounts(t *testing.T) {
	r := realRules(t)
	count := func(s *State, name string) int {
		n := 0
		for _, a := range s.Legal() {
			if a.Cmd.Name() == name {
				n++
			}
		}
		return n
	}
	s := game(t, r, "alea-2001", "Anna", "Bruno", "Chloé")
	if n := count(s, "roll"); n != 64 {
		t.Errorf("rolls = %d, want 64", n)
	}
	tiles(t, s, "Anna", "start")
	if n := count(s, "start"); n != 39 {
		t.Errorf("start squares = %d, want 39 (18 buildings, 20 streets, the market)", n)
	}
	s = play(t, s, rollOn(s, "guild-hall"))
	nb := len(s.d.adj[s.pawn()])
	if n := count(s, "move"); n != len(s.Reachable()) {
		t.Errorf("moves from the guild hall = %d, want one per reachable square (%d)", n, len(s.Reachable()))
	}
	steps := 0
	for _, a := range s.Legal() {
		if m, ok := a.Cmd.(Move); ok && len(m.Via) == 0 {
			steps++
		}
	}
	if steps != nb {
		t.Errorf("one-step moves from the guild hall = %d, want %d", steps, nb)
	}
	if n := count(s, "act"); n != 1 {
		t.Errorf("acts = %d, want 1 (the merchant's)", n)
	}
	if n := count(s, "offer"); n != 2 {
		t.Errorf("offers = %d, want one per other player", n)
	}
	// Reachable: every square within 4 moves, with a path that starts next
	// to the pawn.
	for _, rt := range s.Reachable() {
		if len(rt.Path) < 1 || len(rt.Path) > 4 || rt.Path[len(rt.Path)-1] != rt.Square {
			t.Errorf("route %+v", rt)
		}
	}
	if got := len(s.Reachable()); got < 10 {
		t.Errorf("only %d squares reachable from the guild hall", got)
	}
}

// TestDescribe tells every event of an example game in both languages.
func TestDescribe(t *testing.T) {
	r := realRules(t)
	seen := map[string]bool{}
	for _, ex := range exampleRecords {
		rec := botGame(t, r, ex.edition, ex.players, ex.seed)
		st, _ := r.Start(rec.Setup)
		for _, l := range rec.Lines {
			cmd, _ := codec.ParseCommand(l.Command, rec.Setup.Players)
			evs, err := st.Decide(engine.Action{By: l.By, Cmd: cmd})
			if err != nil {
				t.Fatal(err)
			}
			for _, ev := range evs {
				for _, lang := range []string{"fr", "en"} {
					d := st.(*State).Describe(ev, lang)
					if d == "" || d == ev.Name() || strings.Contains(d, "%!") {
						t.Errorf("Describe(%s, %s) = %q", ev.Name(), lang, d)
					}
				}
				seen[ev.Name()] = true
				st, _ = st.Apply(ev)
			}
		}
	}
	if len(seen) < 12 {
		t.Errorf("the example games show only %d kinds of event: %v", len(seen), seen)
	}
}

func TestMoveVia(t *testing.T) {
	s := game(t, realRules(t), "filosofia-2008", "Anna", "Bruno", "Chloé")
	s = play(t, s, rollOn(s, "guild-hall"))
	long := play(t, s, "move to=warehouse-ne via=6-3,coach-house,7-2")
	steps := play(t, s, "move to=6-3", "move to=coach-house", "move to=7-2", "move to=warehouse-ne")
	if !reflect.DeepEqual(long.Path, steps.Path) || !reflect.DeepEqual(long.View(0), steps.View(0)) {
		t.Errorf("move via: path %v, want %v", long.Path, steps.Path)
	}
	refused(t, s, "move to=warehouse-ne via=6-3,7-2", ErrNotAdjacent)
	refused(t, s, "move to=6-3 via=6-3", ErrVisited)
}

// An offer its maker can no longer pay binds nobody.
func TestOfferNoLongerPayable(t *testing.T) {
	s := game(t, realRules(t), "alea-2001", "Anna", "Bruno", "Chloé")
	tiles(t, s, "Bruno", "extra")
	s = play(t, s, "roll blue=2 red=2", "move to=harbour", "Bruno: offer tiles=extra:1")
	refused(t, s, "move to=villa-monetti", ErrPending)
	s = play(t, s, "Bruno: extra")
	refused(t, s, "accept from=Bruno", engine.ErrCannotPay)
	play(t, s, "move to=villa-monetti")
}
