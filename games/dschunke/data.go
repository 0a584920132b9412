package dschunke

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"comptoir/configs"
	strict "comptoir/strictyaml"
)

// The sizes the rules fix; the data files must match them.
const (
	NumJunks     = 5  // four junks with goods cards and the grey one
	NumGoods     = 4  // fish, rice, spices, vegetables
	NumMerchants = 3  // load, income, goods cards
	NumPiles     = 4  // special-card piles on the landing stages
	Rounds       = 10 // rounds of a game, market cards, helper squares
	Layer        = 3  // palettes in a layer of a junk's 3x3 grid
)

// Paths of the embedded data files in configs.FS.
const (
	BoardFile = "dschunke/board.yaml"
	CardsFile = "dschunke/cards.yaml"
)

// DataVersion is the version of both data files' format.
const DataVersion = 1

// ErrData is wrapped by every error of the data decoders.
var ErrData = errors.New("dschunke: invalid data file")

// Action is what a merchant or a helper's square offers.
type Action int

// The three actions.
const (
	ActLoad   Action = iota // load two palettes
	ActIncome               // one yuan per visible crate, at least 3
	ActGoods                // one goods card per visible crate, at least 3
)

var actionKeys = [...]string{"load", "income", "goods"}

func (a Action) String() string { return actionKeys[a] }

// SquareEvent is the event of a helper's square, at the end of phase 1.
type SquareEvent int

// The square events.
const (
	EvNone    SquareEvent = iota
	EvSpecial             // S: each player takes a special card
	EvWealth              // Y: each player announces his wealth
)

// Effect is what a special card does.
type Effect int

// The effects of the 30 special cards.
const (
	EffRestockPlus  Effect = iota // always: one more goods card at each restock
	EffWinTies                    // always: wins every tie of the bidding
	EffExchange                   // always: exchange 1 or 2 goods cards after the market card
	EffPlacePalette               // extra: one palette on any junk
	EffIncome                     // extra: income for the card's junk
	EffTakeGoods                  // extra: goods cards for the crates on a junk of one's choice
	EffMovePalette                // extra: move a wholly visible palette
	EffBonus                      // end: points for visible crates
)

var effectKeys = [...]string{"restock-plus", "win-ties", "exchange", "place-palette", "income", "take-goods", "move-palette", "bonus"}

func (e Effect) String() string { return effectKeys[e] }

// Timing is when a special card acts.
type Timing int

// The three timings printed at the bottom of the cards.
const (
	Always Timing = iota // Immer: face up when drawn, for good
	Extra                // Zusatzaktion: one extra action in phase 2, then out
	End                  // Bei Spielende: scored at the end
)

var timingKeys = [...]string{"always", "extra", "end"}

func (t Timing) String() string { return timingKeys[t] }

// timingOf is the timing each effect must have.
var timingOf = [...]Timing{Always, Always, Always, Extra, Extra, Extra, Extra, End}

// Named is a key with its French and English names.
type Named struct {
	Key    string
	FR, EN string
}

// Name returns the name in lang ("fr" or English).
func (n Named) Name(lang string) string {
	if lang == "fr" {
		return n.FR
	}
	return n.EN
}

// JunkInfo is one junk.
type JunkInfo struct {
	Named
	Goods int // index of the goods on it, -1 for the grey junk
}

// GoodsInfo is one goods.
type GoodsInfo struct {
	Named
	Cards int // cards in the box
	Junk  int // the junk its cards lie on
}

// Square is one square of the helpers' track.
type Square struct {
	Action Action
	Event  SquareEvent
}

// MarketCard is one market card: the total price of each goods, or
// PriceSpecial.
type MarketCard struct {
	ID     string
	Prices [NumGoods]int
	// StandIn: the card's prices are a stand-in (stand-in: true in the
	// file), to check against a box.
	StandIn bool
}

// PriceSpecial is the price "S": a special card instead of money.
const PriceSpecial = -1

// SpecialCard is one special card.
type SpecialCard struct {
	ID     string
	Effect Effect
	Timing Timing
	Junk   int           // the junk of an income card, else -1
	Points int           // the bonus of an end card
	Need   [NumJunks]int // an end card's crates needed per junk (0: none)
	// StandIn: what the card asks is a stand-in (stand-in: true in the
	// file), to check against a box.
	StandIn bool
}

