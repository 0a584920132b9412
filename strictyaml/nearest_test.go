package strictyaml

import "testing"

func TestNearest(t *testing.T) {
	keys := []string{"version", "game", "players", "journal", "table", "listen", "base_url", "staff_pin", "tags", "board", "replay", "devices"}
	for _, tc := range []struct {
		word string
		want string
	}{
		{"player", "players"},
		{"jounral", "journal"}, // swapped letters
		{"baseurl", "base_url"},
		{"listen_on", ""}, // too far
		{"stafpin", "staff_pin"},
		{"bord", "board"},
		{"gam", "game"},
		{"xy", ""},     // too short to guess
		{"colour", ""}, // nothing near
		{"Tables", "table"},
	} {
		if got := Nearest(tc.word, keys); got != tc.want {
			t.Errorf("Nearest(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
	if got := Nearest("cat", []string{"bat", "hat"}); got != "" {
		t.Errorf("Nearest(cat, [bat hat]) = %q, want none (a tie)", got)
	}
}
