package genoa

import (
	"testing"

	"comptoir/engine"
)

// The worked examples of the rules texts.

func TestBerclazPrivilegeExample(t *testing.T) {
	// Berclaz: "Max possède 6 cartes Privilège: Metallager, Park,
	// Kutscherei, Villa Ricci, Hafen, Villa Zasteri. Il a ainsi des
	// privilèges pour trois bâtiment qui ne sont pas adjacents: Metallager,
	// Hafen, Villa Zasteri) et reçoit 3 x 10 = 30 ducats. Il a aussi des
	// privilèges pour trois bâtiment adjacents: Park, Kutscherei, Villa
	// Ricci et reçoit encore 1 x 60 = 60 ducats."
	for _, ed := range []string{"alea-2001", "filosofia-2008"} {
		t.Run(ed, func(t *testing.T) {
			s := game(t, realRules(t), ed, "Max", "Bruno")
			s.P[0].Cards = 0
			s.P[1].Cards = 0
			for i := range s.CardLoc {
				s.CardLoc[i] = -1
			}
			for _, k := range []string{"warehouse-nw", "park", "coach-house", "villa-ricci", "harbour", "villa-zasteri"} {
				b := s.bldIdx(k)
				hand(t, s, "Max", cardOf(t, s, deckContract, func(c card) bool { return c.Bld == b }))
			}
			if got := s.contractScore(0); got != 90 {
				t.Errorf("contractScore(Metallager, Park, Kutscherei, Villa Ricci, Hafen, Villa Zasteri) = %d, want 3x10 + 60 = 90", got)
			}
			if err := s.Check(); err != nil {
				t.Fatal(err)
			}
			r := s.Result()
			if p := r.Scores[0].Parts[1]; p.Name != "contracts" || p.Points != 90 {
				t.Errorf("Result part %+v, want contracts 90", p)
			}
		})
	}
}

func TestContractScale(t *testing.T) {
	// Filosofia: "un bâtiment isolé ne rapporte que 10 ducats alors qu'une
	// suite de quatre bâtiments adjacents rapporte 100 ducats. Chaque
	// bâtiment adjacent supplémentaire rapporte ensuite 50 ducats."
	p := fixtureData(t, "filosofia-2008").prof
	for n, want := range map[int]int{0: 0, 1: 10, 2: 30, 3: 60, 4: 100, 5: 150, 6: 200} {
		if got := p.groupValue(n); got != want {
			t.Errorf("groupValue(%d) = %d, want %d", n, got, want)
		}
	}
}

func TestHangarDealExample(t *testing.T) {
	// Filosofia: "Le marchand dispose encore d'un déplacement alors que le
	// pion est adjacent au Hangar. Mathieu offre 5 ducats pour que le pion
	// soit déplacé sur ce bâtiment. Le marchand refuse et demande une
	// marchandise en plus. Mathieu accepte et remet les 5 ducats et la
	// marchandise au Marchand. Le pion est déplacé sur le Hangar et Mathieu
	// bénéficie immédiatement de l'action du bâtiment."
	s := game(t, realRules(t), "filosofia-2008", "Philippe", "Mathieu", "Anna")
	goods(t, s, "Mathieu", "wine")
	s = play(t, s, "roll blue=4 red=2", "move to=5-2", "move to=6-2", "move to=7-2")
	if left := 5 - len(s.Path); left != 1 {
		t.Fatalf("moves left %d, want 1", left)
	}
	before := s.P[0].Ducats
	s = play(t, s, "Philippe: deal from=Mathieu to=coach-house ducats=5 goods=wine:1")
	if s.P[0].Ducats != before+5 || s.P[0].Goods[s.good("wine")] != 1 || s.P[1].Goods[s.good("wine")] != 0 {
		t.Errorf("after the deal: merchant %d ducats %v goods, Mathieu %v; want 5 ducats and the wine paid", s.P[0].Ducats-before, s.P[0].Goods, s.P[1].Goods)
	}
	if s.Assigned != 1 {
		t.Fatalf("the action of the Hangar goes to %v, want Mathieu", s.Assigned)
	}
	refused(t, s, "Philippe: act", ErrNotYourAction)
	refused(t, s, "end", ErrPending)
	s = play(t, s, "Mathieu: act")
	if s.P[1].Tiles[tileStart] != 1 {
		t.Errorf("Mathieu's tiles %v, want the start-space tile of the Hangar", s.P[1].Tiles)
	}
	refused(t, s, "move to=warehouse-ne", ErrNoMovesLeft)
}

