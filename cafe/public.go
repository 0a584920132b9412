package cafe

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"comptoir/engine"
	"comptoir/journal"
)

// mask replaces a secret word in a public log line.
const mask = "•••"

// PublicStep is the one place that decides what of a step leaves the
// table: the table's view (engine.NoSeat) of after, the state after the
// step; the names of the players the game waits for; the log lines, with
// every seat's secret words masked (the words of a seat's view, before or
// after the step, that the table's view does not show); the result only
// once the game is over. before is the state the step applied to (nil for
// a game's end).
func PublicStep(table string, info journal.Info, before, after engine.State, seq int64, at time.Time, log []Line) (Step, error) {
	setup := after.Setup()
	view, err := json.Marshal(after.View(engine.NoSeat))
	if err != nil {
		return Step{}, fmt.Errorf("cafe: the table's view: %w", err)
	}
	s := Step{
		V: Version, Table: table, Game: info.ID, Seq: seq, At: at.UTC(), Started: info.Started.UTC(),
		Name: setup.Game, Variant: setup.Variant, Players: setup.Players, View: view,
		Round: roundOf(view), Waiting: []string{}, Log: []Line{},
	}
	for _, seat := range after.Waiting() {
		if seat >= 0 && int(seat) < len(setup.Players) {
			s.Waiting = append(s.Waiting, setup.Players[seat])
		}
	}
	secret := secretWords(after)
	if before != nil {
		// A card laid face up by the step was secret before it and is
		// public now.
		public := map[string]bool{}
		words(after.View(engine.NoSeat), func(w string) { public[w] = true })
		for _, w := range secretWords(before) {
			if !public[w] {
				secret = append(secret, w)
			}
		}
	}
	re := secretsRe(secret)
	for _, l := range log {
		s.Log = append(s.Log, Line{FR: redact(re, l.FR), EN: redact(re, l.EN)})
	}
	if res := after.Result(); res.Over || (seq == 0 && info.Outcome == "over") {
		s.Result = &res
	}
	return s, nil
}

// roundOf reads a top-level "round" number from a view, 0 if none.
func roundOf(view []byte) int {
	var v struct {
		Round json.Number `json:"round"`
	}
	if json.Unmarshal(view, &v) != nil {
		return 0
	}
	n, _ := strconv.Atoi(string(v.Round))
	return n
}

// secretWords are the words of the seats' views that the table's view
// does not hold.
func secretWords(st engine.State) []string {
	public := map[string]bool{}
	words(st.View(engine.NoSeat), func(w string) { public[w] = true })
	var out []string
	for i := range st.Setup().Players {
		words(st.View(engine.Seat(i)), func(w string) {
			if !public[w] && len(w) >= 2 {
				out = append(out, w)
			}
		})
	}
	return out
}

// words calls f with every string of v's JSON, object keys left out.
func words(v any, f func(string)) {
	data, err := json.Marshal(v)
	if err != nil {
		return
	}
	var walk func(x any)
	walk = func(x any) {
		switch x := x.(type) {
		case string:
			f(x)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	var x any
	if json.Unmarshal(data, &x) == nil {
		walk(x)
	}
}

// secretsRe matches any of the words, longest first, as whole words.
func secretsRe(ws []string) *regexp.Regexp {
	if len(ws) == 0 {
		return nil
	}
	seen := map[string]bool{}
	var uniq []string
	for _, w := range ws {
		if !seen[w] {
			seen[w] = true
			uniq = append(uniq, w)
		}
	}
	sort.Slice(uniq, func(a, b int) bool {
		if len(uniq[a]) != len(uniq[b]) {
			return len(uniq[a]) > len(uniq[b])
		}
		return uniq[a] < uniq[b]
	})
	for i, w := range uniq {
		uniq[i] = regexp.QuoteMeta(w)
	}
	return regexp.MustCompile(`(?:^|\b)(?:` + strings.Join(uniq, "|") + `)(?:\b|$)`)
}

func redact(re *regexp.Regexp, text string) string {
	if re == nil {
		return text
	}
	return re.ReplaceAllString(text, mask)
}

// replayer follows one game of the journal step by step, as it was at
// each step: an undo takes back the last standing step.
type replayer struct {
	rules    engine.Rules
	info     journal.Info
	st       engine.State
	seq      int64
	standing []journal.Step
}

func newReplayer(rules engine.Rules, info journal.Info) (*replayer, error) {
	st, err := rules.Start(info.Setup)
	if err != nil {
		return nil, fmt.Errorf("cafe: game %d: %w", info.ID, err)
	}
	return &replayer{rules: rules, info: info, st: st}, nil
}

// apply takes one step and returns the state before it and its log lines
// (raw, before masking).
func (r *replayer) apply(step journal.Step) (engine.State, []Line, error) {
	before := r.st
	r.seq = step.Seq
	if step.Undo {
		if len(r.standing) == 0 {
			return nil, nil, fmt.Errorf("cafe: game %d step %d: an undo with no step standing", r.info.ID, step.Seq)
		}
		r.standing = r.standing[:len(r.standing)-1]
		var evs []engine.Event
		for _, s := range r.standing {
			evs = append(evs, s.Events...)
		}
		st, err := engine.Replay(r.rules, r.info.Setup, evs)
		if err != nil {
			return nil, nil, fmt.Errorf("cafe: game %d step %d: %w", r.info.ID, step.Seq, err)
		}
		r.st = st
		return before, []Line{{
			FR: fmt.Sprintf("La dernière étape est annulée (%s).", step.Reason),
			EN: fmt.Sprintf("The last step is undone (%s).", step.Reason),
		}}, nil
	}
	r.standing = append(r.standing, step)
	var out []Line
	st := r.st
	d, ok := st.(engine.Describer)
	if !ok {
		// Without a Describer, who played which command, by its name
		// only: its arguments may be secret.
		verb, _, _ := strings.Cut(step.Command, " ")
		who := step.By.String()
		if step.By >= 0 && int(step.By) < len(st.Setup().Players) {
			who = st.Setup().Players[step.By]
		}
		out = append(out, Line{FR: who + " : " + verb, EN: who + ": " + verb})
	}
	for _, ev := range step.Events {
		if ok {
			out = append(out, Line{FR: d.Describe(ev, "fr"), EN: d.Describe(ev, "en")})
		}
		var err error
		if st, err = st.Apply(ev); err != nil {
			return nil, nil, fmt.Errorf("cafe: game %d step %d: apply %s: %w", r.info.ID, step.Seq, ev.Name(), err)
		}
		if ok {
			d, ok = st.(engine.Describer)
		}
	}
	r.st = st
	return before, out, nil
}

// endStep is the public message of a game's end.
func endStep(table string, info journal.Info, st engine.State) (Step, error) {
	s, err := PublicStep(table, info, nil, st, 0, info.Finished, nil)
	if err != nil {
		return s, err
	}
	s.End, s.Outcome = true, info.Outcome
	if info.Outcome != "over" {
		s.Result = nil
	}
	return s, nil
}
