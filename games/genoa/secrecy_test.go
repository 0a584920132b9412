package genoa

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"comptoir/engine"
)

// Secrets in Genoa: "l'argent est tenu secret" and the cards a player
// "prend en main et peut conserver cachée de la vue des autres joueurs"
// (Berclaz 1); "Ces cartes doivent rester cachées des autres joueurs",
// "chaque joueur garde sa fortune cachée" (Filosofia, Mise en place).

// heldIDs lists the IDs of the cards in the hands of the given seats (all
// seats when none is given).
func heldIDs(s *State, seats ...int) []string {
	var out []string
	for i := range s.players() {
		if len(seats) > 0 && !slices.Contains(seats, i) {
			continue
		}
		for c := range s.P[i].Cards.All() {
			out = append(out, s.d.cards[c].ID)
		}
	}
	return out
}

var idWord = map[string]*regexp.Regexp{}

// namesCard reports whether text names the card id as a word.
func namesCard(text, id string) bool {
	re, ok := idWord[id]
	if !ok {
		re = regexp.MustCompile(`\b` + regexp.QuoteMeta(id) + `\b`)
		idWord[id] = re
	}
	return re.MatchString(text)
}

func viewJSON(t testing.TB, s *State, seat engine.Seat) string {
	t.Helper()
	b, err := json.Marshal(s.View(seat))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// perturbed returns a copy of s where seat j holds other secrets: more
// money, and each card of its hand exchanged for a card of the same deck
// still in the deck, when there is one.
func perturbed(s *State, j int) *State {
	c := s.clone()
	c.P[j].Ducats += 37
	c.BankPaid += 37
	for x := range c.P[j].Cards.All() {
		for y := range c.d.cards {
			if c.d.cards[y].Deck == c.d.cards[x].Deck && c.loc(y) == -1 {
				c.CardLoc[x], c.CardLoc[y] = -1, int8(j)
				c.P[j].Cards = c.P[j].Cards.Without(x).With(y)
				break
			}
		}
	}
	return c
}

// TestSecretsInLogAndViews plays random games and checks, after every
// event: the game log (Describe, both languages) never names a card that
// is or was just in a hand; the table's view holds no hand card and no
// money; a seat's view holds its own money and cards and none of another
// seat's; and changing one seat's secrets (money, which cards) changes no
// other seat's view nor the table's.
func TestSecretsInLogAndViews(t *testing.T) {
	r := realRules(t)
	games := 24
	if testing.Short() {
		games = 6
	}
	for g := range games {
		ed := []string{"alea-2001", "filosofia-2008"}[g%2]
		n := 2 + (g/2)%4
		t.Run(fmt.Sprintf("%s-%dp-%d", ed, n, g), func(t *testing.T) {
			names := []string{"Anna", "Bruno", "Chloé", "Denis", "Emma"}[:n]
			st, err := r.Start(engine.Setup{Game: "genoa", Variant: ed, Players: names})
			if err != nil {
				t.Fatal(err)
			}
			s := st.(*State)
			rng := rand.New(rand.NewPCG(uint64(g), 31))
			events := 0
			for step := 0; !s.Over(); step++ {
				if step > 20000 {
					t.Fatal("the game does not end")
				}
				legal := s.Legal()
				evs, err := s.Decide(legal[rng.IntN(len(legal))])
				if err != nil {
					t.Fatal(err)
				}
				for _, ev := range evs {
					next, err := s.Apply(ev)
					if err != nil {
						t.Fatal(err)
					}
					after := next.(*State)
					hidden := append(heldIDs(s), heldIDs(after)...)
					for _, lang := range []string{"fr", "en"} {
						line := s.Describe(ev, lang)
						for _, id := range hidden {
							if namesCard(line, id) {
								t.Fatalf("the log line %q (%s) names the hidden card %s", line, ev.Name(), id)
							}
						}
					}
					s = after
					events++
					if (events%5 == 0 || len(s.Pending) > 0) && !s.Over() {
						checkViews(t, s)
					}
				}
			}
		})
	}
}

// checkViews checks the views of every seat and of the table in s.
func checkViews(t *testing.T, s *State) {
	t.Helper()
	table := viewJSON(t, s, engine.NoSeat)
	for _, id := range heldIDs(s) {
		if namesCard(table, id) {
			t.Fatalf("the table's view names %s, in a hand", id)
		}
	}
	var tv View
	if err := json.Unmarshal([]byte(table), &tv); err != nil {
		t.Fatal(err)
	}
	if tv.Mine != nil {
		t.Fatalf("the table's view has private data: %+v", tv.Mine)
	}
	for i := range s.players() {
		mine := viewJSON(t, s, engine.Seat(i))
		var others []int
		for j := range s.players() {
			if j != i {
				others = append(others, j)
			}
		}
		for _, id := range heldIDs(s, others...) {
			if namesCard(mine, id) {
				t.Fatalf("seat %d's view names %s, in another hand", i, id)
			}
		}
		var v View
		if err := json.Unmarshal([]byte(mine), &v); err != nil {
			t.Fatal(err)
		}
		if v.Mine == nil || v.Mine.Ducats != s.P[i].Ducats || !slices.Equal(v.Mine.Cards, heldIDs(s, i)) {
			t.Fatalf("seat %d's view lacks its own secrets: %+v, holds %d ducats and %v", i, v.Mine, s.P[i].Ducats, heldIDs(s, i))
		}
	}
	// A seat's legal actions name no card but its own: not a card of
	// another hand, nor of a deck (which would tell the others' hands).
	for _, a := range s.Legal() {
		if a.By < 0 {
			continue
		}
		line := codec.FormatCommand(a.Cmd, s.setup.Players)
		for i, c := range s.d.cards {
			if s.loc(i) != int(a.By) && namesCard(line, c.ID) {
				t.Fatalf("seat %d may %q, which names %s, not in its hand", a.By, line, c.ID)
			}
		}
	}
	// One seat's other secrets change nobody else's view.
	j := int(s.Merchant)
	p := perturbed(s, j)
	if err := p.Check(); err != nil {
		t.Fatal(err)
	}
	for _, seat := range append([]engine.Seat{engine.NoSeat}, seatsBut(s.n, j)...) {
		if a, b := viewJSON(t, s, seat), viewJSON(t, p, seat); a != b {
			t.Fatalf("seat %d's money and cards show in the view of %v:\n%s\n%s", j, seat, a, b)
		}
	}
}

func seatsBut(n, j int) []engine.Seat {
	var out []engine.Seat
	for i := range n {
		if i != j {
			out = append(out, engine.Seat(i))
		}
	}
	return out
}

// TestDescribeHidesDrawsAndDeals checks the log lines of a draw, a deal
// with a card and a trade 1:1 of a card: each says what kind of card
// changed hands, never which.
func TestDescribeHidesDrawsAndDeals(t *testing.T) {
	s := game(t, realRules(t), "filosofia-2008", "Anna", "Bruno", "Chloé")
	bruno := s.d.cards[s.P[1].Cards.First()]
	s = play(t, s, "roll blue=2 red=2")
	evs, err := s.Decide(action(t, s, "deal from=Bruno to=harbour cards="+bruno.ID))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"en": "Bruno → Anna: 1 " + deckEN[bruno.Deck] + " card (deal)",
		"fr": "Bruno → Anna : 1 carte " + deckFR[bruno.Deck] + " (marché)",
	}
	for lang, w := range want {
		if got := s.Describe(evs[0], lang); got != w {
			t.Errorf("Describe(deal, %s) = %q, want %q", lang, got, w)
		}
	}
	drawn := CardDrawn{Seat: 1, Card: "C03"}
	for lang, w := range map[string]string{"en": "Bruno draws a contract card", "fr": "Bruno pioche une carte contrat"} {
		if got := s.Describe(drawn, lang); got != w {
			t.Errorf("Describe(card drawn, %s) = %q, want %q", lang, got, w)
		}
	}
}

// TestRefusalsKeepMoneySecret: the merchant who records a deal the
// offerer cannot pay learns that it is too much, never how much the
// offerer holds.
func TestRefusalsKeepMoneySecret(t *testing.T) {
	s := game(t, realRules(t), "alea-2001", "Anna", "Bruno", "Chloé")
	s.P[1].Ducats, s.P[0].Ducats = 117, 143
	s = play(t, s, "roll blue=2 red=2")
	for _, line := range []string{"Anna: deal from=Bruno to=harbour ducats=500", "Anna: deal from=Bruno to=3-2 ducats=118"} {
		ref := refused(t, s, line, engine.ErrCannotPay)
		if strings.Contains(ref.EN+ref.FR, "117") {
			t.Errorf("%q: the refusal %q / %q tells Bruno's money", line, ref.EN, ref.FR)
		}
	}
}
