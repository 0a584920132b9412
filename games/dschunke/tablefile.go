package dschunke

import (
	"bytes"
	"fmt"
	"strconv"

	"gopkg.in/yaml.v3"

	strict "comptoir/strictyaml"
)

// A table's data file holds the board file and the cards file as the
// staff corrected them (the stand-ins checked against a box), under the
// keys board and cards, each exactly as in its own file:
//
//	version: 1
//	board:
//	  version: 1
//	  junks: ...
//	cards:
//	  version: 1
//	  market: ...
//
// DecodeTable reads it strictly; EncodeTable writes it.

// Data returns the data the rules play on: those given to NewWithData,
// else the embedded configs.
func (r Rules) Data() (*Data, error) {
	if r.data != nil {
		return r.data, nil
	}
	return LoadData()
}

// DecodeTable decodes a table's data file (named for errors): errors name
// the file, the line and the key, and wrap ErrData.
func DecodeTable(data []byte, name string) (*Data, error) {
	f := strict.File{Name: name, Sentinel: ErrData}
	root, err := f.Parse(data)
	if err != nil {
		return nil, err
	}
	top, err := f.Fields(root, "the table's Dschunke data", []string{"version", "board", "cards"}, nil)
	if err != nil {
		return nil, err
	}
	if err := f.Version(top, DataVersion); err != nil {
		return nil, err
	}
	d := &Data{StartPalettes: map[int][NumJunks][]int{}, market: map[string]int{}, special: map[string]int{}}
	if err := d.decodeBoardNode(top["board"], f); err != nil {
		return nil, err
	}
	if err := d.decodeCardsNode(top["cards"], f); err != nil {
		return nil, err
	}
	return d, nil
}

// tableFile is a table's data file as written: every value by key, so
// that a correction is an edit of one field (see Correct).
type tableFile struct {
	Version int       `yaml:"version"`
	Board   boardFile `yaml:"board"`
	Cards   cardsFile `yaml:"cards"`
}

type boardFile struct {
	Version  int         `yaml:"version"`
	Junks    []junkFile  `yaml:"junks"`
	Goods    []goodsFile `yaml:"goods"`
	Palettes int         `yaml:"palettes"`
	Colours  []string    `yaml:"colours,flow"`
	Track    struct {
		Bottom []squareFile `yaml:"bottom"`
		Top    []squareFile `yaml:"top"`
	} `yaml:"track"`
	Setup struct {
		Merchants map[string]string              `yaml:"merchants,flow"`
		Palettes  map[string]map[string][]string `yaml:"palettes"`
	} `yaml:"setup"`
	StandIns []string `yaml:"stand-ins,flow,omitempty"`
}

type junkFile struct {
	Key   string `yaml:"key"`
	FR    string `yaml:"fr"`
	EN    string `yaml:"en"`
	Goods string `yaml:"goods"`
}

type goodsFile struct {
	Key   string `yaml:"key"`
	FR    string `yaml:"fr"`
	EN    string `yaml:"en"`
	Cards int    `yaml:"cards"`
}

type squareFile struct {
	Action string `yaml:"action"`
	Event  string `yaml:"event"`
}

type cardsFile struct {
	Version int           `yaml:"version"`
	Market  []marketFile  `yaml:"market"`
	Piles   []pileFile    `yaml:"piles"`
	Special []specialFile `yaml:"special"`
	Restock []restockFile `yaml:"restock"`
}

type marketFile struct {
	ID      string         `yaml:"id"`
	Prices  map[string]any `yaml:"prices,flow"` // a price in yuans (int) or "S"
	StandIn bool           `yaml:"stand-in,omitempty"`
}

type pileFile struct {
	Key string `yaml:"key"`
	FR  string `yaml:"fr"`
	EN  string `yaml:"en"`
}

type specialFile struct {
	ID      string         `yaml:"id"`
	Effect  string         `yaml:"effect"`
	Timing  string         `yaml:"timing"`
	Junk    string         `yaml:"junk,omitempty"`
	Points  int            `yaml:"points,omitempty"`
	Need    map[string]int `yaml:"need,flow,omitempty"`
	StandIn bool           `yaml:"stand-in,omitempty"`
}

