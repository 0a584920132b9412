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
		play(t, s, "Anna: act") // the action at the end of the path is legal
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

func TestBuildingActions(t *testing.T) {
	// [B] 5 and [F] "Bâtiments": "Gildenhalle: le joueur pioche une carte
	// du paquet Großer Auftrag", "Rathaus: [...] deux cartes du paquet
	// Kleiner Auftrag", "Poststation: [...] 2 cartes du paquet Botschaft",
	// "Kathedrale: le joueur prend deux marqueurs de propriété de sa
	// couleur", "Palazzo, Park, Kutscherei, Hafen, Taverna, Trattoria: le
	// joueur prend une carte spéciale indiquée par le bâtiment", "Villas
	// [...] piocher une carte Privileg", "Entrepôts: le joueur prend les
	// marchandises indiquées" ("Getreidelager : 1 blé (jaune) et 1 riz",
	// "Metallager : 1 argent [...] et 1 cuivre", "Tuchlager : 1 soie [...] et
	// 1 lin", "Gewürzlager : 1 sel [...] et 1 poivre"; [F] "poivre, saffran,
	// argent, cuivre, lin, soie, bière, vin").
	r := realRules(t)
	type yield struct {
		deck  int // a draw of n cards of deck, or -1
		n     int
		tile  string
		marks int
		goods []string
	}
	draw := func(deck, n int) yield { return yield{deck: deck, n: n} }
	tile := func(k string) yield { return yield{deck: -1, tile: k} }
	common := map[string]yield{
		"guild-hall": draw(deckLarge, 1), "town-hall": draw(deckSmall, 2), "post-office": draw(deckMessage, 2),
		"cathedral": {deck: -1, marks: 2},
		"palazzo":   tile("build"), "park": tile("extra"), "coach-house": tile("start"), "harbour": tile("goods"),
		"taverna": tile("trade"), "trattoria": tile("trade"),
		"villa-monetti": draw(deckContract, 1), "villa-ricci": draw(deckContract, 1), "villa-zasteri": draw(deckContract, 1), "villa-colini": draw(deckContract, 1),
	}
	warehouses := map[string]map[string][]string{
		"alea-2001":      {"warehouse-nw": {"silver", "copper"}, "warehouse-ne": {"salt", "pepper"}, "warehouse-sw": {"wheat", "rice"}, "warehouse-se": {"silk", "linen"}},
		"filosofia-2008": {"warehouse-nw": {"silver", "copper"}, "warehouse-ne": {"saffron", "pepper"}, "warehouse-sw": {"ale", "wine"}, "warehouse-se": {"silk", "linen"}},
	}
	for _, ed := range []string{"alea-2001", "filosofia-2008"} {
		all := map[string]yield{}
		for k, y := range common {
			all[k] = y
		}
		for k, g := range warehouses[ed] {
			all[k] = yield{deck: -1, goods: g}
		}
		if len(all) != 18 {
			t.Fatalf("%d buildings in the table, want 18", len(all))
		}
		for key, y := range all {
			t.Run(ed+"-"+key, func(t *testing.T) {
				s := game(t, r, ed, "Anna", "Bruno", "Chloé")
				s = play(t, s, rollOn(s, key), "Anna: act")
				p := s.P[0]
				if y.deck >= 0 {
					if len(s.Pending) != 1 || s.Pending[0].Deck != y.deck || s.Pending[0].N != y.n {
						t.Errorf("pending draws %v, want %d of %s", s.Pending, y.n, deckKeys[y.deck])
					}
				} else if len(s.Pending) != 0 {
					t.Errorf("pending draws %v, want none", s.Pending)
				}
				var tl [nTiles]int8
				if y.tile != "" {
					tl[tileIndex(y.tile)] = 1
				}
				if p.Tiles != tl || p.Markers != y.marks {
					t.Errorf("tiles %v markers %d, want %v and %d", p.Tiles, p.Markers, tl, y.marks)
				}
				var g [maxGoods]int8
				for _, k := range y.goods {
					g[s.good(k)]++
				}
				if p.Goods != g {
					t.Errorf("goods %v, want %v", p.Goods, y.goods)
				}
				if s.Used[0] != 1 || !s.Done[s.bldIdx(key)] {
					t.Errorf("the action is not counted")
				}
			})
		}
	}
}

