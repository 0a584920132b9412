package dschunke

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"comptoir/engine"
	"comptoir/notation"
	"comptoir/notation/recordtest"
)

// The corners of the rules that the example games do not reach, each a
// game record of testdata/corners/ with the rules text it shows quoted in
// its comments: replayed with every check of recordtest.Scenario (its
// Refused tags included), then its outcome checked here.
var corners = []struct {
	file  string
	check func(t *testing.T, s *State, steps []played)
}{
	{"third-layer.txt", func(t *testing.T, s *State, steps []played) {
		white, _ := s.d.JunkIndex("white")
		h := s.holds[white]
		if len(h) != 3 {
			t.Fatalf("white junk: %d layers, want 3", len(h))
		}
		// Seen from above: David's rows 1 and 2 of layer 3, then row 3 of
		// layer 2: Anna's column 1, Bruno's columns 2 and 3.
		for seat, want := range []int{1, 2, 0, 6} {
			if got := h.visible(seat); got != want {
				t.Errorf("seat %d sees %d crates on the white junk, want %d", seat, got, want)
			}
		}
		last := steps[len(steps)-1]
		if !hasEvent(last.events, IncomeReceived{By: 3, With: "merchant", Junk: "white", Yuans: 6}) {
			t.Errorf("David's income: %v, want 6 yuans for 6 visible crates", last.events)
		}
		// Round 3: both helpers on S squares: two S events, each player in
		// turn order (Chloé first) taking a different pile each time.
		var drawers []engine.Seat
		for _, st := range steps {
			if st.round == 3 && st.before.step == stepDraw && st.before.drawAfter == stepEvents {
				for _, ev := range st.events {
					if d, ok := ev.(SpecialDrawn); ok {
						drawers = append(drawers, d.By)
					}
				}
			}
		}
		if want := []engine.Seat{2, 3, 0, 1, 2, 3, 0, 1}; !slices.Equal(drawers, want) {
			t.Errorf("special cards taken in round 3 by %v, want %v (two S events in turn order)", drawers, want)
		}
		// Round 5: the Y. Right after the market card every view shows
		// every player's money, and the log says it; after the first
		// action, no view shows it.
		i := slices.IndexFunc(steps, func(st played) bool {
			return slices.ContainsFunc(st.events, func(ev engine.Event) bool { _, ok := ev.(WealthAnnounced); return ok })
		})
		if i < 0 || steps[i].round != 5 {
			t.Fatal("no Y in round 5")
		}
		at := steps[i].after
		var announced WealthAnnounced
		for _, ev := range steps[i].events {
			if w, ok := ev.(WealthAnnounced); ok {
				announced = w
			}
		}
		if !slices.Equal(announced.Money, at.money) {
			t.Fatalf("wealth announced %v, money %v", announced.Money, at.money)
		}
		for _, lang := range []string{"en", "fr"} {
			text := steps[i].before.Describe(announced, lang)
			for seat, m := range at.money {
				if !strings.Contains(text, fmt.Sprintf("%s %d", players4[seat], m)) {
					t.Errorf("the log %q does not give %s's %d yuans", text, players4[seat], m)
				}
			}
		}
		for _, viewer := range []engine.Seat{engine.NoSeat, 0, 1, 2, 3} {
			for seat, p := range at.View(viewer).(View).Players {
				if p.Announced == nil || *p.Announced != at.money[seat] {
					t.Errorf("after the Y, viewer %v sees seat %d's wealth %v, want %d", viewer, seat, p.Announced, at.money[seat])
				}
			}
			for seat, p := range s.View(viewer).(View).Players {
				if p.Announced != nil {
					t.Errorf("at the record's end, viewer %v still sees seat %d's wealth", viewer, seat)
				}
			}
		}
	}},
	{"no-palettes.txt", func(t *testing.T, s *State, steps []played) {
		if s.palettes[0] != 0 || s.round != 10 {
			t.Fatalf("Anna has %d palettes in round %d, want 0 in round 10", s.palettes[0], s.round)
		}
		var loads []Loaded
		for _, st := range steps {
			for _, ev := range st.events {
				if l, ok := ev.(Loaded); ok && l.By == 0 && st.round >= 9 {
					loads = append(loads, l)
				}
			}
		}
		// Round 9: her last palette (one slot); round 10: the action, no palette.
		if len(loads) != 2 || len(loads[0].At) != 1 || len(loads[1].At) != 0 {
			t.Errorf("Anna's loads of rounds 9 and 10: %+v; want one palette, then none", loads)
		}
	}},
	{"s-tie.txt", func(t *testing.T, s *State, steps []played) {
		var sold *Sold
		for _, st := range steps {
			for _, ev := range st.events {
				if x, ok := ev.(Sold); ok && x.Goods == "fish" {
					sold = &x
				}
			}
		}
		if sold == nil || !slices.Equal(sold.Winners, []engine.Seat{0, 3}) || sold.Special || sold.Yuans != 0 {
			t.Fatalf("the fish sale: %+v; want Anna and David tied, nothing given", sold)
		}
		if s.undrawn() != len(s.d.Special) {
			t.Errorf("a special card was taken")
		}
	}},
	{"restock-dry.txt", func(t *testing.T, s *State, steps []played) {
		if sum(s.piles) != 0 || s.step != stepBid || s.round != 3 {
			t.Fatalf("piles %v, step %s, round %d; want the junks empty and the bidding of round 3", s.piles, s.step, s.round)
		}
		last := steps[len(steps)-1]
		if last.by != 3 || !strings.HasPrefix(last.line, "restock") || last.before.allowance(3) != 4 || sum(s.hand[3])-sum(last.before.hand[3]) != 2 {
			t.Errorf("David's last restock: %q, allowance %d; want the last 2 of the 4 cards he may take", last.line, last.before.allowance(3))
		}
	}},
	{"end-bonus.txt", func(t *testing.T, s *State, steps []played) {
		for seat, want := range []int{8, 0, 12, 25} {
			if got := s.crateBonus(seat); got != want {
				t.Errorf("seat %d: end bonus %d, want %d", seat, got, want)
			}
		}
		if !s.Over() {
			t.Error("the game is not over")
		}
	}},
	{"win-tie-goods.txt", func(t *testing.T, s *State, steps []played) {
		r := s.Result()
		if r.Scores[0].Total != r.Scores[1].Total || r.Scores[0].TieBreak != 7 || r.Scores[1].TieBreak != 8 {
			t.Fatalf("Anna %d (%d cards), Bruno %d (%d cards); want a tie on the total, 7 cards against 8", r.Scores[0].Total, r.Scores[0].TieBreak, r.Scores[1].Total, r.Scores[1].TieBreak)
		}
		if !slices.Equal(r.Winners, []engine.Seat{1}) {
			t.Errorf("winners %v, want Bruno alone", r.Winners)
		}
	}},
}