type restockFile struct {
	ID     string `yaml:"id"`
	Colour string `yaml:"colour"`
}

var eventKeys = [...]string{"none", "S", "Y"}

// file returns d as a table's data file.
func (d *Data) file() *tableFile {
	t := &tableFile{Version: DataVersion}
	b := &t.Board
	b.Version = DataVersion
	for _, j := range d.Junks {
		g := "none"
		if j.Goods >= 0 {
			g = d.Goods[j.Goods].Key
		}
		b.Junks = append(b.Junks, junkFile{Key: j.Key, FR: j.FR, EN: j.EN, Goods: g})
	}
	for _, g := range d.Goods {
		b.Goods = append(b.Goods, goodsFile{Key: g.Key, FR: g.FR, EN: g.EN, Cards: g.Cards})
	}
	b.Palettes = d.Palettes
	b.Colours = append([]string(nil), d.Colours...)
	for i := range Rounds {
		b.Track.Bottom = append(b.Track.Bottom, squareFile{Action: d.Track[0][i].Action.String(), Event: eventKeys[d.Track[0][i].Event]})
		b.Track.Top = append(b.Track.Top, squareFile{Action: d.Track[1][i].Action.String(), Event: eventKeys[d.Track[1][i].Event]})
	}
	b.Setup.Merchants = map[string]string{}
	for a, j := range d.Merchants {
		b.Setup.Merchants[Action(a).String()] = d.Junks[j].Key
	}
	b.Setup.Palettes = map[string]map[string][]string{}
	for n, start := range d.StartPalettes {
		m := map[string][]string{}
		for j, cs := range start {
			if len(cs) == 0 {
				continue
			}
			for _, c := range cs {
				m[d.Junks[j].Key] = append(m[d.Junks[j].Key], d.Colours[c])
			}
		}
		b.Setup.Palettes[strconv.Itoa(n)] = m
	}
	b.StandIns = append([]string(nil), d.StandInParts...)

	c := &t.Cards
	c.Version = DataVersion
	for _, m := range d.Market {
		prices := map[string]any{}
		for g, p := range m.Prices {
			if p == PriceSpecial {
				prices[d.Goods[g].Key] = "S"
			} else {
				prices[d.Goods[g].Key] = p
			}
		}
		c.Market = append(c.Market, marketFile{ID: m.ID, Prices: prices, StandIn: m.StandIn})
	}
	for _, p := range d.Piles {
		c.Piles = append(c.Piles, pileFile(p))
	}
	for _, s := range d.Special {
		sf := specialFile{ID: s.ID, Effect: s.Effect.String(), Timing: s.Timing.String(), Points: s.Points, StandIn: s.StandIn}
		if s.Junk >= 0 {
			sf.Junk = d.Junks[s.Junk].Key
		}
		for j, n := range s.Need {
			if n > 0 {
				if sf.Need == nil {
					sf.Need = map[string]int{}
				}
				sf.Need[d.Junks[j].Key] = n
			}
		}
		c.Special = append(c.Special, sf)
	}
	for _, r := range d.Restock {
		c.Restock = append(c.Restock, restockFile{ID: r.ID, Colour: d.Colours[r.Colour]})
	}
	return t
}

// tableHeader opens every table data file written.
const tableHeader = `# Dschunke's data for a table: the board file and the cards file of
# configs/dschunke together, as the staff correct their stand-ins from the
# staff page (the table configuration's board: names it; comptoird writes
# it). configs/dschunke/table.yaml, the one to copy, is those files as
# they are (go test ./games/dschunke/dschunkekit -run TestDefaultTableFile
# -update writes it). Read strictly (comptoir/games/dschunke DecodeTable).
`

// encode writes t as a file DecodeTable reads.
func (t *tableFile) encode() []byte {
	var b bytes.Buffer
	b.WriteString(tableHeader)
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(t); err != nil {
		// Only maps, slices, strings and ints: encoding cannot fail.
		panic(fmt.Sprintf("dschunke: encoding the table's data: %v", err))
	}
	enc.Close()
	return b.Bytes()
}

// EncodeTable writes d as a table's data file, which DecodeTable reads
// back to the same data.
func EncodeTable(d *Data) []byte { return d.file().encode() }
