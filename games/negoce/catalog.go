package negoce

import (
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"unicode"

	"gopkg.in/yaml.v3"

	"comptoir/configs"
	"comptoir/strictyaml"
)

// The sizes the rules need: 8 goods of 4 cards and one Contraband card.
const (
	NumGoods      = 8
	CardsPerGood  = 4
	NumCards      = NumGoods*CardsPerGood + 1
	contrabandIdx = NumCards - 1
)

// CatalogFile is the path of the card catalog in the embedded configs.
const CatalogFile = "negoce/cards.yaml"

const catalogVersion = 1

// Sentinel errors of the catalog decoder: every decoding error wraps one
// of them, and strictyaml.ErrInvalid. They are strictyaml's.
var (
	ErrUnknownKey = strictyaml.ErrUnknownKey
	ErrMissingKey = strictyaml.ErrMissingKey
	ErrBadValue   = strictyaml.ErrBadValue
)

// CatalogError is a catalog error at a place in a file.
type CatalogError = strictyaml.Error

// CardID is a card's stable id, for example "silk-2" or "contraband".
type CardID string

// Good is a good's key, for example "silk". In commands a good may also be
// written by its number (1 to 8) or its French or English name; the rules
// resolve it with [Catalog.Good].
type Good string

// GoodInfo is one good of the catalog.
type GoodInfo struct {
	Key    Good
	Number int // 1 to 8, printed on the cards
	FR, EN string
	Cards  [CardsPerGood]CardID
}

// Catalog is the deck: 8 goods of 4 cards and the Contraband card. Cards
// are indexed 0 to 32: good g's cards are 4g to 4g+3, the Contraband card
// is 32. A Catalog is only read once decoded.
type Catalog struct {
	Goods        [NumGoods]GoodInfo
	ContrabandID CardID
	ContrabandFR string
	ContrabandEN string

	index map[CardID]int
}

// Card returns the index of the card with that id.
func (c *Catalog) Card(id CardID) (int, bool) {
	i, ok := c.index[id]
	return i, ok
}

// ID returns the id of the card at index i.
func (c *Catalog) ID(i int) CardID {
	if i == contrabandIdx {
		return c.ContrabandID
	}
	return c.Goods[i/CardsPerGood].Cards[i%CardsPerGood]
}

// GoodOf returns the good index (0 to 7) of card i, or -1 for Contraband.
func GoodOf(i int) int {
	if i == contrabandIdx {
		return -1
	}
	return i / CardsPerGood
}

// Good resolves a good written as its key, its number or its French or
// English name (case and accents do not matter). It returns the good's
// index, 0 to 7.
func (c *Catalog) Good(g Good) (int, bool) {
	s := fold(string(g))
	if s == "" {
		return 0, false
	}
	for i, info := range c.Goods {
		if s == fold(string(info.Key)) || s == strconv.Itoa(info.Number) || s == fold(info.FR) || s == fold(info.EN) {
			return i, true
		}
	}
	return 0, false
}

// IDs lists every card id in catalog order, goods 1 to 8 then the
// Contraband card: the order in which to enroll the cards' NFC tags.
func (c *Catalog) IDs() []CardID {
	out := make([]CardID, NumCards)
	for i := range out {
		out[i] = c.ID(i)
	}
	return out
}

// GoodKeys lists the goods' keys, in catalog order.
func (c *Catalog) GoodKeys() []string {
	out := make([]string, NumGoods)
	for i, g := range c.Goods {
		out[i] = string(g.Key)
	}
	return out
}

// CardName is a card's name in lang ("fr" or "en"), for example "Soie (silk-2)".
func (c *Catalog) CardName(i int, lang string) string {
	if i == contrabandIdx {
		return pick(lang, c.ContrabandFR, c.ContrabandEN)
	}
	g := c.Goods[GoodOf(i)]
	return fmt.Sprintf("%s (%s)", pick(lang, g.FR, g.EN), c.ID(i))
}

