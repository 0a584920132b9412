package catalog

import (
	"errors"
	"strings"
	"testing"

	"comptoir/configs"
	"comptoir/games/genoa/board"
	strict "comptoir/strictyaml"
)

func load(t *testing.T, ed string) (*Edition, *Catalog) {
	t.Helper()
	e, c, err := Load(ed)
	if err != nil {
		t.Fatalf("Load(%q): %v", ed, err)
	}
	return e, c
}

func TestEditions(t *testing.T) {
	got := strings.Join(Editions(), " ")
	if got != "alea-2001 filosofia-2008" {
		t.Errorf("Editions() = %s", got)
	}
	_, _, err := Load("monopoly")
	if !errors.Is(err, ErrUnknownEdition) || !strings.Contains(err.Error(), "alea-2001, filosofia-2008") {
		t.Errorf("Load(monopoly) error = %v", err)
	}
}

// TestDifferences checks the RULES-NOTES table "Genoa: two editions, one
// engine", row by row.
func TestDifferences(t *testing.T) {
	alea, _ := load(t, "alea-2001")
	filo, _ := load(t, "filosofia-2008")
	goods := func(e *Edition) string {
		var parts []string
		for _, w := range e.Warehouses {
			parts = append(parts, w.Name+":"+e.Goods[w.Goods[0]].Key+","+e.Goods[w.Goods[1]].Key)
		}
		return strings.Join(parts, " ")
	}
	tests := []struct {
		name      string
		alea, fil any
		wantA     any
		wantF     any
	}{
		// "grain: wheat, rice · metal: silver, copper · cloth: silk, linen · spice: salt, pepper" /
		// "drinks: ale, wine · metal: silver, copper · cloth: linen, silk · spice: pepper, saffron"
		{"goods", goods(alea), goods(filo),
			"Metallager:silver,copper Gewürzlager:salt,pepper Getreidelager:wheat,rice Tuchlager:silk,linen",
			"Métaux:silver,copper Épices:saffron,pepper Boissons:ale,wine Tissus:silk,linen"},
		// "rounds for 2/3/4/5 players: 12/10/8/7 | 12/10/8/6"
		{"rounds", [4]int{alea.Rounds[2], alea.Rounds[3], alea.Rounds[4], alea.Rounds[5]},
			[4]int{filo.Rounds[2], filo.Rounds[3], filo.Rounds[4], filo.Rounds[5]}, [4]int{12, 10, 8, 7}, [4]int{12, 10, 8, 6}},
		// "start on the market: the round track advances one space [...] except during the last round"
		{"market advances", alea.MarketAdvances, filo.MarketAdvances, true, true},
		{"last round exempt", alea.LastRoundExempt, filo.LastRoundExempt, false, true},
		// "the translator's advice to ignore it is a house rule: offer it as an option, off by default"
		{"market rule optional", alea.MarketAdvanceOptional, filo.MarketAdvanceOptional, true, false},
		// "one or more, on one or more adjacent buildings" / "one or two [...] one marker per building"
		{"markers per street", alea.MaxMarkersPerStreet, filo.MaxMarkersPerStreet, 0, 2},
		{"markers per building", alea.MaxMarkersPerBuilding, filo.MaxMarkersPerBuilding, 1, 1},
		// "2 players: no special rule" / "an offer [...] must hold at least one good other than money; [...] a second action"
		{"2p offer goods", alea.TwoPlayerOfferNeedsGoods, filo.TwoPlayerOfferNeedsGoods, false, true},
		{"2p second action", alea.TwoPlayerSecondAction, filo.TwoPlayerSecondAction, false, true},
		// "tie-break: most goods in reserve / most goods, tiles and cards"
		{"tie-break", alea.TieBreak, filo.TieBreak, TieGoods, TieGoodsTilesCards},
		// "promises in an offer: allowed only on top of money or goods, not enforced / not allowed"
		{"promises", alea.Promises, filo.Promises, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.alea != tt.wantA {
				t.Errorf("alea-2001 %s = %v, want %v", tt.name, tt.alea, tt.wantA)
			}
			if tt.fil != tt.wantF {
				t.Errorf("filosofia-2008 %s = %v, want %v", tt.name, tt.fil, tt.wantF)
			}
		})
	}
}

