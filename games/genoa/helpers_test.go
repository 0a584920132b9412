package genoa

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"comptoir/engine"
)

// game starts a game over the test rules and deals the starting hands by
// drawing the first card of each deck that is left.
func game(t testing.TB, r *Rules, edition string, players ...string) *State {
	t.Helper()
	st, err := r.Start(engine.Setup{Game: "genoa", Variant: edition, Players: players})
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	for len(s.Pending) > 0 {
		s = mustPlay(t, s, s.Legal()[0])
	}
	return s
}

func mustPlay(t testing.TB, s *State, a engine.Action) *State {
	t.Helper()
	next, _, err := engine.Play(s, a)
	if err != nil {
		t.Fatalf("%s by %v: %v", codec.FormatCommand(a.Cmd, s.setup.Players), a.By, err)
	}
	if err := next.(*State).Check(); err != nil {
		t.Fatalf("after %s: %v", codec.FormatCommand(a.Cmd, s.setup.Players), err)
	}
	return next.(*State)
}

// action reads "Name: command" or "command" (from the table).
func action(t testing.TB, s *State, line string) engine.Action {
	t.Helper()
	by := engine.NoSeat
	if name, rest, ok := strings.Cut(line, ":"); ok && !strings.Contains(name, " ") && !strings.Contains(name, "=") {
		seat, found := s.setup.SeatOf(name)
		if !found {
			t.Fatalf("%q: no player %q", line, name)
		}
		by, line = seat, rest
	}
	cmd, err := codec.ParseCommand(strings.TrimSpace(line), s.setup.Players)
	if err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	return engine.Action{By: by, Cmd: cmd}
}

// play plays lines that must all be legal.
func play(t testing.TB, s *State, lines ...string) *State {
	t.Helper()
	for _, l := range lines {
		s = mustPlay(t, s, action(t, s, l))
	}
	return s
}

// refused checks that line is refused for rule, and returns the refusal.
func refused(t testing.TB, s *State, line string, rule *engine.Rule) *engine.Refusal {
	t.Helper()
	_, err := s.Decide(action(t, s, line))
	if err == nil {
		t.Fatalf("%q was accepted, want refused (%s)", line, rule.Code)
	}
	if !errors.Is(err, rule) {
		t.Fatalf("%q refused with %v, want rule %s", line, err, rule.Code)
	}
	ref, ok := engine.AsRefusal(err)
	if !ok || ref.EN == "" || ref.FR == "" || strings.Contains(ref.EN+ref.FR, "%!") {
		t.Fatalf("%q: refusal %#v lacks a clean reason in both languages", line, err)
	}
	return ref
}

// seat returns the seat of a player by name.
func seat(t testing.TB, s *State, name string) engine.Seat {
	t.Helper()
	x, ok := s.setup.SeatOf(name)
	if !ok {
		t.Fatalf("no player %q", name)
	}
	return x
}

// rollOn is the roll that starts the pawn on the square named key.
func rollOn(s *State, key string) string {
	sq, _ := s.d.squareOf(Place(key))
	c := s.d.squares[sq].Cells[0]
	return "roll blue=" + strconv.Itoa(c.X) + " red=" + strconv.Itoa(c.Y)
}

// hand gives the player the cards (from the deck or another hand),
// keeping every card in one place.
func hand(t testing.TB, s *State, name string, ids ...string) {
	t.Helper()
	p := seat(t, s, name)
	for _, id := range ids {
		c, ok := s.d.cardByID[id]
		if !ok {
			t.Fatalf("no card %s", id)
		}
		if o := s.CardLoc[c]; o >= 0 {
			s.P[o].Cards = s.P[o].Cards.Without(c)
		}
		s.CardLoc[c] = int8(p)
		s.P[p].Cards = s.P[p].Cards.With(c)
	}
}

// goods gives the player goods from the supply.
func goods(t testing.TB, s *State, name string, keys ...string) {
	t.Helper()
	p := seat(t, s, name)
	for _, k := range keys {
		g, ok := s.d.goodByK[k]
		if !ok || s.Supply[g] == 0 {
			t.Fatalf("no %s in the supply", k)
		}
		s.Supply[g]--
		s.P[p].Goods[g]++
	}
}

// tiles gives the player tiles from the supply.
func tiles(t testing.TB, s *State, name string, keys ...string) {
	t.Helper()
	p := seat(t, s, name)
	for _, k := range keys {
		i := tileIndex(k)
		if i < 0 || s.TileSup[i] == 0 {
			t.Fatalf("no %s tile in the supply", k)
		}
		s.TileSup[i]--
		s.P[p].Tiles[i]++
	}
}

// markers gives the player n markers of their colour from the common supply.
func markers(t testing.TB, s *State, name string, n int) {
	t.Helper()
	p := seat(t, s, name)
	if s.Common[p] < n {
		t.Fatalf("%s has only %d markers in the common supply", name, s.Common[p])
	}
	s.Common[p] -= n
	s.P[p].Markers += n
}

// cardOf returns the ID of a card of deck matching f.
func cardOf(t testing.TB, s *State, deck int, f func(card) bool) string {
	t.Helper()
	for _, c := range s.d.cards {
		if c.Deck == deck && f(c) {
			return c.ID
		}
	}
	t.Fatalf("no card of deck %s fits", deckKeys[deck])
	return ""
}

func (s *State) bldIdx(key string) int {
	b, _ := s.bldOf(Place(key))
	return b
}

func (s *State) good(k string) int { return s.d.goodByK[k] }