func TestPortForcedActionExample(t *testing.T) {
	// Filosofia: "Le marchand déplace le pion sur le Port sans qu'aucune
	// transaction n'ait été conclue auparavant. Mathieu fait une maigre offre
	// de 5 ducats pour bénéficier de l'action du bâtiment. Aucune autre offre
	// n'est faite. Puisque l'action qui l'intéresse est celle de la Villa
	// Monetti, le marchand doit se contenter de cette offre car s'il refuse
	// l'offre, il devra bénéficier lui-même de l'action du bâtiment et ne
	// pourra effectuer d'autres actions durant ce tour."
	s := game(t, realRules(t), "filosofia-2008", "Philippe", "Mathieu", "Anna")
	s = play(t, s, "roll blue=2 red=2", "move to=harbour", "Mathieu: offer ducats=5")
	refused(t, s, "move to=villa-monetti", ErrPending)
	refused(t, s, "end", ErrPending)

	// Either the merchant takes the action himself, and then has no action
	// left for the villa...
	self := play(t, s, "Philippe: act", "move to=villa-monetti")
	refused(t, self, "Philippe: act", ErrNoActionLeft)

	// ...or he accepts Mathieu's offer and keeps his action for the villa.
	s = play(t, s, "accept from=Mathieu", "Mathieu: act")
	if s.P[1].Tiles[tileGoods] != 1 || s.P[1].Ducats != 125 || s.P[0].Ducats != 135 {
		t.Errorf("Mathieu %d ducats, tiles %v; merchant %d ducats; want 125 and the goods tile, 135", s.P[1].Ducats, s.P[1].Tiles, s.P[0].Ducats)
	}
	s = play(t, s, "move to=villa-monetti", "Philippe: act")
	if s.Used[0] != 1 || len(s.Pending) != 1 || s.Pending[0].Deck != deckContract {
		t.Errorf("merchant used %d actions, pending %v; want his action at the villa drawing a contract", s.Used[0], s.Pending)
	}
}

func TestOwnershipExample(t *testing.T) {
	// Filosofia: "Le marchand [...] désigne la case de rue adjacente à la
	// Guilde et au Hangar [...] décide de placer un marqueur Propriété sur
	// la Guilde et un autre sur le Hangar [...] C'est ensuite à Mathieu, son
	// voisin de gauche, de jouer. Il désigne la seule case de rue toujours
	// occupée par un disque. Il décide de retirer le marqueur Propriété
	// adverse du Hangar en sacrifiant l'un de ses marqueurs. [...] Il place
	// ensuite l'un de ses marqueurs sur le Hangar et un autre sur
	// l'entrepôt des Épices [...] Bien que d'autres joueurs aient également
	// des marqueurs Propriété disponibles devant eux, ils ne peuvent les
	// placer, car il n'y a plus de disques présents dans les rues."
	s := game(t, realRules(t), "filosofia-2008", "Philippe", "Mathieu", "Anna")
	markers(t, s, "Philippe", 2)
	markers(t, s, "Mathieu", 3)
	markers(t, s, "Anna", 2)
	s = play(t, s, rollOn(s, "guild-hall"), "move to=6-3", "move to=coach-house", "move to=7-2", "move to=warehouse-ne", "end")
	if s.Phase != phAcquire || s.Acq != 0 {
		t.Fatalf("phase %v acquirer %v, want the acquisition, merchant first", s.Phase, s.Acq)
	}
	s = play(t, s, "Philippe: acquire street=6-3 place=guild-hall,coach-house")
	if s.Owner[s.bldIdx("guild-hall")] != 0 || s.Owner[s.bldIdx("coach-house")] != 0 || s.P[0].Markers != 0 {
		t.Fatalf("owners %v, Philippe's reserve %d", s.Owner, s.P[0].Markers)
	}
	refused(t, s, "Mathieu: acquire street=6-3 place=guild-hall", ErrNoDisc)
	s = play(t, s, "Mathieu: acquire street=7-2 place=coach-house,warehouse-ne")
	if s.Owner[s.bldIdx("coach-house")] != 1 || s.Owner[s.bldIdx("warehouse-ne")] != 1 || s.P[1].Markers != 0 {
		t.Errorf("owners %v, Mathieu's reserve %d; want Mathieu on the Hangar and the spice warehouse, 3 markers spent", s.Owner, s.P[1].Markers)
	}
	if s.Common[0] != 6 || s.Common[1] != 5 {
		t.Errorf("common supply %v, want Philippe's removed marker and Mathieu's sacrificed one back", s.Common)
	}
	// No disc left: Anna cannot acquire, the turn passes to Mathieu.
	if s.Phase != phStart || s.Merchant != 1 {
		t.Errorf("phase %v merchant %v, want Mathieu's turn to start", s.Phase, s.Merchant)
	}
}