func TestCathedralMarkers(t *testing.T) {
	// [B] 5 "Kathedrale: le joueur prend deux marqueurs de propriété de sa
	// couleur"; [B] 1 "les marqueurs de propriété des joueurs (chacun en a
	// 7)"; [F] "Si le bien obtenu n'est plus disponible en nombre suffisant,
	// le joueur obtient ce qu'il reste et dans certains cas, il ne reçoit
	// rien. Qu'il ait obtenu des biens ou non, l'action est considérée
	// comme effectuée."
	r := realRules(t)
	for _, tc := range []struct{ common, onBoard, got int }{{7, 0, 2}, {3, 4, 2}, {1, 6, 1}, {0, 7, 0}} {
		t.Run(fmt.Sprint(tc.common), func(t *testing.T) {
			s := game(t, r, "filosofia-2008", "Anna", "Bruno", "Chloé")
			for b := range tc.onBoard {
				s.Owner[b] = 0
			}
			s.Common[0] = tc.common
			s = play(t, s, rollOn(s, "cathedral"), "Anna: act")
			if s.P[0].Markers != tc.got || s.Common[0] != tc.common-tc.got || s.Used[0] != 1 {
				t.Errorf("reserve %d, common %d, used %d; want %d taken", s.P[0].Markers, s.Common[0], s.Used[0], tc.got)
			}
		})
	}
}

func TestMarkersScoreAtTheEnd(t *testing.T) {
	// [B] 7: "Au terme de la partie: chaque joueur reçoit de la banque 10
	// ducats par bâtiment sur lequel il a un marqueur de propriété"; [F]
	// "chaque marqueur Propriété sur un bâtiment du plateau de jeu rapporte
	// 10 ducats à son propriétaire" "(sauf bien sûr ceux de la réserve
	// commune)".
	r := realRules(t)
	for _, ed := range []string{"alea-2001", "filosofia-2008"} {
		s := game(t, r, ed, "Anna", "Bruno")
		for _, k := range []string{"park", "palazzo", "taverna"} {
			s.Owner[s.bldIdx(k)] = 0
			s.Common[0]--
		}
		markers(t, s, "Bruno", 2) // in his own reserve: worth nothing
		s, _ = playGame(t, s, nil)
		res := s.Result()
		if a, b := res.Scores[0].Parts[2], res.Scores[1].Parts[2]; a.Points != 30 || b.Points != 0 {
			t.Errorf("%s: markers scored %d and %d, want 30 and 0", ed, a.Points, b.Points)
		}
	}
}