// TestShared checks what RULES-NOTES says of both editions.
func TestShared(t *testing.T) {
	for _, ed := range Editions() {
		e, c := load(t, ed)
		t.Run(ed, func(t *testing.T) {
			// "Start: 130 ducats each, one card of each of the four decks"
			if e.StartDucats != 130 || e.StartCardsPerDeck != 1 {
				t.Errorf("start %d ducats, %d cards per deck", e.StartDucats, e.StartCardsPerDeck)
			}
			// "out of the seven of the player's colour"; "two at a time"
			if e.MarkersPerColour != 7 {
				t.Errorf("MarkersPerColour = %d", e.MarkersPerColour)
			}
			if a, _ := e.Action("cathedral"); a.Kind != ActMarkers || a.Count != 2 {
				t.Errorf("cathedral action %+v", a)
			}
			// Filosofia: "40 tuiles Marchandise (5 de chaque type"; Berclaz "5x 8 marchandises".
			if e.GoodsPerKind*NumGoods != 40 {
				t.Errorf("%d goods in all, want 40", e.GoodsPerKind*NumGoods)
			}
			// "Counts 5, 5, 5, 7, 5"; Filosofia "27 tuiles Privilège".
			if e.Tiles != [NumTiles]int{5, 5, 5, 7, 5} {
				t.Errorf("Tiles = %v", e.Tiles)
			}
			// Filosofia: "60 cartes incluant: 14 Contrat, 14 Message, 16 Grosse commande, 16 Petite commande".
			if e.Decks != [NumDecks]int{16, 16, 14, 14} || len(c.Cards) != 60 {
				t.Errorf("Decks = %v, %d cards", e.Decks, len(c.Cards))
			}
			// Rewards: "100 ducats and one special tile", "40 ducats", "30 ducats", "1 → 10, 2 → 30, 3 → 60, 4 → 100, each further building +50".
			if e.LargeOrderDucats != 100 || e.LargeOrderTiles != 1 || e.SmallOrderDucats != 40 || e.MessageDucats != 30 {
				t.Errorf("rewards %d+%d, %d, %d", e.LargeOrderDucats, e.LargeOrderTiles, e.SmallOrderDucats, e.MessageDucats)
			}
			for n, want := range map[int]int{0: 0, 1: 10, 2: 30, 3: 60, 4: 100, 5: 150, 6: 200} {
				if got := e.ContractScore(n); got != want {
					t.Errorf("ContractScore(%d) = %d, want %d", n, got, want)
				}
			}
			// "10 ducats from the bank to the owner [...]; 10 per marker on the board at the end. Removing an opponent's marker costs one marker"
			if e.Income != 10 || e.EndValue != 10 || e.RemovalCost != 1 {
				t.Errorf("income %d, end value %d, removal cost %d", e.Income, e.EndValue, e.RemovalCost)
			}
			if _, err := e.RoundsFor(6); !errors.Is(err, ErrPlayers) {
				t.Errorf("RoundsFor(6) error = %v", err)
			}
			if r, err := e.RoundsFor(4); r != 8 || err != nil {
				t.Errorf("RoundsFor(4) = %d, %v", r, err)
			}
		})
	}
}

