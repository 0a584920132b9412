package leaktest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"comptoir/engine"
)

func TestFind(t *testing.T) {
	s := New(nil)
	for _, tt := range []struct {
		text, w string
		want    bool
	}{
		{"Anna draws L09.", "L09", true},
		{"Anna draws L091", "L09", false},
		{"L09", "L09", true},
		{"jade-1", "jade-1", true},
		{"jade-10", "jade-1", false},
		{"xjade-1", "jade-1", false},
		{`"card":"jade-1"`, "jade-1", true},
		{"bonus-orange-grey", "bonus-orange", false},
		{"Chloé", "Chlo", false},
		{"Chloé joue", "Chloé", true},
		{"pays 23 ducats", "23", true},
		{"pays 123 ducats", "23", false},
		{"a b", "a b", true},
		{"xa b", "a b", false},
		{"(a b)", "a b", true},
	} {
		got := s.Find(tt.text, []string{tt.w})
		if (len(got) == 1) != tt.want {
			t.Errorf("Find(%q, %q) = %v, want found %v", tt.text, tt.w, got, tt.want)
		}
		if tt.want && len(got) == 1 && (got[0].Word != tt.w || !strings.Contains(got[0].Excerpt, tt.w)) {
			t.Errorf("Find(%q, %q) = %+v, want the word and its excerpt", tt.text, tt.w, got[0])
		}
	}
}

// TestSecrets checks the secrets of a made-up game: a seat's card is a
// secret until the table's view shows it, vocabulary and players' names
// are not; a seat may hold or have written a word; money figures from 10
// up in private fields; past words stay secret after they left every
// view, unless they became public.
func TestSecrets(t *testing.T) {
	s := New([]string{"silk"})
	s.Named = map[engine.Seat]map[string]bool{1: {"W2": true}}
	s.See(1, Views{Table: map[string]any{"pile": "P1", "ducats": 12}, Seats: []map[string]any{
		{"mine": map[string]any{"cards": []any{"L05", "silk", "P1", "Bruno", "X", "W1", "W2"}, "ducats": 23, "coins": 9}},
		{"mine": map[string]any{"cards": []any{"L07", "W1"}, "ducats": 31, "score": 40}},
	}})
	s.See(2, Views{Table: map[string]any{"pile": "L07"}, Seats: []map[string]any{
		{"mine": map[string]any{"cards": []any{}, "ducats": 31}},
		{"mine": map[string]any{"cards": []any{"L09"}, "ducats": 31}},
	}, Over: true})
	for _, tt := range []struct {
		name string
		got  []string
		want string
	}{
		{"Anna's words for the table at 1", s.Words(1, 0, engine.NoSeat), "L05 W1 W2"},
		{"Anna's words for Bruno at 1", s.Words(1, 0, 1), "L05"},
		{"Bruno's words for Anna at 1", s.Words(1, 1, 0), "L07"},
		{"Bruno's words at 2", s.Words(2, 1, engine.NoSeat), "L09"},
		{"Anna's words at 3 (not seen)", s.Words(3, 0, engine.NoSeat), ""},
		{"Anna's past words at 2", s.PastWords(2, 0, engine.NoSeat), "L05 W1 W2"},
		{"Bruno's past words at 2 (L07 became public)", s.PastWords(2, 1, engine.NoSeat), "L09 W1"},
		{"Bruno's past words for Anna at 2", s.PastWords(2, 1, 0), "L09"},
		{"Anna's money for the table at 1", s.Money(1, 0, engine.NoSeat), "23"},
		{"Bruno's money for the table at 1", s.Money(1, 1, engine.NoSeat), "31"},
		{"Anna's money for Bruno at 2 (he holds 31 too)", s.Money(2, 0, 1), ""},
	} {
		if got := strings.Join(tt.got, " "); got != tt.want {
			t.Errorf("%s = %q, want %q", tt.name, got, tt.want)
		}
	}
	if a := s.At(1); a == nil || a.Over || !s.At(2).Over || s.At(3) != nil || s.Last() != 2 {
		t.Errorf("At(1) = %+v, At(2).Over, At(3), Last() = %d: want states 1 (running) and 2 (over), last 2", a, s.Last())
	}
}

func TestLeaves(t *testing.T) {
	v := ToJSON(map[string]any{"mine": map[string]any{"cards": []string{"L01", `a"b\c`, "<é>"}, "ducats": 120}, "name": "Anna"})
	var got []string
	Leaves(v, "", func(path string, x any) { got = append(got, fmt.Sprintf("%s=%v", path, x)) })
	slices.Sort(got)
	want := []string{"/mine/cards/0=L01", `/mine/cards/1=a"b\c`, "/mine/cards/2=<é>", "/mine/ducats=120", "/name=Anna"}
	if !slices.Equal(got, want) {
		t.Errorf("Leaves(%v) = %q, want %q", v, got, want)
	}
}