// played is one line of a record replayed: the state before and after it
// and the events it produced.
type played struct {
	by            engine.Seat
	line          string
	round         int
	before, after *State
	events        []engine.Event
}

func replaySteps(t *testing.T, file string) []played {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := notation.Read(f, file)
	if err != nil {
		t.Fatal(err)
	}
	actions, err := rec.Actions(codec)
	if err != nil {
		t.Fatal(err)
	}
	s := start(t, rec.Setup.Players)
	var out []played
	for k, a := range actions {
		next, evs, err := engine.Play(s, a)
		if err != nil {
			t.Fatalf("%s:%d: %v", file, rec.Lines[k].N, err)
		}
		out = append(out, played{by: a.By, line: rec.Lines[k].Command, round: s.round, before: s, after: next.(*State), events: evs})
		s = next.(*State)
	}
	return out
}

func TestCorners(t *testing.T) {
	for _, c := range corners {
		t.Run(strings.TrimSuffix(c.file, ".txt"), func(t *testing.T) {
			file := filepath.Join("testdata", "corners", c.file)
			st := recordtest.Scenario(t, New(), codec, file)
			s := st.(*State)
			if err := s.Check(); err != nil {
				t.Fatal(err)
			}
			c.check(t, s, replaySteps(t, file))
		})
	}
}

// TestCornersAllListed fails when a record of testdata/corners/ is not in
// the table above.
func TestCornersAllListed(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "corners", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, c := range corners {
		listed = append(listed, c.file)
		if _, err := os.Stat(filepath.Join("testdata", "corners", c.file)); err != nil {
			t.Error(err)
		}
	}
	for _, f := range files {
		if !slices.Contains(listed, filepath.Base(f)) {
			t.Errorf("%s is not listed in corners", f)
		}
	}
}