func TestOwnershipIncome(t *testing.T) {
	// Filosofia: "chaque fois qu'un joueur effectue une action dans un
	// bâtiment où se trouve le marqueur Propriété d'un adversaire, le
	// propriétaire reçoit 10 ducats de la banque. Le propriétaire ne reçoit
	// rien lorsqu'il effectue lui-même une action dans son propre bâtiment."
	r := realRules(t)
	for _, tc := range []struct {
		owner string
		want  [2]int
	}{{"Bruno", [2]int{130, 140}}, {"Anna", [2]int{130, 130}}} {
		s := game(t, r, "alea-2001", "Anna", "Bruno")
		s.Owner[s.bldIdx("harbour")] = int8(seat(t, s, tc.owner))
		s.Common[seat(t, s, tc.owner)]--
		s = play(t, s, rollOn(s, "harbour"), "Anna: act")
		if s.P[0].Ducats != tc.want[0] || s.P[1].Ducats != tc.want[1] {
			t.Errorf("owner %s: ducats %d, %d; want %v", tc.owner, s.P[0].Ducats, s.P[1].Ducats, tc.want)
		}
	}
}

func TestMarketLastRound(t *testing.T) {
	// Filosofia: "La dernière manche est toujours jouée entièrement même si,
	// à son tour, un joueur obtient le marché comme case départ du pion
	// Marchand. Dans ce cas, la règle indiquant d'avancer le marqueur de
	// manche est ignorée" and the example: Philippe "avance le marqueur sur
	// l'avant dernière case de la piste [...] obtient 4 au dé rouge et 4 au
	// dé bleu. Il pose donc le pion au marché et avance le marqueur de manche
	// d'une case. [...] il s'agit maintenant de la dernière manche."
	r := realRules(t)
	type tc struct {
		ed, option string
		track      int // before the roll
		want       int // after the roll
	}
	for _, c := range []tc{
		{"filosofia-2008", "", 7, 8}, // the example: second to last space, 4 players
		{"filosofia-2008", "", 8, 8}, // the last round is played in full
		{"alea-2001", "", 8, 9},      // Alea: the marker advances; the round is still played in full
		{"alea-2001", "off", 3, 3},   // the translator's house rule
	} {
		t.Run(c.ed+"-"+c.option, func(t *testing.T) {
			st, err := r.Start(engine.Setup{Game: "genoa", Variant: c.ed, Players: []string{"Philippe", "Mathieu", "Anna", "Denis"}, Options: map[string]string{}})
			if c.option != "" {
				st, err = r.Start(engine.Setup{Game: "genoa", Variant: c.ed, Players: []string{"Philippe", "Mathieu", "Anna", "Denis"}, Options: map[string]string{OptMarketAdvance: c.option}})
			}
			if err != nil {
				t.Fatal(err)
			}
			s := st.(*State)
			for len(s.Pending) > 0 {
				s = mustPlay(t, s, s.Legal()[0])
			}
			s.Track = c.track
			s = play(t, s, "roll blue=4 red=4")
			if s.Track != c.want {
				t.Fatalf("track %d after a market start at %d, want %d", s.Track, c.track, c.want)
			}
			// Every player of the round still plays; the game ends after
			// the round if the track reached the last space.
			for range 4 {
				if s.Phase == phOver {
					t.Fatal("the game ended before the round was played in full")
				}
				if s.Phase == phStart {
					s = play(t, s, "roll blue=1 red=8")
				}
				s = play(t, s, "end")
				for s.Phase == phAcquire {
					s = play(t, s, "pass")
				}
			}
			if over := s.Phase == phOver; over != (c.want >= 8) {
				t.Errorf("over = %v after the round, want %v", over, c.want >= 8)
			}
		})
	}
}

