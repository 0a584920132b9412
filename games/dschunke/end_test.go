package dschunke

import (
	"errors"
	"reflect"
	"testing"

	"comptoir/engine"
)

// atRound jumps a dealt game to the start of round r (market cards
// market-03 and on used for the rounds before), first player Anna.
func atRound(t testing.TB, s *State, r int) *State {
	t.Helper()
	n := s.clone()
	n.round = r
	for i := 0; i < r-1; i++ {
		n.mUsed[2+i] = true
	}
	if err := n.Check(); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestSquareEvents checks the S and Y squares of the helpers' track.
func TestSquareEvents(t *testing.T) {
	t.Run("two S squares: two rounds of different piles", func(t *testing.T) {
		// Round 3: S on both rows' squares.
		s, evs := play(t, atRound(t, dealt4(t), 3), "reveal market=market-01")
		if len(evs) != 1 || s.step != stepDraw || s.current() != 0 {
			t.Fatalf("after the market card: %v, step %s, turn of %d; want Anna to take a special card", evs, s.step, s.current())
		}
		s, _ = play(t, s, "Anna: draw pile=star card=win-ties")
		if _, _, err := engine.Play(s, action(t, s, "Bruno: draw pile=star card=exchange-1")); !errors.Is(err, ErrPileTaken) {
			t.Fatalf("Bruno takes Anna's pile: err = %v, want %s", err, ErrPileTaken.Code)
		}
		if _, _, err := engine.Play(s, action(t, s, "Bruno: draw pile=square card=win-ties")); !errors.Is(err, ErrCardDrawn) {
			t.Fatalf("Bruno takes Anna's card: err = %v, want %s", err, ErrCardDrawn.Code)
		}
		if _, _, err := engine.Play(s, action(t, s, "Chloé: draw pile=square card=exchange-1")); !errors.Is(err, ErrNotDrawing) {
			t.Fatalf("Chloé before Bruno: err = %v, want %s", err, ErrNotDrawing.Code)
		}
		// The scanner: the card alone, from the largest pile left (circle).
		scan, err := s.Scanned("exchange-1")
		if err != nil {
			t.Fatal(err)
		}
		s, evs = play(t, s, codec.FormatCommand(scan.Cmd, players4))
		if !reflect.DeepEqual(evs, []engine.Event{SpecialDrawn{By: 1, Pile: "square", Card: "exchange-1"}}) {
			t.Fatalf("scanned card: %v, want Bruno's from the square pile (the first of the largest)", evs)
		}
		s, _ = play(t, s, "Chloé: draw pile=circle card=bonus-grey", "David: draw pile=triangle card=move-palette-1")
		// The second S: every pile may be taken again.
		s, _ = play(t, s, "Anna: draw pile=star card=income-brown")
		s, _ = play(t, s, "Bruno: draw pile=square card=income-white", "Chloé: draw pile=circle card=take-goods-1", "David: draw pile=triangle card=take-goods-2")
		// The exchange comes before the square events: Bruno's new exchange
		// card waits for the next round.
		if s.step != stepAction || s.current() != 0 {
			t.Fatalf("after the draws: step %s, turn %d; want Anna's action", s.step, s.current())
		}
		if s.pileLeft != [NumPiles]int{6, 6, 5, 5} {
			t.Errorf("piles %v, want square 6, circle 6, triangle 5, star 5", s.pileLeft)
		}
		view := s.View(engine.NoSeat).(View)
		if got := view.Players[0].Always; !reflect.DeepEqual(got, []string{"win-ties"}) || view.Players[0].Secret != 1 {
			t.Errorf("Anna's cards seen by the table: always %v, %d secret; want win-ties and 1 secret", got, view.Players[0].Secret)
		}
	})
	t.Run("the special cards run out", func(t *testing.T) {
		s := atRound(t, dealt4(t), 3)
		// Every card but win-ties and exchange-1 is Chloé's; the square
		// pile is empty, the star pile has one card, the circle pile one.
		s = s.clone()
		for i, c := range s.d.Special {
			if c.ID != "win-ties" && c.ID != "exchange-1" {
				s.owner[i] = 2
			}
		}
		s.pileLeft = [NumPiles]int{0, 1, 0, 1}
		if err := s.Check(); err != nil {
			t.Fatal(err)
		}
		s, _ = play(t, s, "reveal market=market-01", "Chloé: pass") // she holds exchange-2
		if _, _, err := engine.Play(s, action(t, s, "Anna: draw pile=square card=win-ties")); !errors.Is(err, ErrPileEmpty) {
			t.Fatalf("draw from the empty pile: err = %v, want %s", err, ErrPileEmpty.Code)
		}
		s, _ = play(t, s, "Anna: draw pile=star card=win-ties", "Bruno: draw pile=circle card=exchange-1")
		// No card is left: Chloé and David take none, and the second S
		// gives nothing either.
		if s.step != stepAction || s.current() != 0 {
			t.Fatalf("step %s, turn %d; want Anna's action", s.step, s.current())
		}
	})
	t.Run("Y: wealth announced", func(t *testing.T) {
		s := atRound(t, dealt4(t), 5)
		s.money = []int{7, 0, 12, 3}
		s.paid = 22
		s, evs := play(t, s, "reveal market=market-01")
		if !hasEvent(evs, WealthAnnounced{Money: []int{7, 0, 12, 3}}) {
			t.Fatalf("events %v, want the wealth announced", evs)
		}
		view := s.View(1).(View)
		if a := view.Players[2].Announced; a == nil || *a != 12 {
			t.Errorf("Chloé's announced wealth seen by Bruno = %v, want 12", a)
		}
		// Ruling (RULES-NOTES): "afterwards money is secret again": from
		// the first action of phase 2 no view shows it.
		s, _ = play(t, s, "Anna: income with=merchant")
		for _, seat := range []engine.Seat{engine.NoSeat, 0, 1, 2, 3} {
			for i, p := range s.View(seat).(View).Players {
				if p.Announced != nil {
					t.Errorf("after Anna's action, %v sees the wealth of seat %d: %d", seat, i, *p.Announced)
				}
			}
		}
	})
}

// TestBiddingRules covers the bidding cases the text's example does not.
func TestBiddingRules(t *testing.T) {
	t.Run("tied S gives nothing", func(t *testing.T) {
		s := atBidding(t, dealt4(t), "market-02") // fish S
		s, evs := play(t, s, "Anna: bid goods=fish:2", "Bruno: bid", "Chloé: bid", "David: bid goods=fish:2")
		if !hasEvent(evs, Sold{Goods: "fish", Winners: []engine.Seat{0, 3}}) || s.step == stepDraw {
			t.Fatalf("events %v, step %s: want fish tied, no special card", evs, s.step)
		}
		if s.undrawn() != len(s.d.Special) {
			t.Errorf("a special card was taken")
		}
	})
	t.Run("rebid where nobody bids ends the bidding", func(t *testing.T) {
		s := atBidding(t, dealt4(t), "market-02")
		s, evs := play(t, s, "Anna: bid goods=rice:1", "Bruno: bid", "Chloé: bid", "David: bid")
		if !hasEvent(evs, Rebid{Goods: []string{"fish", "spices", "vegetables"}}) {
			t.Fatalf("events %v, want a rebid on fish, spices, vegetables", evs)
		}
		_, evs = play(t, s, "Anna: bid", "Bruno: bid", "Chloé: bid", "David: bid")
		if !hasEvent(evs, RoundEnded{Round: 1}) {
			t.Fatalf("events %v, want the round's end", evs)
		}
	})
	t.Run("all goods sold: no rebid", func(t *testing.T) {
		s := atBidding(t, dealt4(t), "market-01") // vegetables S
		s, evs := play(t, s, "Anna: bid goods=fish:1", "Bruno: bid goods=rice:1", "Chloé: bid goods=spices:1", "David: bid goods=vegetables:1")
		s, evs2 := play(t, s, "David: draw card=win-ties")
		evs = append(evs, evs2...)
		for _, e := range evs {
			if _, ok := e.(Rebid); ok {
				t.Fatalf("a rebid although all goods are sold: %v", evs)
			}
		}
		if !hasEvent(evs, RoundEnded{Round: 1}) || s.money[0] != 2 || s.money[1] != 1 || s.money[2] != 4 {
			t.Fatalf("events %v, money %v", evs, s.money)
		}
	})
}

// TestScore checks the final score: money, end-game cards, the junks'
// bonus (25 for all five, else 4 per junk), the tie-break by goods cards.
func TestScore(t *testing.T) {
	s := dealt4(t)
	s = give(t, s, 0, "bonus-purple")       // 4 crates on purple: Anna gets 6
	s = give(t, s, 0, "bonus-brown")        // 4 on brown: Anna has 3
	s = give(t, s, 1, "bonus-brown-orange") // 5 on brown and 2 on orange: Bruno has 3 and 3
	s = s.clone()
	j := func(k string) int { i, _ := s.d.JunkIndex(k); return i }
	s.holds[j("purple")] = s.holds[j("purple")].place(0, 2) // AAA/BBB/AAA
	s.holds[j("orange")] = s.holds[j("orange")].place(0, 0) // ABB/ACC/ADD
	s.holds[j("grey")] = s.holds[j("grey")].place(0, 2)     // CCC/DDD/AAA
	s.palettes[0] -= 3
	s.money = []int{10, 30, 20, 27}
	s.paid = 87
	s.hand[1][1], s.hand[1][2] = 0, 2 // Bruno gives 3 rice and a spice back: 4 cards, the others 8
	s.piles[1], s.piles[2] = s.piles[1]+3, s.piles[2]+1
	s.step, s.round = stepOver, Rounds+1
	for i := range s.mUsed {
		s.mUsed[i] = true
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	r := s.Result()
	want := [][6]int{ // money, cards, junks, total, tie-break, rank
		{10, 8, 25, 43, 8, 1}, // Anna: crates on all five junks, bonus-purple (6 crates)
		{30, 0, 12, 42, 4, 2}, // Bruno: brown, orange, purple
		{20, 0, 12, 32, 8, 4}, // Chloé: brown, orange, grey
		{27, 0, 12, 39, 8, 3}, // David: white, orange, grey
	}
	for i, sc := range r.Scores {
		got := [6]int{sc.Parts[0].Points, sc.Parts[1].Points, sc.Parts[2].Points, sc.Total, sc.TieBreak, sc.Rank}
		if got != want[i] {
			t.Errorf("%s: %v, want %v", sc.Player, got, want[i])
		}
	}
	if !r.Over || !reflect.DeepEqual(r.Winners, []engine.Seat{0}) {
		t.Errorf("over %v, winners %v; want Anna", r.Over, r.Winners)
	}
	// A tie on the total goes to the most goods cards.
	s.money[1] = 31
	s.paid++
	r = s.Result()
	if r.Scores[0].Total != r.Scores[1].Total || r.Scores[0].Rank != 1 || r.Scores[1].Rank != 2 || !reflect.DeepEqual(r.Winners, []engine.Seat{0}) {
		t.Errorf("tie at %d/%d: ranks %d, %d, winners %v; want Anna first on 8 cards to 4", r.Scores[0].Total, r.Scores[1].Total, r.Scores[0].Rank, r.Scores[1].Rank, r.Winners)
	}
	// Before the end, money and secret cards are not in the result.
	s.step = stepBid
	r = s.Result()
	if r.Over || r.Scores[0].Total != 25 || r.Scores[1].Total != 12 {
		t.Errorf("result before the end: %+v", r.Scores)
	}
}
