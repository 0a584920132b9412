package catalog

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"comptoir/configs"
	"comptoir/games/genoa/board"
	strict "comptoir/strictyaml"
)

// Version is the version of the editions and cards file formats.
const Version = 1

// Paths of the embedded files in configs.FS.
const (
	EditionsFile = "genoa/editions.yaml"
	CardsFile    = "genoa/cards.yaml"
)

var buildingKeys = func() map[string]bool {
	m := map[string]bool{}
	for _, l := range [][]string{board.CentreKeys, board.VillaKeys, board.WarehouseKeys, board.OtherEdgeKeys} {
		for _, k := range l {
			m[k] = true
		}
	}
	return m
}()

// DecodeEditions decodes an editions file (configs/genoa/editions.yaml).
// Errors name the file, line and key, and wrap ErrInvalid.
func DecodeEditions(data []byte, file string) ([]*Edition, error) {
	return decodeEditions(data, strict.File{Name: file, Sentinel: ErrInvalid})
}

func decodeEditions(data []byte, f strict.File) ([]*Edition, error) {
	root, err := f.Parse(data)
	if err != nil {
		return nil, err
	}
	top, err := f.Fields(root, "the editions file", []string{"version", "actions", "editions"}, nil)
	if err != nil {
		return nil, err
	}
	if err := f.Version(top, Version); err != nil {
		return nil, err
	}
	actions, err := decodeActions(f, top["actions"])
	if err != nil {
		return nil, err
	}
	items, err := f.Seq(top["editions"], "editions")
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, f.Errorf(top["editions"], "editions", "no edition; give at least one")
	}
	var out []*Edition
	seen := map[string]bool{}
	for _, it := range items {
		e, err := decodeEdition(f, it, actions)
		if err != nil {
			return nil, err
		}
		if seen[e.Key] {
			return nil, f.Errorf(it, "key", "edition %q is given twice", e.Key)
		}
		seen[e.Key] = true
		out = append(out, e)
	}
	return out, nil
}

func decodeActions(f strict.File, n *yaml.Node) ([]Action, error) {
	keys := make([]string, 0, len(buildingKeys))
	for k := range buildingKeys {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fields, err := f.Fields(n, "actions", keys, nil)
	if err != nil {
		return nil, err
	}
	var out []Action
	for _, k := range keys {
		v := fields[k]
		af, err := f.Fields(v, "the action of "+k, []string{"kind"}, []string{"deck", "count", "tile"})
		if err != nil {
			return nil, err
		}
		kind, err := f.String(af["kind"], "kind")
		if err != nil {
			return nil, err
		}
		a := Action{Building: k}
		need := func(keys ...string) error {
			allowed := map[string]bool{"kind": true}
			for _, x := range keys {
				allowed[x] = true
				if _, ok := af[x]; !ok {
					return f.Errorf(v, x, "missing in the action of %s; a %s action has %s", k, kind, strings.Join(keys, " and "))
				}
			}
			for x, node := range af {
				if !allowed[x] {
					return f.Errorf(node, x, "not used by a %s action (%s); remove it", kind, k)
				}
			}
			return nil
		}
		count := func() error {
			c, err := f.Int(af["count"], "count")
			if err != nil {
				return err
			}
			if c < 1 || c > 5 {
				return f.Errorf(af["count"], "count", "%d is not a sensible count; 1 to 5", c)
			}
			a.Count = c
			return nil
		}
		switch kind {
		case "draw":
			a.Kind = ActDraw
			if err := need("deck", "count"); err != nil {
				return nil, err
			}
			s, err := f.String(af["deck"], "deck")
			if err != nil {
				return nil, err
			}
			d, ok := ParseDeck(s)
			if !ok {
				return nil, f.Errorf(af["deck"], "deck", "%q is not a deck; one of %s", s, strings.Join(deckKeys[:], ", "))
			}
			a.Deck = d
			if err := count(); err != nil {
				return nil, err
			}
		case "markers":
			a.Kind = ActMarkers
			if err := need("count"); err != nil {
				return nil, err
			}
			if err := count(); err != nil {
				return nil, err
			}
		case "tile":
			a.Kind = ActTile
			if err := need("tile"); err != nil {
				return nil, err
			}
			s, err := f.String(af["tile"], "tile")
			if err != nil {
				return nil, err
			}
			t, ok := ParseTile(s)
			if !ok {
				return nil, f.Errorf(af["tile"], "tile", "%q is not a tile; one of %s", s, strings.Join(tileKeys[:], ", "))
			}
			a.Tile = t
		case "warehouse":
			a.Kind = ActWarehouse
			if err := need(); err != nil {
				return nil, err
			}
			if !strings.HasPrefix(k, "warehouse-") {
				return nil, f.Errorf(af["kind"], "kind", "%s is not a warehouse", k)
			}
		case "villa":
			a.Kind = ActVilla
			if err := need(); err != nil {
				return nil, err
			}
			if !strings.HasPrefix(k, "villa-") {
				return nil, f.Errorf(af["kind"], "kind", "%s is not a villa", k)
			}
		default:
			return nil, f.Errorf(af["kind"], "kind", "%q is not an action kind; one of %s", kind, strings.Join(actionKeys, ", "))
		}
		if strings.HasPrefix(k, "warehouse-") && a.Kind != ActWarehouse {
			return nil, f.Errorf(af["kind"], "kind", "%s is a warehouse; its action is kind warehouse", k)
		}
		if strings.HasPrefix(k, "villa-") && a.Kind != ActVilla {
			return nil, f.Errorf(af["kind"], "kind", "%s is a villa; its action is kind villa", k)
		}
		out = append(out, a)
	}
	return out, nil
}

var editionKeyRE = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)