func TestTwoPlayerSecondAction(t *testing.T) {
	// Filosofia, 2 joueurs: "Si l'adversaire effectue au moins une action,
	// le marchand peut en effectuer deux." Example: "Philippe (le marchand)
	// accepte l'offre de son adversaire et le laisse bénéficier de l'action
	// du bâtiment. Puisque son adversaire a effectué une action, Philippe
	// aura maintenant la possibilité d'en effectuer deux."
	r := realRules(t)
	for _, tc := range []struct {
		ed      string
		actions int // the merchant's actions after the opponent's
	}{{"filosofia-2008", 2}, {"alea-2001", 1}} {
		t.Run(tc.ed, func(t *testing.T) {
			s := game(t, r, tc.ed, "Philippe", "Mathieu")
			goods(t, s, "Mathieu", "silver")
			s = play(t, s, "roll blue=2 red=2", "Philippe: deal from=Mathieu to=harbour ducats=5 goods=silver:1", "Mathieu: act",
				"move to=villa-monetti", "Philippe: act")
			for len(s.Pending) > 0 {
				s = mustPlay(t, s, s.Legal()[0])
			}
			s = play(t, s, "move to=warehouse-nw")
			if tc.actions == 2 {
				s = play(t, s, "Philippe: act")
				if s.Used[0] != 2 {
					t.Errorf("merchant took %d actions, want 2", s.Used[0])
				}
				refused(t, play(t, s, "move to=trattoria"), "Philippe: act", ErrNoActionLeft)
			} else {
				refused(t, s, "Philippe: act", ErrNoActionLeft)
			}
		})
	}
}

func TestTwoPlayerOfferRule(t *testing.T) {
	// Filosofia, 2 joueurs: "Les offres faites au marchand pour le
	// déplacement du pion Marchand ne peuvent en aucun cas être uniquement
	// monétaire."
	r := realRules(t)
	s := game(t, r, "filosofia-2008", "Philippe", "Mathieu")
	s = play(t, s, "roll blue=2 red=2")
	refused(t, s, "deal from=Mathieu to=harbour ducats=20", ErrMoneyOnly)
	goods(t, s, "Mathieu", "silk")
	play(t, s, "deal from=Mathieu to=harbour ducats=20 goods=silk:1")
	// Alea has no such rule.
	a := game(t, r, "alea-2001", "Philippe", "Mathieu")
	play(t, a, "roll blue=2 red=2", "deal from=Mathieu to=harbour ducats=20")
}

func TestMessages(t *testing.T) {
	// Filosofia: "Le message est livré dès qu'un disque du pion Marchand se
	// retrouve, lors d'un même tour, sur chacun des deux bâtiments inscrits
	// sur la carte. [...] Un joueur peut livrer plusieurs messages dans un
	// même tour, même si ces derniers concernent les mêmes bâtiments."
	s := game(t, realRules(t), "filosofia-2008", "Philippe", "Mathieu", "Anna")
	guild, coach := s.bldIdx("guild-hall"), s.bldIdx("coach-house")
	// Two messages on the same pair, held by Anna, who takes no action.
	s.d = withCards(s.d, card{ID: "X1", Deck: deckMessage, Pair: [2]int{guild, coach}}, card{ID: "X2", Deck: deckMessage, Pair: [2]int{coach, guild}})
	hand(t, s, "Anna", "X1", "X2")
	s = play(t, s, rollOn(s, "guild-hall"), "move to=6-3")
	if s.P[2].Ducats != 130 {
		t.Fatal("a message paid before both buildings were visited")
	}
	s = play(t, s, "move to=coach-house")
	if s.P[2].Ducats != 190 || s.CardLoc[s.d.cardByID["X1"]] != -1 || s.CardLoc[s.d.cardByID["X2"]] != -1 {
		t.Errorf("Anna has %d ducats, want 190 (two messages of 30, cards back under the deck)", s.P[2].Ducats)
	}
}

