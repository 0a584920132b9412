// Package cafetest is the café tests' independent scan for leaked secrets:
// an oracle built from the engines' views alone, which checks every
// message a table publishes (cafe.Step) for a seat's secret. The table
// keeps secrets by construction (cafe.PublicStep sends the table's view and
// log, never filtered text); this oracle mirrors the dashboard's test
// oracle (dashboard/oracle_test.go) for the one viewer a café message has,
// the public. It is for tests only.
package cafetest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"comptoir/cafe"
	"comptoir/engine"
	"comptoir/journal"
)

// Oracle knows, for each step of one game fed in order, every seat's
// secret words (strings of the seat's view that the table's view does not
// hold and never held, the players' names and the kit's vocabulary left
// out) and secret money (numbers of its view's private money fields, from
// 10 up, that the table's view does not show). A message is checked
// against the secrets of its step; its log lines also against the
// secrets of the step before that the step did not make public (a card
// discarded face down is named by no view after).
type Oracle struct {
	vocab  map[string]bool
	public map[string]bool // every word the table's view ever held
	at     map[int64]*secretsAt
	last   int64 // the last step seen
	res    map[string]*regexp.Regexp
}

// secretsAt are the seats' secrets in one state.
type secretsAt struct {
	words map[string]bool // every seat's
	money []string
	over  bool
}

// New returns an oracle for one game; vocab are the game's public words
// (kit.Game.Vocabulary).
func New(vocab []string) *Oracle {
	o := &Oracle{vocab: map[string]bool{}, public: map[string]bool{}, at: map[int64]*secretsAt{},
		last: -1, res: map[string]*regexp.Regexp{}}
	for _, w := range vocab {
		o.vocab[w] = true
	}
	return o
}

// See takes in the state after step seq (0: the game's start); states
// come in the order of the steps.
func (o *Oracle) See(seq int64, st engine.State) {
	sa := &secretsAt{words: map[string]bool{}, over: st.Result().Over}
	publicLeaves, publicNumbers := map[string]bool{}, map[float64]bool{}
	Leaves(ToJSON(st.View(engine.NoSeat)), "", func(path string, v any) {
		publicLeaves[path] = true
		switch v := v.(type) {
		case string:
			o.public[v] = true
		case float64:
			publicNumbers[v] = true
		}
	})
	for _, p := range st.Setup().Players {
		o.public[p] = true
	}
	for i := range st.Setup().Players {
		Leaves(ToJSON(st.View(engine.Seat(i))), "", func(path string, v any) {
			switch v := v.(type) {
			case string:
				if len(v) >= 2 && !o.public[v] && !o.vocab[v] {
					sa.words[v] = true
				}
			case float64:
				key := path[strings.LastIndex(path, "/")+1:]
				if !publicLeaves[path] && !publicNumbers[v] && (key == "ducats" || key == "coins" || key == "money") && v >= 10 {
					sa.money = append(sa.money, strconv.Itoa(int(v)))
				}
			}
		})
	}
	o.at[seq], o.last = sa, seq
}

// Leaks says where a message holds a seat's secret, or scores before the
// game is over. An end message (Seq 0) is checked against the last state
// seen.
func (o *Oracle) Leaks(m cafe.Step) []string {
	seq := m.Seq
	if m.End {
		seq = o.last
	}
	sa := o.at[seq]
	id := cafe.MsgID(m.Table, m.Game, m.Seq)
	if sa == nil {
		return []string{fmt.Sprintf("%s: a message of a step the journal does not hold", id)}
	}
	var out []string
	if m.Result != nil && !sa.over && !(m.End && m.Outcome == "over") {
		out = append(out, fmt.Sprintf("%s: scores sent before the game is over", id))
	}
	log := m.Log
	m.Log = nil
	rest, _ := json.Marshal(m)
	out = append(out, o.scan(id, "message", string(rest), sa.words, nil)...)
	for _, l := range log {
		out = append(out, o.scan(id, "log line", l.FR+"\n"+l.EN, sa.words, sa.money)...)
	}
	return out
}

func (o *Oracle) scan(id, what, text string, words map[string]bool, money []string) []string {
	var out []string
	ws := make([]string, 0, len(words))
	for w := range words {
		ws = append(ws, w)
	}
	sort.Strings(ws)
	var tokens map[string]bool
	for _, w := range ws {
		// A word of word characters only is found among the text's
		// words, the same as its pattern finds it, and faster.
		if strings.IndexFunc(w, func(r rune) bool { return !wordChar(r) }) < 0 {
			if tokens == nil {
				tokens = map[string]bool{}
				for _, tok := range strings.FieldsFunc(text, func(r rune) bool { return !wordChar(r) }) {
					tokens[tok] = true
				}
			}
			if !tokens[w] {
				continue
			}
		}
		if loc := o.word(w).FindStringIndex(text); loc != nil {
			out = append(out, fmt.Sprintf("%s: a %s holds the secret %q: …%s…", id, what, w, text[max(0, loc[0]-80):min(len(text), loc[1]+40)]))
		}
	}
	for _, m := range money {
		if o.word(m).MatchString(text) {
			out = append(out, fmt.Sprintf("%s: a %s tells a seat's money %s: %q", id, what, m, text))
		}
	}
	return out
}

// wordChar reports whether r belongs to a word: a letter or digit of any
// script, _ or a hyphen (which joins words).
func wordChar(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_' || r == '-' }

// word is the pattern of w as a whole word: not inside a longer one, in
// any script (Chlo is not in Chloé; a hyphen joins words: bonus-orange is
// not in bonus-orange-grey).
func (o *Oracle) word(w string) *regexp.Regexp {
	re, ok := o.res[w]
	if !ok {
		re = regexp.MustCompile(`(?:^|[^\p{L}\p{N}_-])` + regexp.QuoteMeta(w) + `(?:[^\p{L}\p{N}_-]|$)`)
		o.res[w] = re
	}
	return re
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

// ToJSON is v as encoding/json decodes it into any (the dashboard's
// leak oracle walks frames the same way).
func ToJSON(v any) any {
	data, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	json.Unmarshal(data, &out)
	return out
}

// Leaves calls f with the path and value of every string and number of x
// (object keys are not values).
func Leaves(x any, path string, f func(path string, v any)) {
	switch x := x.(type) {
	case map[string]any:
		for k, v := range x {
			Leaves(v, path+"/"+k, f)
		}
	case []any:
		for i, v := range x {
			Leaves(v, fmt.Sprintf("%s/%d", path, i), f)
		}
	case string, float64:
		f(path, x)
	}
}
