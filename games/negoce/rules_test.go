package negoce

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"comptoir/engine"
	"comptoir/notation"
)

const header = "[Game \"negoce\"]\n[Players \"Anna, Bruno, Chloé, David\"]\n"

// Scripts of play, in the record notation, that the tests build on.
var (
	deal = []string{
		"deal to=Anna goods=jade,jewels",
		"deal to=Bruno goods=perfume,spices",
		"deal to=Chloé goods=coffee,silk",
		"deal to=David goods=wine,tea",
	}
	// Bruno is drawn to open; Anna wins the Contraband for 4 coins.
	auction = cat(deal,
		"Bruno: bid price=1",
		"Chloé: bid price=2",
		"David: pass",
		"Anna: bid price=4",
		"Bruno: pass",
		"Chloé: pass",
	)
	laidUp   = cat(auction, "Anna: lay card=contraband up=true")
	laidDown = cat(auction, "Anna: lay card=contraband")
	offers   = cat(laidUp,
		"Bruno: offer card=perfume-1 up=true",
		"Chloé: offer coins=3",
		"David: offer card=wine-1 coins=1",
	)
	forced = cat(offers, "Anna: force card=jade-2")
	named  = cat(forced, "Anna: name good=tea")
)

func cat(base []string, more ...string) []string {
	return append(slices.Clip(base), more...)
}

