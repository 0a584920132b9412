package dashboard

import (
	"encoding/json"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"comptoir/engine"
)

// secrets are, for each seat, the words of its view that the table's view
// does not hold: its cards' ids, for example. A game's log is public, but
// a game may tell a secret in it ("Anna draws L09"): before a log line
// goes to anyone, the other seats' secret words are masked.
type secrets struct {
	bySeat [][]string // sorted, longest first
	re     []*regexp.Regexp
	// views are the JSON views of the table (NoSeat) and of each seat,
	// made once here and reused for the frames.
	views map[engine.Seat][]byte
}

// mask replaces a secret word.
const mask = "•••"

// secretsOf finds each seat's secret words in st.
func secretsOf(st engine.State) *secrets {
	n := len(st.Setup().Players)
	s := &secrets{bySeat: make([][]string, n), re: make([]*regexp.Regexp, n), views: map[engine.Seat][]byte{}}
	public := map[string]bool{}
	s.views[engine.NoSeat] = words(st.View(engine.NoSeat), func(w string) { public[w] = true })
	for _, w := range publicWords[st.Setup().Game] {
		public[w] = true
	}
	for i := 0; i < n; i++ {
		seen := map[string]bool{}
		s.views[engine.Seat(i)] = words(st.View(engine.Seat(i)), func(w string) {
			if !public[w] && len(w) >= 2 {
				seen[w] = true
			}
		})
		for w := range seen {
			s.bySeat[i] = append(s.bySeat[i], w)
		}
		sort.Slice(s.bySeat[i], func(a, b int) bool {
			x, y := s.bySeat[i][a], s.bySeat[i][b]
			if len(x) != len(y) {
				return len(x) > len(y)
			}
			return x < y
		})
		if len(s.bySeat[i]) > 0 {
			quoted := make([]string, len(s.bySeat[i]))
			for j, w := range s.bySeat[i] {
				quoted[j] = regexp.QuoteMeta(w)
			}
			s.re[i] = regexp.MustCompile(`\b(?:` + strings.Join(quoted, "|") + `)\b`)
		}
	}
	return s
}

// words calls f with every string value in v's JSON (object keys left
// out) and returns the JSON ("null" if v does not encode).
func words(v any, f func(string)) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		return []byte("null")
	}
	jsonStrings(data, f)
	return data
}

// jsonStrings calls f with every string value of compact JSON (as
// json.Marshal writes it: a string right before ':' is a key).
func jsonStrings(data []byte, f func(string)) {
	for i := 0; i < len(data); i++ {
		if data[i] != '"' {
			continue
		}
		j := i + 1
		for j < len(data) && data[j] != '"' {
			if data[j] == '\\' {
				j++
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
		w, err := strconv.Unquote(string(lit))
		if err != nil {
			w = string(lit[1 : len(lit)-1])
		}
		f(w)
	}
}

// redact masks in text the secret words of every seat but viewer's (the
// staff see everything).
func (s *secrets) redact(text string, viewer engine.Seat) string {
	if s == nil || viewer == engine.Staff {
		return text
	}
	for i, re := range s.re {
		if re == nil || engine.Seat(i) == viewer {
			continue
		}
		// A word both seats hold (a card both could name) is not a secret
		// between them.
		text = re.ReplaceAllStringFunc(text, func(w string) string {
			if viewer >= 0 && int(viewer) < len(s.bySeat) && slices.Contains(s.bySeat[viewer], w) {
				return w
			}
			return mask
		})
	}
	return text
}
