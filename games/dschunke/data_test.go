package dschunke

import (
	"errors"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"comptoir/configs"
	strict "comptoir/strictyaml"
)

func embedded(t testing.TB) (board, cards []byte) {
	t.Helper()
	b, err := configs.FS.ReadFile(BoardFile)
	if err != nil {
		t.Fatal(err)
	}
	c, err := configs.FS.ReadFile(CardsFile)
	if err != nil {
		t.Fatal(err)
	}
	return b, c
}

// TestEmbeddedData checks the data files the game ships with: the counts
// the rules text gives.
func TestEmbeddedData(t *testing.T) {
	d, err := LoadData()
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Market) != 10 || len(d.Special) != 30 || len(d.Restock) != 8 {
		t.Errorf("%d market, %d special, %d restock cards; the box has 10, 30, 8", len(d.Market), len(d.Special), len(d.Restock))
	}
	count := map[Effect]int{}
	for _, c := range d.Special {
		count[c.Effect]++
	}
	want := map[Effect]int{EffRestockPlus: 6, EffWinTies: 1, EffExchange: 2, EffPlacePalette: 2, EffIncome: 5, EffTakeGoods: 2, EffMovePalette: 2, EffBonus: 10}
	for e, n := range want {
		if count[e] != n {
			t.Errorf("%d cards %s, the text lists %d", count[e], e, n)
		}
	}
	cards := 0
	for _, g := range d.Goods {
		cards += g.Cards
	}
	if cards != 72 {
		t.Errorf("%d goods cards, the box has 72", cards)
	}
	// The text's examples: market cards of pages 3 and 5.
	if d.Market[0].Prices != [NumGoods]int{2, 1, 4, PriceSpecial} || d.Market[1].Prices != [NumGoods]int{PriceSpecial, 4, 1, 2} {
		t.Errorf("market-01 %v, market-02 %v; want the text's examples", d.Market[0].Prices, d.Market[1].Prices)
	}
}

// TestDecodeErrors breaks the embedded files one way at a time: each
// error names the file, the line and what is wrong.
func TestDecodeErrors(t *testing.T) {
	board, cards := embedded(t)
	tests := []struct {
		name      string
		file      string // "board" or "cards"
		old, new  string
		want      string
		wantPlace string
	}{
		{"unknown key", "board", "palettes: 20", "palettes: 20\npalletes: 20", "unknown key", "board.yaml:"},
		{"version", "board", "version: 1", "version: 2", "version 2 is not supported", "board.yaml:15"},
		{"four junks", "board", "  - {key: grey, fr: grise, en: grey, goods: none}\n", "", "4 junks", "board.yaml:"},
		{"two grey junks", "board", "goods: vegetables}", "goods: none}", "2 junks without goods", "board.yaml:"},
		{"unknown goods on a junk", "board", "goods: fish}", "goods: tea}", `unknown goods "tea"`, "board.yaml:"},
		{"a track row short", "board", "    - {action: goods, event: none}\n  top:", "  top:", "9 squares", "board.yaml:"},
		{"unknown action", "board", "{action: income, event: S}", "{action: sell, event: S}", `unknown action "sell"`, "board.yaml:"},
		{"unknown event", "board", "{action: income, event: S}", "{action: income, event: X}", `unknown event "X"`, "board.yaml:"},
		{"two merchants on a junk", "board", "income: orange", "income: brown", "two merchants", "board.yaml:"},
		{"colour not playing", "board", "purple: [blue]", "purple: [yellow]", `colour "yellow" does not play with 3 players`, "board.yaml:"},
		{"nine market cards", "cards", "  - {id: market-10, prices: {fish: S, rice: 2, spices: 4, vegetables: 6}, stand-in: true}\n", "", "9 market cards", "cards.yaml:"},
		{"price not a number", "cards", "{fish: 2, rice: 1,", "{fish: two, rice: 1,", "expected a price in yuans or S", "cards.yaml:19"},
		{"duplicate id", "cards", "id: market-02", "id: market-01", `card "market-01" is also on line 19`, "cards.yaml:20"},
		{"bad id", "cards", "id: win-ties", "id: Win Ties", "use lower-case letters", "cards.yaml:"},
		{"timing does not fit", "cards", "effect: win-ties, timing: always", "effect: win-ties, timing: end", "effect win-ties is played always, not end", "cards.yaml:"},
		{"income card without junk", "cards", "timing: extra, junk: brown}", "timing: extra}", "missing; effect income needs it", "cards.yaml:"},
		{"junk on a card without one", "cards", "{id: win-ties, effect: win-ties, timing: always}", "{id: win-ties, effect: win-ties, timing: always, junk: grey}", "takes no junk", "cards.yaml:"},
		{"bonus of ten crates", "cards", "need: {brown: 4}", "need: {brown: 10}", "10 crates", "cards.yaml:"},
		{"restock colour missing", "cards", "  - {id: restock-yellow-1, colour: yellow}\n  - {id: restock-yellow-2, colour: yellow}\n", "", "no restock card of colour yellow", "cards.yaml:"},
		{"not YAML", "cards", "market:", "market: [", "not valid YAML", "cards.yaml:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, c := string(board), string(cards)
			target := &b
			if tt.file == "cards" {
				target = &c
			}
			if !strings.Contains(*target, tt.old) {
				t.Fatalf("the %s file has no %q", tt.file, tt.old)
			}
			*target = strings.Replace(*target, tt.old, tt.new, 1)
			_, err := Decode([]byte(b), "board.yaml", []byte(c), "cards.yaml")
			if err == nil {
				t.Fatalf("Decode accepted the file with %q", tt.new)
			}
			if !errors.Is(err, ErrData) || !errors.Is(err, strict.ErrInvalid) {
				t.Errorf("error %v does not wrap ErrData and strictyaml.ErrInvalid", err)
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), tt.wantPlace) {
				t.Errorf("Decode = %q, want %q at %s", err, tt.want, tt.wantPlace)
			}
		})
	}
}

// FuzzDecode feeds the decoder mangled data files: it must return data or
// an ErrData error, never panic, and data it accepts must start games.
func FuzzDecode(f *testing.F) {
	board, cards := embedded(f)
	f.Add(board, cards)
	f.Add([]byte("version: 1"), cards)
	f.Add(board, []byte("version: 1\nmarket: []"))
	f.Fuzz(func(t *testing.T, board, cards []byte) {
		d, err := Decode(board, "board.yaml", cards, "cards.yaml")
		if err != nil {
			if !errors.Is(err, ErrData) {
				t.Fatalf("error %v does not wrap ErrData", err)
			}
			return
		}
		for _, n := range []int{3, 4} {
			s := newState(engineSetup(n), d)
			if err := s.Check(); err != nil && !strings.Contains(err.Error(), "palettes") {
				t.Fatalf("start with accepted data: %v", err)
			}
			_ = s.Legal()
		}
	})
}

// TestEnrollableIDs checks that the cards file gives every physical card
// an id: key, as `comptoir enroll --cards` reads them (every mapping with
// an id, anywhere in the file): 10 market, 30 special, 8 restock cards.
func TestEnrollableIDs(t *testing.T) {
	_, cards := embedded(t)
	var doc yaml.Node
	if err := yaml.Unmarshal(cards, &doc); err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == "id" {
					if ids[n.Content[i+1].Value] {
						t.Errorf("id %s twice", n.Content[i+1].Value)
					}
					ids[n.Content[i+1].Value] = true
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&doc)
	if len(ids) != 48 {
		t.Errorf("%d card ids, want 48 (10 market, 30 special, 8 restock)", len(ids))
	}
}