// RestockCard is one restock card.
type RestockCard struct {
	ID     string
	Colour int
}

// Data is the game's data: the board file and the cards file decoded.
// It is only read once decoded.
type Data struct {
	Junks    [NumJunks]JunkInfo
	Goods    [NumGoods]GoodsInfo
	Palettes int      // palettes per player
	Colours  []string // colours in seat order
	// Track is the helpers' track: row 0 the bottom row (always played),
	// row 1 the top row (four players).
	Track [2][Rounds]Square
	// Merchants is the starting junk of the load, income and goods merchants.
	Merchants [NumMerchants]int
	// StartPalettes gives, per player count, the colours of the palettes
	// on each junk in the order they are laid.
	StartPalettes map[int][NumJunks][]int
	Market        []MarketCard
	Piles         [NumPiles]Named
	Special       []SpecialCard
	Restock       []RestockCard
	// StandInParts lists the parts of the board file that are stand-ins
	// (its stand-ins key): "junk-order", "track", "setup".
	StandInParts []string

	market, special map[string]int
}

// StandInParts are the parts of the board file that its stand-ins key
// may name.
var StandInParts = []string{"junk-order", "track", "setup"}

// StandIns lists what of the data is a stand-in, to check against a box
// and correct in configs/dschunke: the board file's parts, then the ids of
// the cards marked stand-in.
func (d *Data) StandIns() []string {
	out := append([]string(nil), d.StandInParts...)
	for _, c := range d.Market {
		if c.StandIn {
			out = append(out, c.ID)
		}
	}
	for _, c := range d.Special {
		if c.StandIn {
			out = append(out, c.ID)
		}
	}
	return out
}

// MarketIndex returns the index of the market card with that id.
func (d *Data) MarketIndex(id string) (int, bool) { i, ok := d.market[id]; return i, ok }

// SpecialIndex returns the index of the special card with that id.
func (d *Data) SpecialIndex(id string) (int, bool) { i, ok := d.special[id]; return i, ok }

// JunkIndex returns the index of the junk with that key.
func (d *Data) JunkIndex(key string) (int, bool) {
	for i, j := range d.Junks {
		if j.Key == key {
			return i, true
		}
	}
	return -1, false
}

// GoodsIndex returns the index of the goods with that key.
func (d *Data) GoodsIndex(key string) (int, bool) {
	for i, g := range d.Goods {
		if g.Key == key {
			return i, true
		}
	}
	return -1, false
}

// PileIndex returns the index of the pile with that key.
func (d *Data) PileIndex(key string) (int, bool) {
	for i, p := range d.Piles {
		if p.Key == key {
			return i, true
		}
	}
	return -1, false
}

var (
	loadOnce sync.Once
	loaded   *Data
	loadErr  error
)

// LoadData returns the data decoded from the embedded configs, once.
func LoadData() (*Data, error) {
	loadOnce.Do(func() {
		board, err := configs.FS.ReadFile(BoardFile)
		if err != nil {
			loadErr = fmt.Errorf("dschunke: %w", err)
			return
		}
		cards, err := configs.FS.ReadFile(CardsFile)
		if err != nil {
			loadErr = fmt.Errorf("dschunke: %w", err)
			return
		}
		loaded, loadErr = Decode(board, BoardFile, cards, CardsFile)
	})
	return loaded, loadErr
}

// Decode decodes the board file and the cards file (named for errors).
// Errors name the file, the line and the key, and wrap ErrData.
func Decode(board []byte, boardName string, cards []byte, cardsName string) (*Data, error) {
	d := &Data{StartPalettes: map[int][NumJunks][]int{}, market: map[string]int{}, special: map[string]int{}}
	if err := d.decodeBoard(board, strict.File{Name: boardName, Sentinel: ErrData}); err != nil {
		return nil, err
	}
	if err := d.decodeCards(cards, strict.File{Name: cardsName, Sentinel: ErrData}); err != nil {
		return nil, err
	}
	return d, nil
}

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

