package negoce

import (
	"errors"
	"strings"
	"testing"

	"comptoir/configs"
	"comptoir/strictyaml"
)

func TestDefaultCatalog(t *testing.T) {
	c, err := DefaultCatalog()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[CardID]bool{}
	for i := range NumCards {
		id := c.ID(i)
		if seen[id] {
			t.Errorf("card id %q twice", id)
		}
		seen[id] = true
		if j, ok := c.Card(id); !ok || j != i {
			t.Errorf("Card(%q) = %d, %v, want %d, true", id, j, ok, i)
		}
	}
	if len(seen) != 33 {
		t.Errorf("%d cards, want 33 (8 goods × 4 + Contraband)", len(seen))
	}
	// "4 cartes « Jade », numérotées « 1 »" ... "4 cartes « Thé », numérotées « 8 »".
	want := []string{"Jade", "Bijoux", "Parfum", "Epices", "Café", "Soie", "Vin", "Thé"}
	for i, fr := range want {
		g := c.Goods[i]
		if fold(g.FR) != fold(fr) || g.Number != i+1 {
			t.Errorf("good %d = %s number %d, want %s number %d", i, g.FR, g.Number, fr, i+1)
		}
	}
	if ids := c.IDs(); len(ids) != 33 || ids[0] != "jade-1" || ids[32] != "contraband" {
		t.Errorf("IDs() = %v, want jade-1 ... contraband, 33 ids", ids)
	}
	if c.ContrabandFR != "Contrebande" {
		t.Errorf("Contraband is called %q, want Contrebande", c.ContrabandFR)
	}
}

