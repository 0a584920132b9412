package genoa

import (
	"errors"
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
		fr    string // in the French reason
	}{
		{"draw first", func(t *testing.T) *State {
			st, _ := r.Start(engine.Setup{Game: "genoa", Variant: "alea-2001", Players: []string{"Anna", "Bruno"}})
			return st.(*State)
		}, "roll blue=1 red=1", ErrDrawFirst, "must first draw", "doit d'abord piocher"},
		{"card not in the deck", func(t *testing.T) *State {
			st, _ := r.Start(engine.Setup{Game: "genoa", Variant: "alea-2001", Players: []string{"Anna", "Bruno"}})
			s := st.(*State)
			return s
		}, "draw card=S01", ErrCard, "is not a large order card", "pioche dans la pile grosse commande"},
		{"roll by another player", func(t *testing.T) *State { return fresh(t, "alea-2001", 2) }, "Bruno: roll blue=1 red=1", ErrNotMerchant, "only the merchant", "seul le marchand"},
		{"die off the board", func(t *testing.T) *State { return fresh(t, "alea-2001", 2) }, "roll blue=9 red=1", ErrBadDice, "1 to 8", "1 à 8"},
		{"start tile not held", func(t *testing.T) *State { return fresh(t, "alea-2001", 2) }, "start square=market", ErrNoTile, "no start-space tile", "lancez les dés"},
		{"move before the roll", func(t *testing.T) *State { return fresh(t, "alea-2001", 2) }, "move to=3-2", engine.ErrNotNow, "roll the dice", "doit d'abord lancer les dés"},
		{"unknown square", moving, "move to=bakery", ErrUnknownSquare, "no square", "écrivez un bâtiment"},
		{"not adjacent", moving, "move to=market", ErrNotAdjacent, "does not touch", "le pion peut aller sur"},
		{"visited twice", func(t *testing.T) *State { return play(t, moving(t), "move to=3-2") }, "move to=2-2", ErrVisited, "already visited", "le pion peut aller sur"},
		{"fifth move", func(t *testing.T) *State {
			return play(t, moving(t), "move to=3-2", "move to=4-2", "move to=5-2", "move to=6-2")
		}, "move to=7-2", ErrNoMovesLeft, "4 moves", "terminez le déplacement"},
		{"move with an offer standing", func(t *testing.T) *State { return play(t, atHarbour(t), "Bruno: offer ducats=5") }, "move to=villa-monetti", ErrPending, "offer", "acceptez une offre"},
		{"act on a street", moving, "Anna: act", ErrNoBuilding, "no action", "les actions se font dans les 18 bâtiments"},
		{"act twice at a building", func(t *testing.T) *State { return play(t, atHarbour(t), "Anna: act") }, "Anna: act", ErrActionTaken, "already taken", "qu'une fois par tour"},
		{"act for the merchant", atHarbour, "Bruno: act", ErrNotYourAction, "may make an offer", "peut faire une offre"},
		{"second action", func(t *testing.T) *State {
			return play(t, atHarbour(t), "Anna: act", "move to=villa-monetti")
		}, "Anna: act", ErrNoActionLeft, "no action left", "acceptez une offre ou continuez"},
		{"empty deal", moving, "deal from=Bruno to=harbour", ErrEmptyDeal, "must give something", "doit donner quelque chose"},
		{"deal beyond one's purse", moving, "deal from=Bruno to=harbour ducats=500", engine.ErrCannotPay, "cannot give 500 ducats", "ne peut pas donner 500 ducats (en a moins)"},
		{"deal with goods not held", moving, "deal from=Bruno to=harbour goods=silk:1", engine.ErrCannotPay, "silk", "soie"},
		{"deal with the merchant himself", moving, "deal from=Anna to=harbour ducats=5", ErrMerchantOffer, "merchant", "il déplace le pion"},
		{"deal by a third player", moving, "Chloé: deal from=Bruno to=harbour ducats=5", ErrDealByMerchant, "only the merchant (Anna) concludes a deal", "seul le marchand (Anna) conclut un marché"},
		{"deal by the offerer", moving, "Bruno: deal from=Bruno to=harbour ducats=5", ErrDealByMerchant, "send it as an offer (a proposal) to the merchant", "envoyez-le comme offre (une proposition) au marchand"},
		{"money-only offer with two", func(t *testing.T) *State { return play(t, fresh(t, "filosofia-2008", 2), "roll blue=2 red=2") },
			"deal from=Bruno to=harbour ducats=5", ErrMoneyOnly, "two players", "à deux joueurs"},
		{"promise in Filosofia", moving, `deal from=Bruno to=harbour ducats=5 promise="I will bring you next turn"`, ErrPromise, "no promises", "aucune promesse"},
		{"promise alone in Alea", func(t *testing.T) *State { return play(t, fresh(t, "alea-2001", 3), "roll blue=2 red=2") },
			`deal from=Bruno to=harbour promise="later"`, ErrPromise, "on top of money or goods", "en plus d'argent ou de biens"},
		{"after-payment a street cannot give", moving, "deal from=Bruno to=3-2 after=silver:1", ErrAfter, "street", "payez avec ce que vous avez maintenant"},
		{"after-payment the building does not give", moving, "deal from=Bruno to=harbour after=silver:1", ErrAfter, "will not give", "elle donne une tuile"},
		{"offer by the merchant", atHarbour, "Anna: offer ducats=5", ErrMerchantOffer, "merchant", "fait lui-même une action"},
		{"accept without an offer", atHarbour, "accept from=Bruno", ErrNoOffer, "made no offer", "faites l'action ou continuez"},
		{"small order without acting", atHarbour, "Bruno: deliver card=S13", ErrSmallOrder, "right after", "juste après sa propre action"},
		{"small order not held", func(t *testing.T) *State { return play(t, atHarbour(t), "Anna: act") }, "Anna: deliver card=S05", ErrCard, "holds no small order", "n'a pas de petite commande"},
		{"large order at the wrong villa", func(t *testing.T) *State {
			s := moving(t)
			hand(t, s, "Anna", "L16")
			return play(t, s, "move to=harbour", "move to=villa-monetti")
		}, "Anna: act order=L16 tile=extra", ErrCard, "is delivered at", "se livre à"},
		{"extra tile not held", moving, "Bruno: extra", ErrNoTile, "holds no extra tile", "n'a pas de tuile action supplémentaire"},
		{"goods tile out of one's action", func(t *testing.T) *State {
			s := moving(t)
			tiles(t, s, "Bruno", "goods")
			return s
		}, "Bruno: take good=silk", ErrTileTiming, "own action", "au début, pendant ou à la fin de sa propre action"},
		{"goods tile for a good the supply lacks", func(t *testing.T) *State {
			s := atHarbour(t)
			tiles(t, s, "Anna", "goods")
			goods(t, s, "Bruno", "silk", "silk", "silk", "silk", "silk")
			return s
		}, "Anna: take good=silk", ErrSupplyEmpty, "no silk", "choisissez une autre marchandise"},
		{"trade of an unknown item", func(t *testing.T) *State {
			s := atHarbour(t)
			tiles(t, s, "Anna", "trade")
			return s
		}, "Anna: trade give=gold get=silk", ErrBadItem, "give a good", "donnez une marchandise"},
		{"trade of a good not held", func(t *testing.T) *State {
			s := atHarbour(t)
			tiles(t, s, "Anna", "trade")
			return s
		}, "Anna: trade give=silk get=wine", engine.ErrCannotPay, "silk", "soie"},
		{"building action without a marker", func(t *testing.T) *State {
			s := atHarbour(t)
			tiles(t, s, "Anna", "build")
			return s
		}, "Anna: build building=park", ErrNotOwner, "no ownership marker", "dont on est propriétaire"},
		{"end with a deal's action pending", func(t *testing.T) *State { return play(t, moving(t), "deal from=Bruno to=harbour ducats=5") },
			"end", ErrPending, "must first take the action", "doit d'abord faire l'action"},
		{"acquire out of turn", acquiring, "Bruno: acquire street=6-3 place=guild-hall", engine.ErrNotYourTurn, "turn to acquire", "c'est à Anna d'acquérir"},
		{"acquire from a street not visited", acquiring, "Anna: acquire street=3-2 place=town-hall", ErrNoDisc, "no disc", "rues avec un disque : la rue bleu 6, rouge 3, la rue bleu 7, rouge 2"},
		{"acquire a building away from the street", acquiring, "Anna: acquire street=6-3 place=park", ErrNotTouching, "does not touch", "qui touche : "},
		{"acquire three buildings in Filosofia", func(t *testing.T) *State {
			s := acquiring(t)
			markers(t, s, "Anna", 3)
			return s
		}, "Anna: acquire street=6-3 place=guild-hall,coach-house remove=post-office", ErrTooMany, "at most 2", "au plus 2 bâtiments"},
		{"remove an empty building", acquiring, "Anna: acquire street=6-3 remove=guild-hall", ErrNoMarker, "no opponent's marker", "remove= retire un marqueur adverse"},
		{"place on one's own building", func(t *testing.T) *State {
			s := acquiring(t)
			s.Owner[s.bldIdx("guild-hall")] = 0
			s.P[0].Markers--
			return s
		}, "Anna: acquire street=6-3 place=guild-hall", ErrOwnMarker, "already carries your marker", "porte déjà votre marqueur"},
		{"acquire without markers", func(t *testing.T) *State {
			s := acquiring(t)
			s.Common[0] += s.P[0].Markers - 1
			s.P[0].Markers = 1
			s.Owner[s.bldIdx("coach-house")] = 1
			s.Common[1]--
			return s
		}, "Anna: acquire street=6-3 place=coach-house", engine.ErrCannotPay, "takes 2 markers", "demande 2 marqueurs"},
		{"game over", func(t *testing.T) *State {
			s := fresh(t, "alea-2001", 2)
			s.Phase = phOver
			return s
		}, "roll blue=1 red=1", engine.ErrGameOver, "over", "terminée"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ref := refused(t, c.state(t), c.line, c.rule)
			if !strings.Contains(ref.EN, c.says) {
				t.Errorf("reason %q does not say %q", ref.EN, c.says)
			}
			if !strings.Contains(ref.FR, c.fr) {
				t.Errorf("reason %q does not say %q", ref.FR, c.fr)
			}
		})
	}
}

