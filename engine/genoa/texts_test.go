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

func TestDiceStartSquare(t *testing.T) {
	// [F] "le bleu indiquant une coordonnée horizontale (chiffre bleu) et le
	// rouge, une coordonnée verticale (chiffre rouge)"; "obtient 3 au dé
	// bleu et 2 au dé rouge [...] placés sur la case rue"; "Lorsque la case
	// départ obtenue aux dés est celle du marché (case correspondant aux
	// quatre résultats suivants; 4-4, 5-4, 4-5, 5-5), le marqueur de manche
	// doit être avancé d'une case". [B] 3: "Le dé bleu correspond à l'axe
	// bleu et le rouge à l'axe rouge".
	r := realRules(t)
	for _, tc := range []struct {
		blue, red int
		square    string
		track     int
	}{
		{3, 2, "3-2", 1}, {1, 3, "harbour", 1}, {3, 1, "warehouse-nw", 1}, {8, 7, "villa-colini", 1}, {7, 8, "warehouse-se", 1},
		{4, 4, "market", 2}, {5, 4, "market", 2}, {4, 5, "market", 2}, {5, 5, "market", 2},
	} {
		for _, ed := range []string{"alea-2001", "filosofia-2008"} {
			t.Run(fmt.Sprintf("%s-%d-%d", ed, tc.blue, tc.red), func(t *testing.T) {
				s := game(t, r, ed, "Anna", "Bruno", "Chloé")
				s = play(t, s, fmt.Sprintf("roll blue=%d red=%d", tc.blue, tc.red))
				if got := s.d.place(s.pawn()); got != Place(tc.square) || s.Track != tc.track || len(s.Path) != 1 {
					t.Errorf("pawn on %s, track %d, path %v; want %s, track %d", got, s.Track, s.Path, tc.square, tc.track)
				}
			})
		}
	}
}

func TestMovementCountsSquares(t *testing.T) {
	// [F] "Chaque bâtiment et chaque case de rue compte comme une seule
	// case. Le marché compte également comme une seule case. [...] Une case
	// ne peut être visitée deux fois dans un même tour." "Quatre
	// déplacements peuvent ainsi être faits dans un même tour." [B] 4: "Le
	// parc et le port (Hafen) comptent comme bâtiment." "pas en diagonale".
	r := realRules(t)
	guild := func(t *testing.T) *State {
		s := game(t, r, "filosofia-2008", "Anna", "Bruno", "Chloé")
		return play(t, s, rollOn(s, "guild-hall"))
	}
	s := play(t, guild(t), "move to=market", "move to=town-hall", "move to=3-3", "move to=3-2")
	if len(s.Path) != 5 {
		t.Errorf("path %v: the market and the two-cell town hall are one square each", s.Path)
	}
	refused(t, s, "move to=2-2", ErrNoMovesLeft)
	h := game(t, r, "alea-2001", "Anna", "Bruno")
	h = play(t, h, "roll blue=2 red=2", "move to=harbour", "move to=3-3")
	if len(h.Path) != 3 {
		t.Errorf("path %v: the four-cell harbour is one square", h.Path)
	}
	refused(t, play(t, guild(t), "move to=6-3"), "move to=guild-hall", ErrVisited)
	refused(t, play(t, guild(t), "move to=6-3"), "move to=7-2", ErrNotAdjacent)

	// [F] "Le pion Marchand débute le tour sur la Guilde. [...] Dans
	// l'option A le marchand utilise tous ses déplacements (4) pour terminer
	// son tour sur la Villa Collini. Dans l'option B le marchand n'utilise
	// que 3 déplacements et termine son tour sur les Métaux."
	for _, tc := range []struct {
		to    Place
		moves int
	}{{"villa-colini", 4}, {"warehouse-nw", 3}} {
		s := guild(t)
		var route *Route
		for _, rt := range s.Reachable() {
			if rt.Square == tc.to {
				route = &rt
			}
		}
		if route == nil || len(route.Path) != tc.moves {
			t.Fatalf("route from the guild hall to %s: %+v, want %d moves", tc.to, route, tc.moves)
		}
		var via []string
		for _, p := range route.Path[:len(route.Path)-1] {
			via = append(via, string(p))
		}
		s = play(t, s, fmt.Sprintf("move to=%s via=%s", tc.to, strings.Join(via, ",")))
		if len(s.Path) != tc.moves+1 || s.d.place(s.pawn()) != tc.to {
			t.Errorf("path %v, want %d moves ending on %s", s.Path, tc.moves, tc.to)
		}
		s = play(t, s, "Anna: act")
	}
}

