package dashboard

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"comptoir/cafe/cafetest"
	"comptoir/engine"
)

// oracle is the leak tests' independent scan for secrets, built from the
// engine's views alone (the dashboard keeps secrets by construction and
// has no such scan). Fed the game's states in order, it knows for each
// state and seat the seat's secret words (strings of its view that the
// table's view does not hold and never held) and its secret money (the
// numbers of its view's private money fields that the table's view does
// not show, from 10 up: smaller figures are everywhere in texts). A frame is checked against the secrets of its
// state, and each line of its log against the secrets of the state its
// step made: a line told in the past is checked at its own time, when a
// secret it named was still one, not against the state now (after the
// card went back face down, or left every view).
type oracle struct {
	vocab  map[string]bool
	named  map[engine.Seat]map[string]bool // the words of each seat's own commands
	public map[string]bool                 // every word the table's view ever held
	at     map[int64]*secretsAt
	ever   []map[string]bool         // the words each seat held so far
	undos  map[int64]bool            // the steps that are undos
	res    map[string]*regexp.Regexp // a word's pattern, compiled once
	lines  map[string][]string       // a log line's leaks, by step, viewer and text
}

// secretsAt are the seats' secrets in one state.
type secretsAt struct {
	words []map[string]bool // per seat
	money [][]string        // per seat
	// past are the words each seat held in this state or any before (a
	// log line must not tell a card that went back into the deck).
	past []map[string]bool
}

func newOracle(vocab []string) *oracle {
	o := &oracle{vocab: map[string]bool{}, public: map[string]bool{}, at: map[int64]*secretsAt{},
		res: map[string]*regexp.Regexp{}, lines: map[string][]string{}}
	for _, w := range vocab {
		o.vocab[w] = true
	}
	return o
}

// see takes in the state of seq; states come in the order of the steps.
func (o *oracle) see(seq int64, st engine.State) {
	publicLeaves, publicNumbers := map[string]bool{}, map[float64]bool{}
	cafetest.Leaves(cafetest.ToJSON(st.View(engine.NoSeat)), "", func(path string, v any) {
		publicLeaves[path] = true
		switch v := v.(type) {
		case string:
			o.public[v] = true
		case float64:
			publicNumbers[v] = true
		}
	})
	n := len(st.Setup().Players)
	sa := &secretsAt{words: make([]map[string]bool, n), money: make([][]string, n)}
	for i := range n {
		sa.words[i] = map[string]bool{}
		cafetest.Leaves(cafetest.ToJSON(st.View(engine.Seat(i))), "", func(path string, v any) {
			switch v := v.(type) {
			case string:
				if len(v) >= 2 && !o.public[v] && !o.vocab[v] {
					sa.words[i][v] = true
				}
			case float64:
				key := path[strings.LastIndex(path, "/")+1:]
				if !publicLeaves[path] && !publicNumbers[v] && (key == "ducats" || key == "coins" || key == "money") && v >= 10 {
					sa.money[i] = append(sa.money[i], strconv.Itoa(int(v)))
				}
			}
		})
	}
	if o.ever == nil {
		o.ever = make([]map[string]bool, n)
		for i := range o.ever {
			o.ever[i] = map[string]bool{}
		}
	}
	sa.past = make([]map[string]bool, n)
	for i := range n {
		for w := range sa.words[i] {
			o.ever[i][w] = true
		}
		sa.past[i] = maps.Clone(o.ever[i])
	}
	o.at[seq] = sa
}

// secretWords are seat k's secret words for viewer in the state of seq:
// held by k, not by the viewer, never public.
func (o *oracle) secretWords(seq int64, k int, viewer engine.Seat) []string {
	sa := o.at[seq]
	if sa == nil {
		return nil
	}
	var out []string
	for w := range sa.words[k] {
		if o.public[w] && !sa.words[k][w] || viewer >= 0 && (sa.words[viewer][w] || o.named[viewer][w]) {
			continue
		}
		out = append(out, w)
	}
	sort.Strings(out)
	return out
}

// pastSecretWords are seat k's secret words for viewer up to the state
// of seq: held by k then or before, never by the viewer until then, never
// public.
func (o *oracle) pastSecretWords(seq int64, k int, viewer engine.Seat) []string {
	sa := o.at[seq]
	if sa == nil {
		return nil
	}
	var out []string
	for w := range sa.past[k] {
		if o.public[w] && !sa.words[k][w] || viewer >= 0 && (sa.past[viewer][w] || o.named[viewer][w]) {
			continue
		}
		out = append(out, w)
	}
	sort.Strings(out)
	return out
}