func named(f strict.File, n *yaml.Node, where string, extra ...string) (Named, map[string]*yaml.Node, error) {
	m, err := f.Fields(n, where, append([]string{"key", "fr", "en"}, extra...), nil)
	if err != nil {
		return Named{}, nil, err
	}
	var out Named
	if out.Key, err = f.String(m["key"], "key"); err != nil {
		return out, nil, err
	}
	if !idPattern.MatchString(out.Key) {
		return out, nil, f.Errorf(m["key"], "key", "%q: use lower-case letters, digits and '-'", out.Key)
	}
	if out.FR, err = f.String(m["fr"], "fr"); err != nil {
		return out, nil, err
	}
	if out.EN, err = f.String(m["en"], "en"); err != nil {
		return out, nil, err
	}
	return out, m, nil
}

func (d *Data) decodeBoard(data []byte, f strict.File) error {
	root, err := f.Parse(data)
	if err != nil {
		return err
	}
	return d.decodeBoardNode(root, f)
}

// decodeBoardNode decodes the board file's mapping (a file of its own, or
// the board: section of a table's data file).
func (d *Data) decodeBoardNode(root *yaml.Node, f strict.File) error {
	top, err := f.Fields(root, "the board file", []string{"version", "junks", "goods", "palettes", "colours", "track", "setup"}, []string{"stand-ins"})
	if err != nil {
		return err
	}
	if err := f.Version(top, DataVersion); err != nil {
		return err
	}
	if n := top["stand-ins"]; n != nil {
		if d.StandInParts, err = f.Strings(n, "stand-ins"); err != nil {
			return err
		}
		for _, p := range d.StandInParts {
			if !slices.Contains(StandInParts, p) {
				return f.Errorf(n, "stand-ins", "%q is not a part of the board file; stand-ins may name %s", p, strings.Join(StandInParts, ", "))
			}
		}
	}
	goods, err := f.Seq(top["goods"], "goods")
	if err != nil {
		return err
	}
	if len(goods) != NumGoods {
		return f.Errorf(top["goods"], "goods", "%d goods; Dschunke has exactly %d", len(goods), NumGoods)
	}
	for i, n := range goods {
		nm, m, err := named(f, n, "goods "+strconv.Itoa(i+1), "cards")
		if err != nil {
			return err
		}
		if _, dup := d.GoodsIndex(nm.Key); dup {
			return f.Errorf(m["key"], "key", "goods %q given twice", nm.Key)
		}
		d.Goods[i].Named = nm
		if d.Goods[i].Cards, err = f.Int(m["cards"], "cards"); err != nil {
			return err
		}
		if d.Goods[i].Cards < 8 {
			return f.Errorf(m["cards"], "cards", "%d cards; a goods needs at least 8 (the deal takes 8 of each)", d.Goods[i].Cards)
		}
		d.Goods[i].Junk = -1
	}
	junks, err := f.Seq(top["junks"], "junks")
	if err != nil {
		return err
	}
	if len(junks) != NumJunks {
		return f.Errorf(top["junks"], "junks", "%d junks; Dschunke has exactly %d", len(junks), NumJunks)
	}
	grey := 0
	for i, n := range junks {
		nm, m, err := named(f, n, "junk "+strconv.Itoa(i+1), "goods")
		if err != nil {
			return err
		}
		if _, dup := d.JunkIndex(nm.Key); dup {
			return f.Errorf(m["key"], "key", "junk %q given twice", nm.Key)
		}
		d.Junks[i].Named = nm
		g, err := f.String(m["goods"], "goods")
		if err != nil {
			return err
		}
		if g == "none" {
			d.Junks[i].Goods = -1
			grey++
			continue
		}
		gi, ok := d.GoodsIndex(g)
		if !ok {
			return f.Errorf(m["goods"], "goods", "unknown goods %q; expected one of the goods list or none", g)
		}
		if d.Goods[gi].Junk >= 0 {
			return f.Errorf(m["goods"], "goods", "the cards of %s are already on junk %s; each goods lies on one junk", g, d.Junks[d.Goods[gi].Junk].Key)
		}
		d.Junks[i].Goods = gi
		d.Goods[gi].Junk = i
	}
	if grey != 1 {
		return f.Errorf(top["junks"], "junks", "%d junks without goods; Dschunke has exactly one (the grey junk)", grey)
	}
	if d.Palettes, err = f.Int(top["palettes"], "palettes"); err != nil {
		return err
	}
	if d.Palettes < 3 {
		return f.Errorf(top["palettes"], "palettes", "%d palettes; give at least 3", d.Palettes)
	}
	if d.Colours, err = f.Strings(top["colours"], "colours"); err != nil {
		return err
	}
	if len(d.Colours) != 4 {
		return f.Errorf(top["colours"], "colours", "%d colours; give the 4 colours in seat order", len(d.Colours))
	}
	for i, c := range d.Colours {
		for _, o := range d.Colours[:i] {
			if o == c {
				return f.Errorf(top["colours"], "colours", "colour %q given twice", c)
			}
		}
	}
	track, err := f.Fields(top["track"], "track", []string{"bottom", "top"}, nil)
	if err != nil {
		return err
	}
	for row, key := range []string{"bottom", "top"} {
		sq, err := f.Seq(track[key], "track."+key)
		if err != nil {
			return err
		}
		if len(sq) != Rounds {
			return f.Errorf(track[key], "track."+key, "%d squares; a row has %d, one per round", len(sq), Rounds)
		}
		for i, n := range sq {
			m, err := f.Fields(n, fmt.Sprintf("track.%s square %d", key, i+1), []string{"action", "event"}, nil)
			if err != nil {
				return err
			}
			a, err := f.String(m["action"], "action")
			if err != nil {
				return err
			}
			ai := index(actionKeys[:], a)
			if ai < 0 {
				return f.Errorf(m["action"], "action", "unknown action %q; expected load, income or goods", a)
			}
			e, err := f.String(m["event"], "event")
			if err != nil {
				return err
			}
			ei := index([]string{"none", "S", "Y"}, e)
			if ei < 0 {
				return f.Errorf(m["event"], "event", "unknown event %q; expected S, Y or none", e)
			}
			d.Track[row][i] = Square{Action: Action(ai), Event: SquareEvent(ei)}
		}
	}
	setup, err := f.Fields(top["setup"], "setup", []string{"merchants", "palettes"}, nil)
	if err != nil {
		return err
	}
	mer, err := f.StringMap(setup["merchants"], "setup.merchants")
	if err != nil {
		return err
	}
	if len(mer) != NumMerchants {
		return f.Errorf(setup["merchants"], "setup.merchants", "%d merchants; give the junk of load, income and goods", len(mer))
	}
	seenJunk := map[int]bool{}
	for _, kv := range mer {
		a := index(actionKeys[:], kv[0])
		if a < 0 {
			return f.Errorf(setup["merchants"], "setup.merchants."+kv[0], "unknown merchant; expected load, income and goods")
		}
		j, ok := d.JunkIndex(kv[1])
		if !ok {
			return f.Errorf(setup["merchants"], "setup.merchants."+kv[0], "unknown junk %q", kv[1])
		}
		if seenJunk[j] {
			return f.Errorf(setup["merchants"], "setup.merchants."+kv[0], "two merchants on junk %q; one merchant per junk", kv[1])
		}
		seenJunk[j] = true
		d.Merchants[a] = j
	}
	pal := setup["palettes"]
	if pal.Kind != yaml.MappingNode {
		return f.Errorf(pal, "setup.palettes", "expected a mapping from player count (\"3\", \"4\") to junks")
	}
	for i := 0; i+1 < len(pal.Content); i += 2 {
		k := pal.Content[i].Value
		n, err := strconv.Atoi(k)
		if err != nil || n < 3 || n > 4 {
			return f.Errorf(pal.Content[i], "setup.palettes."+k, "expected a player count, 3 or 4")
		}
		if _, dup := d.StartPalettes[n]; dup {
			return f.Errorf(pal.Content[i], "setup.palettes."+k, "given twice")
		}
		where := "setup.palettes." + k
		var keys []string
		for _, j := range d.Junks {
			keys = append(keys, j.Key)
		}
		m, err := f.Fields(pal.Content[i+1], where, nil, keys)
		if err != nil {
			return err
		}
		var start [NumJunks][]int
		count := make([]int, n)
		for j, jk := range keys {
			if m[jk] == nil {
				continue
			}
			cs, err := f.Strings(m[jk], where+"."+jk)
			if err != nil {
				return err
			}
			for _, c := range cs {
				ci := index(d.Colours[:n], c)
				if ci < 0 {
					return f.Errorf(m[jk], where+"."+jk, "colour %q does not play with %d players; expected one of %v", c, n, d.Colours[:n])
				}
				start[j] = append(start[j], ci)
				count[ci]++
			}
		}
		for c, k := range count {
			if k > d.Palettes {
				return f.Errorf(pal.Content[i+1], where, "colour %s has %d palettes on the junks, more than %d", d.Colours[c], k, d.Palettes)
			}
		}
		d.StartPalettes[n] = start
	}
	for _, n := range []int{3, 4} {
		if _, ok := d.StartPalettes[n]; !ok {
			return f.Errorf(pal, "setup.palettes", "no set-up for %d players; give \"3\" and \"4\"", n)
		}
	}
	return nil
}