func TestAcquisition(t *testing.T) {
	// [B] 7.1: "Il se décide pour une des cases de rue traversée et peut
	// placer un ou plusieurs marqueurs de sa réserve sur un ou plusieurs
	// bâtiment adjacent à la case de rue indiquée. [...] Si un marqueur
	// adverse est déjà présent sur le bâtiment, le joueur peut y placer un
	// des siens à condition d'un sacrifier un. Il remet à la réserve
	// générale le marqueur adverse, prend dans sa réserve deux marqueurs, en
	// place un sur le bâtiment et l'autre à la réserve générale. Il est
	// aussi possible de se contenter d'enlever un marqueur adverse. [...] Le
	// bâtiment est alors momentanément sans propriétaire."
	// [F] "il pose un marqueur Propriété sur un ou deux bâtiments adjacents
	// orthogonalement à la case rue désignée. Un seul marqueur Propriété est
	// placé par bâtiment."
	// The street 2-2 touches Villa Monetti, the north-west warehouse and
	// the harbour.
	r := realRules(t)
	at22 := func(t *testing.T, ed string) *State {
		s := game(t, r, ed, "Anna", "Bruno", "Chloé")
		markers(t, s, "Anna", 4)
		s.Owner[s.bldIdx("harbour")] = 1
		s.Common[1]--
		return play(t, s, "roll blue=2 red=2", "end")
	}
	for _, tc := range []struct {
		ed, line string
		rule     *engine.Rule // nil: accepted
		reserve  int          // Anna's reserve after
		common   [2]int       // Anna's and Bruno's colours in the common supply after
		owner    int          // of the harbour after
	}{
		{"alea-2001", "Anna: acquire street=2-2 place=villa-monetti,warehouse-nw", nil, 2, [2]int{3, 6}, 1},
		{"alea-2001", "Anna: acquire street=2-2 place=villa-monetti,warehouse-nw,harbour", nil, 0, [2]int{4, 7}, 0},
		{"filosofia-2008", "Anna: acquire street=2-2 place=villa-monetti,warehouse-nw,harbour", ErrTooMany, 4, [2]int{3, 6}, 1},
		{"filosofia-2008", "Anna: acquire street=2-2 place=villa-monetti,harbour", nil, 1, [2]int{4, 7}, 0},
		{"filosofia-2008", "Anna: acquire street=2-2 remove=harbour", nil, 3, [2]int{4, 7}, -1},
		{"alea-2001", "Anna: acquire street=2-2 remove=harbour", nil, 3, [2]int{4, 7}, -1},
		{"alea-2001", "Anna: acquire street=2-2 place=villa-monetti,villa-monetti", engine.ErrBadArgument, 4, [2]int{3, 6}, 1},
	} {
		t.Run(tc.ed+"-"+tc.line, func(t *testing.T) {
			s := at22(t, tc.ed)
			if tc.rule != nil {
				refused(t, s, tc.line, tc.rule)
				return
			}
			s = play(t, s, tc.line)
			if s.P[0].Markers != tc.reserve || s.Common[0] != tc.common[0] || s.Common[1] != tc.common[1] || int(s.Owner[s.bldIdx("harbour")]) != tc.owner {
				t.Errorf("reserve %d, common %v, harbour owner %d; want %d, %v, %d", s.P[0].Markers, s.Common[:2], s.Owner[s.bldIdx("harbour")], tc.reserve, tc.common, tc.owner)
			}
		})
	}
	// [B] 7.1 "Le joueur en phase débute, les autres suivent dans le sens
	// des aiguilles d'une montre. Il y a un seul tour de table."
	s := game(t, r, "alea-2001", "Anna", "Bruno", "Chloé")
	for _, p := range []string{"Anna", "Bruno", "Chloé"} {
		markers(t, s, p, 1)
	}
	s = quietTurn(t, s)
	s = play(t, s, "roll blue=2 red=2", "move to=3-2", "end")
	var order []engine.Seat
	for s.Phase == phAcquire {
		order = append(order, s.Acq)
		s = play(t, s, "pass")
	}
	if !slices.Equal(order, []engine.Seat{1, 2, 0}) || s.Merchant != 2 {
		t.Errorf("acquisition order %v, then merchant %v; want Bruno, Chloé, Anna, then Chloé's turn", order, s.Merchant)
	}
}

func TestOwnershipIncomeByWhoActs(t *testing.T) {
	// [B] 7: "chaque fois qu'un joueur effectue une action dans un bâtiment
	// sur lequel se trouve le marqueur d'un autre joueur, le propriétaire du
	// marqueur reçoit 10 ducats de la banque. Il ne reçoit pas l'argent si
	// l'action n'est pas effectuée ou s'il l'exécute lui-même."
	r := realRules(t)
	for _, ed := range []string{"alea-2001", "filosofia-2008"} {
		for _, tc := range []struct {
			name  string
			lines []string
			bruno int // Bruno's ducats after (he owns the harbour)
		}{
			{"the merchant acts", []string{"Anna: act"}, 140},
			{"another player acts by a deal", []string{"deal from=Chloé to=harbour goods=silver:1", "Chloé: act"}, 140},
			{"the owner acts by a deal", []string{"deal from=Bruno to=harbour goods=silver:1", "Bruno: act"}, 130},
			{"nobody acts", []string{"move to=harbour", "move to=3-3"}, 130},
			{"the owner's building-action tile", []string{"Bruno: extra", "Bruno: build building=harbour"}, 130},
		} {
			t.Run(ed+"-"+tc.name, func(t *testing.T) {
				s := game(t, r, ed, "Anna", "Bruno", "Chloé")
				s.Owner[s.bldIdx("harbour")] = 1
				s.Common[1]--
				goods(t, s, "Bruno", "silver")
				goods(t, s, "Chloé", "silver")
				tiles(t, s, "Bruno", "build", "extra")
				s = play(t, s, "roll blue=2 red=2")
				if tc.lines[0] == "Anna: act" {
					s = play(t, s, "move to=harbour")
				}
				if strings.HasPrefix(tc.lines[0], "Bruno: extra") {
					// The building-action tile in Bruno's own action window.
					s = play(t, s, "deal from=Bruno to=villa-monetti goods=silver:1", "Bruno: act")
					s = drawAll(t, s)
					tc.lines = tc.lines[1:]
				}
				s = play(t, s, tc.lines...)
				if s.P[1].Ducats != tc.bruno {
					t.Errorf("Bruno has %d ducats, want %d", s.P[1].Ducats, tc.bruno)
				}
			})
		}
	}
}