// Name is the name printed on card i in lang ("fr" or "en"): its good's
// name ("Soie"), or the Contraband's ("Contrebande"). Unlike [CardName]
// it does not tell the four cards of a good apart: it is for players,
// who never see card ids.
func (c *Catalog) Name(i int, lang string) string {
	if i == contrabandIdx {
		return pick(lang, c.ContrabandFR, c.ContrabandEN)
	}
	return c.GoodName(GoodOf(i), lang)
}

// Phrase is card i for players, with its article: "a Silk card", "une
// carte Soie", "the Contraband card", "la carte Contrebande".
func (c *Catalog) Phrase(i int, lang string) string {
	switch {
	case i == contrabandIdx && lang == "fr":
		return "la carte " + c.ContrabandFR
	case i == contrabandIdx:
		return "the " + c.ContrabandEN + " card"
	case lang == "fr":
		return "une carte " + c.GoodName(GoodOf(i), lang)
	}
	name := c.GoodName(GoodOf(i), lang)
	if strings.ContainsRune("AEIOUaeiou", []rune(name)[0]) {
		return "an " + name + " card"
	}
	return "a " + name + " card"
}

// GoodName is a good's name in lang.
func (c *Catalog) GoodName(g int, lang string) string {
	return pick(lang, c.Goods[g].FR, c.Goods[g].EN)
}

func pick(lang, fr, en string) string {
	if lang == "fr" {
		return fr
	}
	return en
}

// fold lower-cases s and strips its accents, so that "Épices", "epices"
// and "ÉPICES" match.
func fold(s string) string {
	var b strings.Builder
	for _, r := range strings.TrimSpace(s) {
		r = unicode.ToLower(r)
		if plain, ok := unaccented[r]; ok {
			r = plain
		}
		b.WriteRune(r)
	}
	return b.String()
}

// unaccented maps the accented letters of French to their plain letter.
var unaccented = map[rune]rune{
	'à': 'a', 'â': 'a', 'ä': 'a', 'ç': 'c', 'é': 'e', 'è': 'e', 'ê': 'e', 'ë': 'e',
	'î': 'i', 'ï': 'i', 'ô': 'o', 'ö': 'o', 'ù': 'u', 'û': 'u', 'ü': 'u', 'ÿ': 'y',
}

// DefaultCatalog decodes the catalog embedded in package comptoir/configs.
func DefaultCatalog() (*Catalog, error) {
	data, err := fs.ReadFile(configs.FS, CatalogFile)
	if err != nil {
		return nil, fmt.Errorf("negoce: embedded catalog: %w", err)
	}
	return DecodeCatalog(data, CatalogFile)
}