func decodeEdition(f strict.File, n *yaml.Node, actions []Action) (*Edition, error) {
	fields, err := f.Fields(n, "an edition", []string{"key", "fr", "en", "sources", "warehouses", "rounds",
		"market-advances", "last-round-exempt", "market-advance-optional", "start", "ownership", "two-players",
		"tie-break", "promises", "rewards", "supply", "decks", "deck-names", "tile-names"}, nil)
	if err != nil {
		return nil, err
	}
	e := &Edition{}
	str := func(key string, dst *string) error {
		s, err := f.String(fields[key], key)
		if err != nil {
			return err
		}
		if s == "" {
			return f.Errorf(fields[key], key, "is empty")
		}
		*dst = s
		return nil
	}
	for key, dst := range map[string]*string{"key": &e.Key, "fr": &e.NameFR, "en": &e.NameEN} {
		if err := str(key, dst); err != nil {
			return nil, err
		}
	}
	if !editionKeyRE.MatchString(e.Key) {
		return nil, f.Errorf(fields["key"], "key", "%q is not an edition key; use lower-case words and digits joined by dashes, like alea-2001", e.Key)
	}
	where := "edition " + e.Key
	if e.Sources, err = f.Strings(fields["sources"], "sources"); err != nil {
		return nil, err
	}

	// Warehouses and goods.
	wf, err := f.Fields(fields["warehouses"], "the warehouses of "+where, board.WarehouseKeys, nil)
	if err != nil {
		return nil, err
	}
	goodSeen := map[string]bool{}
	for wi, wk := range board.WarehouseKeys {
		wn := wf[wk]
		ff, err := f.Fields(wn, wk+" of "+where, []string{"name", "fr", "en", "goods"}, nil)
		if err != nil {
			return nil, err
		}
		w := Warehouse{Key: wk}
		for key, dst := range map[string]*string{"name": &w.Name, "fr": &w.NameFR, "en": &w.NameEN} {
			if *dst, err = f.String(ff[key], key); err != nil {
				return nil, err
			}
		}
		goods, err := f.Seq(ff["goods"], "goods")
		if err != nil {
			return nil, err
		}
		if len(goods) != 2 {
			return nil, f.Errorf(ff["goods"], "goods", "%s has %d goods; a warehouse has 2", wk, len(goods))
		}
		for gi, gn := range goods {
			gf, err := f.Fields(gn, "a good of "+wk, []string{"slot", "key", "fr", "en"}, []string{"colour"})
			if err != nil {
				return nil, err
			}
			slot, err := f.String(gf["slot"], "slot")
			if err != nil {
				return nil, err
			}
			want := Good(2*wi + gi)
			if slot != want.String() {
				return nil, f.Errorf(gf["slot"], "slot", "%q in %s at place %d; it must be %s (slots are the warehouse's position, then 1 or 2)", slot, wk, gi+1, want)
			}
			info := GoodInfo{Good: want}
			for key, dst := range map[string]*string{"key": &info.Key, "fr": &info.NameFR, "en": &info.NameEN} {
				if *dst, err = f.String(gf[key], key); err != nil {
					return nil, err
				}
				if *dst == "" {
					return nil, f.Errorf(gf[key], key, "is empty")
				}
			}
			if c, ok := gf["colour"]; ok {
				if info.Colour, err = f.String(c, "colour"); err != nil {
					return nil, err
				}
			}
			if goodSeen[info.Key] {
				return nil, f.Errorf(gf["key"], "key", "good %q is given twice in %s", info.Key, where)
			}
			goodSeen[info.Key] = true
			e.Goods[want] = info
			w.Goods[gi] = want
		}
		e.Warehouses[wi] = w
	}
	e.Actions = make([]Action, len(actions))
	copy(e.Actions, actions)
	for i := range e.Actions {
		if e.Actions[i].Kind == ActWarehouse {
			w, _ := e.Warehouse(e.Actions[i].Building)
			e.Actions[i].Goods = w.Goods
		}
	}

	// Rounds.
	rf, err := f.Fields(fields["rounds"], "the rounds of "+where, []string{"2", "3", "4", "5"}, nil)
	if err != nil {
		return nil, err
	}
	e.Rounds = map[int]int{}
	for p := 2; p <= 5; p++ {
		k := strconv.Itoa(p)
		r, err := f.Int(rf[k], "rounds."+k)
		if err != nil {
			return nil, err
		}
		if r < 1 || r > 20 {
			return nil, f.Errorf(rf[k], "rounds."+k, "%d rounds is not sensible; 1 to 20", r)
		}
		e.Rounds[p] = r
	}
	boolean := func(m map[string]*yaml.Node, key string, dst *bool) error {
		v, err := f.Bool(m[key], key)
		*dst = v
		return err
	}
	number := func(m map[string]*yaml.Node, key string, min, max int, dst *int) error {
		v, err := f.Int(m[key], key)
		if err != nil {
			return err
		}
		if v < min || v > max {
			return f.Errorf(m[key], key, "%d is out of range %d to %d", v, min, max)
		}
		*dst = v
		return nil
	}
	for key, dst := range map[string]*bool{"market-advances": &e.MarketAdvances, "last-round-exempt": &e.LastRoundExempt,
		"market-advance-optional": &e.MarketAdvanceOptional, "promises": &e.Promises} {
		if err := boolean(fields, key, dst); err != nil {
			return nil, err
		}
	}
	sf, err := f.Fields(fields["start"], "the start of "+where, []string{"ducats", "cards-per-deck"}, nil)
	if err != nil {
		return nil, err
	}
	if err := number(sf, "ducats", 0, 10000, &e.StartDucats); err != nil {
		return nil, err
	}
	if err := number(sf, "cards-per-deck", 0, 5, &e.StartCardsPerDeck); err != nil {
		return nil, err
	}
	of, err := f.Fields(fields["ownership"], "the ownership rules of "+where,
		[]string{"markers-per-colour", "max-per-street", "max-per-building", "removal-cost", "income", "end-value"}, nil)
	if err != nil {
		return nil, err
	}
	for _, x := range []struct {
		key      string
		min, max int
		dst      *int
	}{
		{"markers-per-colour", 1, 20, &e.MarkersPerColour},
		{"max-per-street", 0, 4, &e.MaxMarkersPerStreet},
		{"max-per-building", 1, 5, &e.MaxMarkersPerBuilding},
		{"removal-cost", 0, 5, &e.RemovalCost},
		{"income", 0, 1000, &e.Income},
		{"end-value", 0, 1000, &e.EndValue},
	} {
		if err := number(of, x.key, x.min, x.max, x.dst); err != nil {
			return nil, err
		}
	}
	tf, err := f.Fields(fields["two-players"], "the 2-player rules of "+where, []string{"offer-needs-goods", "second-action"}, nil)
	if err != nil {
		return nil, err
	}
	if err := boolean(tf, "offer-needs-goods", &e.TwoPlayerOfferNeedsGoods); err != nil {
		return nil, err
	}
	if err := boolean(tf, "second-action", &e.TwoPlayerSecondAction); err != nil {
		return nil, err
	}
	tb, err := f.String(fields["tie-break"], "tie-break")
	if err != nil {
		return nil, err
	}
	switch tb {
	case "goods":
		e.TieBreak = TieGoods
	case "goods-tiles-cards":
		e.TieBreak = TieGoodsTilesCards
	default:
		return nil, f.Errorf(fields["tie-break"], "tie-break", "%q is not a tie-break; one of %s", tb, strings.Join(tieKeys, ", "))
	}
	wf2, err := f.Fields(fields["rewards"], "the rewards of "+where,
		[]string{"large-order", "large-order-tiles", "small-order", "message", "contract-scale", "contract-beyond"}, nil)
	if err != nil {
		return nil, err
	}
	for _, x := range []struct {
		key string
		dst *int
	}{{"large-order", &e.LargeOrderDucats}, {"large-order-tiles", &e.LargeOrderTiles}, {"small-order", &e.SmallOrderDucats},
		{"message", &e.MessageDucats}, {"contract-beyond", &e.ContractBeyond}} {
		if err := number(wf2, x.key, 0, 10000, x.dst); err != nil {
			return nil, err
		}
	}
	scale, err := f.Seq(wf2["contract-scale"], "contract-scale")
	if err != nil {
		return nil, err
	}
	if len(scale) == 0 {
		return nil, f.Errorf(wf2["contract-scale"], "contract-scale", "is empty; give what 1, 2, ... adjacent buildings score")
	}
	for _, s := range scale {
		v, err := f.Int(s, "contract-scale")
		if err != nil {
			return nil, err
		}
		if v < 0 || (len(e.ContractScale) > 0 && v < e.ContractScale[len(e.ContractScale)-1]) {
			return nil, f.Errorf(s, "contract-scale", "%d: the scale must not decrease", v)
		}
		e.ContractScale = append(e.ContractScale, v)
	}
	suf, err := f.Fields(fields["supply"], "the supply of "+where, []string{"goods-per-kind", "tiles"}, nil)
	if err != nil {
		return nil, err
	}
	if err := number(suf, "goods-per-kind", 0, 100, &e.GoodsPerKind); err != nil {
		return nil, err
	}
	tilesF, err := f.Fields(suf["tiles"], "the tiles of "+where, tileKeys[:], nil)
	if err != nil {
		return nil, err
	}
	for t := Tile(0); t < NumTiles; t++ {
		if err := number(tilesF, t.String(), 0, 100, &e.Tiles[t]); err != nil {
			return nil, err
		}
	}
	df, err := f.Fields(fields["decks"], "the decks of "+where, deckKeys[:], nil)
	if err != nil {
		return nil, err
	}
	for d := Deck(0); d < NumDecks; d++ {
		if err := number(df, d.String(), 0, 100, &e.Decks[d]); err != nil {
			return nil, err
		}
	}
	dn, err := f.Fields(fields["deck-names"], "the deck names of "+where, deckKeys[:], nil)
	if err != nil {
		return nil, err
	}
	for d := Deck(0); d < NumDecks; d++ {
		if e.DeckNames[d], err = f.String(dn[d.String()], d.String()); err != nil {
			return nil, err
		}
	}
	tn, err := f.Fields(fields["tile-names"], "the tile names of "+where, tileKeys[:], nil)
	if err != nil {
		return nil, err
	}
	for t := Tile(0); t < NumTiles; t++ {
		if e.TileNames[t], err = f.String(tn[t.String()], t.String()); err != nil {
			return nil, err
		}
	}
	return e, nil
}