func TestCatalogGood(t *testing.T) {
	c, err := DefaultCatalog()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		in   Good
		want int
		ok   bool
	}{
		{"silk", 5, true},
		{"Soie", 5, true},
		{"SOIE", 5, true},
		{"6", 5, true},
		{"épices", 3, true},
		{"Epices", 3, true},
		{"spices", 3, true},
		{" tea ", 7, true},
		{"thé", 7, true},
		{"1", 0, true},
		{"0", 0, false},
		{"9", 0, false},
		{"contraband", 0, false},
		{"Contrebande", 0, false},
		{"", 0, false},
		{"gold", 0, false},
	}
	for _, tt := range tests {
		t.Run(string(tt.in), func(t *testing.T) {
			got, ok := c.Good(tt.in)
			if ok != tt.ok || ok && got != tt.want {
				t.Errorf("Good(%q) = %d, %v, want %d, %v", tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func defaultYAML(t testing.TB) string {
	data, err := configs.FS.ReadFile(CatalogFile)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestDecodeCatalogErrors breaks the shipped catalog one way at a time and
// checks the error names the line, the key and what is wrong.
func TestDecodeCatalogErrors(t *testing.T) {
	base := defaultYAML(t)
	tests := []struct {
		name     string
		old, new string // replace old by new in the shipped file (old "" replaces the whole file)
		sentinel error
		want     string // in the error text
	}{
		{"empty", "", "", ErrMissingKey, `cards.yaml:1: empty file; expected a mapping with a version key`},
		{"not yaml", "", "goods: [", ErrBadValue, "cards.yaml"},
		{"top list", "", "- 1\n", ErrBadValue, `cards.yaml:1: top level is a list; expected a mapping`},
		{"no version", "version: 1\n", "", ErrMissingKey, `key "version"`},
		{"version 2", "version: 1", "version: 2", ErrBadValue, `cards.yaml:20: key "version": version 2 is not supported; this Comptoir reads version 1`},
		{"unknown top key", "version: 1", "version: 1\ncolour: red", ErrUnknownKey, `cards.yaml:21: key "colour": unknown key in the card catalog; expected one of version, goods, contraband`},
		{"unknown good key", "    number: 1\n", "    number: 1\n    colour: green\n", ErrUnknownKey, `key "goods[0].colour"`},
		{"missing fr", "    fr: Jade\n", "", ErrMissingKey, `key "goods[0].fr"`},
		{"goods not a list", "goods:\n", "goods: 3\nx:\n", ErrUnknownKey, `key "x"`},
		{"seven goods", "  - key: tea\n    number: 8\n    fr: Thé\n    en: Tea\n    cards: [tea-1, tea-2, tea-3, tea-4]\n", "", ErrBadValue, "7 goods listed; Négoce 2 has exactly 8"},
		{"three cards", "[jade-1, jade-2, jade-3, jade-4]", "[jade-1, jade-2, jade-3]", ErrBadValue, `cards.yaml:26: key "goods[0].cards": bad value: 3 cards listed; every good has exactly 4`},
		{"duplicate card", "jade-4]", "jewels-1]", ErrBadValue, `key "goods[1].cards[0]": bad value: "jewels-1" is already used at goods[0].cards[3] line 26`},
		{"bad id", "jade-4]", "Jade 4]", ErrBadValue, `card id "Jade 4": use lower-case letters`},
		{"number 9", "number: 8", "number: 9", ErrBadValue, `cards.yaml:58: key "goods[7].number": bad value: 9: want a number from 1 to 8`},
		{"number twice", "number: 8", "number: 7", ErrBadValue, "number 7 is already wine's"},
		{"empty name", "en: Tea", "en: \"\"", ErrBadValue, `key "goods[7].en": bad value: a name cannot be empty`},
		{"same name", "en: Tea", "en: Wine", ErrBadValue, `name "wine" is also good wine's`},
		{"contraband missing id", "  id: contraband\n", "", ErrMissingKey, `key "contraband.id"`},
		{"contraband id taken", "id: contraband", "id: tea", ErrBadValue, `"tea" is already used`},
		{"key given twice", "  - key: jade\n", "  - key: jade\n    key: jade2\n", ErrBadValue, `key "goods[0].key": given twice in goods[0]; keep one`},
		{"goods a number", "", "version: 1\ngoods: 3\ncontraband: {id: c, fr: C, en: C}\n", ErrBadValue, `cards.yaml:2: key "goods": is a number; expected a list`},
		{"good a list", "  - key: jade\n    number: 1\n    fr: Jade\n    en: Jade\n    cards: [jade-1, jade-2, jade-3, jade-4]\n", "  - [jade]\n", ErrBadValue, `cards.yaml:22: key "goods[0]": goods[0] is a list; expected a mapping`},
		{"number text", "number: 8", "number: eight", ErrBadValue, `cards.yaml:58: key "goods[7].number": is a text "eight"; expected a whole number`},
		{"name a list", "en: Tea", "en: [Tea]", ErrBadValue, `key "goods[7].en": is a list; expected a text`},
		{"cards a mapping", "[jade-1, jade-2, jade-3, jade-4]", "{a: jade-1}", ErrBadValue, `cards.yaml:26: key "goods[0].cards": is a mapping; expected a list`},
		{"contraband unknown key", "  id: contraband\n", "  id: contraband\n  number: 0\n", ErrUnknownKey, `key "contraband.number": unknown key in contraband; expected one of id, fr, en`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.new
			if tt.old != "" {
				if !strings.Contains(base, tt.old) {
					t.Fatalf("the shipped catalog has no %q", tt.old)
				}
				in = strings.Replace(base, tt.old, tt.new, 1)
			}
			_, err := DecodeCatalog([]byte(in), "cards.yaml")
			if err == nil {
				t.Fatalf("DecodeCatalog = nil error, want %v", tt.sentinel)
			}
			if !errors.Is(err, tt.sentinel) || !errors.Is(err, strictyaml.ErrInvalid) {
				t.Errorf("DecodeCatalog error %q does not wrap %v", err, tt.sentinel)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("DecodeCatalog error = %q, want it to hold %q", err, tt.want)
			}
		})
	}
}

func FuzzDecodeCatalog(f *testing.F) {
	f.Add([]byte(defaultYAML(f)))
	f.Add([]byte("version: 1\ngoods: []\ncontraband: {id: c, fr: C, en: C}\n"))
	f.Add([]byte("version: 1\ngoods: [{key: a, number: 1, fr: A, en: A, cards: [a, b, c, d]}]\n"))
	f.Add([]byte("&a [*a]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := DecodeCatalog(data, "fuzz.yaml")
		if err != nil {
			if !errors.Is(err, strictyaml.ErrInvalid) || !strings.HasPrefix(err.Error(), "fuzz.yaml") {
				t.Fatalf("error %q does not name the file or does not wrap strictyaml.ErrInvalid", err)
			}
			if c != nil {
				t.Fatal("a catalog and an error")
			}
			return
		}
		// A catalog that decodes is a whole deck: 33 distinct ids that
		// resolve back, 8 goods that resolve by key and number.
		seen := map[CardID]bool{}
		for i := range NumCards {
			id := c.ID(i)
			if j, ok := c.Card(id); !ok || j != i || seen[id] {
				t.Fatalf("card %d %q does not resolve back", i, id)
			}
			seen[id] = true
		}
		for g, info := range c.Goods {
			if got, ok := c.Good(info.Key); !ok || got != g {
				t.Fatalf("good %q resolves to %d, want %d", info.Key, got, g)
			}
		}
	})
}