func TestOneActionPerPlayerPerTurn(t *testing.T) {
	// [F] "À chaque tour, chacun des joueurs (y compris le marchand) ne peut
	// réaliser qu'une seule action." [B] 6.5.2 "1 weitere Aktion [...]
	// permet [...] d'effectuer une action supplémentaire [...] Il peut les
	// jouer quand il le désire, même durant le tour en cours. cette carte ne
	// permet pas d'effectuer plusieurs fois l'action d'un même bâtiment."
	// [F] "Un joueur peut utiliser cette tuile lors de son tour ou de celui
	// d'un adversaire".
	r := realRules(t)
	start := func(t *testing.T) *State {
		s := game(t, r, "alea-2001", "Anna", "Bruno", "Chloé")
		tiles(t, s, "Bruno", "extra")
		tiles(t, s, "Anna", "extra")
		return play(t, s, "roll blue=2 red=2", "deal from=Bruno to=harbour ducats=5", "Bruno: act")
	}
	s := start(t)
	refused(t, s, "deal from=Bruno to=villa-monetti ducats=5", ErrNoActionLeft)
	refused(t, play(t, s, "move to=villa-monetti"), "Bruno: offer ducats=5", ErrNoActionLeft)
	s = play(t, s, "Bruno: extra", "deal from=Bruno to=villa-monetti ducats=5", "Bruno: act")
	if s.Used[1] != 2 {
		t.Errorf("Bruno took %d actions, want 2 with his extra-action tile on Anna's turn", s.Used[1])
	}
	drawAll(t, s)
	// The merchant's extra action cannot take a building's action twice.
	m := play(t, start(t), "move to=3-3", "move to=town-hall", "Anna: act")
	m = drawAll(t, m)
	refused(t, play(t, m, "Anna: extra"), "Anna: act", ErrActionTaken)
}

func TestSmallOrderTiming(t *testing.T) {
	// [B] 6.2: "Seul le joueur qui vient d'effectuer une action dans un
	// bâtiment peut, immédiatement, remplir un petit contrat correspondant au
	// bâtiment. [...] Il est cependant interdit de remplir deux petits
	// contrats durant le même tour." [B] 6.5.5: "cette carte n'autorise pas à
	// remplir un petit contrat sur le bâtiment désigné." [F] "le joueur doit
	// effectuer l'action du bâtiment inscrit sur sa carte et fournir la
	// marchandise requise."
	r := realRules(t)
	for _, tc := range []struct {
		name  string
		lines []string
		rule  *engine.Rule // nil: Chloé's delivery is accepted
	}{
		{"right after her own action", []string{"deal from=Chloé to=harbour ducats=5", "Chloé: act"}, nil},
		{"after the merchant's action", []string{"move to=harbour", "Anna: act"}, ErrSmallOrder},
		{"once the pawn moved on", []string{"deal from=Chloé to=harbour ducats=5", "Chloé: act", "move to=3-3"}, ErrSmallOrder},
		{"by a building-action tile", []string{"deal from=Chloé to=villa-monetti ducats=5", "Chloé: act", "draw", "Chloé: build building=harbour"}, ErrSmallOrder},
		{"before acting", []string{"deal from=Chloé to=harbour ducats=5"}, ErrSmallOrder},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := game(t, r, "alea-2001", "Anna", "Bruno", "Chloé")
			h := s.bldIdx("harbour")
			id := cardOf(t, s, deckSmall, func(c card) bool { return c.Bld == h })
			hand(t, s, "Chloé", id)
			goods(t, s, "Chloé", s.d.prof.Goods[s.d.cards[s.d.cardByID[id]].Goods[0]])
			tiles(t, s, "Chloé", "build")
			s.Owner[h] = 2
			s.Common[2]--
			s = play(t, s, "roll blue=2 red=2")
			for _, l := range tc.lines {
				if l == "draw" {
					s = drawAll(t, s)
					continue
				}
				s = play(t, s, l)
			}
			line := "Chloé: deliver card=" + id
			if tc.rule != nil {
				refused(t, s, line, tc.rule)
				return
			}
			s = play(t, s, line)
			if s.P[2].Ducats != 130-5+40 {
				t.Errorf("Chloé has %d ducats, want 165", s.P[2].Ducats)
			}
		})
	}
}