// DecodeCatalog decodes a card catalog (see configs/negoce/cards.yaml for
// the format) with comptoir/strictyaml. file names the file in errors.
// Unknown keys are refused, every key is required, and the deck must be
// what the rules need: 8 goods numbered 1 to 8, 4 cards each, one
// Contraband card, every id and name used once.
func DecodeCatalog(data []byte, file string) (*Catalog, error) {
	d := &catDecoder{File: strictyaml.File{Name: file}, ids: map[string]string{}}
	root, err := d.Parse(data)
	if err != nil {
		return nil, err
	}
	top, err := d.Fields(root, "the card catalog", []string{"version", "goods", "contraband"}, nil)
	if err != nil {
		return nil, err
	}
	if err := d.Version(top, catalogVersion); err != nil {
		return nil, err
	}
	c := &Catalog{index: map[CardID]int{}}
	goods, err := d.Seq(top["goods"], "goods")
	if err != nil {
		return nil, err
	}
	if len(goods) != NumGoods {
		return nil, d.Failf(top["goods"], "goods", ErrBadValue, "%d goods listed; Négoce 2 has exactly %d (numbered 1 to %d)", len(goods), NumGoods, NumGoods)
	}
	numbers := map[int]string{}
	for gi, gn := range goods {
		path := fmt.Sprintf("goods[%d]", gi)
		m, err := d.Section(gn, path, []string{"key", "number", "fr", "en", "cards"}, nil)
		if err != nil {
			return nil, err
		}
		info := &c.Goods[gi]
		key, err := d.id(m["key"], path+".key", "good key")
		if err != nil {
			return nil, err
		}
		info.Key = Good(key)
		n, err := d.Int(m["number"], path+".number")
		if err != nil {
			return nil, err
		}
		if n < 1 || n > NumGoods {
			return nil, d.Failf(m["number"], path+".number", ErrBadValue, "%d: want a number from 1 to %d", n, NumGoods)
		}
		if other, dup := numbers[n]; dup {
			return nil, d.Failf(m["number"], path+".number", ErrBadValue, "number %d is already %s's", n, other)
		}
		numbers[n] = key
		info.Number = n
		if info.FR, err = d.name(m["fr"], path+".fr"); err != nil {
			return nil, err
		}
		if info.EN, err = d.name(m["en"], path+".en"); err != nil {
			return nil, err
		}
		cards, err := d.Seq(m["cards"], path+".cards")
		if err != nil {
			return nil, err
		}
		if len(cards) != CardsPerGood {
			return nil, d.Failf(m["cards"], path+".cards", ErrBadValue, "%d cards listed; every good has exactly %d", len(cards), CardsPerGood)
		}
		for ci, cn := range cards {
			id, err := d.id(cn, fmt.Sprintf("%s.cards[%d]", path, ci), "card id")
			if err != nil {
				return nil, err
			}
			info.Cards[ci] = CardID(id)
			c.index[CardID(id)] = gi*CardsPerGood + ci
		}
	}
	cm, err := d.Section(top["contraband"], "contraband", []string{"id", "fr", "en"}, nil)
	if err != nil {
		return nil, err
	}
	id, err := d.id(cm["id"], "contraband.id", "card id")
	if err != nil {
		return nil, err
	}
	c.ContrabandID = CardID(id)
	c.index[c.ContrabandID] = contrabandIdx
	if c.ContrabandFR, err = d.name(cm["fr"], "contraband.fr"); err != nil {
		return nil, err
	}
	if c.ContrabandEN, err = d.name(cm["en"], "contraband.en"); err != nil {
		return nil, err
	}
	// A good's names and number must not be another good's, or a player
	// calling a good would be ambiguous.
	for i := range c.Goods {
		for j := range i {
			a, b := c.Goods[i], c.Goods[j]
			for _, x := range []string{fold(a.FR), fold(a.EN)} {
				for _, y := range []string{fold(b.FR), fold(b.EN), fold(string(b.Key))} {
					if x == y {
						return nil, d.Failf(goods[i], fmt.Sprintf("goods[%d]", i), ErrBadValue, "name %q is also good %s's; every good needs its own names", x, b.Key)
					}
				}
			}
		}
	}
	return c, nil
}

type catDecoder struct {
	strictyaml.File
	ids map[string]string // ids and keys used so far -> where
}

// name reads a good's or a card's name: a text, not empty.
func (d *catDecoder) name(n *yaml.Node, key string) (string, error) {
	s, err := d.String(n, key)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(s) == "" {
		return "", d.Failf(n, key, ErrBadValue, "a name cannot be empty")
	}
	return s, nil
}

// id reads a key or a card id: lower-case letters, digits and '-', used
// once in the whole file.
func (d *catDecoder) id(n *yaml.Node, key, what string) (string, error) {
	s, err := d.String(n, key)
	if err != nil {
		return "", err
	}
	if !validID(s) {
		return "", d.Failf(n, key, ErrBadValue, "%s %q: use lower-case letters, digits and '-', starting with a letter", what, s)
	}
	if where, dup := d.ids[s]; dup {
		return "", d.Failf(n, key, ErrBadValue, "%q is already used at %s; every key and card id must be unique", s, where)
	}
	d.ids[s] = fmt.Sprintf("%s line %d", key, n.Line)
	return s, nil
}

func validID(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}
