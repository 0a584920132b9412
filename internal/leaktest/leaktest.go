// Package leaktest is the tests' independent oracle of secrets: built from
// the engines' views alone, it knows, for each state of a game, what each
// seat's secrets are, and finds them in the texts a viewer receives. The
// tables keep secrets by construction (each viewer's text is built for
// that viewer); this scan is how the tests check it, never how the tables
// do it. The dashboard's leak tests (frames for each seat and the table's
// screen) and the café's (messages for the public, package
// comptoir/cafe/cafetest) both use it. It is for tests only.
//
// # What is a secret
//
// In one state, a seat's secret words are the strings of its view (at
// least two characters) that the table's view does not hold and never
// held, the players' names and the game's vocabulary (its public words,
// kit.Game.Vocabulary) left out; its secret money are the numbers of its
// view's private money fields ("ducats", "coins", "money"), from 10 up
// (smaller figures are everywhere in texts), that the table's view does
// not show. A word is found only whole: not inside a longer word of any
// script, a hyphen joining words.
package leaktest

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"comptoir/engine"
)

// Secrets are the seats' secrets in each state of one game, fed in the
// order of its steps. Not safe for concurrent use.
type Secrets struct {
	// Named are the words of each seat's own commands: a seat may read
	// back what it wrote ("David does not hold jade-2" after David offered
	// jade-2), so they are not secret to that seat. Nil: none.
	Named map[engine.Seat]map[string]bool

	vocab  map[string]bool
	public map[string]bool   // every string the table's view ever held, and the players
	ever   []map[string]bool // the words each seat held so far
	at     map[int64]*State
	last   int64
	res    map[string]*regexp.Regexp // a word's pattern, compiled once
}

// State are the seats' secrets in one state, by seat.
type State struct {
	Words []map[string]bool
	Money [][]string
	// Past are the words each seat held in this state or any before (a
	// line must not tell a card that went back into the deck).
	Past []map[string]bool
	// Over is whether the game is over in this state.
	Over bool
}

// New returns the secrets of one game; vocab are the game's public words
// (kit.Game.Vocabulary).
func New(vocab []string) *Secrets {
	s := &Secrets{vocab: map[string]bool{}, public: map[string]bool{}, at: map[int64]*State{},
		last: -1, res: map[string]*regexp.Regexp{}}
	for _, w := range vocab {
		s.vocab[w] = true
	}
	return s
}

// See takes in the state after step seq (0: the game's start); states
// come in the order of the steps.
func (s *Secrets) See(seq int64, st engine.State) {
	publicLeaves, publicNumbers := map[string]bool{}, map[float64]bool{}
	Leaves(ToJSON(st.View(engine.NoSeat)), "", func(path string, v any) {
		publicLeaves[path] = true
		switch v := v.(type) {
		case string:
			s.public[v] = true
		case float64:
			publicNumbers[v] = true
		}
	})
	players := st.Setup().Players
	for _, p := range players {
		s.public[p] = true
	}
	n := len(players)
	sa := &State{Words: make([]map[string]bool, n), Money: make([][]string, n), Past: make([]map[string]bool, n), Over: st.Result().Over}
	for i := range n {
		sa.Words[i] = map[string]bool{}
		Leaves(ToJSON(st.View(engine.Seat(i))), "", func(path string, v any) {
			switch v := v.(type) {
			case string:
				if len(v) >= 2 && !s.public[v] && !s.vocab[v] {
					sa.Words[i][v] = true
				}
			case float64:
				key := path[strings.LastIndex(path, "/")+1:]
				if !publicLeaves[path] && !publicNumbers[v] && (key == "ducats" || key == "coins" || key == "money") && v >= 10 {
					sa.Money[i] = append(sa.Money[i], strconv.Itoa(int(v)))
				}
			}
		})
	}
	for len(s.ever) < n {
		s.ever = append(s.ever, map[string]bool{})
	}
	for i := range n {
		maps.Copy(s.ever[i], sa.Words[i])
		sa.Past[i] = maps.Clone(s.ever[i])
	}
	s.at[seq], s.last = sa, seq
}

// At are the secrets in the state after step seq; nil if it was not seen.
func (s *Secrets) At(seq int64) *State { return s.at[seq] }

// Last is the last step seen, -1 before any.
func (s *Secrets) Last() int64 { return s.last }