func TestActions(t *testing.T) {
	// Special tiles: "start space of choice (coach house / relais /
	// Kutscherei), extra action (park), commodity of choice (harbour), trade
	// 1:1 (taverna and trattoria), building action (palazzo)".
	want := map[string]string{
		"guild-hall": "draw large-order 1", "town-hall": "draw small-order 2", "post-office": "draw message 2",
		"cathedral": "markers 2", "coach-house": "tile start", "park": "tile extra", "harbour": "tile goods",
		"taverna": "tile trade", "trattoria": "tile trade", "palazzo": "tile build",
		"villa-colini": "villa", "villa-monetti": "villa", "villa-ricci": "villa", "villa-zasteri": "villa",
		"warehouse-nw": "warehouse nw-1 nw-2", "warehouse-ne": "warehouse ne-1 ne-2",
		"warehouse-sw": "warehouse sw-1 sw-2", "warehouse-se": "warehouse se-1 se-2",
	}
	for _, ed := range Editions() {
		e, _ := load(t, ed)
		if len(e.Actions) != 18 {
			t.Errorf("%s: %d actions", ed, len(e.Actions))
		}
		for _, a := range e.Actions {
			var got string
			switch a.Kind {
			case ActDraw:
				got = "draw " + a.Deck.String() + " " + itoa(a.Count)
			case ActMarkers:
				got = "markers " + itoa(a.Count)
			case ActTile:
				got = "tile " + a.Tile.String()
			case ActWarehouse:
				got = "warehouse " + a.Goods[0].String() + " " + a.Goods[1].String()
			case ActVilla:
				got = "villa"
			}
			if got != want[a.Building] {
				t.Errorf("%s: action of %s = %q, want %q", ed, a.Building, got, want[a.Building])
			}
		}
	}
}

func itoa(n int) string { return string(rune('0' + n)) }

func TestLargeOrders(t *testing.T) {
	// Berclaz 6.1: "il y a 4 gros contrat pour chacune des 4 villas qui sont
	// ainsi placées qu'il n'y a pas de marchandise correspondante dans le
	// dépôt adjacent."
	b := board.Default()
	_, c := load(t, "alea-2001")
	per := map[string]int{}
	count := map[Good]int{}
	for _, card := range c.Deck(LargeOrder) {
		per[card.Villa]++
		v, _ := b.ByKey(card.Villa)
		seen := map[Good]bool{}
		for _, g := range card.Goods {
			w, _ := b.ByKey(g.Warehouse())
			if b.BuildingsAdjacent(v, w) {
				t.Errorf("%s: %s is a good of %s, next to %s", card.ID, g, g.Warehouse(), card.Villa)
			}
			if seen[g] {
				t.Errorf("%s asks %s twice", card.ID, g)
			}
			seen[g] = true
			count[g]++
		}
	}
	for _, v := range board.VillaKeys {
		if per[v] != 4 {
			t.Errorf("%s has %d large orders, want 4", v, per[v])
		}
	}
	for g := Good(0); g < NumGoods; g++ {
		if count[g] != 6 {
			t.Errorf("good %s on %d large orders, want 6 (balanced)", g, count[g])
		}
	}
}

func TestSmallOrders(t *testing.T) {
	// Berclaz 6.2: "Il n'y a pas de petit contrat pour les villas, les dépôts
	// et l'hôtel de ville (Rathaus), il y a 1 petit contrat pour la Trattoria
	// et la Taverna et 2 pour les autres bâtiments."
	_, c := load(t, "alea-2001")
	per := map[string]int{}
	for _, card := range c.Deck(SmallOrder) {
		per[card.Building]++
		if len(card.Goods) != 1 {
			t.Errorf("%s has %d goods", card.ID, len(card.Goods))
		}
	}
	want := map[string]int{"trattoria": 1, "taverna": 1, "guild-hall": 2, "post-office": 2, "cathedral": 2,
		"palazzo": 2, "park": 2, "coach-house": 2, "harbour": 2}
	for _, id := range board.Default().Buildings() {
		k := board.Default().Square(id).Key
		if per[k] != want[k] {
			t.Errorf("%s has %d small orders, want %d", k, per[k], want[k])
		}
	}
}

