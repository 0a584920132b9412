package negoce

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"comptoir/engine"
)

// knowable lists the cards viewer may know in s: his hand, the cards face
// up on the table, the face-down cards he laid himself, the revealed
// cards, the winner's hand; the staff knows all.
func knowable(s *State, viewer engine.Seat) map[int]bool {
	k := map[int]bool{}
	for i, l := range s.loc {
		if viewer == engine.Staff || validSeat(viewer) && l == int8(viewer) || s.winner != engine.NoSeat && l == int8(s.winner) {
			k[i] = true
		}
	}
	for slot, i := range s.market {
		if i == noCard {
			continue
		}
		if s.phase <= PhaseAuction || slot == 0 && s.up || viewer == s.seller {
			k[int(i)] = true
		}
	}
	for _, o := range s.offers {
		if o.active && o.card != noCard && o.up {
			k[int(o.card)] = true
		}
	}
	if s.phase == PhaseForcePick {
		for _, id := range s.holdersOf(s.named) {
			i, _ := s.cat.Card(id)
			k[i] = true
		}
	}
	return k
}

// checkSecrets checks that the JSON of viewer's view names no card it may
// not know, and shows no good but of a card it may know (or the good named
// in a forced sale).
func checkSecrets(t *testing.T, s *State, viewer engine.Seat, where string) {
	t.Helper()
	b, err := json.Marshal(s.View(viewer))
	if err != nil {
		t.Fatalf("%s: view of %v: %v", where, viewer, err)
	}
	js := string(b)
	k := knowable(s, viewer)
	for i := range NumCards {
		if !k[i] && strings.Contains(js, fmt.Sprintf("%q", s.cat.ID(i))) {
			t.Fatalf("%s: the view of %v names %s, which it may not know:\n%s", where, viewer, s.cat.ID(i), js)
		}
	}
	var tree any
	if err := json.Unmarshal(b, &tree); err != nil {
		t.Fatal(err)
	}
	var walk func(key string, v any)
	walk = func(key string, v any) {
		switch v := v.(type) {
		case map[string]any:
			if _, ok := v["good"]; ok && key != "named" {
				id, _ := v["card"].(string)
				i, ok := s.cat.Card(CardID(id))
				if !ok || !k[i] {
					t.Fatalf("%s: the view of %v shows a good without a card it may know: %v\n%s", where, viewer, v, js)
				}
			}
			for kk, vv := range v {
				walk(kk, vv)
			}
		case []any:
			for _, vv := range v {
				walk(key, vv)
			}
		}
	}
	walk("", tree)
}

// TestViewSecrets walks seeded random games and checks every view of every
// position, and that the game log names no hidden card.
func TestViewSecrets(t *testing.T) {
	games := 10
	if testing.Short() {
		games = 1
	}
	viewers := []engine.Seat{engine.NoSeat, 0, 1, 2, 3, engine.Staff}
	for seed := int64(1); seed <= int64(games); seed++ {
		playRandomVisit(t, seed, func(before, after *State, ev engine.Event) {
			where := fmt.Sprintf("seed %d after %s", seed, ev.Name())
			for _, v := range viewers {
				checkSecrets(t, after, v, where)
			}
			public := knowable(before, engine.NoSeat)
			for i := range knowable(after, engine.NoSeat) {
				public[i] = true
			}
			for _, lang := range []string{"en", "fr"} {
				d := before.Describe(ev, lang)
				if d == "" || d == ev.Name() {
					t.Fatalf("%s: no %s description", where, lang)
				}
				for i := range NumCards {
					if !public[i] && strings.Contains(d, string(before.cat.ID(i))+")") {
						t.Fatalf("%s: the log %q names %s, which is hidden", where, d, before.cat.ID(i))
					}
				}
			}
		})
	}
}

func TestViewNegotiation(t *testing.T) {
	s := script(t, cat(laidDown, "Bruno: offer card=perfume-1 up=true coins=2", "David: offer card=wine-1", "Anna: bonus coins=1"))
	pub := s.View(engine.NoSeat).(View)
	if len(pub.Market) != 1 || pub.Market[0].Up || pub.Market[0].Card != "" {
		t.Errorf("table market %+v, want one face-down card", pub.Market)
	}
	if pub.Bonus != 1 || pub.Seller != 0 || pub.Phase != "negotiate" {
		t.Errorf("table sees bonus %d, seller %d, phase %s", pub.Bonus, pub.Seller, pub.Phase)
	}
	if got := pub.Players[0]; got.Coins != 11 || got.Cards != 8 || got.Name != "Anna" {
		t.Errorf("Anna seen as %+v, want 11 coins, 8 cards: coins are public", got)
	}
	if len(pub.Offers) != 2 || pub.Offers[0].Card.Card != "perfume-1" || pub.Offers[0].Coins != 2 || !pub.Offers[1].HasCard || pub.Offers[1].Card.Card != "" {
		t.Errorf("table offers %+v, want Bruno's perfume-1 and 2 coins, David's face-down card", pub.Offers)
	}
	if pub.Hand != nil || pub.Hands != nil {
		t.Errorf("the table sees a hand")
	}
	anna := s.View(0).(View)
	if anna.Market[0].Card != "contraband" || anna.Market[0].Up {
		t.Errorf("Anna sees her card for sale as %+v, want contraband, face down", anna.Market[0])
	}
	if anna.Offers[1].Card.Card != "" {
		t.Errorf("Anna sees David's face-down offer as %+v: she accepts it blind", anna.Offers[1].Card)
	}
	david := s.View(3).(View)
	if david.Offers[1].Card.Card != "wine-1" || david.Market[0].Card != "" || len(david.Hand) != 8 {
		t.Errorf("David sees his offer %+v, the market %+v, %d cards", david.Offers[1].Card, david.Market[0], len(david.Hand))
	}
	offered := 0
	for _, c := range david.Hand {
		if c.Offered {
			offered++
			if c.Card != "wine-1" {
				t.Errorf("David's offered card is %s, want wine-1", c.Card)
			}
		}
	}
	if offered != 1 {
		t.Errorf("%d cards marked offered in David's hand, want 1", offered)
	}
	staff := s.View(engine.Staff).(View)
	if len(staff.Hands) != 4 || len(staff.Hands[1]) != 8 {
		t.Errorf("staff sees hands %v, want all four", staff.Hands)
	}
	auction := script(t, cat(deal, "Bruno: bid price=1", "Chloé: pass")).View(engine.NoSeat).(View)
	if a := auction.Auction; a == nil || a.Price != 1 || a.High != 1 || a.Turn != 3 || !auction.Players[2].Passed || auction.Market[0].Card != "contraband" {
		t.Errorf("auction view %+v %+v, want price 1, Bruno high, David's turn, Chloé out, Contraband shown", a, auction.Players)
	}
}