func record(t testing.TB, lines []string) *notation.Record {
	t.Helper()
	rec, err := notation.Read(strings.NewReader(header+strings.Join(lines, "\n")+"\n"), "test")
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// script plays lines and returns the state, checking the invariants.
func script(t testing.TB, lines []string) *State {
	t.Helper()
	st, err := notation.Play(New(), record(t, lines))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.(*State).Check(); err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}

// action reads one line of a record.
func action(t testing.TB, line string) engine.Action {
	t.Helper()
	as, err := record(t, []string{line}).Actions(codec)
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	return as[0]
}

// do plays one line on s and returns the new state and its events.
func do(t testing.TB, s *State, line string) (*State, []engine.Event) {
	t.Helper()
	next, evs, err := engine.Play(s, action(t, line))
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	if err := next.(*State).Check(); err != nil {
		t.Fatalf("after %s: %v", line, err)
	}
	return next.(*State), evs
}

func TestStart(t *testing.T) {
	tests := []struct {
		name    string
		setup   engine.Setup
		wantErr string
	}{
		{"four", engine.Setup{Game: "negoce", Players: []string{"A", "B", "C", "D"}}, ""},
		{"edition v2.5", engine.Setup{Game: "negoce", Variant: "v2.5", Players: []string{"A", "B", "C", "D"}}, ""},
		{"three", engine.Setup{Game: "negoce", Players: []string{"A", "B", "C"}}, "exactly 4 players: 3 players given"},
		{"five", engine.Setup{Game: "negoce", Players: []string{"A", "B", "C", "D", "E"}}, "exactly 4 players: 5 players given"},
		{"same name", engine.Setup{Game: "negoce", Players: []string{"A", "B", "A", "D"}}, `two players are called "A"`},
		{"option", engine.Setup{Game: "negoce", Players: []string{"A", "B", "C", "D"}, Options: map[string]string{"x": "1"}}, `unknown option "x"`},
		{"variant", engine.Setup{Game: "negoce", Variant: "v3", Players: []string{"A", "B", "C", "D"}}, `unknown variant "v3"`},
		{"other game", engine.Setup{Game: "genoa", Players: []string{"A", "B", "C", "D"}}, `setup is for game "genoa"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, err := New().Start(tt.setup)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Start(%v) error = %v, want %q", tt.setup, err, tt.wantErr)
				}
				if len(tt.setup.Players) != 4 && !errors.Is(err, ErrPlayerCount) {
					t.Errorf("Start error %v is not ErrPlayerCount", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			s := st.(*State)
			// "Chaque joueur reçoit 15 pièces." "La carte Contrebande est placée sur le marché."
			for p := range Players {
				if s.coins[p] != 15 || s.handSize(engine.Seat(p)) != 0 {
					t.Errorf("seat %d starts with %d coins and %d cards, want 15 and 0", p, s.coins[p], s.handSize(engine.Seat(p)))
				}
			}
			if s.loc[contrabandIdx] != locMarket || s.phase != PhaseDeal {
				t.Errorf("Contraband at %d, phase %s; want on the market, dealing", s.loc[contrabandIdx], s.phase.Key())
			}
			if err := s.Check(); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestRefusals plays every way a command can be illegal, from a position
// reached by a script, and checks the rule it breaks and that the reason
// is given in both languages.
func TestRefusals(t *testing.T) {
	tests := []struct {
		name string
		base []string
		line string
		rule *engine.Rule
		want string // in the English reason
	}{
		// Dealing.
		{"unknown card", nil, "deal to=Anna cards=gold-1", ErrUnknownCard, `there is no card "gold-1"`},
		{"unknown good", nil, "deal to=Anna goods=gold", ErrUnknownGood, `"gold" is not a good`},
		{"deal nothing", nil, "deal to=Anna", engine.ErrBadArgument, "deal which cards?"},
		{"deal Contraband", nil, "deal to=Anna cards=contraband", ErrDealContraband, "starts on the market"},
		{"card listed twice", nil, "deal to=Anna cards=jade-1,jade-1", ErrAlreadyDealt, "a Jade card is dealt twice"},
		{"card dealt twice", deal[:1], "deal to=Bruno cards=jade-1", ErrAlreadyDealt, "a Jade card was dealt already"},
		{"good split", []string{"deal to=Anna cards=jade-1"}, "deal to=Bruno cards=jade-2", ErrWholeGoods, "the four Jade cards go to one player, and another player was dealt some already"},
		{"three goods", nil, "deal to=Anna cards=jade-1,silk-1,tea-1", ErrWholeGoods, "Anna would hold 3 different goods"},
		{"ninth card", deal[:1], "deal to=Anna cards=tea-1", ErrHandFull, "Anna has 8 cards: 1 more would make 9"},
		{"deal to another", nil, "Bruno: deal to=Anna goods=jade", engine.ErrNotYourTurn, "Bruno records only their own hand"},
		{"deal to staff", nil, "deal to=staff goods=jade", engine.ErrBadArgument, "deal to whom?"},
		{"deal after the deal", deal, "deal to=Anna goods=jade", ErrAlreadyDealt, "the cards were dealt already"},
		{"bid while dealing", deal[:3], "Bruno: bid price=1", engine.ErrNotNow, "the cards are being dealt"},
		// The auction.
		{"open at 2", deal, "Bruno: bid price=2", ErrOpenAtOne, "Bruno opens at 2"},
		{"table opens", deal, "bid price=1", engine.ErrBadArgument, "who opens?"},
		{"pass before the opening", deal, "Bruno: pass", ErrMustOpen, "must bid 1"},
		{"raise of 3", cat(deal, "Bruno: bid price=1"), "Chloé: bid price=4", ErrRaise, "a bid of 4 is a raise of 3: the price is 1, so bid 2 or 3"},
		{"raise of 0", cat(deal, "Bruno: bid price=1"), "Chloé: bid price=1", ErrRaise, "a raise of 0"},
		{"lower bid", cat(deal, "Bruno: bid price=1", "Chloé: bid price=3"), "David: bid price=2", ErrRaise, "a raise of -1"},
		{"out of turn", cat(deal, "Bruno: bid price=1"), "David: bid price=2", engine.ErrNotYourTurn, "it is Chloé's turn"},
		{"bid after passing", cat(deal, "Bruno: bid price=1", "Chloé: pass", "David: pass", "Anna: bid price=2", "Bruno: bid price=3"),
			"Chloé: bid price=4", ErrPassedOut, "Chloé passed and is out"},
		{"pass twice", cat(deal, "Bruno: bid price=1", "Chloé: pass"), "Chloé: pass", ErrPassedOut, "Chloé passed already"},
		{"bid over the purse", cat(deal, "Bruno: bid price=1", "Chloé: bid price=3", "David: bid price=5", "Anna: bid price=7",
			"Bruno: bid price=9", "Chloé: bid price=11", "David: bid price=13", "Anna: bid price=15"),
			"Bruno: bid price=16", engine.ErrCannotPay, "Bruno has 15 coins and cannot bid 16"},
		{"offer during the auction", cat(deal, "Bruno: bid price=1"), "Chloé: offer coins=2", engine.ErrNotNow, "the Contraband auction is on"},
		{"lay during the auction", cat(deal, "Bruno: bid price=1"), "Chloé: lay card=coffee-1", engine.ErrNotNow, "auction"},
		// Laying the card for sale.
		{"buyer lays", auction, "Bruno: lay card=perfume-1", ErrNotSeller, "only Anna, the seller"},
		{"lay a card not held", auction, "Anna: lay card=tea-1", ErrNotYourCard, "Anna does not hold that Tea card"},
		{"lay an unknown card", auction, "Anna: lay card=jade-9", ErrUnknownCard, `no card "jade-9"`},
		{"lay no card", auction, "Anna: lay", engine.ErrBadArgument, "which card?"},
		{"offer before the lay", auction, "Bruno: offer coins=1", engine.ErrNotNow, "Anna must first lay a card for sale"},
		{"accept before the lay", auction, "Anna: accept from=Bruno", engine.ErrNotNow, "lay a card"},
		{"bonus before the lay", auction, "Anna: bonus coins=1", engine.ErrNotNow, "lay a card"},
		{"force before the lay", auction, "Anna: force card=jade-1", engine.ErrNotNow, "lay a card"},
		{"bid after the auction", auction, "Anna: bid price=5", engine.ErrNotNow, "bid: not now"},
		// Negotiating.
		{"seller offers", laidUp, "Anna: offer coins=1", ErrSellerBuys, "Anna sells"},
		{"offer a card not held", laidUp, "Bruno: offer card=tea-1", ErrNotYourCard, "Bruno does not hold that Tea card"},
		{"offer the market card", laidUp, "Bruno: offer card=contraband", ErrNotYourCard, "Bruno does not hold the Contraband card"},
		{"offer nothing", laidUp, "Bruno: offer", ErrEmptyOffer, "withdraw"},
		{"offer over the purse", laidUp, "Bruno: offer coins=16", engine.ErrCannotPay, "Bruno has 15 coins and cannot offer 16"},
		{"offer negative coins", laidUp, "Bruno: offer coins=-2", engine.ErrBadArgument, "coins=-2"},
		{"table offers", laidUp, "offer coins=2", engine.ErrBadArgument, "an offer comes from a buyer"},
		{"withdraw no offer", laidUp, "Bruno: withdraw", ErrNoOffer, "Bruno has no offer to take back"},
		{"accept no offer", laidUp, "Anna: accept from=Bruno", ErrNoOffer, "Bruno has no offer on the table"},
		{"accept from the seller", offers, "Anna: accept from=Anna", ErrNoOffer, "Anna has no offer"},
		{"accept from nobody", offers, "Anna: accept", engine.ErrBadArgument, "accept whose offer?"},
		{"buyer accepts", offers, "Bruno: accept from=Chloé", ErrNotSeller, "only Anna, the seller"},
		{"bonus over the purse", laidUp, "Anna: bonus coins=12", engine.ErrCannotPay, "Anna has 11 coins and cannot lay 12"},
		{"negative bonus", laidUp, "Anna: bonus coins=-1", engine.ErrBadArgument, "coins=-1"},
		{"buyer bonus", laidUp, "Bruno: bonus coins=1", ErrNotSeller, "only Anna"},
		{"take the card back", laidUp, "Anna: lay card=contraband", ErrNoTakeBack, "stays there until it is sold"},
		{"turn a face-down card up", laidDown, "Anna: lay card=contraband up=true", ErrCannotTurn, "laid face down and stays so"},
		{"a buyer probes the face-down card", laidDown, "Bruno: lay card=contraband up=true", ErrNotYourCard, "Bruno does not hold the Contraband card"},
		{"second card face up", laidUp, "Anna: lay card=jade-1 up=true", ErrForcedUp, "face down"},
		{"force with a card not held", laidUp, "Anna: force card=tea-1", ErrNotYourCard, "Anna does not hold that Tea card"},
		{"force with the market card", laidUp, "Anna: force card=contraband", ErrNotYourCard, "Anna does not hold the Contraband card"},
		{"buyer forces", laidUp, "Bruno: force card=perfume-1", ErrNotSeller, "only Anna"},
		{"buyer lays a card of another", laidUp, "Bruno: lay card=tea-1", ErrNotYourCard, "Bruno does not hold that Tea card"},
		{"name before forcing", offers, "Anna: name good=tea", engine.ErrNotNow, "name a good: not now"},
		{"pick before forcing", offers, "Anna: pick card=tea-1", engine.ErrNotNow, "pick a card: not now"},
		{"deal during a sale", offers, "deal to=Anna goods=tea", ErrAlreadyDealt, "dealt already"},
		// The forced sale.
		{"offer after forcing", forced, "Bruno: offer coins=1", engine.ErrNotNow, "the sale is forced"},
		{"accept after forcing", forced, "Anna: accept from=Bruno", engine.ErrNotNow, "must name the good"},
		{"force twice", forced, "Anna: force card=jade-3", engine.ErrNotNow, "the sale is forced"},
		{"name a good held", forced, "Anna: name good=jade", ErrNameHeld, "Anna has Jade in hand"},
		{"name a good held by number", forced, "Anna: name good=2", ErrNameHeld, "Anna has Jewels in hand"},
		{"name Contraband", forced, "Anna: name good=contrebande", ErrNameContraband, "not a good"},
		{"name an unknown good", forced, "Anna: name good=gold", ErrUnknownGood, `"gold" is not a good; goods: jade, jewels`},
		{"buyer names", forced, "Bruno: name good=tea", ErrNotSeller, "only Anna"},
		{"lay while naming", forced, "lay card=tea-1", engine.ErrNotNow, "must name the good"},
		{"pick before naming", forced, "Anna: pick card=tea-1", engine.ErrNotNow, "must name the good"},
		{"pick a card not revealed", named, "Anna: pick card=wine-2", ErrNotRevealed, "that Wine card was not shown; take a Tea card from David"},
		{"pick an unknown card", named, "Anna: pick card=tea-9", ErrUnknownCard, "tea-9"},
		{"buyer picks", named, "David: pick card=tea-1", ErrNotSeller, "only Anna"},
		{"scan a card not revealed", named, "lay card=jade-3", ErrNotRevealed, "that Jade card was not shown"},
		{"name twice", named, "Anna: name good=wine", engine.ErrNotNow, "must pick one of the revealed cards"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := script(t, tt.base)
			a := action(t, tt.line)
			evs, err := s.Decide(a)
			if err == nil {
				t.Fatalf("%s: accepted with %v, want refused by %s", tt.line, evs, tt.rule.Code)
			}
			if !errors.Is(err, tt.rule) || !errors.Is(err, engine.ErrIllegal) {
				t.Errorf("%s: refused with %q (%T), want rule %s", tt.line, err, err, tt.rule.Code)
			}
			r, ok := engine.AsRefusal(err)
			if !ok {
				t.Fatalf("%s: error %v is not a refusal", tt.line, err)
			}
			if !strings.Contains(r.EN, tt.want) {
				t.Errorf("%s: reason %q, want it to hold %q", tt.line, r.EN, tt.want)
			}
			if r.FR == "" || r.FR == r.EN {
				t.Errorf("%s: French reason %q, want one in French", tt.line, r.FR)
			}
		})
	}
}

func TestRefusalEdges(t *testing.T) {
	s := script(t, offers)
	for _, a := range []engine.Action{
		{By: 4, Cmd: Pass{}},
		{By: -3, Cmd: Pass{}},
	} {
		if _, err := s.Decide(a); !errors.Is(err, engine.ErrBadArgument) {
			t.Errorf("Decide(%v) = %v, want %s", a, err, engine.ErrBadArgument.Code)
		}
	}
	if _, err := s.Decide(engine.Action{By: 0, Cmd: foreign{}}); !errors.Is(err, engine.ErrUnknownCommand) {
		t.Errorf("Decide(foreign) = %v, want %s", err, engine.ErrUnknownCommand.Code)
	}
}

type foreign struct{}

func (foreign) Name() string { return "roll" }