func TestMessages(t *testing.T) {
	// A message is delivered when the pawn visits both buildings in one
	// turn: at most 4 moves apart on the board. The inferred messages are
	// all 2 moves apart (doc.go), and every building is on one or two.
	b := board.Default()
	_, c := load(t, "alea-2001")
	on := map[string]int{}
	for _, card := range c.Deck(Message) {
		x, _ := b.ByKey(card.Buildings[0])
		y, _ := b.ByKey(card.Buildings[1])
		if d := b.Distance(x, y); d != 2 {
			t.Errorf("%s: %s and %s are %d moves apart", card.ID, card.Buildings[0], card.Buildings[1], d)
		}
		on[card.Buildings[0]]++
		on[card.Buildings[1]]++
	}
	for _, id := range b.Buildings() {
		if n := on[b.Square(id).Key]; n < 1 || n > 2 {
			t.Errorf("%s is on %d messages, want 1 or 2", b.Square(id).Key, n)
		}
	}
}

func TestContracts(t *testing.T) {
	// Filosofia: "Chaque carte Contrat correspond à l'un des 14 bâtiments
	// situés sur le pourtour du quartier."
	b := board.Default()
	_, c := load(t, "filosofia-2008")
	seen := map[string]bool{}
	for _, card := range c.Deck(Contract) {
		id, _ := b.ByKey(card.Building)
		if !b.Square(id).Edge || seen[card.Building] {
			t.Errorf("%s: %s", card.ID, card.Building)
		}
		seen[card.Building] = true
	}
	if len(seen) != 14 {
		t.Errorf("%d contract buildings", len(seen))
	}
}

func TestCardIDs(t *testing.T) {
	_, c := load(t, "alea-2001")
	for i := range c.Cards {
		card := &c.Cards[i]
		got, ok := c.ByID(card.ID)
		if !ok || got != card {
			t.Errorf("ByID(%q) = %v, %v", card.ID, got, ok)
		}
		if card.ID[0] != deckLetters[card.Deck] {
			t.Errorf("card %s in deck %s", card.ID, card.Deck)
		}
	}
	if _, ok := c.ByID("X99"); ok {
		t.Error("ByID(X99) found a card")
	}
}

func TestNames(t *testing.T) {
	b := board.Default()
	alea, _ := load(t, "alea-2001")
	filo, _ := load(t, "filosofia-2008")
	for key, want := range map[string][2]string{
		"warehouse-nw": {"Metallager", "Métaux"}, "warehouse-sw": {"Getreidelager", "Boissons"},
		"coach-house": {"Kutscherei", "Relais"}, "harbour": {"Hafen", "Port"}, "market": {"Marktplatz", "Marché"},
	} {
		id, _ := b.ByKey(key)
		if a, f := alea.Name(b.Square(id)), filo.Name(b.Square(id)); a != want[0] || f != want[1] {
			t.Errorf("Name(%s) = %s, %s; want %s, %s", key, a, f, want[0], want[1])
		}
	}
	if g, ok := filo.GoodByKey("saffron"); !ok || g.String() != "ne-1" {
		t.Errorf("GoodByKey(saffron) = %v, %v", g, ok)
	}
	if _, ok := alea.GoodByKey("saffron"); ok {
		t.Error("alea-2001 has saffron")
	}
}