func index(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

func (d *Data) cardID(f strict.File, m map[string]*yaml.Node, seen map[string]int) (string, error) {
	id, err := f.String(m["id"], "id")
	if err != nil {
		return "", err
	}
	if !idPattern.MatchString(id) {
		return "", f.Errorf(m["id"], "id", "%q: use lower-case letters, digits and '-'", id)
	}
	if line, dup := seen[id]; dup {
		return "", f.Errorf(m["id"], "id", "card %q is also on line %d; ids are unique", id, line)
	}
	seen[id] = m["id"].Line
	return id, nil
}

func (d *Data) decodeCards(data []byte, f strict.File) error {
	root, err := f.Parse(data)
	if err != nil {
		return err
	}
	return d.decodeCardsNode(root, f)
}

// decodeCardsNode decodes the cards file's mapping (a file of its own, or
// the cards: section of a table's data file).
func (d *Data) decodeCardsNode(root *yaml.Node, f strict.File) error {
	top, err := f.Fields(root, "the cards file", []string{"version", "market", "piles", "special", "restock"}, nil)
	if err != nil {
		return err
	}
	if err := f.Version(top, DataVersion); err != nil {
		return err
	}
	seen := map[string]int{}
	market, err := f.Seq(top["market"], "market")
	if err != nil {
		return err
	}
	if len(market) != Rounds {
		return f.Errorf(top["market"], "market", "%d market cards; the game has %d, one per round", len(market), Rounds)
	}
	for i, n := range market {
		m, err := f.Fields(n, "market card "+strconv.Itoa(i+1), []string{"id", "prices"}, []string{"stand-in"})
		if err != nil {
			return err
		}
		c := MarketCard{}
		if c.ID, err = d.cardID(f, m, seen); err != nil {
			return err
		}
		if x := m["stand-in"]; x != nil {
			if c.StandIn, err = f.Bool(x, "stand-in"); err != nil {
				return err
			}
		}
		var keys []string
		for _, g := range d.Goods {
			keys = append(keys, g.Key)
		}
		pm, err := f.Fields(m["prices"], "the prices of "+c.ID, keys, nil)
		if err != nil {
			return err
		}
		for g, k := range keys {
			p := pm[k]
			if p.Kind == yaml.ScalarNode && p.Value == "S" {
				c.Prices[g] = PriceSpecial
				continue
			}
			v, err := f.Int(p, "prices."+k)
			if err != nil {
				return f.Errorf(p, "prices."+k, "expected a price in yuans or S")
			}
			if v < 0 {
				return f.Errorf(p, "prices."+k, "price %d is negative", v)
			}
			c.Prices[g] = v
		}
		d.market[c.ID] = len(d.Market)
		d.Market = append(d.Market, c)
	}
	piles, err := f.Seq(top["piles"], "piles")
	if err != nil {
		return err
	}
	if len(piles) != NumPiles {
		return f.Errorf(top["piles"], "piles", "%d piles; the board has %d landing stages", len(piles), NumPiles)
	}
	for i, n := range piles {
		nm, m, err := named(f, n, "pile "+strconv.Itoa(i+1))
		if err != nil {
			return err
		}
		if _, dup := d.PileIndex(nm.Key); dup {
			return f.Errorf(m["key"], "key", "pile %q given twice", nm.Key)
		}
		d.Piles[i] = nm
	}
	special, err := f.Seq(top["special"], "special")
	if err != nil {
		return err
	}
	if len(special) < NumPiles {
		return f.Errorf(top["special"], "special", "%d special cards; give at least %d", len(special), NumPiles)
	}
	for i, n := range special {
		m, err := f.Fields(n, "special card "+strconv.Itoa(i+1), []string{"id", "effect", "timing"}, []string{"junk", "points", "need", "stand-in"})
		if err != nil {
			return err
		}
		c := SpecialCard{Junk: -1}
		if c.ID, err = d.cardID(f, m, seen); err != nil {
			return err
		}
		if x := m["stand-in"]; x != nil {
			if c.StandIn, err = f.Bool(x, "stand-in"); err != nil {
				return err
			}
		}
		e, err := f.String(m["effect"], "effect")
		if err != nil {
			return err
		}
		ei := index(effectKeys[:], e)
		if ei < 0 {
			return f.Errorf(m["effect"], "effect", "unknown effect %q; expected one of %v", e, effectKeys)
		}
		c.Effect = Effect(ei)
		t, err := f.String(m["timing"], "timing")
		if err != nil {
			return err
		}
		ti := index(timingKeys[:], t)
		if ti < 0 {
			return f.Errorf(m["timing"], "timing", "unknown timing %q; expected always, extra or end", t)
		}
		c.Timing = Timing(ti)
		if c.Timing != timingOf[c.Effect] {
			return f.Errorf(m["timing"], "timing", "effect %s is played %s, not %s", c.Effect, timingOf[c.Effect], c.Timing)
		}
		want := map[string]bool{}
		switch c.Effect {
		case EffIncome:
			want["junk"] = true
		case EffBonus:
			want["points"], want["need"] = true, true
		}
		for _, k := range []string{"junk", "points", "need"} {
			if want[k] != (m[k] != nil) {
				if want[k] {
					return f.Errorf(n, k, "missing; effect %s needs it", c.Effect)
				}
				return f.Errorf(m[k], k, "effect %s takes no %s; remove it", c.Effect, k)
			}
		}
		if m["junk"] != nil {
			j, err := f.String(m["junk"], "junk")
			if err != nil {
				return err
			}
			if c.Junk, _ = d.JunkIndex(j); c.Junk < 0 {
				return f.Errorf(m["junk"], "junk", "unknown junk %q", j)
			}
		}
		if m["points"] != nil {
			if c.Points, err = f.Int(m["points"], "points"); err != nil {
				return err
			}
			if c.Points <= 0 {
				return f.Errorf(m["points"], "points", "a bonus is a positive number of yuans")
			}
		}
		if m["need"] != nil {
			need := m["need"]
			if need.Kind != yaml.MappingNode || len(need.Content) == 0 {
				return f.Errorf(need, "need", "expected a mapping from junk to crates, for example {brown: 4}")
			}
			for k := 0; k+1 < len(need.Content); k += 2 {
				j, ok := d.JunkIndex(need.Content[k].Value)
				if !ok {
					return f.Errorf(need.Content[k], "need", "unknown junk %q", need.Content[k].Value)
				}
				v, err := f.Int(need.Content[k+1], "need."+need.Content[k].Value)
				if err != nil {
					return err
				}
				if v < 1 || v > Layer*Layer {
					return f.Errorf(need.Content[k+1], "need."+need.Content[k].Value, "%d crates; a junk shows 1 to 9", v)
				}
				if c.Need[j] != 0 {
					return f.Errorf(need.Content[k], "need", "junk %q given twice", need.Content[k].Value)
				}
				c.Need[j] = v
			}
		}
		d.special[c.ID] = len(d.Special)
		d.Special = append(d.Special, c)
	}
	restock, err := f.Seq(top["restock"], "restock")
	if err != nil {
		return err
	}
	per := map[int]int{}
	for i, n := range restock {
		m, err := f.Fields(n, "restock card "+strconv.Itoa(i+1), []string{"id", "colour"}, nil)
		if err != nil {
			return err
		}
		c := RestockCard{}
		if c.ID, err = d.cardID(f, m, seen); err != nil {
			return err
		}
		col, err := f.String(m["colour"], "colour")
		if err != nil {
			return err
		}
		if c.Colour = index(d.Colours, col); c.Colour < 0 {
			return f.Errorf(m["colour"], "colour", "unknown colour %q; expected one of %v", col, d.Colours)
		}
		per[c.Colour]++
		d.Restock = append(d.Restock, c)
	}
	for c := range d.Colours {
		if per[c] == 0 {
			return f.Errorf(top["restock"], "restock", "no restock card of colour %s; each player starts with his colour's", d.Colours[c])
		}
	}
	return nil
}

// restockCards is the number of restock cards of colour c.
func (d *Data) restockCards(c int) int {
	n := 0
	for _, r := range d.Restock {
		if r.Colour == c {
			n++
		}
	}
	return n
}