var cardIDRE = regexp.MustCompile(`^[LSMC][0-9]{2}$`)

// DecodeCards decodes a cards file (configs/genoa/cards.yaml). Errors name
// the file, line and key, and wrap ErrInvalid. Whether the buildings exist
// on a board is checked by Check.
func DecodeCards(data []byte, file string) (*Catalog, error) {
	return decodeCards(data, strict.File{Name: file, Sentinel: ErrInvalid})
}

func decodeCards(data []byte, f strict.File) (*Catalog, error) {
	root, err := f.Parse(data)
	if err != nil {
		return nil, err
	}
	sections := []string{"large-orders", "small-orders", "messages", "contracts"}
	top, err := f.Fields(root, "the cards file", append([]string{"version"}, sections...), nil)
	if err != nil {
		return nil, err
	}
	if err := f.Version(top, Version); err != nil {
		return nil, err
	}
	c := &Catalog{byID: map[string]int{}}
	buildingOf := func(n *yaml.Node, key string) (string, error) {
		s, err := f.String(n, key)
		if err != nil {
			return "", err
		}
		if !buildingKeys[s] {
			return "", f.Errorf(n, key, "%q is not a building key of the board (guild-hall, villa-colini, warehouse-nw, ...)", s)
		}
		return s, nil
	}
	goodOf := func(n *yaml.Node, key string) (Good, error) {
		s, err := f.String(n, key)
		if err != nil {
			return 0, err
		}
		g, ok := ParseGood(s)
		if !ok {
			return 0, f.Errorf(n, key, "%q is not a good slot; one of %s", s, strings.Join(goodKeys[:], ", "))
		}
		return g, nil
	}
	for d := Deck(0); d < NumDecks; d++ {
		c.start[d] = len(c.Cards)
		items, err := f.Seq(top[sections[d]], sections[d])
		if err != nil {
			return nil, err
		}
		for _, it := range items {
			var req []string
			switch d {
			case LargeOrder:
				req = []string{"id", "villa", "goods"}
			case SmallOrder:
				req = []string{"id", "building", "good"}
			case Message:
				req = []string{"id", "buildings"}
			case Contract:
				req = []string{"id", "building"}
			}
			ff, err := f.Fields(it, "a card of "+sections[d], req, nil)
			if err != nil {
				return nil, err
			}
			card := Card{Deck: d}
			if card.ID, err = f.String(ff["id"], "id"); err != nil {
				return nil, err
			}
			if !cardIDRE.MatchString(card.ID) || card.ID[0] != deckLetters[d] {
				return nil, f.Errorf(ff["id"], "id", "%q is not a %s id; write %c and two digits, like %c01", card.ID, d, deckLetters[d], deckLetters[d])
			}
			if _, dup := c.byID[card.ID]; dup {
				return nil, f.Errorf(ff["id"], "id", "card %s is given twice; ids are unique", card.ID)
			}
			switch d {
			case LargeOrder:
				if card.Villa, err = buildingOf(ff["villa"], "villa"); err != nil {
					return nil, err
				}
				if !strings.HasPrefix(card.Villa, "villa-") {
					return nil, f.Errorf(ff["villa"], "villa", "%s is not a villa; large orders go to villas", card.Villa)
				}
				gs, err := f.Seq(ff["goods"], "goods")
				if err != nil {
					return nil, err
				}
				if len(gs) != 3 {
					return nil, f.Errorf(ff["goods"], "goods", "%d goods; a large order has 3", len(gs))
				}
				for _, gn := range gs {
					g, err := goodOf(gn, "goods")
					if err != nil {
						return nil, err
					}
					card.Goods = append(card.Goods, g)
				}
			case SmallOrder:
				if card.Building, err = buildingOf(ff["building"], "building"); err != nil {
					return nil, err
				}
				g, err := goodOf(ff["good"], "good")
				if err != nil {
					return nil, err
				}
				card.Goods = []Good{g}
			case Message:
				bs, err := f.Seq(ff["buildings"], "buildings")
				if err != nil {
					return nil, err
				}
				if len(bs) != 2 {
					return nil, f.Errorf(ff["buildings"], "buildings", "%d buildings; a message names 2", len(bs))
				}
				for i, bn := range bs {
					if card.Buildings[i], err = buildingOf(bn, "buildings"); err != nil {
						return nil, err
					}
				}
				if card.Buildings[0] == card.Buildings[1] {
					return nil, f.Errorf(ff["buildings"], "buildings", "the two buildings of a message must differ")
				}
			case Contract:
				if card.Building, err = buildingOf(ff["building"], "building"); err != nil {
					return nil, err
				}
			}
			c.byID[card.ID] = len(c.Cards)
			c.Cards = append(c.Cards, card)
		}
	}
	c.start[NumDecks] = len(c.Cards)
	return c, nil
}