// playGame plays quiet turns to the end of the game, except the turns
// (counted from 0) given a roll of their own. It returns the final state
// and the merchant of each turn.
func playGame(t testing.TB, s *State, rolls map[int]string) (*State, []engine.Seat) {
	t.Helper()
	var merchants []engine.Seat
	for turn := 0; !s.Over(); turn++ {
		if turn > 100 {
			t.Fatal("the game does not end")
		}
		merchants = append(merchants, s.Merchant)
		roll, ok := rolls[turn]
		if !ok {
			s = quietTurn(t, s)
			continue
		}
		s = play(t, s, roll, "end")
		for s.Phase == phAcquire {
			s = play(t, s, "pass")
		}
	}
	return s, merchants
}

func TestTurnOrderAndRounds(t *testing.T) {
	// [B] 2: "Le 1er joueur débute, les autres suivent dans le sens des
	// aiguilles d'une montre. [...] Le 1er joueur, qui ne change pas de
	// toute la partie"; [Q] "Une manche = un tour de marchand par joueur",
	// "2 12, 3 10, 4 8, 5 7"; [F] "2 joueurs 12 manches [...] 5 joueurs 6
	// manches", "il remet le pion au joueur suivant (en sens horaire)".
	r := realRules(t)
	for _, tc := range []struct {
		ed     string
		n      int
		rounds int
	}{
		{"alea-2001", 2, 12}, {"alea-2001", 3, 10}, {"alea-2001", 4, 8}, {"alea-2001", 5, 7},
		{"filosofia-2008", 2, 12}, {"filosofia-2008", 3, 10}, {"filosofia-2008", 4, 8}, {"filosofia-2008", 5, 6},
	} {
		t.Run(fmt.Sprintf("%s-%d", tc.ed, tc.n), func(t *testing.T) {
			s := game(t, r, tc.ed, []string{"Anna", "Bruno", "Chloé", "Denis", "Emma"}[:tc.n]...)
			s, merchants := playGame(t, s, nil)
			if len(merchants) != tc.rounds*tc.n {
				t.Fatalf("%d turns, want %d rounds of %d", len(merchants), tc.rounds, tc.n)
			}
			for i, m := range merchants {
				if m != engine.Seat(i%tc.n) {
					t.Fatalf("turn %d: merchant %v, want seat %d", i, m, i%tc.n)
				}
			}
			if !s.Result().Over || len(s.Legal()) != 0 || len(s.Waiting()) != 0 {
				t.Errorf("the game is not over: %d legal actions, waiting %v", len(s.Legal()), s.Waiting())
			}
			refused(t, s, "roll blue=1 red=1", engine.ErrGameOver)
		})
	}
}

func TestMarketOnTheLastRounds(t *testing.T) {
	// [F] "Philippe est le premier joueur et commence une nouvelle manche en
	// avançant le marqueur sur l'avant dernière case de la piste. Il lance
	// ensuite les dés [...] obtient 4 au dé rouge et 4 au dé bleu. Il pose
	// donc le pion au marché et avance le marqueur de manche d'une case. Le
	// marqueur de manche est maintenant sur la dernière case de la piste ce
	// qui signifie qu'il s'agit maintenant de la dernière manche. Celle-ci
	// sera jouée entièrement, même si un autre joueur obtient le marché
	// comme case départ, le marqueur de manche ne sera pas avancé".
	// [B] 5: "si le pion débute son mouvement sur la place du marché [...]
	// le marqueur de tour est avancé d'une case"; [B] 8: "Le dernier tour
	// est toujours entièrement effectué." The translator's note ("Il semble
	// préférable de ne pas faire usage de ce point de règle") is the option
	// market-advance=off.
	r := realRules(t)
	players := []string{"Philippe", "Mathieu", "Anna", "Denis"}
	// Round 7 of 8 starts at turn 24: Philippe, then Mathieu, on the market.
	rolls := map[int]string{24: "roll blue=4 red=4", 25: "roll blue=5 red=5"}
	for _, tc := range []struct {
		ed, option   string
		afterFirst   int // the track after Philippe's roll
		afterSecond  int // after Mathieu's
		turns, final int
	}{
		{"filosofia-2008", "", 8, 8, 28, 8},
		{"alea-2001", "", 8, 9, 28, 9},
		{"alea-2001", "off", 7, 7, 32, 8},
	} {
		t.Run(tc.ed+"-"+tc.option, func(t *testing.T) {
			setup := engine.Setup{Game: "genoa", Variant: tc.ed, Players: players}
			if tc.option != "" {
				setup.Options = map[string]string{OptMarketAdvance: tc.option}
			}
			st, err := r.Start(setup)
			if err != nil {
				t.Fatal(err)
			}
			s := drawAll(t, st.(*State))
			for range 24 {
				s = quietTurn(t, s)
			}
			if s.Track != 7 || s.Merchant != 0 {
				t.Fatalf("track %d merchant %v after 6 rounds, want 7 (second to last) and Philippe", s.Track, s.Merchant)
			}
			s = play(t, s, rolls[24])
			if s.Track != tc.afterFirst {
				t.Errorf("track %d after Philippe's market start, want %d", s.Track, tc.afterFirst)
			}
			s = play(t, s, "end")
			s = play(t, s, rolls[25])
			if s.Track != tc.afterSecond {
				t.Errorf("track %d after Mathieu's market start, want %d", s.Track, tc.afterSecond)
			}
			s = play(t, s, "end")
			s, merchants := playGame(t, s, nil)
			if turns := 26 + len(merchants); turns != tc.turns || s.Track != tc.final {
				t.Errorf("%d turns, track %d at the end; want %d (every player the same number), %d", turns, s.Track, tc.turns, tc.final)
			}
		})
	}
}

