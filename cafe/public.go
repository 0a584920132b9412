package cafe

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"comptoir/engine"
	"comptoir/journal"
)

// mask replaces a secret word in a public log line.
const mask = "•••"

// PublicStep is the one place that decides what of a step leaves the
// table: the table's view (engine.NoSeat) of after, the state after the
// step; the names of the players the game waits for; the log lines, with
// every seat's secret words masked (the words of a seat's view that the
// table's view does not show: SecretWords of after, and hidden, the
// secret words before the step, but for those the step made public); the
// result only once the game is over. It returns the message and the
// secret words of after, the next step's hidden.
func PublicStep(table string, info journal.Info, after engine.State, hidden []string, seq int64, at time.Time, log []Line) (Step, []string, error) {
	setup := after.Setup()
	view, err := json.Marshal(after.View(engine.NoSeat))
	if err != nil {
		return Step{}, nil, fmt.Errorf("cafe: the table's view: %w", err)
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
	afterSecret := SecretWords(after)
	if len(log) > 0 {
		public := map[string]bool{}
		jsonWords(view, func(w string) { public[w] = true })
		secret := append([]string(nil), afterSecret...)
		for _, w := range hidden {
			if !public[w] {
				secret = append(secret, w)
			}
		}
		secret = longestFirst(secret)
		for _, l := range log {
			s.Log = append(s.Log, Line{FR: redact(secret, l.FR), EN: redact(secret, l.EN)})
		}
	}
	if res := after.Result(); res.Over || (seq == 0 && info.Outcome == "over") {
		s.Result = &res
	}
	return s, afterSecret, nil
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

// SecretWords are the words of the seats' views that the table's view
// does not hold: a card's id in a hand, for example.
func SecretWords(st engine.State) []string {
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
	jsonWords(data, f)
}

// jsonWords calls f with every string value of compact JSON (as
// json.Marshal writes it), keys left out: a string right before ':' is a
// key.
func jsonWords(data []byte, f func(string)) {
	for i := 0; i < len(data); i++ {
		if data[i] != '"' {
			continue
		}
		j, esc := i+1, false
		for j < len(data) && data[j] != '"' {
			if data[j] == '\\' {
				j++
				esc = true
			}
			j++
		}
		if j >= len(data) {
			return
		}
		lit := data[i : j+1]
		i = j
		if j+1 < len(data) && data[j+1] == ':' {
			continue
		}
		if !esc {
			f(string(lit[1 : len(lit)-1]))
			continue
		}
		var w string
		if json.Unmarshal(lit, &w) == nil {
			f(w)
		}
	}
}

// longestFirst sorts the words longest first, without repeats.
func longestFirst(ws []string) []string {
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
	return uniq
}

// redact masks every whole-word occurrence of the secret words (longest
// first) in text.
func redact(secret []string, text string) string {
	for _, w := range secret {
		for from := 0; ; {
			i := strings.Index(text[from:], w)
			if i < 0 {
				break
			}
			i += from
			j := i + len(w)
			if wordEdge(text, i, true) && wordEdge(text, j, false) {
				text = text[:i] + mask + text[j:]
				from = i + len(mask)
			} else {
				from = i + 1
			}
		}
	}
	return text
}

// wordEdge reports whether position i of text is a word's edge: the
// character before it (start) or at it (end) is not a letter, digit or _.
func wordEdge(text string, i int, start bool) bool {
	var r rune
	if start {
		if i == 0 {
			return true
		}
		r, _ = utf8.DecodeLastRuneInString(text[:i])
	} else {
		if i >= len(text) {
			return true
		}
		r, _ = utf8.DecodeRuneInString(text[i:])
	}
	return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_')
}

// replayer follows one game of the journal step by step, as it was at
// each step: an undo takes back the last standing step.
type replayer struct {
	rules    engine.Rules
	info     journal.Info
	st       engine.State
	seq      int64
	standing []journal.Step
	// secret are the secret words of st (SecretWords), once secretKnown.
	secret      []string
	secretKnown bool
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
	r.secretKnown = false
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
	s, _, err := PublicStep(table, info, st, nil, 0, info.Finished, nil)
	if err != nil {
		return s, err
	}
	s.End, s.Outcome = true, info.Outcome
	if info.Outcome != "over" {
		s.Result = nil
	}
	return s, nil
}
