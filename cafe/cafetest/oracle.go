// Package cafetest is the café tests' independent scan for leaked secrets:
// an oracle built from the engines' views alone (package
// comptoir/internal/leaktest, the dashboard's leak tests' too), which
// checks every message a table publishes (cafe.Step) for a seat's secret.
// The table keeps secrets by construction (cafe.PublicStep sends the
// table's view and log, never filtered text); a café message has one
// viewer, the public. It is for tests only.
package cafetest

import (
	"encoding/json"
	"fmt"
	"slices"

	"comptoir/cafe"
	"comptoir/engine"
	"comptoir/internal/leaktest"
	"comptoir/journal"
)

// Oracle knows, for each step of one game fed in order, every seat's
// secret words and money (see package leaktest). A message is checked
// against the secrets of its step: the message for every seat's words,
// its log lines also for their money.
type Oracle struct {
	secrets *leaktest.Secrets
}

// New returns an oracle for one game; vocab are the game's public words
// (kit.Game.Vocabulary).
func New(vocab []string) *Oracle {
	return &Oracle{secrets: leaktest.New(vocab)}
}

// See takes in the state after step seq (0: the game's start); states
// come in the order of the steps.
func (o *Oracle) See(seq int64, st engine.State) { o.secrets.See(seq, st) }

// Leaks says where a message holds a seat's secret, or scores before the
// game is over. An end message (Seq 0) is checked against the last state
// seen.
func (o *Oracle) Leaks(m cafe.Step) []string {
	seq := m.Seq
	if m.End {
		seq = o.secrets.Last()
	}
	sa := o.secrets.At(seq)
	id := cafe.MsgID(m.Table, m.Game, m.Seq)
	if sa == nil {
		return []string{fmt.Sprintf("%s: a message of a step the journal does not hold", id)}
	}
	var out []string
	if m.Result != nil && !sa.Over && !(m.End && m.Outcome == "over") {
		out = append(out, fmt.Sprintf("%s: scores sent before the game is over", id))
	}
	var words, money []string
	for k := range sa.Words {
		words = append(words, o.secrets.Words(seq, k, engine.NoSeat)...)
		money = append(money, o.secrets.Money(seq, k, engine.NoSeat)...)
	}
	slices.Sort(words)
	words = slices.Compact(words)
	log := m.Log
	m.Log = nil
	rest, _ := json.Marshal(m)
	for _, h := range o.secrets.Find(string(rest), words) {
		out = append(out, fmt.Sprintf("%s: a message holds the secret %v", id, h))
	}
	for _, l := range log {
		text := l.FR + "\n" + l.EN
		for _, h := range o.secrets.Find(text, words) {
			out = append(out, fmt.Sprintf("%s: a log line holds the secret %v", id, h))
		}
		for _, h := range o.secrets.Find(text, money) {
			out = append(out, fmt.Sprintf("%s: a log line tells a seat's money %s: %q", id, h.Word, text))
		}
	}
	return out
}

// FromJournal feeds one oracle per game of a table's journal with the
// states after each of its steps, an undo taking back the last standing
// step. It returns the oracles by game number.
func FromJournal(st *journal.Store, rules func(game string) (engine.Rules, error), vocab func(game string) []string) (map[int64]*Oracle, error) {
	infos, err := st.Games()
	if err != nil {
		return nil, err
	}
	out := map[int64]*Oracle{}
	for _, in := range infos {
		r, err := rules(in.Setup.Game)
		if err != nil {
			return nil, err
		}
		s, err := r.Start(in.Setup)
		if err != nil {
			return nil, err
		}
		o := New(vocab(in.Setup.Game))
		o.See(0, s)
		steps, err := st.StepsAfter(r, in.ID, 0)
		if err != nil {
			return nil, err
		}
		var standing []journal.Step
		for _, step := range steps {
			if step.Undo {
				standing = standing[:len(standing)-1]
				var evs []engine.Event
				for _, x := range standing {
					evs = append(evs, x.Events...)
				}
				if s, err = engine.Replay(r, in.Setup, evs); err != nil {
					return nil, err
				}
			} else {
				standing = append(standing, step)
				for _, ev := range step.Events {
					if s, err = s.Apply(ev); err != nil {
						return nil, fmt.Errorf("game %d step %d: %w", in.ID, step.Seq, err)
					}
				}
			}
			o.See(step.Seq, s)
		}
		out[in.ID] = o
	}
	return out, nil
}
