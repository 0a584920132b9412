package main

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"comptoir/games/genoa/catalog"
	"comptoir/games/negoce"
	"comptoir/hw/tagmap"
	strict "comptoir/strictyaml"
)

func TestEnrollCardsFromReplay(t *testing.T) {
	tags := filepath.Join(t.TempDir(), "tags.yaml")
	args := []string{"enroll", "--replay", "../../hw/testdata/enroll-taps.jsonl", "--tags", tags, "--no-squares", "--cards", "testdata/enroll-cards.yaml"}
	out, errs, code := runCmd(t, args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	want := `tap card L01 (large-order)  [1/3]
  04C00000000101 = card L01
tap card S01 (small-order)  [2/3]
  nfc fault: nfc: SPI transfer failed
  refused: tag already enrolled: 04C00000000101 is card L01 (large-order); remove it first to enroll it as card S01
tap card S01 (small-order)  [2/3]
  04C00000000201 = card S01
tap card S02 (small-order)  [3/3]
  04C00000000202 = card S02
all 3 enrolled; saved in ` + tags + "\n"
	if out != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", out, want)
	}
	m, err := tagmap.Load(tags)
	if err != nil {
		t.Fatal(err)
	}
	if tg, ok := m.Lookup("04C00000000202"); !ok || tg.ID != "S02" {
		t.Errorf("Lookup(04C00000000202) = %v, %v; want card S02", tg, ok)
	}
	// Again: nothing left to do.
	out, _, code = runCmd(t, args...)
	if code != 0 || !strings.HasPrefix(out, "every target already has a tag") {
		t.Errorf("second run: exit %d\n%s", code, out)
	}
}

func TestEnrollSquaresNamedByTheBoard(t *testing.T) {
	tags := filepath.Join(t.TempDir(), "tags.yaml")
	out, errs, code := runCmd(t, "enroll", "--replay", "../../hw/testdata/table-demo.jsonl", "--tags", tags)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	lines := strings.Split(out, "\n")
	if !strings.HasPrefix(lines[0], "tap square 1-1 (") || !strings.HasSuffix(lines[0], ")  [1/64]") {
		t.Errorf("first prompt %q, want square 1-1 named by the board, 1 of 64", lines[0])
	}
	if !strings.Contains(out, "no more taps: 5 of 64 enrolled") {
		t.Errorf("output does not end with the 5 taps of the demo enrolled:\n%s", out)
	}
	labels, err := squareLabels("")
	if err != nil {
		t.Fatal(err)
	}
	if labels["3-2"] != "Street" || labels["4-4"] != "Market" || len(labels) != 64 {
		t.Errorf("board labels: 3-2 %q, 4-4 %q, %d cells; want Street, Market, 64", labels["3-2"], labels["4-4"], len(labels))
	}
}

func TestEnrollUsage(t *testing.T) {
	for _, args := range [][]string{{"enroll"}, {"enroll", "--replay", "x.jsonl"}} {
		_, errs, code := runCmd(t, args...)
		if code != 2 || !strings.Contains(errs, "comptoir enroll:") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}

// TestCatalogCards reads the three games' embedded card catalogs through
// their own decoders, the game told by the file or given.
func TestCatalogCards(t *testing.T) {
	_, gc, err := catalog.Load("alea-2001")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, game     string
		n              int
		first, last    tagmap.Target
		wantGameInFile bool
	}{
		{"../../configs/genoa/cards.yaml", "", len(gc.Cards), cardTarget("L01", "large-order"), cardTarget("C14", "contract"), true},
		{"../../configs/genoa/cards.yaml", "genoa", len(gc.Cards), cardTarget("L01", "large-order"), cardTarget("C14", "contract"), false},
		{"../../configs/negoce/cards.yaml", "", negoce.NumCards, cardTarget("jade-1", "Jade (jade-1)"), cardTarget("contraband", "Contraband"), true},
		// 10 market cards, 30 special cards, 8 restock cards (rules/dschunke).
		{"../../configs/dschunke/cards.yaml", "", 10 + 30 + 8, cardTarget("market-01", "market"), cardTarget("restock-yellow-2", "restock yellow"), true},
		{"testdata/enroll-cards.yaml", "", 3, cardTarget("L01", "large-order"), cardTarget("S02", "small-order"), true},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(filepath.Dir(tt.path))+"/"+tt.game, func(t *testing.T) {
			got, err := catalogCards(tt.path, tt.game)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tt.n {
				t.Errorf("%d cards, want %d", len(got), tt.n)
			}
			if len(got) > 0 && (got[0] != tt.first || got[len(got)-1] != tt.last) {
				t.Errorf("first %v, last %v; want %v, %v", got[0], got[len(got)-1], tt.first, tt.last)
			}
			seen := map[string]bool{}
			for _, c := range got {
				if c.Kind != tagmap.KindCard || seen[c.ID] {
					t.Errorf("card %v: not a card, or listed twice", c)
				}
				seen[c.ID] = true
			}
		})
	}
}

// TestEnrollBadFiles: a bad cards file or board layout is refused before
// any tap, the error naming the file, the line and the key.
func TestEnrollBadFiles(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"misspelt card key", []string{"--no-squares", "--cards", "testdata/enroll-cards-bad.yaml"},
			`testdata/enroll-cards-bad.yaml:6: key "bulding": unknown key in a card of small-orders; expected one of id, building, good`},
		{"misspelt board key", []string{"--board", "testdata/enroll-board-bad.yaml"},
			`testdata/enroll-board-bad.yaml:5: key "buildngs": unknown key in the board file`},
		{"wrong game", []string{"--no-squares", "--game", "negoce", "--cards", "testdata/enroll-cards.yaml"},
			`testdata/enroll-cards.yaml:5: key "large-orders": unknown key in the card catalog`},
		{"no game's keys", []string{"--no-squares", "--cards", "testdata/enroll-board-bad.yaml"},
			"testdata/enroll-board-bad.yaml: cannot tell which game's cards file this is"},
		{"unknown game", []string{"--no-squares", "--game", "chess", "--cards", "testdata/enroll-cards.yaml"},
			`--game "chess"; give one of genoa, negoce, dschunke`},
		{"a recording, not a cards file", []string{"--no-squares", "--cards", "../../hw/testdata/enroll-taps.jsonl"},
			"enroll-taps.jsonl: cannot tell which game's cards file this is"},
		{"not YAML", []string{"--no-squares", "--cards", "testdata/enroll-cards-notyaml.yaml"},
			"testdata/enroll-cards-notyaml.yaml:3: not valid YAML"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tags := filepath.Join(t.TempDir(), "tags.yaml")
			args := append([]string{"enroll", "--replay", "../../hw/testdata/enroll-taps.jsonl", "--tags", tags}, tt.args...)
			out, errs, code := runCmd(t, args...)
			if code != 1 || !strings.Contains(errs, tt.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and %q", code, errs, tt.want)
			}
			if strings.Contains(out, "tap ") {
				t.Errorf("prompted for taps despite the bad file:\n%s", out)
			}
		})
	}
	// The decoders' errors are strictyaml's, with their sentinels.
	_, err := catalogCards("testdata/enroll-cards-bad.yaml", "")
	var serr *strict.Error
	if !errors.As(err, &serr) || serr.Line != 6 || serr.Key != "bulding" || !errors.Is(err, catalog.ErrInvalid) || !errors.Is(err, strict.ErrUnknownKey) {
		t.Errorf("catalogCards(bad) = %v; want a *strictyaml.Error at line 6, key bulding, wrapping catalog.ErrInvalid and ErrUnknownKey", err)
	}
}
