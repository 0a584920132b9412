package dschunke

import (
	"errors"
	"reflect"
	"testing"

	"comptoir/engine"
)

// round1 is the start of round 1's actions with market-02 (fish S, rice
// 4, spices 1, vegetables 2): Anna first, no exchange, no square event.
var round1 = append(append([]string(nil), hands4...), "reveal market=market-02")

// toRestock plays round 1's actions.
var toRestock = append(append([]string(nil), round1...),
	"Anna: income with=merchant",
	"Bruno: load with=merchant at=1,2",
	"Chloé: take with=merchant goods=fish:3",
	"David: take with=helper junk=white goods=rice:3",
)

func cards(id ...string) func(t testing.TB, s *State) *State {
	return func(t testing.TB, s *State) *State {
		for _, c := range id {
			s = give(t, s, 0, c)
		}
		return s
	}
}

// TestRules plays a command after a position and checks that it is
// accepted (then checks the outcome) or refused for the rule wanted.
func TestRules(t *testing.T) {
	money := func(seat, want int) func(t *testing.T, s *State) {
		return func(t *testing.T, s *State) {
			if s.money[seat] != want {
				t.Errorf("money of seat %d = %d, want %d", seat+1, s.money[seat], want)
			}
		}
	}
	junkGrid := func(junk, want string) func(t *testing.T, s *State) {
		return func(t *testing.T, s *State) {
			j, _ := s.d.JunkIndex(junk)
			if got := grid(s.holds[j]); got != want {
				t.Errorf("%s junk = %s, want %s", junk, got, want)
			}
		}
	}
	handOf := func(seat int, want [NumGoods]int) func(t *testing.T, s *State) {
		return func(t *testing.T, s *State) {
			if s.hand[seat] != want {
				t.Errorf("hand of seat %d = %v, want %v", seat+1, s.hand[seat], want)
			}
		}
	}
	tests := []struct {
		name   string
		before []string
		mod    func(t testing.TB, s *State) *State // applied to the position before line
		line   string
		want   *engine.Rule // nil: accepted
		check  func(t *testing.T, s *State)
	}{
		// The starting hands.
		{name: "hand of 7 cards", line: "Anna: hand goods=fish:7", want: ErrHandSize},
		{name: "hand twice", before: hands4[:1], line: "Anna: hand goods=rice:8", want: ErrHandDealt},
		{name: "deal short of fish", before: hands4[:1], line: "David: hand goods=fish:7,rice:1", want: ErrDealShort},
		{name: "unknown goods", line: "Anna: hand goods=tea:8", want: ErrUnknownGoods},
		{name: "table records the first hand missing", before: hands4[:1], line: "hand goods=rice:3,spices:3,vegetables:2", check: func(t *testing.T, s *State) {
			if !s.dealt[1] || s.hand[1] != [NumGoods]int{0, 3, 3, 2} {
				t.Errorf("Bruno's hand = %v (dealt %v)", s.hand[1], s.dealt[1])
			}
		}},
		// Phase 1.
		{name: "unknown market card", before: hands4, line: "reveal market=market-99", want: ErrUnknownCard},
		{name: "market card used", before: hands4, mod: func(t testing.TB, s *State) *State { s = s.clone(); s.mUsed[1] = true; s.round = 2; return s }, line: "reveal market=market-02", want: ErrMarketUsed},
		{name: "reveal twice", before: round1, line: "reveal market=market-03", want: engine.ErrNotNow},
		{name: "exchange", before: hands4, mod: cards("exchange-1"), line: "reveal market=market-01", check: func(t *testing.T, s *State) {
			if s.step != stepExchange || s.current() != 0 {
				t.Errorf("step %s, turn of seat %d; want Anna's exchange", s.step, s.current()+1)
			}
		}},
		{name: "exchange one for one", before: round1[:4], mod: cards("exchange-1"), line: "reveal market=market-01",
			check: func(t *testing.T, s *State) {
				s, _ = play(t, s, "Anna: exchange give=fish:1 take=rice:1")
				handOf(0, [NumGoods]int{1, 3, 2, 2})(t, s)
				if s.step != stepAction {
					t.Errorf("step %s after the exchange, want actions", s.step)
				}
			}},
		{name: "exchange three", before: round1[:4], mod: func(t testing.TB, s *State) *State {
			s, _ = play(t, give(t, s, 0, "exchange-1"), "reveal market=market-01")
			return s
		}, line: "Anna: exchange give=fish:2,rice:1 take=spices:3", want: ErrExchangeCount},
		{name: "exchange same goods", before: round1[:4], mod: func(t testing.TB, s *State) *State {
			s, _ = play(t, give(t, s, 0, "exchange-1"), "reveal market=market-01")
			return s
		}, line: "Anna: exchange give=fish:1 take=fish:1", want: ErrExchangeCount},
		{name: "exchange without the card", before: round1[:4], mod: func(t testing.TB, s *State) *State {
			s, _ = play(t, give(t, s, 0, "exchange-1"), "reveal market=market-01")
			return s
		}, line: "Bruno: exchange give=rice:1 take=fish:1", want: engine.ErrNotYourTurn},
		{name: "exchange declined", before: round1[:4], mod: func(t testing.TB, s *State) *State {
			s, _ = play(t, give(t, s, 0, "exchange-1"), "reveal market=market-01")
			return s
		}, line: "Anna: pass", check: func(t *testing.T, s *State) {
			if s.step != stepAction {
				t.Errorf("step %s, want actions", s.step)
			}
		}},
		// Phase 2.
		{name: "out of turn", before: round1, line: "Bruno: income with=merchant", want: engine.ErrNotYourTurn},
		{name: "income, minimum 3", before: round1, line: "Anna: income with=merchant", check: money(0, 3)},
		{name: "income for 7 crates", before: round1, mod: func(t testing.TB, s *State) *State {
			s = s.clone()
			j, _ := s.d.JunkIndex("orange")
			s.holds[j] = s.holds[j].place(0, 0).place(1, 1).place(0, 2).place(0, 0) // AAA/ABA/ABA
			s.palettes[0] -= 3
			s.palettes[1]--
			if got := grid(s.holds[j]); got != "AAA/ABA/ABA" {
				t.Fatalf("orange junk = %s", got)
			}
			return s
		}, line: "Anna: income with=merchant", check: money(0, 7)},
		{name: "load two palettes across a full layer", before: round1, line: "Anna: load with=merchant at=1,3", check: junkGrid("brown", "AAA/ABA/ACA")},
		{name: "load into one slot twice", before: round1, line: "Anna: load with=merchant at=1,1", want: ErrSlot},
		{name: "load one palette", before: round1, line: "Anna: load with=merchant at=1", want: ErrSlot},
		{name: "helper's action is his square's", before: round1, line: "Anna: load with=helper junk=white at=3,1", want: ErrPawnAction},
		{name: "helper on a junk with a merchant", before: round1, line: "Anna: take with=helper junk=brown goods=fish:3", want: ErrWrongJunk},
		{name: "helper needs a junk", before: round1, line: "Anna: take with=helper goods=rice:3", want: ErrWrongJunk},
		{name: "helper takes goods", before: round1, line: "Anna: take with=helper junk=white goods=rice:3", check: handOf(0, [NumGoods]int{2, 5, 2, 2})},
		{name: "goods cards too few", before: round1, line: "Anna: take with=helper junk=white goods=rice:2", want: ErrGoodsCount},
		{name: "goods cards from another junk", before: round1, line: "Anna: take with=helper junk=white goods=fish:3", want: ErrGoodsSource},
		{name: "grey junk: any one junk", before: round1, line: "Anna: take with=merchant goods=vegetables:3", check: handOf(0, [NumGoods]int{2, 2, 2, 5})},
		{name: "grey junk: one junk only", before: round1, line: "Anna: take with=merchant goods=fish:2,rice:1", want: ErrGoodsSource},
		{name: "a short pile is completed elsewhere", before: round1, mod: func(t testing.TB, s *State) *State {
			s = s.clone()
			s.piles[1], s.hand[3][1] = 1, 9 // rice: 1 left on the white junk
			return s
		}, line: "Anna: take with=helper junk=white goods=rice:1,fish:2", check: handOf(0, [NumGoods]int{4, 3, 2, 2})},
		{name: "helper2 loads on a junk without merchant", before: round1, line: "Anna: load with=helper2 junk=purple at=3,1", check: junkGrid("purple", "AAA/ABB/AAA")},
		{name: "helper2 with three players", before: nil, mod: func(t testing.TB, s *State) *State {
			s3 := start(t, players3)
			s3, _ = play(t, s3, "Anna: hand goods=fish:2,rice:2,spices:2,vegetables:2", "Bruno: hand goods=fish:2,rice:2,spices:2,vegetables:2",
				"Chloé: hand goods=fish:2,rice:2,spices:2,vegetables:2", "reveal market=market-02")
			return s3
		}, line: "Anna: load with=helper2 junk=purple at=3,1", want: ErrUnknownPawn},
		{name: "pawn used", before: append(append([]string(nil), round1...), "Anna: income with=merchant"), line: "Bruno: income with=merchant", want: ErrPawnUsed},
		{name: "one action per round", before: round1, mod: func(t testing.TB, s *State) *State {
			s, _ = play(t, give(t, s, 0, "income-brown"), "Anna: income with=merchant")
			return s
		}, line: "Anna: load with=merchant at=1,2", want: ErrAlreadyActed},
		{name: "pass before acting", before: round1, mod: cards("income-brown"), line: "Anna: pass", want: ErrMustAct},
		{name: "extra income card", before: round1, mod: cards("income-brown"), line: "Anna: play card=income-brown", check: func(t *testing.T, s *State) {
			money(0, 3)(t, s)
			s, _ = play(t, s, "Anna: income with=merchant")
			money(0, 6)(t, s)
			if s.current() != 1 {
				t.Errorf("turn of seat %d after Anna's action and card, want Bruno", s.current()+1)
			}
		}},
		{name: "one extra card per round", before: round1, mod: func(t testing.TB, s *State) *State {
			s, _ = play(t, give(t, give(t, s, 0, "income-brown"), 0, "income-white"), "Anna: play card=income-brown")
			return s
		}, line: "Anna: play card=income-white", want: ErrOneExtra},
		{name: "card not held", before: round1, line: "Anna: play card=income-brown", want: ErrNotYourCard},
		{name: "always card is not played", before: round1, mod: cards("win-ties"), line: "Anna: play card=win-ties", want: ErrNotExtra},
		{name: "place a palette anywhere", before: round1, mod: cards("place-palette-1"), line: "Anna: play card=place-palette-1 junk=grey at=3", check: junkGrid("grey", "CCC/DDD/AAA")},
		{name: "move a visible palette", before: round1, mod: cards("move-palette-1"), line: "Anna: play card=move-palette-1 from=white slot=2 junk=grey at=3", check: func(t *testing.T, s *State) {
			junkGrid("white", "DDD/.../...")(t, s)
			junkGrid("grey", "CCC/DDD/AAA")(t, s)
		}},
		{name: "move another's palette", before: round1, mod: cards("move-palette-1"), line: "Anna: play card=move-palette-1 from=brown slot=2 junk=grey at=3", want: ErrNotVisible},
		{name: "move to the same junk", before: round1, mod: cards("move-palette-1"), line: "Anna: play card=move-palette-1 from=white slot=2 junk=white at=2", want: ErrSameJunk},
		{name: "take-goods card on any junk", before: round1, mod: cards("take-goods-1"), line: "Anna: play card=take-goods-1 junk=purple goods=vegetables:3", check: handOf(0, [NumGoods]int{2, 2, 2, 5})},
		// Phase 3.
		{name: "restock too many", before: toRestock, line: "Anna: restock goods=fish:3", want: ErrRestockCount},
		{name: "restock two", before: toRestock, line: "Anna: restock goods=fish:1,rice:1", check: handOf(0, [NumGoods]int{3, 3, 2, 2})},
		{name: "restock plus", before: toRestock, mod: cards("restock-plus-1"), line: "Anna: restock goods=fish:3", check: handOf(0, [NumGoods]int{5, 2, 2, 2})},
		{name: "bid during restock", before: toRestock, line: "Anna: bid goods=fish:1", want: engine.ErrNotNow},
		// Phase 4.
		{name: "bid cards not held", before: hands4, mod: atBiddingOn("market-02"), line: "Bruno: bid goods=fish:1", want: ErrNotHeld},
		{name: "bid twice", before: hands4, mod: func(t testing.TB, s *State) *State {
			s, _ = play(t, atBidding(t, s, "market-02"), "Anna: bid goods=fish:1")
			return s
		}, line: "Anna: bid goods=rice:1", want: ErrAlreadyBid},
		{name: "bid from the table", before: hands4, mod: atBiddingOn("market-02"), line: "bid goods=fish:1", want: engine.ErrNotYourTurn},
		{name: "bid in any order", before: hands4, mod: atBiddingOn("market-02"), line: "David: bid goods=fish:4", check: func(t *testing.T, s *State) {
			if got := s.Waiting(); !reflect.DeepEqual(got, []engine.Seat{0, 1, 2}) {
				t.Errorf("waiting for %v, want Anna, Bruno, Chloé", got)
			}
		}},
		{name: "tie on money splits it, remainder to the bank", before: hands4, mod: atBiddingOn("market-03"), line: "Anna: bid", check: func(t *testing.T, s *State) {
			// market-03: vegetables 5; Bruno and Chloé tie on 2.
			s, evs := play(t, s, "Bruno: bid goods=vegetables:2", "Chloé: bid goods=vegetables:2", "David: bid goods=vegetables:1")
			money(1, 2)(t, s)
			money(2, 2)(t, s)
			money(3, 0)(t, s)
			if !hasEvent(evs, Sold{Goods: "vegetables", Winners: []engine.Seat{1, 2}, Yuans: 2}) {
				t.Errorf("events %v, want vegetables sold to Bruno and Chloé, 2 each", evs)
			}
		}},
		{name: "win-ties card", before: hands4, mod: func(t testing.TB, s *State) *State { return atBidding(t, give(t, s, 2, "win-ties"), "market-03") }, line: "Anna: bid", check: func(t *testing.T, s *State) {
			s, _ = play(t, s, "Bruno: bid goods=vegetables:2", "Chloé: bid goods=vegetables:2", "David: bid")
			money(1, 0)(t, s)
			money(2, 5)(t, s)
		}},
		{name: "a bluff counts as nothing", before: hands4, mod: atBiddingOn("market-02"), line: "Anna: bid goods=fish:1,rice:1", check: func(t *testing.T, s *State) {
			s, evs := play(t, s, "Bruno: bid", "Chloé: bid", "David: bid")
			handOf(0, [NumGoods]int{2, 2, 2, 2})(t, s)
			if !hasEvent(evs, RoundEnded{Round: 1}) || s.step != stepReveal || s.round != 2 {
				t.Errorf("events %v, step %s: want the round over (nobody bid cards)", evs, s.step)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := start(t, players4)
			if len(tt.before) > 0 {
				s, _ = play(t, s, tt.before...)
			}
			if tt.mod != nil {
				s = tt.mod(t, s)
			}
			a := action(t, s, tt.line)
			next, _, err := engine.Play(s, a)
			if tt.want != nil {
				if !errors.Is(err, tt.want) {
					t.Fatalf("%q: err = %v, want %s", tt.line, err, tt.want.Code)
				}
				r, ok := engine.AsRefusal(err)
				if !ok || r.FR == "" || r.EN == "" {
					t.Fatalf("%q: %v is not a refusal in both languages", tt.line, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("%q: %v", tt.line, err)
			}
			ns := next.(*State)
			if err := ns.Check(); err != nil {
				t.Fatal(err)
			}
			if tt.check != nil {
				tt.check(t, ns)
			}
		})
	}
}

func atBiddingOn(market string) func(t testing.TB, s *State) *State {
	return func(t testing.TB, s *State) *State { return atBidding(t, s, market) }
}

func hasEvent(evs []engine.Event, want engine.Event) bool {
	for _, e := range evs {
		if reflect.DeepEqual(e, want) {
			return true
		}
	}
	return false
}

// TestBiddingExample plays the example of the rules text (bottom of page
// 5): the market card reads fish S, rice 4, spices 1, vegetables 2. A bids
// 1 rice, B and C 3 spices each, D 4 fish. A receives 4 yuans, B and C
// nothing, D takes a special card; then a new bidding for the vegetables.
func TestBiddingExample(t *testing.T) {
	s := atBidding(t, dealt4(t), "market-02")
	s, evs := play(t, s, "Anna: bid goods=rice:1", "Bruno: bid goods=spices:3", "Chloé: bid goods=spices:3")
	if len(evs) != 1 {
		t.Fatalf("bids before the last: events %v, want only the sealed bid", evs)
	}
	s, evs = play(t, s, "David: bid goods=fish:4")
	want := []engine.Event{
		BidSealed{By: 3, Goods: map[string]int{"fish": 4}},
		BidsRevealed{Bids: []string{"rice:1", "spices:3", "spices:3", "fish:4"}},
		Sold{Goods: "fish", Winners: []engine.Seat{3}, Special: true},
	}
	if !reflect.DeepEqual(evs, want) {
		t.Fatalf("events = %#v\nwant %#v", evs, want)
	}
	if s.step != stepDraw || s.current() != 3 {
		t.Fatalf("step %s for seat %d, want David's special card", s.step, s.current()+1)
	}
	s, evs = play(t, s, "David: draw pile=star card=take-goods-1")
	want = []engine.Event{
		SpecialDrawn{By: 3, Pile: "star", Card: "take-goods-1"},
		Sold{Goods: "rice", Winners: []engine.Seat{0}, Yuans: 4},
		Sold{Goods: "spices", Winners: []engine.Seat{1, 2}},
		Rebid{Goods: []string{"vegetables"}},
	}
	if !reflect.DeepEqual(evs, want) {
		t.Fatalf("events = %#v\nwant %#v", evs, want)
	}
	for seat, m := range []int{4, 0, 0, 0} {
		if s.money[seat] != m {
			t.Errorf("money of %s = %d, want %d", players4[seat], s.money[seat], m)
		}
	}
	// Bid cards went back to the junks: 10 + the bid on each.
	if s.piles != [NumGoods]int{14, 11, 16, 10} {
		t.Errorf("piles = %v, want fish 14, rice 11, spices 16, vegetables 10", s.piles)
	}
	if i, _ := s.d.SpecialIndex("take-goods-1"); s.owner[i] != 3 {
		t.Errorf("take-goods-1 owned by %d, want David", s.owner[i])
	}
	// The table shows the bids revealed and the sales.
	view := s.View(engine.NoSeat).(View)
	wantSales := []SaleView{{Goods: "fish", Winners: []engine.Seat{3}, Special: true}, {Goods: "rice", Winners: []engine.Seat{0}, Yuans: 4}, {Goods: "spices", Winners: []engine.Seat{1, 2}}}
	if !reflect.DeepEqual(view.Biddings, [][]string{{"rice:1", "spices:3", "spices:3", "fish:4"}}) || !reflect.DeepEqual(view.Sales, wantSales) {
		t.Errorf("table view: biddings %v, sales %+v", view.Biddings, view.Sales)
	}
	// The new bidding: only the vegetables.
	if _, _, err := engine.Play(s, action(t, s, "Anna: bid goods=rice:1")); !errors.Is(err, ErrSoldGoods) {
		t.Errorf("rebid on rice: err = %v, want %s", err, ErrSoldGoods.Code)
	}
	s, evs = play(t, s, "Anna: bid goods=vegetables:1", "Bruno: bid goods=vegetables:2", "Chloé: bid", "David: bid goods=vegetables:1")
	if !hasEvent(evs, Sold{Goods: "vegetables", Winners: []engine.Seat{1}, Yuans: 2}) || !hasEvent(evs, RoundEnded{Round: 1}) {
		t.Fatalf("events = %v, want vegetables to Bruno for 2 then the round's end", evs)
	}
	if s.money[1] != 2 || s.round != 2 || s.first != 1 || s.step != stepReveal {
		t.Errorf("Bruno %d yuans, round %d, first %d, step %s; want 2, round 2, Bruno first, market", s.money[1], s.round, s.first, s.step)
	}
	if s.merchants != [NumMerchants]int{1, 3, 0} {
		t.Errorf("merchants on %v, want each one junk on (white, purple, brown)", s.merchants)
	}
}