// check fails the test if the frame for viewer leaks (see leaks).
func (o *oracle) check(t *testing.T, seq int64, raw []byte, viewer engine.Seat) {
	t.Helper()
	for _, l := range o.leaks(seq, raw, viewer) {
		t.Error(l)
	}
}

// leaks says where the frame of seq for viewer holds another seat's
// secret word or money figure: its log lines against the secrets of their
// own steps, the rest of it against those of seq.
func (o *oracle) leaks(seq int64, raw []byte, viewer engine.Seat) []string {
	if viewer == engine.Staff {
		return nil
	}
	var f map[string]json.RawMessage
	json.Unmarshal(raw, &f)
	var log []LogLine
	json.Unmarshal(f["log"], &log)
	delete(f, "log")
	rest, _ := json.Marshal(f)
	var out []string
	out = append(out, o.scan(seq, string(rest), viewer, "frame", seq)...)
	for _, l := range log {
		// A line is the same in every frame: scanned once per viewer.
		key := fmt.Sprintf("%d %d %s\n%s", l.Seq, viewer, l.FR, l.EN)
		found, ok := o.lines[key]
		if !ok {
			found = o.scan(l.Seq, l.FR+"\n"+l.EN, viewer, "log line", seq)
			o.lines[key] = found
		}
		out = append(out, found...)
	}
	return out
}

// scan checks a text against the secrets of the state of seq.
func (o *oracle) scan(seq int64, text string, viewer engine.Seat, what string, frameSeq int64) []string {
	sa := o.at[seq]
	if sa == nil {
		return nil
	}
	var out []string
	for k := range sa.words {
		if engine.Seat(k) == viewer {
			continue
		}
		words := o.secretWords
		if what != "frame" && o.undos[seq] {
			// An undo's line must not tell what the undone step did
			// either: a card drawn then put back is no one's now.
			words = o.pastSecretWords
		}
		for _, w := range words(seq, k, viewer) {
			if loc := o.word(w).FindStringIndex(text); loc != nil {
				out = append(out, fmt.Sprintf("seq %d: a %s of step %d for %v holds seat %d's secret %q: …%s…", frameSeq, what, seq, viewer, k+1, w, text[max(0, loc[0]-80):min(len(text), loc[1]+40)]))
			}
		}
		if what == "frame" {
			// The views hold numbers everywhere: the money check is for
			// texts.
			var f struct {
				Refusal   *Refused   `json:"refusal"`
				Proposals []proposal `json:"proposals"`
				Said      []announced
			}
			json.Unmarshal([]byte(text), &f)
			text = ""
			if f.Refusal != nil {
				text += f.Refusal.FR + "\n" + f.Refusal.EN + "\n"
			}
			for _, p := range f.Proposals {
				text += p.FR + "\n" + p.EN + "\n" + p.Line + "\n"
			}
			for _, s := range f.Said {
				text += s.Line + "\n"
			}
		}
		for _, m := range sa.money[k] {
			if viewer >= 0 && contains(sa.money[viewer], m) {
				continue
			}
			if o.word(m).MatchString(text) {
				out = append(out, fmt.Sprintf("seq %d: a %s of step %d for %v tells seat %d's money %s: %q", frameSeq, what, seq, viewer, k+1, m, text))
			}
		}
	}
	return out
}

