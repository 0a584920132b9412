// Package cafesim drives simulated café tables: each table has its own
// journal and plays random legal games of a real engine, one step at a
// time, while a cafe.Publisher sends its journal to the café's NATS
// server. The café's tests and `comptoir cafe-sim` use it.
package cafesim

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"time"

	"comptoir/cafe"
	"comptoir/engine"
	"comptoir/games"
	"comptoir/journal"
)

// Table is a simulated table. It is used from one goroutine (its
// publisher runs on its own).
type Table struct {
	Name  string
	Store *journal.Store
	Pub   *cafe.Publisher
	rules engine.Rules
	setup engine.Setup
	game  *journal.Game
	state engine.State
	rng   *rand.Rand
	// Finished counts the games this table finished.
	Finished int
}

// Setups are the games simulated tables play, in turn.
var Setups = []engine.Setup{
	{Game: "genoa", Players: []string{"Anna", "Bruno", "Chloé"}},
	{Game: "negoce", Players: []string{"Anna", "Bruno", "Chloé", "David"}},
	{Game: "dschunke", Players: []string{"Anna", "Bruno", "Chloé"}},
}

// Open opens table name's journal in dir, resuming its unfinished game or
// beginning one with setup, and makes its publisher with opts (Table,
// Store and Rules are set here).
func Open(dir, name string, setup engine.Setup, seed int64, opts cafe.Opts) (*Table, error) {
	rules, err := games.ByName(setup.Game)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	st, err := journal.Open(filepath.Join(dir, name+".db"))
	if err != nil {
		return nil, err
	}
	t := &Table{Name: name, Store: st, rules: rules, setup: setup, rng: rand.New(rand.NewSource(seed))}
	t.game, err = st.Resume(rules)
	if err == journal.ErrNoGame {
		t.game, err = st.Begin(rules, setup, time.Now())
	}
	if err != nil {
		st.Close()
		return nil, err
	}
	if t.state, err = t.game.State(); err != nil {
		st.Close()
		return nil, err
	}
	opts.Table, opts.Store = name, st
	opts.Rules = func(string) (engine.Rules, error) { return rules, nil }
	if t.Pub, err = cafe.New(opts); err != nil {
		st.Close()
		return nil, err
	}
	return t, nil
}

// Close closes the table's journal.
func (t *Table) Close() error { return t.Store.Close() }

// Game is the table's current game.
func (t *Table) Game() *journal.Game { return t.game }

// Step plays one random legal step, journalled at at; a game over is
// finished and a new one begun. It reports the journal's (game, seq) of
// the step, and whether the game ended with it.
func (t *Table) Step(at time.Time) (game, seq int64, ended bool, err error) {
	for tries := 0; ; tries++ {
		legal := t.state.Legal()
		if len(legal) == 0 || t.state.Result().Over {
			if err := t.game.Finish(at, "over"); err != nil {
				return 0, 0, false, err
			}
			t.Finished++
			if t.game, err = t.Store.Begin(t.rules, t.setup, at); err != nil {
				return 0, 0, false, err
			}
			if t.state, err = t.game.State(); err != nil {
				return 0, 0, false, err
			}
			continue
		}
		a := legal[t.rng.Intn(len(legal))]
		next, evs, err := engine.Play(t.state, a)
		if err != nil {
			if tries > 1000 {
				return 0, 0, false, fmt.Errorf("cafesim %s: no legal action plays: %w", t.Name, err)
			}
			continue // a representative amount refused: draw again
		}
		s, err := t.game.Append(at, a, evs)
		if err != nil {
			return 0, 0, false, err
		}
		t.state = next
		t.Pub.Notify()
		over := next.Result().Over
		if over {
			if err := t.game.Finish(at, "over"); err != nil {
				return 0, 0, false, err
			}
			t.Finished++
			id := t.game.ID()
			if t.game, err = t.Store.Begin(t.rules, t.setup, at); err != nil {
				return 0, 0, false, err
			}
			if t.state, err = t.game.State(); err != nil {
				return 0, 0, false, err
			}
			return id, s.Seq, true, nil
		}
		return t.game.ID(), s.Seq, false, nil
	}
}

// State is the table's current state.
func (t *Table) State() engine.State { return t.state }