type loaded struct {
	eds []*Edition
	cat *Catalog
	err error
}

var (
	loadOnce sync.Once
	embedded loaded
)

func loadEmbedded() loaded {
	loadOnce.Do(func() {
		data, err := configs.FS.ReadFile(EditionsFile)
		if err != nil {
			embedded.err = fmt.Errorf("catalog: embedded %s: %w", EditionsFile, err)
			return
		}
		if embedded.eds, embedded.err = DecodeEditions(data, "editions.yaml"); embedded.err != nil {
			return
		}
		data, err = configs.FS.ReadFile(CardsFile)
		if err != nil {
			embedded.err = fmt.Errorf("catalog: embedded %s: %w", CardsFile, err)
			return
		}
		if embedded.cat, embedded.err = DecodeCards(data, "cards.yaml"); embedded.err != nil {
			return
		}
		for _, e := range embedded.eds {
			if err := Check(board.Default(), e, embedded.cat); err != nil {
				embedded.err = fmt.Errorf("catalog: embedded data, edition %s: %w", e.Key, err)
				return
			}
		}
	})
	return embedded
}

// Editions returns the keys of the embedded editions ("alea-2001",
// "filosofia-2008").
func Editions() []string {
	l := loadEmbedded()
	out := make([]string, 0, len(l.eds))
	for _, e := range l.eds {
		out = append(out, e.Key)
	}
	return out
}

// Load returns an embedded edition profile and the card catalog, checked
// against each other and the default board. The values are shared: do not
// modify them.
func Load(edition string) (*Edition, *Catalog, error) {
	l := loadEmbedded()
	if l.err != nil {
		return nil, nil, l.err
	}
	for _, e := range l.eds {
		if e.Key == edition {
			return e, l.cat, nil
		}
	}
	return nil, nil, fmt.Errorf("%w %q; known editions: %s", ErrUnknownEdition, edition, strings.Join(Editions(), ", "))
}
