package dschunke

import (
	"encoding/json"
	"strings"
	"testing"

	"comptoir/engine"
)

func viewJSON(t testing.TB, s *State, seat engine.Seat) string {
	t.Helper()
	b, err := json.Marshal(s.View(seat))
	if err != nil {
		t.Fatalf("view of %v: %v", seat, err)
	}
	return string(b)
}

// TestSealedBids walks seeded games and, at every moment of a bidding,
// plays each legal bid of each seat that has not bid: the views of every
// other seat (and its legal actions) and of the table, and the game's
// log, must be the same
// whatever the bid (they tell only that the seat has bid), and never hold
// the bid's cards; the bidder's own view holds them.
func TestSealedBids(t *testing.T) {
	checked := 0
	for seed := int64(1); seed <= 6; seed++ {
		players := players4
		if seed%2 == 1 {
			players = players3
		}
		randomGame(t, players, seed, func(s *State, legal []engine.Action) {
			if s.step != stepBid {
				return
			}
			for _, bidder := range s.Waiting() {
				var base map[engine.Seat]string
				var baseLog string
				for _, a := range legal {
					if a.By != bidder {
						continue
					}
					evs, err := s.Decide(a)
					if err != nil {
						t.Fatalf("seed %d: %v", seed, err)
					}
					next, err := s.Apply(evs[0])
					if err != nil {
						t.Fatal(err)
					}
					ns := next.(*State)
					if _, ok := evs[0].(BidSealed); !ok {
						t.Fatalf("first event of a bid = %T", evs[0])
					}
					if len(evs) > 1 {
						continue // the last bid: everything is revealed
					}
					views := map[engine.Seat]string{engine.NoSeat: viewJSON(t, ns, engine.NoSeat)}
					for v := range s.n {
						if engine.Seat(v) != bidder {
							views[engine.Seat(v)] = viewJSON(t, ns, engine.Seat(v)) + legalJSON(t, ns, engine.Seat(v))
						}
					}
					log := s.Describe(evs[0], "en") + s.Describe(evs[0], "fr")
					bid := a.Cmd.(Bid)
					for v, js := range views {
						var view View
						if err := json.NewDecoder(strings.NewReader(js)).Decode(&view); err != nil {
							t.Fatal(err)
						}
						if view.Players[bidder].Bid != "sealed" {
							t.Fatalf("seed %d: %v sees %s's bid as %q, want sealed", seed, v, players[bidder], view.Players[bidder].Bid)
						}
						if view.Me != nil && (view.Me.Seat != v || strings.Contains(js, `"staffSecrets"`)) {
							t.Fatalf("seed %d: %v sees another seat's secrets: %s", seed, v, js)
						}
						if len(bid.Goods) > 0 && v == engine.NoSeat {
							for k := range bid.Goods {
								if strings.Contains(js, `"bid":{`) || strings.Contains(js, `"`+k+`":`) && strings.Contains(js, `"hand"`) {
									t.Fatalf("seed %d: the table's view holds a bid or a hand: %s", seed, js)
								}
							}
						}
					}
					if base == nil {
						base, baseLog = views, log
						continue
					}
					for v, js := range views {
						if js != base[v] {
							t.Fatalf("seed %d: the view of %v depends on %s's sealed bid %v:\n%s\n%s", seed, v, players[bidder], bid.Goods, base[v], js)
						}
					}
					if log != baseLog {
						t.Fatalf("seed %d: the log depends on the sealed bid: %q vs %q", seed, log, baseLog)
					}
					own := viewJSON(t, ns, bidder)
					var mine View
					json.Unmarshal([]byte(own), &mine)
					if mine.Me == nil || len(bid.Goods) > 0 && len(mine.Me.Bid) == 0 {
						t.Fatalf("seed %d: %s does not see his own bid: %s", seed, players[bidder], own)
					}
					checked++
				}
			}
		})
	}
	if checked < 100 {
		t.Fatalf("only %d sealed bids checked", checked)
	}
	t.Logf("%d sealed bids checked against every other view", checked)
}