func TestCheck(t *testing.T) {
	b := board.Default()
	e, c := load(t, "alea-2001")
	if err := Check(b, e, c); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		edit func(e *Edition, c *Catalog)
		want string
	}{
		{"deck size", func(e *Edition, c *Catalog) { e.Decks[Message] = 15 }, "14 message cards in the catalog, but the alea-2001 box has 15"},
		{"small order to town hall", func(e *Edition, c *Catalog) { c.Cards[c.start[SmallOrder]].Building = "town-hall" }, "no small order goes to town-hall"},
		{"large order to a warehouse", func(e *Edition, c *Catalog) { c.Cards[0].Villa = "warehouse-nw" }, "not a villa"},
		{"contract twice", func(e *Edition, c *Catalog) { c.Cards[c.start[Contract]+1].Building = "villa-monetti" }, "both contracts for villa-monetti"},
		{"contract centre", func(e *Edition, c *Catalog) { c.Cards[c.start[Contract]].Building = "guild-hall" }, "not an edge building"},
		{"missing action", func(e *Edition, c *Catalog) { e.Actions = e.Actions[1:] }, "has no action"},
		{"unknown building", func(e *Edition, c *Catalog) { c.Cards[c.start[Message]].Buildings[0] = "castle" }, `"castle" is not a building`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e2 := *e
			e2.Actions = append([]Action(nil), e.Actions...)
			c2 := *c
			c2.Cards = append([]Card(nil), c.Cards...)
			tt.edit(&e2, &c2)
			err := Check(b, &e2, &c2)
			if err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Check() = %v, want %q", err, tt.want)
			}
		})
	}
}

func embeddedFile(t testing.TB, name string) string {
	t.Helper()
	data, err := configs.FS.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestDecodeEditionsErrors(t *testing.T) {
	base := embeddedFile(t, EditionsFile)
	rep := func(old, new string) string {
		if !strings.Contains(base, old) {
			t.Fatalf("fixture: %q not in editions.yaml", old)
		}
		return strings.Replace(base, old, new, 1)
	}
	tests := []struct {
		name, data string
		want       string
	}{
		{"empty", "", "editions.yaml:1: empty file"},
		{"version", rep("version: 1\n", "version: 3\n"), `key "version": version 3 is not supported`},
		{"unknown key", rep("    promises: true", "    promise: true"), `key "promise": unknown key in an edition`},
		{"bad bool", rep("    promises: true", "    promises: yes please"), `key "promises": is a text "yes please"; expected true or false`},
		{"bad rounds", rep("rounds: {2: 12, 3: 10, 4: 8, 5: 7}", "rounds: {2: 12, 3: 10, 4: 8, 6: 7}"), `key "6": unknown key in the rounds of edition alea-2001`},
		{"bad slot", rep("{slot: nw-2, key: copper", "{slot: ne-2, key: copper"), `key "slot": "ne-2" in warehouse-nw at place 2; it must be nw-2`},
		{"good twice", rep("{slot: nw-2, key: copper", "{slot: nw-2, key: silver"), `good "silver" is given twice`},
		{"bad deck", rep("{kind: draw, deck: large-order, count: 1}", "{kind: draw, deck: big-order, count: 1}"), `key "deck": "big-order" is not a deck`},
		{"stray field", rep("park: {kind: tile, tile: extra}", "park: {kind: tile, tile: extra, count: 1}"), `key "count": not used by a tile action (park)`},
		{"missing action", rep("  park: {kind: tile, tile: extra}", ""), `key "park": missing in actions`},
		{"warehouse as tile", rep("warehouse-nw: {kind: warehouse}", "warehouse-nw: {kind: tile, tile: goods}"), "warehouse-nw is a warehouse"},
		{"tie-break", rep("tie-break: goods\n", "tie-break: money\n"), `"money" is not a tie-break`},
		{"scale", rep("contract-scale: [10, 30, 60, 100] # [Q]", "contract-scale: [10, 30, 20, 100] # [Q]"), "20: the scale must not decrease"},
		{"count range", rep("max-per-street: 2", "max-per-street: 9"), `key "max-per-street": 9 is out of range 0 to 4`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeEditions([]byte(tt.data), "editions.yaml")
			if err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("DecodeEditions() error = %v\nwant %q", err, tt.want)
			}
			if serr := (*strict.Error)(nil); err != nil && !errors.As(err, &serr) {
				t.Errorf("DecodeEditions() error %v is a %T, want a *strictyaml.Error", err, err)
			}
			if err != nil && !strings.HasPrefix(err.Error(), "editions.yaml:") {
				t.Errorf("error %q does not start with the file and line", err)
			}
		})
	}
}