func TestNonAdjacentOfferIsASuggestion(t *testing.T) {
	// [F] "Mathieu constate qu'il reste suffisamment de déplacements au
	// marchand pour atteindre la Villa Colini. Comme le pion Marchand n'est
	// pas sur une case adjacente à cette villa, Mathieu ne pourra conclure
	// tout de suite une transaction avec le marchand." [B] 4.2.3 "Les offres
	// proposées ne sont alors pas payées et peuvent encore être modifiées."
	s := game(t, realRules(t), "filosofia-2008", "Philippe", "Mathieu", "Anna")
	s = play(t, s, "roll blue=6 red=6")
	ref := refused(t, s, "deal from=Mathieu to=villa-colini ducats=15", ErrNotAdjacent)
	if !strings.Contains(ref.EN, "suggestion") || !strings.Contains(ref.FR, "suggestion") {
		t.Errorf("reason %q / %q does not say a farther square is only a suggestion", ref.EN, ref.FR)
	}
	if s.P[1].Ducats != 130 {
		t.Error("the suggestion was paid")
	}
	// Once the pawn stands next to it, the deal is made.
	s = play(t, s, "move to=7-6", "move to=7-7", "deal from=Mathieu to=villa-colini ducats=15", "Mathieu: act")
	if s.P[1].Ducats != 115 || s.P[0].Ducats != 145 {
		t.Errorf("ducats %d and %d, want 145 and 115", s.P[0].Ducats, s.P[1].Ducats)
	}
}

func TestStartTileOnlyOnOwnTurn(t *testing.T) {
	// [F] "Un joueur ne peut utiliser cette tuile qu'à son propre tour de
	// jeu. Au lieu de lancer les dés, le joueur place le pion Marchand sur la
	// case départ de son choix." [B] 6.5.1 "Si la case choisie est sur la
	// place du marché, le marqueur de tour est avancé."
	r := realRules(t)
	s := game(t, r, "alea-2001", "Anna", "Bruno", "Chloé")
	tiles(t, s, "Bruno", "start")
	tiles(t, s, "Anna", "start")
	refused(t, s, "Bruno: start square=market", ErrNotMerchant)
	refused(t, play(t, s, "roll blue=2 red=2"), "Anna: start square=market", engine.ErrNotNow)
	a := play(t, s, "Anna: start square=villa-colini")
	if a.d.place(a.pawn()) != "villa-colini" || a.Track != 1 || a.P[0].Tiles[tileStart] != 0 {
		t.Errorf("pawn %s track %d tiles %v", a.d.place(a.pawn()), a.Track, a.P[0].Tiles)
	}
	if m := play(t, s, "Anna: start square=5-5"); m.Track != 2 {
		t.Errorf("track %d after a start on the market by the tile, want 2", m.Track)
	}
}