// legalJSON is the legal actions of seat, as a phone receives them.
func legalJSON(t testing.TB, s *State, seat engine.Seat) string {
	var out []string
	for _, a := range s.Legal() {
		if a.By == seat {
			out = append(out, codec.FormatCommand(a.Cmd, s.setup.Players))
		}
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// TestStartingHandsSecret checks, likewise, that a starting hand recorded
// changes no other seat's view, the table's, nor the log.
func TestStartingHandsSecret(t *testing.T) {
	s := start(t, players4)
	var base map[engine.Seat]string
	var baseLog string
	for _, a := range s.Legal() {
		if a.By != engine.NoSeat { // the table deals Anna's hand
			t.Fatalf("a hand dealt by %v, want the table", a.By)
		}
		evs, err := s.Decide(a)
		if err != nil {
			t.Fatal(err)
		}
		next, _ := s.Apply(evs[0])
		ns := next.(*State)
		views := map[engine.Seat]string{engine.NoSeat: viewJSON(t, ns, engine.NoSeat)}
		for v := 1; v < 4; v++ {
			views[engine.Seat(v)] = viewJSON(t, ns, engine.Seat(v))
		}
		log := s.Describe(evs[0], "en") + s.Describe(evs[0], "fr")
		if base == nil {
			base, baseLog = views, log
			continue
		}
		for v, js := range views {
			if js != base[v] {
				t.Fatalf("the view of %v depends on Anna's hand:\n%s\n%s", v, base[v], js)
			}
		}
		if log != baseLog {
			t.Fatalf("the log depends on Anna's hand")
		}
	}
}

// TestViewSecrets walks seeded games and checks, at every step, that a
// seat's view holds its own secrets only, the table's none, the staff's
// all, and that the log never names a secret special card.
func TestViewSecrets(t *testing.T) {
	for seed := int64(10); seed < 14; seed++ {
		var prev *State
		randomGame(t, players4, seed, func(s *State, legal []engine.Action) {
			for v := engine.Seat(-2); v < 4; v++ {
				var view View
				if err := json.Unmarshal([]byte(viewJSON(t, s, v)), &view); err != nil {
					t.Fatal(err)
				}
				switch {
				case v == engine.Staff:
					if len(view.StaffSecrets) != 4 {
						t.Fatalf("staff sees %d players' secrets", len(view.StaffSecrets))
					}
				case v == engine.NoSeat:
					if view.Me != nil || len(view.StaffSecrets) > 0 {
						t.Fatalf("the table sees secrets")
					}
				default:
					if view.Me == nil || view.Me.Seat != v || len(view.StaffSecrets) > 0 || view.Me.Money != s.money[v] {
						t.Fatalf("seat %v's view: %+v", v, view.Me)
					}
				}
				for i, p := range view.Players {
					secret := 0
					for c, o := range s.owner {
						if o == i && s.d.Special[c].Timing != Always && !s.spent[c] {
							secret++
						}
					}
					if p.Secret != secret || p.Cards != s.handSize(i) {
						t.Fatalf("player %d: %d secret cards, %d goods cards; want %d, %d", i, p.Secret, p.Cards, secret, s.handSize(i))
					}
				}
			}
			prev = s
		})
		_ = prev
	}
}

// TestDescribeHidesSpecialCards checks that the log names a special card
// taken only when it is laid face up.
func TestDescribeHidesSpecialCards(t *testing.T) {
	s := start(t, players4)
	for i, c := range s.d.Special {
		for _, lang := range []string{"en", "fr"} {
			text := s.Describe(SpecialDrawn{By: 0, Pile: "star", Card: c.ID}, lang)
			named := strings.Contains(text, s.d.CardName(i, lang))
			if named != (c.Timing == Always) {
				t.Errorf("Describe(draw %s, %s) = %q: names the card %v, want %v", c.ID, lang, text, named, c.Timing == Always)
			}
		}
	}
}