func TestDecodeCardsErrors(t *testing.T) {
	base := embeddedFile(t, CardsFile)
	rep := func(old, new string) string {
		if !strings.Contains(base, old) {
			t.Fatalf("fixture: %q not in cards.yaml", old)
		}
		return strings.Replace(base, old, new, 1)
	}
	tests := []struct {
		name, data string
		want       string
	}{
		{"no version", rep("version: 1\n", ""), `key "version": missing`},
		{"unknown section", rep("messages:", "letters:"), `key "letters": unknown key in the cards file`},
		{"bad id", rep("{id: L02,", "{id: S02,"), `key "id": "S02" is not a large-order id; write L and two digits`},
		{"dup id", rep("{id: L02,", "{id: L01,"), "card L01 is given twice"},
		{"two goods", rep("goods: [ne-1, sw-1, se-2]", "goods: [ne-1, sw-1]"), "2 goods; a large order has 3"},
		{"bad good", rep("good: nw-1}", "good: gold}"), `"gold" is not a good slot`},
		{"villa not villa", rep("{id: L01, villa: villa-monetti", "{id: L01, villa: palazzo"), "palazzo is not a villa"},
		{"message same", rep("buildings: [guild-hall, harbour]", "buildings: [harbour, harbour]"), "must differ"},
		{"unknown building", rep("building: palazzo}", "building: palace}"), `"palace" is not a building key`},
		{"card field", rep("{id: C01, building: villa-monetti}", "{id: C01, building: villa-monetti, goods: [nw-1]}"), `key "goods": unknown key in a card of contracts`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeCards([]byte(tt.data), "cards.yaml")
			if err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("DecodeCards() error = %v\nwant %q", err, tt.want)
			}
			if serr := (*strict.Error)(nil); err != nil && !errors.As(err, &serr) {
				t.Errorf("DecodeCards() error %v is a %T, want a *strictyaml.Error", err, err)
			}
		})
	}
	// The line is the card's.
	data := rep("{id: L02,", "{id: L01,")
	_, err := DecodeCards([]byte(data), "cards.yaml")
	line := strings.Count(data[:strings.Index(data, "{id: L01, villa: villa-monetti, goods: [ne-1, sw-2")], "\n") + 1
	if want := "cards.yaml:" + itoa2(line) + ":"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v, want prefix %s", err, want)
	}
}

func itoa2(n int) string {
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

func FuzzDecodeEditions(f *testing.F) {
	f.Add([]byte(embeddedFile(f, EditionsFile)))
	f.Add([]byte("version: 1\nactions: {}\neditions: []\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		eds, err := DecodeEditions(data, "fuzz.yaml")
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error does not wrap ErrInvalid: %v", err)
			}
			return
		}
		for _, e := range eds {
			if len(e.Actions) != 18 || len(e.ContractScale) == 0 || len(e.Rounds) != 4 {
				t.Fatalf("decoded edition incomplete: %+v", e)
			}
			_ = e.ContractScore(7)
		}
	})
}

func FuzzDecodeCards(f *testing.F) {
	f.Add([]byte(embeddedFile(f, CardsFile)))
	f.Add([]byte("version: 1\nlarge-orders: []\nsmall-orders: []\nmessages: []\ncontracts: []\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := DecodeCards(data, "fuzz.yaml")
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error does not wrap ErrInvalid: %v", err)
			}
			return
		}
		n := 0
		for d := Deck(0); d < NumDecks; d++ {
			for _, card := range c.Deck(d) {
				if card.Deck != d {
					t.Fatalf("card %s in deck %s", card.ID, d)
				}
				n++
			}
		}
		if n != len(c.Cards) {
			t.Fatalf("decks hold %d of %d cards", n, len(c.Cards))
		}
		e, _, err := Load("alea-2001")
		if err == nil {
			_ = Check(board.Default(), e, c)
		}
	})
}