// word is the pattern of w as a whole word: not inside a longer one
// (a hyphen joins words: bonus-orange is not in bonus-orange-grey).
func (o *oracle) word(w string) *regexp.Regexp {
	re, ok := o.res[w]
	if !ok {
		re = regexp.MustCompile(`(?:^|[^\w-])` + regexp.QuoteMeta(w) + `(?:[^\w-]|$)`)
		o.res[w] = re
	}
	return re
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// checkFrames checks every frame each connection received (connection 0
// is the table's screen, connection i the phone of seat i), in the order
// of the game's steps, against the oracle fed with the states so far. It
// returns how many frames it checked.
//
// named are the words of each seat's own commands: a seat may read back
// what it wrote ("David does not hold jade-2" after David offered jade-2).
// undos are the steps that are undos: their lines are checked against
// every secret held until then, not only the secrets of their own step.
func checkFrames(t *testing.T, frames [][][]byte, history map[int64]engine.State, vocab []string, named map[engine.Seat]map[string]bool, undos map[int64]bool) int {
	t.Helper()
	type seen struct {
		seq    int64
		viewer engine.Seat
		raw    []byte
	}
	var all []seen
	for i, fs := range frames {
		for _, raw := range fs {
			var f struct {
				Type string `json:"type"`
				Seq  int64  `json:"seq"`
			}
			json.Unmarshal(raw, &f)
			if f.Type == "state" {
				all = append(all, seen{f.Seq, engine.Seat(i - 1), raw})
			}
		}
	}
	sort.SliceStable(all, func(a, b int) bool { return all[a].seq < all[b].seq })
	var o *oracle
	var seqs []int64
	for q := range history {
		seqs = append(seqs, q)
	}
	sort.Slice(seqs, func(a, b int) bool { return seqs[a] < seqs[b] })
	next := 0
	for _, s := range all {
		for next < len(seqs) && seqs[next] <= s.seq {
			st := history[seqs[next]]
			if o == nil {
				o = newOracle(vocab)
				o.named, o.undos = named, undos
			}
			o.see(seqs[next], st)
			next++
		}
		if o == nil || o.at[s.seq] == nil {
			t.Fatalf("frame of seq %d: no such state", s.seq)
		}
		checkFrame(t, s.raw, s.viewer, history, o)
	}
	return len(all)
}

// TestOracle checks the oracle on a made-up game: a log line is judged
// by the secrets of its own step, even once the card left every view; a
// card once public is no secret; money is a secret figure in texts only.
func TestOracle(t *testing.T) {
	o := newOracle([]string{"silk"})
	o.see(1, fakeState{table: map[string]any{"pile": "P1"}, seats: []map[string]any{
		{"mine": map[string]any{"cards": []any{"L05", "silk", "P1"}, "ducats": 23}},
		{"mine": map[string]any{"cards": []any{"L07"}, "ducats": 31}},
	}})
	o.see(2, fakeState{table: map[string]any{"pile": "L07"}, seats: []map[string]any{
		{"mine": map[string]any{"cards": []any{}, "ducats": 23}},
		{"mine": map[string]any{"cards": []any{}, "ducats": 31}},
	}})
	if got := o.secretWords(1, 0, 1); strings.Join(got, ",") != "L05" {
		t.Errorf("Anna's secrets for Bruno at step 1 = %q, want L05 (silk is vocabulary, P1 public)", got)
	}
	if got := o.secretWords(2, 1, 0); len(got) != 0 {
		t.Errorf("Bruno's secrets at step 2 = %q, want none (L07 became public)", got)
	}
	for _, tt := range []struct {
		frame string
		fail  bool
	}{
		{`{"type":"state","seq":2,"log":[{"seq":1,"en":"Anna draws a card"}]}`, false},
		{`{"type":"state","seq":2,"log":[{"seq":1,"en":"Anna draws L05"}]}`, true},
		{`{"type":"state","seq":2,"log":[{"seq":2,"en":"Anna discards a card"}]}`, false},
		{`{"type":"state","seq":2,"refusal":{"en":"Anna holds 23 ducats"}}`, true},
		{`{"type":"state","seq":2,"proposals":[{"en":"Anna cannot give 23 ducats"}]}`, true},
		{`{"type":"state","seq":2,"view":{"round":23},"log":[{"seq":2,"en":"round 4"}]}`, false},
		{`{"type":"state","seq":2,"log":[{"seq":1,"en":"Anna pays 23 ducats"}]}`, true},
		{`{"type":"state","seq":2,"log":[{"seq":1,"en":"Bruno plays L05-bis"}]}`, false},
	} {
		if got := o.leaks(2, []byte(tt.frame), 1); (len(got) > 0) != tt.fail {
			t.Errorf("leaks(%s) = %q, want a leak: %v", tt.frame, got, tt.fail)
		}
	}
}

// fakeState is a state with set views, for TestOracle.
type fakeState struct {
	engine.State
	table map[string]any
	seats []map[string]any
}

func (f fakeState) Setup() engine.Setup {
	return engine.Setup{Players: make([]string, len(f.seats))}
}

func (f fakeState) View(seat engine.Seat) any {
	if seat < 0 {
		return f.table
	}
	return f.seats[seat]
}
