package genoa

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"comptoir/notation/recordtest"
)

// The corners of the rules that no example game reaches, each a game
// record of testdata/corners/ played from the start, with the rules text
// (or the ruling) it shows quoted in its comments. The test replays each
// record (every line legal, the invariants after every event, the journal
// and notation.Play reaching the same state), checks its Refused tags, and
// checks the outcome the quoted text asks for.
var corners = []struct {
	file  string
	check func(t *testing.T, s *State)
}{
	{"palazzo-villa-large-order.txt", func(t *testing.T, s *State) {
		// Ruling: a building-action tile at one's own villa may deliver a
		// large order for that villa.
		wantDucats(t, s, "Anna", 130-10+100)
		wantTiles(t, s, "Anna", "extra", 1)
		wantTiles(t, s, "Anna", "build", 0)
		if s.CardLoc[s.d.cardByID["L01"]] != -1 {
			t.Errorf("L01 is not back under its deck")
		}
		if n := s.P[0].Goods[s.good("salt")] + s.P[0].Goods[s.good("wheat")] + s.P[0].Goods[s.good("linen")]; n != 0 {
			t.Errorf("Anna still holds %d of the order's goods", n)
		}
	}},
}

func wantDucats(t *testing.T, s *State, name string, want int) {
	t.Helper()
	if got := s.P[seat(t, s, name)].Ducats; got != want {
		t.Errorf("%s holds %d ducats, want %d", name, got, want)
	}
}

func wantTiles(t *testing.T, s *State, name, tile string, want int) {
	t.Helper()
	if got := int(s.P[seat(t, s, name)].Tiles[tileIndex(tile)]); got != want {
		t.Errorf("%s holds %d %s tiles, want %d", name, got, tile, want)
	}
}

func TestCorners(t *testing.T) {
	r := realRules(t)
	for _, c := range corners {
		t.Run(strings.TrimSuffix(c.file, ".txt"), func(t *testing.T) {
			st := recordtest.Scenario(t, r, codec, filepath.Join("testdata", "corners", c.file))
			s := st.(*State)
			if err := s.Check(); err != nil {
				t.Fatal(err)
			}
			c.check(t, s)
		})
	}
}

// TestCornersAllListed fails when a record of testdata/corners/ is not in
// the table above (and so would be replayed without its outcome checked).
func TestCornersAllListed(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "corners", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, c := range corners {
		listed = append(listed, c.file)
	}
	for _, f := range files {
		if !slices.Contains(listed, filepath.Base(f)) {
			t.Errorf("%s is not listed in corners", f)
		}
	}
	for _, c := range corners {
		if _, err := os.Stat(filepath.Join("testdata", "corners", c.file)); err != nil {
			t.Error(err)
		}
	}
}