func TestPromisesPerEdition(t *testing.T) {
	// [B] 4.2.4 "Il est interdit de n'offrir que des promesses [...] Elles
	// peuvent cependant faire partie du marché en plus de l'argent et / ou de
	// biens." [F] "Une offre ne peut inclure des promesses futures."
	r := realRules(t)
	for _, tc := range []struct {
		ed, line string
		rule     *engine.Rule
	}{
		{"alea-2001", `deal from=Bruno to=harbour ducats=5 promise="I pass next turn"`, nil},
		{"alea-2001", `Bruno: offer ducats=5 promise="later"`, nil},
		{"alea-2001", `deal from=Bruno to=harbour promise="later"`, ErrPromise},
		{"filosofia-2008", `deal from=Bruno to=harbour ducats=5 promise="later"`, ErrPromise},
		{"filosofia-2008", `Bruno: offer ducats=5 promise="later"`, ErrPromise},
	} {
		t.Run(tc.ed+"-"+tc.line, func(t *testing.T) {
			s := game(t, r, tc.ed, "Anna", "Bruno", "Chloé")
			s = play(t, s, "roll blue=2 red=2")
			if strings.HasPrefix(tc.line, "Bruno: offer") {
				s = play(t, s, "move to=harbour")
			}
			if tc.rule != nil {
				refused(t, s, tc.line, tc.rule)
				return
			}
			play(t, s, tc.line)
		})
	}
}

func TestActionsInPathOrder(t *testing.T) {
	// [F] "Les actions sont effectuées dans le même ordre que celui où les
	// bâtiments sont visités par le pion Marchand." [B] 4.1 "Si un joueur
	// n'effectue pas son action, elle tombe".
	s := game(t, realRules(t), "alea-2001", "Anna", "Bruno", "Chloé")
	s = play(t, s, "roll blue=2 red=2", "move to=harbour", "move to=3-3")
	refused(t, s, "Anna: act", ErrNoBuilding)
	refused(t, s, "Bruno: offer ducats=5", ErrNoBuilding)
	s = play(t, s, "move to=town-hall", "Anna: act")
	if s.Done[s.bldIdx("harbour")] || !s.Done[s.bldIdx("town-hall")] || s.P[0].Tiles[tileGoods] != 0 {
		t.Errorf("the harbour's action was taken after the pawn left it")
	}
}

func TestShortSupplyEverywhere(t *testing.T) {
	// [B] 5 "NOTE: si le bien n'est plus en réserve, le joueur ne prend rien
	// mais l'action est considérée comme effectuée." [F] "Si le bien obtenu
	// n'est plus disponible en nombre suffisant, le joueur obtient ce qu'il
	// reste".
	r := realRules(t)
	t.Run("a tile building with no tile left", func(t *testing.T) {
		s := game(t, r, "filosofia-2008", "Anna", "Bruno", "Chloé")
		s.P[1].Tiles[tileExtra] = int8(s.TileSup[tileExtra])
		s.TileSup[tileExtra] = 0
		s = play(t, s, rollOn(s, "park"), "Anna: act")
		if s.P[0].Tiles[tileExtra] != 0 || s.Used[0] != 1 {
			t.Errorf("tiles %v used %d", s.P[0].Tiles, s.Used[0])
		}
	})
	t.Run("a deck with one card for a draw of two", func(t *testing.T) {
		s := game(t, r, "filosofia-2008", "Anna", "Bruno", "Chloé")
		var left []string
		for i, c := range s.d.cards {
			if c.Deck == deckSmall && s.loc(i) == -1 {
				left = append(left, c.ID)
			}
		}
		hand(t, s, "Bruno", left[1:]...)
		s = play(t, s, rollOn(s, "town-hall"), "Anna: act")
		if len(s.Pending) != 1 || s.Pending[0].N != 1 {
			t.Fatalf("pending %v, want one card to draw", s.Pending)
		}
		s = play(t, s, "draw card="+left[0], "move to=3-3")
		if s.Used[0] != 1 {
			t.Errorf("used %d", s.Used[0])
		}
	})
	t.Run("an empty deck", func(t *testing.T) {
		s := game(t, r, "alea-2001", "Anna", "Bruno", "Chloé")
		var left []string
		for i, c := range s.d.cards {
			if c.Deck == deckLarge && s.loc(i) == -1 {
				left = append(left, c.ID)
			}
		}
		hand(t, s, "Bruno", left...)
		s = play(t, s, rollOn(s, "guild-hall"), "Anna: act", "move to=6-3")
		if s.Used[0] != 1 || len(s.Pending) != 0 {
			t.Errorf("used %d pending %v", s.Used[0], s.Pending)
		}
	})
}