func TestBerclazPrivilegeExamplePlayed(t *testing.T) {
	// [B] 6.4: "Max possède 6 cartes Privilège: Metallager, Park,
	// Kutscherei, Villa Ricci, Hafen, Villa Zasteri. Il a ainsi des
	// privilèges pour trois bâtiment qui ne sont pas adjacents: Metallager,
	// Hafen, Villa Zasteri) et reçoit 3 x 10 = 30 ducats. Il a aussi des
	// privilèges pour trois bâtiment adjacents: Park, Kutscherei, Villa
	// Ricci et reçoit encore 1 x 60 = 60 ducats." Max draws the Metallager
	// card in his starting hand and the five others at a villa, one a
	// turn; the game is played to its end and scored.
	r := realRules(t)
	st, err := r.Start(engine.Setup{Game: "genoa", Variant: "alea-2001", Players: []string{"Max", "Bruno"}})
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	var want []string
	for _, k := range []string{"warehouse-nw", "park", "coach-house", "villa-ricci", "harbour", "villa-zasteri"} {
		b := s.bldIdx(k)
		want = append(want, cardOf(t, s, deckContract, func(c card) bool { return c.Bld == b }))
	}
	for len(s.Pending) > 0 {
		if p := s.Pending[0]; p.Seat == 0 && p.Deck == deckContract {
			s = play(t, s, "draw card="+want[0])
			continue
		}
		for _, a := range s.Legal() {
			if !slices.Contains(want, a.Cmd.(Draw).Card) {
				s = mustPlay(t, s, a)
				break
			}
		}
	}
	for _, id := range want[1:] {
		s = play(t, s, "roll blue=1 red=1", "Max: act", "draw card="+id, "end") // Villa Monetti
		s = quietTurn(t, s)                                                     // Bruno's turn
	}
	s, _ = playGame(t, s, nil)
	res := s.Result()
	max := res.Scores[0]
	if !res.Over || max.Parts[1].Name != "contracts" || max.Parts[1].Points != 90 {
		t.Fatalf("Max's score %+v, want contracts 3x10 + 60 = 90", max)
	}
	if max.Total != s.P[0].Ducats+90 {
		t.Errorf("Max's total %d, want %d ducats + 90", max.Total, s.P[0].Ducats)
	}
}

func TestTieBreakPerEdition(t *testing.T) {
	// [B] 8: "En cas d'égalité, le joueur qui a le plus de biens dans sa
	// réserve l'emporte parmi les ex-aequo" (RULES-NOTES: most goods);
	// [F] "le vainqueur est celui des ex-æquos qui a le plus de biens
	// (marchandises, tuiles et cartes) en sa possession".
	r := realRules(t)
	for _, tc := range []struct {
		ed      string
		extra   bool // Anna holds two tiles, Bruno one good
		winners []engine.Seat
	}{
		{"alea-2001", true, []engine.Seat{1}},
		{"filosofia-2008", true, []engine.Seat{0}},
		{"alea-2001", false, []engine.Seat{0, 1}},
		{"filosofia-2008", false, []engine.Seat{0, 1}},
	} {
		t.Run(fmt.Sprintf("%s-%v", tc.ed, tc.extra), func(t *testing.T) {
			st, err := r.Start(engine.Setup{Game: "genoa", Variant: tc.ed, Players: []string{"Anna", "Bruno"}})
			if err != nil {
				t.Fatal(err)
			}
			s := st.(*State)
			// Both draw a contract worth 10 alone, and cards of the same counts.
			for len(s.Pending) > 0 {
				s = mustPlay(t, s, s.Legal()[0])
			}
			if tc.extra {
				tiles(t, s, "Anna", "extra", "start")
				goods(t, s, "Bruno", "silver")
			}
			s, _ = playGame(t, s, nil)
			res := s.Result()
			if res.Scores[0].Total != res.Scores[1].Total || !slices.Equal(res.Winners, tc.winners) {
				t.Errorf("scores %+v, winners %v; want a tie on the total won by %v", res.Scores, res.Winners, tc.winners)
			}
		})
	}
}
