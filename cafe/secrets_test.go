package cafe_test

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"comptoir/cafe"
	"comptoir/cafe/cafetest"
	"comptoir/engine"
	"comptoir/games"
	"comptoir/games/kit"
	"comptoir/games/tally"
	"comptoir/journal"
	"comptoir/table"
)

// TestPublishedStepsKeepSecrets plays random games of every game of the
// list (and Tally), with undos, into a journal, builds every message a
// publisher sends for it, and checks each with the independent oracle
// (package cafetest): no seat's secret word or money, no score before the
// end. Each message's log lines are the table's own (table.StepLog) and
// its view the table's view.
func TestPublishedStepsKeepSecrets(t *testing.T) {
	list := append(games.All(), tally.Game())
	for _, g := range list {
		t.Run(g.Name, func(t *testing.T) {
			st, err := journal.Open(filepath.Join(t.TempDir(), "t.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			rules := g.Rules()
			playRandom(t, st, rules, 3, 300, int64(len(g.Name)))
			msgs, oracles := messagesAndOracles(t, st, rules, vocabulary(g))
			checkTableLog(t, st, rules, msgs)
			leaks := 0
			for _, m := range msgs {
				for _, l := range oracles[m.Game].Leaks(m) {
					if leaks++; leaks < 10 {
						t.Error(l)
					}
				}
			}
			if len(msgs) < 250 {
				t.Fatalf("only %d messages checked", len(msgs))
			}
			t.Logf("%d messages checked", len(msgs))
		})
	}
}

// TestOracleCatchesLeaks: the oracle is not blind: a seat's secret word
// put in a message's log line, or a score in a running game's message,
// is reported.
func TestOracleCatchesLeaks(t *testing.T) {
	g, err := games.Lookup("genoa")
	if err != nil {
		t.Fatal(err)
	}
	st, err := journal.Open(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rules := g.Rules()
	playRandom(t, st, rules, 1, 40, 1)
	msgs, oracles := messagesAndOracles(t, st, rules, vocabulary(g))
	// A card in a seat's hand, from that seat's view.
	game, err := st.Load(rules, msgs[len(msgs)-1].Game)
	if err != nil {
		t.Fatal(err)
	}
	state, err := game.State()
	if err != nil {
		t.Fatal(err)
	}
	m := msgs[len(msgs)-1]
	secret := firstSecret(state)
	if secret == "" {
		t.Fatal("no seat holds a secret word after 40 steps of Genoa")
	}
	if l := oracles[m.Game].Leaks(m); len(l) != 0 {
		t.Fatalf("the message as published leaks: %q", l)
	}
	bad := m
	bad.Log = append(append([]cafe.Line(nil), m.Log...), cafe.Line{FR: "Anna tient " + secret + ".", EN: "Anna holds " + secret + "."})
	if l := oracles[m.Game].Leaks(bad); len(l) == 0 {
		t.Errorf("a log line naming %q: no leak reported", secret)
	}
	bad = m
	res := state.Result()
	bad.Result = &res
	if l := oracles[m.Game].Leaks(bad); len(l) == 0 && !res.Over {
		t.Errorf("scores in a running game's message: no leak reported")
	}
}

// messagesAndOracles are the messages the publisher sends for the
// journal's games of rules, and an oracle for each game.
func messagesAndOracles(t *testing.T, st *journal.Store, rules engine.Rules, vocab []string) ([]cafe.Step, map[int64]*cafetest.Oracle) {
	t.Helper()
	byName := func(string) (engine.Rules, error) { return rules, nil }
	msgs, err := cafe.Messages(st, byName)
	if err != nil {
		t.Fatal(err)
	}
	oracles, err := cafetest.FromJournal(st, byName, func(string) []string { return vocab })
	if err != nil {
		t.Fatal(err)
	}
	return msgs, oracles
}

// firstSecret is a word of a seat's view that the table's view does not
// hold.
func firstSecret(st engine.State) string {
	o := cafetest.New(nil)
	o.See(1, st)
	for i := range st.Setup().Players {
		for _, w := range words(st.View(engine.Seat(i))) {
			if !strings.Contains(fmt.Sprint(words(st.View(engine.NoSeat))), w) && len(w) >= 3 {
				if l := o.Leaks(cafe.Step{Seq: 1, Table: "t", Game: 1, Log: []cafe.Line{{EN: w}}}); len(l) > 0 {
					return w
				}
			}
		}
	}
	return ""
}

// words are the strings of a view.
func words(v any) []string {
	var out []string
	var walk func(x reflect.Value)
	walk = func(x reflect.Value) {
		switch x.Kind() {
		case reflect.Interface, reflect.Pointer:
			if !x.IsNil() {
				walk(x.Elem())
			}
		case reflect.String:
			out = append(out, x.String())
		case reflect.Slice, reflect.Array:
			for i := 0; i < x.Len(); i++ {
				walk(x.Index(i))
			}
		case reflect.Map:
			for _, k := range x.MapKeys() {
				walk(x.MapIndex(k))
			}
		case reflect.Struct:
			for i := 0; i < x.NumField(); i++ {
				if x.Type().Field(i).IsExported() {
					walk(x.Field(i))
				}
			}
		}
	}
	walk(reflect.ValueOf(v))
	return out
}

func vocabulary(g kit.Game) []string {
	if g.Vocabulary == nil {
		return nil
	}
	return g.Vocabulary()
}

// checkTableLog: each step message's log lines are those the table's log
// gives the step, and its view the table's view.
func checkTableLog(t *testing.T, st *journal.Store, rules engine.Rules, msgs []cafe.Step) {
	t.Helper()
	infos, err := st.Games()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]cafe.Line{}
	for _, in := range infos {
		g, err := st.Load(rules, in.ID)
		if err != nil {
			t.Fatal(err)
		}
		s, err := rules.Start(in.Setup)
		if err != nil {
			t.Fatal(err)
		}
		var standing []journal.Step
		for _, step := range g.Steps() {
			_, lines, err := table.StepLog(s, step)
			if err != nil {
				t.Fatal(err)
			}
			if step.Undo {
				standing = standing[:len(standing)-1]
				var evs []engine.Event
				for _, x := range standing {
					evs = append(evs, x.Events...)
				}
				if s, err = engine.Replay(rules, in.Setup, evs); err != nil {
					t.Fatal(err)
				}
			} else {
				standing = append(standing, step)
				for _, ev := range step.Events {
					if s, err = s.Apply(ev); err != nil {
						t.Fatal(err)
					}
				}
			}
			var ls []cafe.Line
			for _, l := range lines {
				ls = append(ls, cafe.Line{FR: l.FR, EN: l.EN})
			}
			want[cafe.MsgID("t", in.ID, step.Seq)] = ls
		}
	}
	for _, m := range msgs {
		if m.End {
			continue
		}
		w := want[cafe.MsgID(m.Table, m.Game, m.Seq)]
		if len(w) == 0 && len(m.Log) == 0 {
			continue
		}
		if !reflect.DeepEqual(m.Log, w) {
			t.Fatalf("%s: log %q, the table's log says %q", cafe.MsgID(m.Table, m.Game, m.Seq), m.Log, w)
		}
	}
}

// playRandom plays random legal steps into the journal, games one after
// another, now and then a staff undo.
func playRandom(t *testing.T, st *journal.Store, rules engine.Rules, players, steps int, seed int64) {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	names := []string{"Anna", "Bruno", "Chloé", "David", "Emma"}
	setup := engine.Setup{Game: rules.Name(), Players: names[:players]}
	at := time.Date(2026, 11, 25, 14, 0, 0, 0, time.UTC)
	g, err := st.Begin(rules, setup, at)
	if err != nil && players == 1 {
		setup.Players = names[:3]
		g, err = st.Begin(rules, setup, at)
	}
	if err != nil {
		// The game's smallest table.
		for n := 2; n <= len(names) && err != nil; n++ {
			setup.Players = names[:n]
			g, err = st.Begin(rules, setup, at)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	s, err := g.State()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < steps; i++ {
		at = at.Add(time.Second)
		legal := s.Legal()
		if len(legal) == 0 || s.Result().Over {
			if err := g.Finish(at, "over"); err != nil {
				t.Fatal(err)
			}
			if g, err = st.Begin(rules, setup, at); err != nil {
				t.Fatal(err)
			}
			if s, err = g.State(); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if i%17 == 16 {
			if _, err := g.Undo(at, engine.Staff, "test"); err == nil {
				if s, err = g.State(); err != nil {
					t.Fatal(err)
				}
				continue
			}
		}
		a := legal[rng.Intn(len(legal))]
		next, evs, err := engine.Play(s, a)
		if err != nil {
			continue // a representative amount refused
		}
		if _, err := g.Append(at, a, evs); err != nil {
			t.Fatal(err)
		}
		s = next
	}
}