func TestContractGroupsOnTheBoard(t *testing.T) {
	// [Q] "Gagner des ducats en fin de partie (1 : 10 ducats, 2 adjacents :
	// 30, 3 : 60, 4 : 100, + : 50 par bâtiment)". Along the top edge, Villa
	// Monetti, the north-west warehouse, the trattoria, the north-east
	// warehouse and Villa Ricci follow one another.
	r := realRules(t)
	chain := []string{"villa-monetti", "warehouse-nw", "trattoria", "warehouse-ne", "villa-ricci"}
	for _, tc := range []struct {
		blds []string
		want int
	}{
		{chain[:1], 10}, {chain[:2], 30}, {chain[:3], 60}, {chain[:4], 100}, {chain, 150},
		{append(chain[:2:2], "villa-colini"), 40},
		{append(chain[:5:5], "villa-colini", "harbour"), 200 + 10}, // the harbour touches Villa Monetti: six in a row
	} {
		t.Run(strings.Join(tc.blds, ","), func(t *testing.T) {
			s := game(t, r, "filosofia-2008", "Anna", "Bruno")
			for c := range s.P[0].Cards.All() {
				if s.d.cards[c].Deck == deckContract {
					hand(t, s, "Bruno", s.d.cards[c].ID)
				}
			}
			for _, k := range tc.blds {
				b := s.bldIdx(k)
				hand(t, s, "Anna", cardOf(t, s, deckContract, func(c card) bool { return c.Bld == b }))
			}
			if got := s.contractScore(0); got != tc.want {
				t.Errorf("contracts %v score %d, want %d", tc.blds, got, tc.want)
			}
		})
	}
}

func TestMessageNeedsOneTurn(t *testing.T) {
	// [B] 6.3 "Une ambassade est considérée comme réalisée si le pion
	// s'arrête dans les deux bâtiments mentionnés durant un même tour."
	s := game(t, realRules(t), "filosofia-2008", "Anna", "Bruno", "Chloé")
	m := cardOf(t, s, deckMessage, func(c card) bool {
		return c.Pair == [2]int{s.bldIdx("post-office"), s.bldIdx("coach-house")} || c.Pair == [2]int{s.bldIdx("coach-house"), s.bldIdx("post-office")}
	})
	hand(t, s, "Chloé", m)
	s = play(t, s, rollOn(s, "post-office"), "move to=6-3", "end")
	s = play(t, s, rollOn(s, "coach-house"), "end")
	if s.P[2].Ducats != 130 || s.loc(s.d.cardByID[m]) != 2 {
		t.Errorf("a message was delivered over two turns: Chloé has %d ducats", s.P[2].Ducats)
	}
	s = play(t, s, rollOn(s, "coach-house"), "move to=6-3", "move to=post-office")
	if s.P[2].Ducats != 160 || s.loc(s.d.cardByID[m]) != -1 {
		t.Errorf("Chloé has %d ducats, want 160 when the pawn visits both buildings in one turn", s.P[2].Ducats)
	}
}

func TestTwoPlayerSecondActionAnyOrder(t *testing.T) {
	// [F] 2 joueurs: "Si l'adversaire effectue au moins une action, le
	// marchand peut en effectuer deux." The merchant may act first: his
	// second action comes once the opponent has acted.
	s := game(t, realRules(t), "filosofia-2008", "Philippe", "Mathieu")
	goods(t, s, "Mathieu", "silver")
	s = play(t, s, "roll blue=2 red=2", "move to=harbour", "Philippe: act", "move to=2-5")
	s = play(t, s, "deal from=Mathieu to=warehouse-sw goods=silver:1")
	// Before Mathieu acted, Philippe had no second action.
	if s.allowed(0) != 1 {
		t.Errorf("Philippe may take %d actions before Mathieu acted, want 1", s.allowed(0))
	}
	s = play(t, s, "Mathieu: act", "move to=villa-zasteri", "Philippe: act")
	if s.Used[0] != 2 || s.Used[1] != 1 {
		t.Errorf("actions taken %v, want Philippe 2 and Mathieu 1", s.Used[:2])
	}
}