// The other refusals, each with the rule and the reason in both
// languages.
func TestMoreRefusals(t *testing.T) {
	r := realRules(t)
	fresh := func(t *testing.T, ed string) *State { return game(t, r, ed, "Anna", "Bruno", "Chloé") }
	atHarbour := func(t *testing.T) *State {
		return play(t, fresh(t, "alea-2001"), "roll blue=2 red=2", "move to=harbour")
	}
	atVilla := func(t *testing.T) *State {
		s := fresh(t, "alea-2001")
		v := s.bldIdx("villa-monetti")
		id := cardOf(t, s, deckLarge, func(c card) bool { return c.Villa == v })
		hand(t, s, "Anna", id)
		for _, g := range s.d.cards[s.d.cardByID[id]].Goods {
			goods(t, s, "Anna", s.d.prof.Goods[g])
		}
		return play(t, s, "roll blue=1 red=1")
	}
	largeID := func(s *State) string {
		for c := range s.P[0].Cards.All() {
			if s.d.cards[c].Deck == deckLarge && s.d.cards[c].Villa == s.bldIdx("villa-monetti") {
				return s.d.cards[c].ID
			}
		}
		return "?"
	}
	cases := []struct {
		name     string
		state    func(*testing.T) *State
		line     func(*State) string
		rule     *engine.Rule
		en, fr   string
		bySeat   engine.Seat
		useSeatP bool
	}{
		{"a seat that is not a player", atHarbour, func(*State) string { return "act" }, engine.ErrNotYourTurn, "not a player", "n'est pas un joueur", 7, true},
		{"another player's draw", func(t *testing.T) *State { return play(t, atHarbour(t), "move to=villa-monetti", "Anna: act") },
			func(*State) string { return "Bruno: draw card=C01" }, engine.ErrNotYourTurn, "Anna is drawing", "Anna pioche", 0, false},
		{"a draw with nothing to draw", atHarbour, func(*State) string { return "draw card=C01" }, engine.ErrNotNow, "no card is to be drawn", "aucune carte", 0, false},
		{"an offer from the table", atHarbour, func(*State) string { return "offer ducats=5" }, engine.ErrBadArgument, "comes from a player", "vient d'un joueur", 0, false},
		{"an offer for a deal's action", func(t *testing.T) *State {
			return play(t, fresh(t, "alea-2001"), "roll blue=2 red=2", "deal from=Bruno to=harbour ducats=5")
		}, func(*State) string { return "Chloé: offer ducats=9" }, ErrNotYourAction, "already has the action", "a déjà l'action", 0, false},
		{"an offer with nothing", atHarbour, func(*State) string { return "Bruno: offer" }, ErrEmptyDeal, "must give something", "doit donner quelque chose", 0, false},
		{"an accepted offer its maker can no longer pay", func(t *testing.T) *State {
			s := atHarbour(t)
			tiles(t, s, "Bruno", "extra")
			return play(t, s, "Bruno: offer tiles=extra:1", "Bruno: extra")
		}, func(*State) string { return "accept from=Bruno" }, engine.ErrCannotPay, "can no longer give", "ne peut plus donner", 0, false},
		{"the merchant gives back what he lacks", func(t *testing.T) *State { return play(t, fresh(t, "alea-2001"), "roll blue=2 red=2") },
			func(*State) string { return "deal from=Bruno to=harbour ducats=5 merchantGoods=silk:1" }, engine.ErrCannotPay, "the merchant cannot give", "le marchand ne peut pas donner", 0, false},
		{"order= at a building without choice", atHarbour, func(*State) string { return "Anna: act order=L01" }, engine.ErrBadArgument, "for the villas", "pour les villas", 0, false},
		{"tile= without order=", atVilla, func(*State) string { return "Anna: act tile=extra" }, engine.ErrBadArgument, "comes with order=", "va avec order=", 0, false},
		{"a large order without its tile of choice", atVilla, func(s *State) string { return "Anna: act order=" + largeID(s) }, engine.ErrBadArgument, "add tile=", "ajoutez tile=", 0, false},
		{"a large order's tile unknown", atVilla, func(s *State) string { return "Anna: act order=" + largeID(s) + " tile=gold" }, engine.ErrBadArgument, "is not a tile", "n'est pas une tuile", 0, false},
		{"a large order's tile the supply lacks", func(t *testing.T) *State {
			s := atVilla(t)
			s.TileSup[tileExtra] = 0
			s.P[1].Tiles[tileExtra] = 5
			return s
		}, func(s *State) string { return "Anna: act order=" + largeID(s) + " tile=extra" }, ErrSupplyEmpty, "no extra tile is left", "il ne reste aucune tuile", 0, false},
		{"a large order without its goods", func(t *testing.T) *State {
			s := atVilla(t)
			s.Supply = [maxGoods]int{5, 5, 5, 5, 5, 5, 5, 5}
			s.P[0].Goods = [maxGoods]int8{}
			return s
		}, func(s *State) string { return "Anna: act order=" + largeID(s) + " tile=extra" }, engine.ErrCannotPay, "needs", "demande", 0, false},
		{"a tile played by the table", atHarbour, func(*State) string { return "extra" }, engine.ErrBadArgument, "played by a player", "jouée par un joueur", 0, false},
		{"a good that is not of the edition", func(t *testing.T) *State {
			s := atHarbour(t)
			tiles(t, s, "Anna", "goods")
			return s
		}, func(*State) string { return "Anna: take good=wine" }, engine.ErrBadArgument, "not a good of this edition", "n'est pas une marchandise de cette édition", 0, false},
		{"a trade of one thing for itself", func(t *testing.T) *State {
			s := atHarbour(t)
			tiles(t, s, "Anna", "trade")
			goods(t, s, "Anna", "silk")
			return s
		}, func(*State) string { return "Anna: trade give=silk get=silk" }, ErrBadItem, "a different one", "contre un autre", 0, false},
		{"a trade for a good the supply lacks", func(t *testing.T) *State {
			s := atHarbour(t)
			tiles(t, s, "Anna", "trade")
			goods(t, s, "Anna", "silk")
			goods(t, s, "Bruno", "salt", "salt", "salt", "salt", "salt")
			return s
		}, func(*State) string { return "Anna: trade give=silk get=salt" }, ErrSupplyEmpty, "no salt is left", "il ne reste plus de sel", 0, false},
		{"a trade before paying goods owed from the action", func(t *testing.T) *State {
			s := play(t, fresh(t, "alea-2001"), "roll blue=6 red=7", "deal from=Bruno to=warehouse-se after=silk:1")
			tiles(t, s, "Bruno", "trade")
			goods(t, s, "Bruno", "salt")
			return s
		}, func(*State) string { return "Bruno: trade give=salt get=pepper" }, ErrTileTiming, "trade after the action", "échangez après l'action", 0, false},
		{"an acquisition naming nothing", func(t *testing.T) *State {
			s := fresh(t, "alea-2001")
			markers(t, s, "Anna", 1)
			return play(t, s, "roll blue=2 red=2", "end")
		}, func(*State) string { return "acquire street=2-2" }, engine.ErrBadArgument, "or acquire nothing", "ou n'acquérez rien", 0, false},
		{"a pass out of the acquisition", atHarbour, func(*State) string { return "pass" }, engine.ErrNotNow, "the merchant is moving the pawn", "le marchand déplace le pion", 0, false},
		{"an unknown command", atHarbour, func(*State) string { return "" }, engine.ErrUnknownCommand, "no command", "pas de commande", 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := c.state(t)
			var err error
			if c.useSeatP {
				_, err = s.Decide(engine.Action{By: c.bySeat, Cmd: Act{}})
			} else if c.line(s) == "" {
				_, err = s.Decide(engine.Action{By: engine.NoSeat, Cmd: bogus{}})
			} else {
				_, err = s.Decide(action(t, s, c.line(s)))
			}
			ref, ok := engine.AsRefusal(err)
			if !ok || !errors.Is(err, c.rule) {
				t.Fatalf("refusal %v, want rule %s", err, c.rule.Code)
			}
			if !strings.Contains(ref.EN, c.en) || !strings.Contains(ref.FR, c.fr) || strings.Contains(ref.EN+ref.FR, "%!") {
				t.Errorf("reasons %q / %q, want them to say %q / %q", ref.EN, ref.FR, c.en, c.fr)
			}
		})
	}
}

// bogus is a command Genoa does not know.
type bogus struct{}

func (bogus) Name() string { return "bogus" }