// Words are seat k's secret words for viewer (engine.NoSeat: the public)
// in the state of seq: held by k, not by the viewer nor written by it.
func (s *Secrets) Words(seq int64, k int, viewer engine.Seat) []string {
	sa := s.at[seq]
	if sa == nil {
		return nil
	}
	return unknown(sa.Words[k], func(w string) bool {
		return viewer >= 0 && (sa.Words[viewer][w] || s.Named[viewer][w])
	})
}

// PastWords are seat k's secret words for viewer up to the state of seq:
// held by k then or before, never by the viewer until then nor written
// by it, and not public since unless k still holds them.
func (s *Secrets) PastWords(seq int64, k int, viewer engine.Seat) []string {
	sa := s.at[seq]
	if sa == nil {
		return nil
	}
	return unknown(sa.Past[k], func(w string) bool {
		return s.public[w] && !sa.Words[k][w] || viewer >= 0 && (sa.Past[viewer][w] || s.Named[viewer][w])
	})
}

// unknown are the words of held that known does not know, sorted.
func unknown(held map[string]bool, known func(w string) bool) []string {
	var out []string
	for w := range held {
		if !known(w) {
			out = append(out, w)
		}
	}
	slices.Sort(out)
	return out
}

// Money are seat k's secret money figures for viewer in the state of
// seq: those the viewer's own view does not hold.
func (s *Secrets) Money(seq int64, k int, viewer engine.Seat) []string {
	sa := s.at[seq]
	if sa == nil {
		return nil
	}
	var out []string
	for _, m := range sa.Money[k] {
		if viewer >= 0 && slices.Contains(sa.Money[viewer], m) {
			continue
		}
		out = append(out, m)
	}
	return out
}

// Hit is a secret found in a text.
type Hit struct {
	Word string
	// Excerpt is the text around it: 80 bytes before, 40 after.
	Excerpt string
}

func (h Hit) String() string { return fmt.Sprintf("%q: …%s…", h.Word, h.Excerpt) }

// Find returns the words found whole in text, in the order of words.
func (s *Secrets) Find(text string, words []string) []Hit {
	var out []Hit
	var tokens map[string]bool
	for _, w := range words {
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
		if loc := s.word(w).FindStringIndex(text); loc != nil {
			out = append(out, Hit{Word: w, Excerpt: text[max(0, loc[0]-80):min(len(text), loc[1]+40)]})
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
func (s *Secrets) word(w string) *regexp.Regexp {
	re, ok := s.res[w]
	if !ok {
		re = regexp.MustCompile(`(?:^|[^\p{L}\p{N}_-])` + regexp.QuoteMeta(w) + `(?:[^\p{L}\p{N}_-]|$)`)
		s.res[w] = re
	}
	return re
}

// ToJSON is v as encoding/json decodes it into any: a view as a frame or
// a message carries it.
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

// Views is a made-up state with set views, for the tests of the oracles:
// Table is the table's view, Seats each seat's; the players are Anna,
// Bruno and Chloé, as many as Seats.
type Views struct {
	engine.State
	Table map[string]any
	Seats []map[string]any
	Over  bool
}

// Setup names the players.
func (v Views) Setup() engine.Setup {
	return engine.Setup{Players: []string{"Anna", "Bruno", "Chloé"}[:len(v.Seats)]}
}

// Result is over when Over is.
func (v Views) Result() engine.Result { return engine.Result{Over: v.Over} }

// View is the table's view for engine.NoSeat, else the seat's.
func (v Views) View(seat engine.Seat) any {
	if seat < 0 {
		return v.Table
	}
	return v.Seats[seat]
}

// TwoSteps is a made-up game of two steps, for the tests of the oracles.
// After step 1 Anna holds L05, silk (a word of the vocabulary the tests
// give) and P1 (the card on the table's pile), and 23 ducats; Bruno holds
// L07 and 31 ducats. After step 2 the game is over, L07 is on the pile
// and the hands are empty.
func TwoSteps() []Views {
	return []Views{
		{Table: map[string]any{"pile": "P1"}, Seats: []map[string]any{
			{"mine": map[string]any{"cards": []any{"L05", "silk", "P1"}, "ducats": 23}},
			{"mine": map[string]any{"cards": []any{"L07"}, "ducats": 31}},
		}},
		{Table: map[string]any{"pile": "L07"}, Seats: []map[string]any{
			{"mine": map[string]any{"cards": []any{}, "ducats": 23}},
			{"mine": map[string]any{"cards": []any{}, "ducats": 31}},
		}, Over: true},
	}
}
