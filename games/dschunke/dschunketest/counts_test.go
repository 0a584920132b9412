package dschunketest

import (
	"slices"
	"testing"
)

// TestCounts: the checker finds the counts of goods, and the wrong forms
// among them and only them, in either language and any case.
func TestCounts(t *testing.T) {
	c := NewCounts("poisson", "fish", "riz", "rice", "épices", "spices", "légumes", "vegetables")
	for _, tt := range []struct {
		name  string
		text  string
		found int
		bad   []string
	}{
		{"bare names en", "Anna restocks: 1 vegetables, 2 spices", 2, []string{"1 vegetables", "2 spices"}},
		{"bare names fr", "Anna se réapprovisionne : 2 poisson, 1 épices", 2, []string{"2 poisson", "1 épices"}},
		{"wrong number", "1 cartes riz, 2 carte poisson, 2 fish card, 1 RICE CARDS", 4,
			[]string{"1 cartes riz", "2 carte poisson", "2 fish card", "1 RICE CARDS"}},
		{"a card in both languages", "1 carte fish card", 1, []string{"1 carte fish card"}},
		{"cards en", "1 vegetables card, 2 spices cards, 0 fish cards", 3, nil},
		{"cards fr", "1 carte légumes, 2 cartes épices, 0 carte poisson, 3 CARTES POISSON", 4, nil},
		{"zero in English is plural", "0 fish card", 1, []string{"0 fish card"}},
		{"prices", "poisson 2 yuans, riz 1 yuan", 0, nil},
		{"a longer word", "2 fishes", 0, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := c.Find(tt.text); len(got) != tt.found {
				t.Errorf("Find(%q) = %q, want %d counts", tt.text, got, tt.found)
			}
			if got := c.Bad(tt.text); !slices.Equal(got, tt.bad) {
				t.Errorf("Bad(%q) = %q, want %q", tt.text, got, tt.bad)
			}
		})
	}
}
