package board

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"comptoir/configs"
	strict "comptoir/strictyaml"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

func defaultData(t testing.TB) []byte {
	t.Helper()
	data, err := configs.FS.ReadFile(DefaultFile)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestSquareAt(t *testing.T) {
	b := Default()
	tests := []struct {
		x, y int
		want string
	}{
		{4, 4, "market"}, {5, 5, "market"},
		{3, 2, "street-3-2"},
		{4, 3, "guild-hall"}, {5, 3, "guild-hall"},
		{1, 1, "villa-monetti"}, {8, 8, "villa-colini"},
		{8, 1, "villa-ricci"}, {1, 8, "villa-zasteri"},
	}
	for _, tt := range tests {
		if got := b.Square(b.SquareAt(tt.x, tt.y)).Key; got != tt.want {
			t.Errorf("SquareAt(%d, %d) = %s, want %s", tt.x, tt.y, got, tt.want)
		}
	}
	for _, c := range [][2]int{{0, 1}, {1, 0}, {9, 1}, {1, 9}, {-1, -1}} {
		if got := b.SquareAt(c[0], c[1]); got != NoSquare {
			t.Errorf("SquareAt(%d, %d) = %d, want NoSquare", c[0], c[1], got)
		}
	}
}

func TestIDsAndKeys(t *testing.T) {
	b := Default()
	for i, s := range b.Squares() {
		if int(s.ID) != i {
			t.Errorf("Squares()[%d].ID = %d", i, s.ID)
		}
		id, ok := b.ByKey(s.Key)
		if !ok || id != s.ID {
			t.Errorf("ByKey(%q) = %d, %v; want %d, true", s.Key, id, ok, s.ID)
		}
		for _, c := range s.Cells {
			if got := b.SquareAt(c.X, c.Y); got != s.ID {
				t.Errorf("SquareAt(%v) = %d, want %d (%s)", c, got, s.ID, s.Key)
			}
		}
	}
	if b.Market() != 0 {
		t.Errorf("Market() = %d, want 0", b.Market())
	}
	if _, ok := b.ByKey("nowhere"); ok {
		t.Error(`ByKey("nowhere") found a square`)
	}
	for name, key := range map[string]string{"Kutscherei": "coach-house", "Relais": "coach-house", "hangar": "coach-house",
		"Gildenhalle": "guild-hall", "Hafen": "harbour", "Restaurant": "trattoria", "Inn": "trattoria", "Poststation": "post-office"} {
		id, ok := b.ByName(name)
		if !ok || b.Square(id).Key != key {
			t.Errorf("ByName(%q) = %v, %v; want %s", name, id, ok, key)
		}
	}
}

func TestNeighbours(t *testing.T) {
	b := Default()
	n := SquareID(b.Len())
	for a := SquareID(0); a < n; a++ {
		nb := b.Neighbours(a)
		if len(nb) == 0 {
			t.Errorf("%s has no neighbours", b.Square(a).Key)
		}
		if Set(0).With(a)&b.NeighbourSet(a) != 0 {
			t.Errorf("%s is its own neighbour", b.Square(a).Key)
		}
		for _, x := range nb {
			if !b.Adjacent(x, a) {
				t.Errorf("adjacency not symmetric: %s, %s", b.Square(a).Key, b.Square(x).Key)
			}
			if b.Distance(a, x) != 1 {
				t.Errorf("Distance(%s, %s) = %d, want 1", b.Square(a).Key, b.Square(x).Key, b.Distance(a, x))
			}
		}
		if got := b.NeighbourSet(a).Len(); got != len(nb) {
			t.Errorf("NeighbourSet(%d).Len() = %d, want %d", a, got, len(nb))
		}
	}
	// Street 3-2: touches 2-2, 4-2, 3-3 and the north-west warehouse.
	var got []string
	for _, x := range b.Neighbours(b.SquareAt(3, 2)) {
		got = append(got, b.Square(x).Key)
	}
	want := "warehouse-nw street-2-2 street-4-2 street-3-3"
	if strings.Join(got, " ") != want {
		t.Errorf("Neighbours(3-2) = %v, want %s", got, want)
	}
}

func TestDiagonalIsNotAdjacent(t *testing.T) {
	// Berclaz: "bâtiments adjacents (pas en diagonale)". The post office
	// (6-4) and the coach house (7-3) meet only at a corner.
	b := Default()
	post, coach := mustKey(t, b, "post-office"), mustKey(t, b, "coach-house")
	if b.BuildingsAdjacent(post, coach) {
		t.Error("post office and coach house touch only diagonally but are adjacent")
	}
	if b.BuildingsAdjacent(coach, coach) {
		t.Error("a building is adjacent to itself")
	}
	if b.BuildingsAdjacent(b.SquareAt(6, 3), coach) {
		t.Error("a street counts as an adjacent building")
	}
}

func TestTouching(t *testing.T) {
	b := Default()
	for _, s := range b.Squares() {
		switch s.Kind {
		case Building:
			if len(b.BuildingsTouching(s.ID)) != 0 {
				t.Errorf("BuildingsTouching(building %s) not empty", s.Key)
			}
			for _, st := range b.StreetsTouching(s.ID) {
				if b.Square(st).Kind != Street || !b.Adjacent(st, s.ID) {
					t.Errorf("StreetsTouching(%s) holds %s", s.Key, b.Square(st).Key)
				}
			}
		case Street:
			for _, bl := range b.BuildingsTouching(s.ID) {
				if b.Square(bl).Kind != Building || !b.Adjacent(bl, s.ID) {
					t.Errorf("BuildingsTouching(%s) holds %s", s.Key, b.Square(bl).Key)
				}
			}
		default:
			if len(b.StreetsTouching(s.ID))+len(b.BuildingsTouching(s.ID)) != 0 {
				t.Error("market touches as street or building")
			}
		}
	}
	var got []string
	for _, x := range b.BuildingsTouching(b.SquareAt(6, 3)) {
		got = append(got, b.Square(x).Key)
	}
	if strings.Join(got, " ") != "coach-house guild-hall post-office" {
		t.Errorf("BuildingsTouching(6-3) = %v", got)
	}
}

func TestDistance(t *testing.T) {
	b := Default()
	n := SquareID(b.Len())
	max := 0
	for a := SquareID(0); a < n; a++ {
		if b.Distance(a, a) != 0 {
			t.Errorf("Distance(%d, %d) = %d", a, a, b.Distance(a, a))
		}
		for c := SquareID(0); c < n; c++ {
			d := b.Distance(a, c)
			if d != b.Distance(c, a) {
				t.Errorf("Distance not symmetric for %d, %d", a, c)
			}
			if a != c && d == 0 {
				t.Errorf("Distance(%d, %d) = 0", a, c)
			}
			if d > max {
				max = d
			}
			// Triangle inequality through every neighbour.
			for _, x := range b.Neighbours(c) {
				if b.Distance(a, x) > d+1 {
					t.Errorf("Distance(%d, %d) = %d but neighbour %d is %d away", a, c, d, x, b.Distance(a, x))
				}
			}
		}
	}
	if max == 0 || max > 12 {
		t.Errorf("largest distance %d", max)
	}
}

func TestSet(t *testing.T) {
	var s Set
	if s.Has(0) || s.Len() != 0 {
		t.Fatal("zero Set not empty")
	}
	s = s.With(3).With(38).With(3)
	if !s.Has(3) || !s.Has(38) || s.Has(4) || s.Len() != 2 {
		t.Errorf("Set = %b", s)
	}
	if s.Has(NoSquare) {
		t.Error("Set has NoSquare")
	}
}

func TestNotes(t *testing.T) {
	b := Default()
	for x := 1; x <= 8; x++ {
		for y := 1; y <= 8; y++ {
			n := b.Note(Cell{X: x, Y: y})
			if !strings.HasPrefix(n, "sourced: ") && !strings.HasPrefix(n, "inferred: ") {
				t.Errorf("cell %d-%d note %q: every cell of board.yaml says sourced or inferred", x, y, n)
			}
		}
	}
	if n := b.Note(Cell{X: 3, Y: 2}); !strings.HasPrefix(n, "sourced:") {
		t.Errorf("cell 3-2 note %q, want sourced", n)
	}
}

func TestEncodeRoundTrip(t *testing.T) {
	b := Default()
	enc := b.Encode()
	b2, err := Decode(enc, "encoded.yaml")
	if err != nil {
		t.Fatalf("Decode(Encode()) error: %v\n%s", err, enc)
	}
	if b.String() != b2.String() {
		t.Errorf("round trip changed the layout:\n%s\nwant\n%s", b2, b)
	}
	for i, s := range b.Squares() {
		s2 := b2.Squares()[i]
		if s.Key != s2.Key || s.NameFR != s2.NameFR || s.NameEN != s2.NameEN || len(s.Names) != len(s2.Names) || len(s.Aliases) != len(s2.Aliases) {
			t.Errorf("square %d: %+v, want %+v", i, s2, s)
		}
	}
	if !bytes.Equal(b2.Encode(), enc) {
		t.Error("Encode is not stable over a round trip")
	}
	if b2.Note(Cell{X: 3, Y: 2}) != b.Note(Cell{X: 3, Y: 2}) {
		t.Error("notes lost in the round trip")
	}
}

func TestWithCells(t *testing.T) {
	b := Default()
	// Swap: the palazzo takes street 3-7 and gives up 3-8? 3-8 cannot become
	// a street without breaking the edge rule, so move the palazzo's 2-8 to
	// the taverna... Instead: extend the harbour into street 2-5 and turn
	// the harbour's 2-4 into a street: counts and contiguity hold.
	nb, err := b.WithCells(Edit{X: 2, Y: 5, Key: "harbour"}, Edit{X: 2, Y: 4, Key: "street"})
	if err == nil {
		t.Fatalf("WithCells made a disconnected harbour: %v", nb)
	}
	nb, err = b.WithCells(Edit{X: 2, Y: 2, Key: "harbour"}, Edit{X: 2, Y: 4, Key: "street"})
	if err != nil {
		t.Fatalf("WithCells: %v", err)
	}
	if got := nb.Square(nb.SquareAt(2, 2)).Key; got != "harbour" {
		t.Errorf("after edit, 2-2 is %s", got)
	}
	if got := nb.Square(nb.SquareAt(2, 4)).Kind; got != Street {
		t.Errorf("after edit, 2-4 is %v", got)
	}
	if got := b.Square(b.SquareAt(2, 2)).Kind; got != Street {
		t.Error("WithCells changed the original board")
	}
	if n := nb.Note(Cell{X: 2, Y: 2}); n != "edited: was street" {
		t.Errorf("note of edited cell = %q", n)
	}
	// The edited board encodes and decodes to itself.
	again, err := Decode(nb.Encode(), "edited.yaml")
	if err != nil || again.String() != nb.String() {
		t.Errorf("edited board round trip: %v", err)
	}
	// Swapping Villa Zasteri with the warehouse above it leaves it off the
	// corner.
	_, err = b.WithCells(Edit{X: 1, Y: 7, Key: "warehouse-sw"}, Edit{X: 1, Y: 8, Key: "warehouse-sw"},
		Edit{X: 1, Y: 5, Key: "villa-zasteri"}, Edit{X: 1, Y: 6, Key: "villa-zasteri"})
	if err == nil || !strings.Contains(err.Error(), `villa "villa-zasteri" has no corner cell`) {
		t.Errorf("villa moved off its corner: error %v", err)
	}
	// Moving the guild hall to the edge.
	_, err = b.WithCells(Edit{X: 4, Y: 3, Key: "street"}, Edit{X: 5, Y: 3, Key: "street"},
		Edit{X: 4, Y: 2, Key: "guild-hall"}, Edit{X: 5, Y: 2, Key: "guild-hall"})
	if err == nil || !strings.Contains(err.Error(), `building "guild-hall" does not touch the market`) {
		t.Errorf("guild hall moved away from the market: error %v", err)
	}
	// A single edit changes the counts: refused, with the reason.
	_, err = b.WithCell(3, 2, "palazzo")
	if !errors.Is(err, ErrInvalid) {
		t.Errorf("WithCell(3, 2, palazzo) error %v, want ErrInvalid", err)
	}
	for _, tt := range []struct {
		e    Edit
		want string
	}{
		{Edit{X: 0, Y: 2, Key: "street"}, "off the board"},
		{Edit{X: 2, Y: 2, Key: "castle"}, `no building "castle"`},
		{Edit{X: 4, Y: 4, Key: "street"}, "21 street cells; the board has 20"},
		{Edit{X: 4, Y: 4, Key: "guild-hall"}, "the market has 3 cells"},
		{Edit{X: 3, Y: 2, Key: "street"}, ""},
	} {
		_, err := b.WithCells(tt.e)
		if tt.want == "" {
			if err != nil {
				t.Errorf("WithCells(%v) = %v, want no error", tt.e, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, ErrInvalid) {
			t.Errorf("WithCells(%v) error = %v, want %q", tt.e, err, tt.want)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	base := string(defaultData(t))
	// replace returns base with old replaced by new, once; it fails the test
	// if old is not there.
	replace := func(old, new string) string {
		if !strings.Contains(base, old) {
			t.Fatalf("fixture: %q not in board.yaml", old)
		}
		return strings.Replace(base, old, new, 1)
	}
	lineOf := func(s, sub string) string {
		i := strings.Index(s, sub)
		return "board.yaml:" + itoa(strings.Count(s[:i], "\n")+1) + ":"
	}
	tests := []struct {
		name string
		data string
		want []string // substrings of the error
	}{
		{"empty", "", []string{"board.yaml:1: empty file"}},
		{"not yaml", "version: [1\n", []string{"board.yaml:", "not valid YAML"}},
		{"list", "- 1\n", []string{"top level is a list"}},
		{"no version", replace("version: 1\n", ""), []string{`key "version": missing`}},
		{"bad version", replace("version: 1\n", "version: 2\n"), []string{`key "version": version 2 is not supported`}},
		{"version text", replace("version: 1\n", "version: one\n"), []string{`key "version": is a text "one"; expected a whole number`}},
		{"unknown top key", replace("version: 1\n", "version: 1\nboard: x\n"), []string{`key "board": unknown key`, "expected one of version, market, streets, buildings"}},
		{"unknown building key", replace("    cells:\n      - 4-3", "    cels:\n      - 4-3"),
			[]string{lineOf(replace("    cells:\n      - 4-3", "    cels:\n      - 4-3"), "cels:") + ` key "cels": unknown key in a building; expected one of key, fr, en, cells, names, aliases`}},
		{"bad cell", replace("  - 3-2 #", "  - 3-9 #"), []string{lineOf(base, "  - 3-2 #") + ` key "streets": "3-9" is not a cell`}},
		{"cell twice", replace("  - 2-2 # inferred", "  - 4-3 # inferred"), []string{"cell 4-3 is given to both streets and guild-hall"}},
		{"hole", replace("  - 2-2 # inferred: lane around the centre, row 2\n", ""), []string{"cells 2-2 belong to no square"}},
		{"unknown building", replace("key: palazzo", "key: palace"), []string{`unknown building "palace"`}},
		{"bad key", replace("key: palazzo", "key: Palazzo"), []string{`key "key": "Palazzo" is not a building key`}},
		{"building in pieces", strings.Replace(replace("      - 2-8 # inferred: edge building; position not known\n", "      - 6-7 # x\n"),
			"  - 6-7 # inferred: lane, row 7\n", "  - 2-8 # x\n", 1), []string{`building "palazzo" is in several pieces`}},
		{"market off centre", strings.Replace(replace("  - 4-4 # sourced", "  - 3-2 # sourced"), "  - 3-2 # sourced: [F] \"obtient", "  - 4-4 # sourced: [F] \"obtient", 1),
			[]string{"market cell 3-2 is not in the centre"}},
		{"name not text", replace("fr: Guilde", "fr: [Guilde]"), []string{`key "fr": is a list; expected a text`}},
		{"names not map", replace("names: {alea-2001: Gildenhalle, filosofia-2008: Guilde}", "names: Gildenhalle"), []string{`key "names": is a text "Gildenhalle"; expected a mapping`}},
		{"duplicate key", replace("    fr: Guilde\n", "    fr: Guilde\n    fr: Guilde\n"), []string{`key "fr": given twice`}},
		{"missing cells key", replace("    cells:\n      - 4-3 # inferred: [N] flanks the market; placed above it so that a street touches it and the coach house ([F] ownership example)\n      - 5-3 # inferred: same\n", ""),
			[]string{`key "cells": missing in a building`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode([]byte(tt.data), "board.yaml")
			if err == nil {
				t.Fatalf("Decode() = nil error, want %q", tt.want)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("Decode() error %v does not wrap ErrInvalid", err)
			}
			// Layout errors too are strictyaml's, naming the file.
			var serr *strict.Error
			if !errors.As(err, &serr) || serr.File != "board.yaml" || !errors.Is(err, strict.ErrInvalid) {
				t.Errorf("Decode() error %v (%T) is not a *strictyaml.Error about board.yaml", err, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Decode() error = %v\nwant it to contain %q", err, w)
				}
			}
		})
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

func TestDecodeFixtures(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.yaml")
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(strings.TrimSuffix(f, ".yaml") + ".err")
			_, derr := Decode(data, filepath.Base(f))
			got := ""
			if derr != nil {
				got = derr.Error() + "\n"
			}
			if *update {
				if got == "" {
					os.Remove(strings.TrimSuffix(f, ".yaml") + ".err")
				} else if err := os.WriteFile(strings.TrimSuffix(f, ".yaml")+".err", []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if err != nil {
				want = nil
			}
			if got != string(want) {
				t.Errorf("Decode(%s) error:\n%s\nwant:\n%s", f, got, want)
			}
		})
	}
}

func TestStringGolden(t *testing.T) {
	got := Default().String()
	golden := filepath.Join("testdata", "board.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if got != string(want) {
		t.Errorf("String() =\n%s\nwant\n%s", got, want)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(defaultData(f))
	f.Add([]byte("version: 1\nmarket: [4-4]\nstreets: []\nbuildings: []\n"))
	f.Add([]byte("version: 1\n"))
	f.Add([]byte("{"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := Decode(data, "fuzz.yaml")
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error does not wrap ErrInvalid: %v", err)
			}
			return
		}
		// A board that decodes is valid and round-trips.
		if b.Len() != NumSquares {
			t.Fatalf("decoded board has %d squares", b.Len())
		}
		b2, err := Decode(b.Encode(), "again.yaml")
		if err != nil {
			t.Fatalf("Encode of a valid board does not decode: %v", err)
		}
		if b2.String() != b.String() {
			t.Fatal("round trip changed the board")
		}
	})
}

// BenchmarkPaths enumerates every path of up to 4 moves from every square
// without revisiting, as the legal-move generator does.
func BenchmarkPaths(b *testing.B) {
	bd := Default()
	var walk func(at SquareID, visited Set, left int) int
	walk = func(at SquareID, visited Set, left int) int {
		n := 1
		if left == 0 {
			return n
		}
		for _, x := range bd.Neighbours(at) {
			if !visited.Has(x) {
				n += walk(x, visited.With(x), left-1)
			}
		}
		return n
	}
	b.ReportAllocs()
	total := 0
	for b.Loop() {
		total = 0
		for s := SquareID(0); s < NumSquares; s++ {
			total += walk(s, Set(0).With(s), 4)
		}
	}
	b.ReportMetric(float64(total), "paths")
}

func BenchmarkPathsFromOneSquare(b *testing.B) {
	bd := Default()
	var walk func(at SquareID, visited Set, left int) int
	walk = func(at SquareID, visited Set, left int) int {
		n := 1
		if left == 0 {
			return n
		}
		for _, x := range bd.Neighbours(at) {
			if !visited.Has(x) {
				n += walk(x, visited.With(x), left-1)
			}
		}
		return n
	}
	start := bd.Market()
	b.ReportAllocs()
	for b.Loop() {
		walk(start, Set(0).With(start), 4)
	}
}

func BenchmarkDecode(b *testing.B) {
	data := defaultData(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(data, "board.yaml"); err != nil {
			b.Fatal(err)
		}
	}
}