// withCards returns a copy of d with more cards in its catalog.
func withCards(d *Data, cs ...card) *Data {
	c := *d
	c.cards = append(append([]card(nil), d.cards...), cs...)
	c.cardByID = map[string]int{}
	for i, x := range c.cards {
		c.cardByID[x.ID] = i
	}
	for _, x := range cs {
		c.deckSize[x.Deck]++
	}
	return &c
}

func TestSmallOrder(t *testing.T) {
	// Berclaz: "Seul le joueur qui vient d'effectuer une action dans un
	// bâtiment peut, immédiatement, remplir un petit contrat correspondant
	// au bâtiment. Il replace dans la réserve la marchandise correspondante
	// et reçoit 40 ducats. [...] Il est cependant interdit de remplir deux
	// petits contrats durant le même tour."
	s := game(t, realRules(t), "alea-2001", "Anna", "Bruno")
	h := s.bldIdx("harbour")
	var ids []string
	for _, c := range s.d.cards {
		if c.Deck == deckSmall && c.Bld == h {
			ids = append(ids, c.ID)
		}
	}
	hand(t, s, "Anna", ids...)
	for _, id := range ids {
		goods(t, s, "Anna", s.d.prof.Goods[s.d.cards[s.d.cardByID[id]].Goods[0]])
	}
	refused(t, play(t, s, rollOn(s, "harbour")), "Anna: deliver card="+ids[0], ErrSmallOrder)
	s = play(t, s, rollOn(s, "harbour"), "Anna: act", "Anna: deliver card="+ids[0])
	if s.P[0].Ducats != 170 {
		t.Errorf("Anna has %d ducats, want 170", s.P[0].Ducats)
	}
	refused(t, s, "Anna: deliver card="+ids[1], ErrSmallOrder)
}

func TestLargeOrder(t *testing.T) {
	// Filosofia: "Chaque carte Grosse commande procure à son propriétaire 100
	// ducats (de la banque) et une tuile Privilège (au choix) lorsqu'il
	// réussit à effectuer la livraison."
	s := game(t, realRules(t), "filosofia-2008", "Anna", "Bruno", "Chloé")
	v := s.bldIdx("villa-monetti")
	id := cardOf(t, s, deckLarge, func(c card) bool { return c.Villa == v })
	hand(t, s, "Anna", id)
	for _, g := range s.d.cards[s.d.cardByID[id]].Goods {
		goods(t, s, "Anna", s.d.prof.Goods[g])
	}
	s = play(t, s, rollOn(s, "villa-monetti"))
	refused(t, s, "Anna: act order="+id, engine.ErrBadArgument)
	s = play(t, s, "Anna: act order="+id+" tile=extra")
	if s.P[0].Ducats != 230 || s.P[0].Tiles[tileExtra] != 1 || s.CardLoc[s.d.cardByID[id]] != -1 {
		t.Errorf("Anna: %d ducats, tiles %v; want 230 and the extra-action tile", s.P[0].Ducats, s.P[0].Tiles)
	}
	for g, n := range s.P[0].Goods {
		if n != 0 {
			t.Errorf("Anna still holds %d %s", n, s.d.prof.Goods[g])
		}
	}
}

func TestShortSupply(t *testing.T) {
	// Berclaz: "si le bien n'est plus en réserve, le joueur ne prend rien
	// mais l'action est considérée comme effectuée." and "Il est interdit de
	// prendre deux marchandises de même type même si un des deux types
	// indiqué est épuisé."
	s := game(t, realRules(t), "alea-2001", "Anna", "Bruno")
	nw := s.d.blds[s.bldIdx("warehouse-nw")]
	a, b := s.d.prof.Goods[nw.Goods[0]], s.d.prof.Goods[nw.Goods[1]]
	goods(t, s, "Bruno", a, a, a, a, a)
	s = play(t, s, rollOn(s, "warehouse-nw"), "Anna: act")
	if s.P[0].Goods[nw.Goods[0]] != 0 || s.P[0].Goods[nw.Goods[1]] != 1 || s.Used[0] != 1 {
		t.Errorf("Anna holds %v, used %d: want one %s, no %s, and the action spent", s.P[0].Goods, s.Used[0], b, a)
	}
}
