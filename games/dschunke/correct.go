package dschunke

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"comptoir/engine"
)

// Refusals of the staff's corrections of the stand-in data.
var (
	ErrNotStandIn = engine.NewRule("dschunke.not-stand-in", "only a stand-in value can be corrected here", "seule une valeur provisoire se corrige ici")
	ErrCorrection = engine.NewRule("dschunke.bad-correction", "this correction is not valid", "cette correction n'est pas valable")
)

// Correction is one stand-in value set by the staff from a box (RULES-NOTES:
// "staff can correct them like the Genoa board"). The keys:
//
//	market-05.fish          a stand-in market card's price: yuans or S
//	bonus-brown-orange.need a stand-in bonus card's crates: "white 5, purple 2"
//	junk-order              the junks clockwise: "brown white orange purple grey"
//	track.bottom.3          a helper square (track.top.N too): "income S", "load"
//	setup.merchants.load    a merchant's starting junk: "brown"
//	setup.palettes.4.white  the palettes laid there at the start: "yellow blue" or none
//	checked                 a stand-in checked against the box: "market-05", "track"
//
// Only what the data mark as a stand-in (Data.StandIns) can be corrected;
// once checked it is no longer a stand-in, and a further correction goes
// through the files.
type Correction struct {
	Key, Value string
}

// Correct returns d with the corrections applied in order. A correction
// of what is not a stand-in, or with a value that cannot be, is a
// *engine.Refusal in both languages. Data that do not hold together yet
// (two merchants on a junk while one is being moved) are an error
// wrapping ErrData, naming what is wrong.
func Correct(d *Data, corrections []Correction) (*Data, error) {
	t := d.file()
	standIns := d.StandIns()
	for _, c := range corrections {
		if err := t.correct(d, &standIns, strings.TrimSpace(c.Key), strings.TrimSpace(c.Value)); err != nil {
			return nil, err
		}
	}
	return DecodeTable(t.encode(), "the corrected data")
}

func bad(key, en, fr string, args ...any) error {
	return engine.Refusef(ErrCorrection, "%s: "+en, "%s : "+fr, append([]any{key}, args...)...)
}

// words splits a value on spaces, commas, colons and equal signs.
func words(v string) []string {
	return strings.FieldsFunc(v, func(r rune) bool { return r == ' ' || r == ',' || r == ':' || r == '=' || r == ';' })
}

func (t *tableFile) correct(d *Data, standIns *[]string, key, value string) error {
	notStandIn := func(item, file string) error {
		return engine.Refusef(ErrNotStandIn, "%s is not a stand-in (the rules text gives it, or it was checked): correct it in %s", "%s n'est pas une valeur provisoire (la règle la donne, ou elle a été vérifiée) : corrigez-la dans %s", item, file)
	}
	need := func(item, file string) error {
		if !slices.Contains(*standIns, item) {
			return notStandIn(item, file)
		}
		return nil
	}
	if key == "checked" {
		i := slices.Index(*standIns, value)
		if i < 0 {
			return engine.Refusef(ErrNotStandIn, "%q is not a stand-in; the stand-ins are %s", "%q n'est pas une valeur provisoire ; elles sont : %s", value, strings.Join(*standIns, ", "))
		}
		*standIns = slices.Delete(*standIns, i, i+1)
		if j := slices.Index(t.Board.StandIns, value); j >= 0 {
			t.Board.StandIns = slices.Delete(t.Board.StandIns, j, j+1)
		}
		for k := range t.Cards.Market {
			if t.Cards.Market[k].ID == value {
				t.Cards.Market[k].StandIn = false
			}
		}
		for k := range t.Cards.Special {
			if t.Cards.Special[k].ID == value {
				t.Cards.Special[k].StandIn = false
			}
		}
		return nil
	}
	if key == "junk-order" {
		if err := need("junk-order", BoardFile); err != nil {
			return err
		}
		order := words(value)
		var keys []string
		for _, j := range t.Board.Junks {
			keys = append(keys, j.Key)
		}
		sorted := slices.Sorted(slices.Values(order))
		if !slices.Equal(sorted, slices.Sorted(slices.Values(keys))) {
			return bad(key, "give the %d junks clockwise, each once: %s", "donnez les %d jonques dans le sens horaire, chacune une fois : %s", len(keys), strings.Join(keys, " "))
		}
		var junks []junkFile
		for _, k := range order {
			junks = append(junks, t.Board.Junks[slices.Index(keys, k)])
		}
		t.Board.Junks = junks
		return nil
	}
	parts := strings.Split(key, ".")
	switch {
	case len(parts) == 3 && parts[0] == "track":
		if err := need("track", BoardFile); err != nil {
			return err
		}
		row := t.Board.Track.Bottom
		if parts[1] == "top" {
			row = t.Board.Track.Top
		} else if parts[1] != "bottom" {
			return bad(key, "the track's rows are bottom and top", "les rangées de la piste sont bottom et top")
		}
		n, err := strconv.Atoi(parts[2])
		if err != nil || n < 1 || n > Rounds {
			return bad(key, "a square is numbered 1 to %d", "une case se numérote de 1 à %d", Rounds)
		}
		w := words(value)
		if len(w) == 1 {
			w = append(w, "none")
		}
		if len(w) != 2 || !slices.Contains(actionKeys[:], w[0]) || !slices.Contains(eventKeys[:], w[1]) {
			return bad(key, "%q: write the action (load, income or goods) and the event if any (S or Y), like \"income S\"", "%q : écrivez l'action (load, income ou goods) et l'événement s'il y en a un (S ou Y), comme « income S »", value)
		}
		row[n-1] = squareFile{Action: w[0], Event: w[1]}
		return nil
	case len(parts) == 3 && parts[0] == "setup" && parts[1] == "merchants":
		if err := need("setup", BoardFile); err != nil {
			return err
		}
		if !slices.Contains(actionKeys[:], parts[2]) {
			return bad(key, "the merchants are load, income and goods", "les marchands sont load, income et goods")
		}
		if _, ok := d.JunkIndex(value); !ok {
			return bad(key, "%q is not a junk", "%q n'est pas une jonque", value)
		}
		t.Board.Setup.Merchants[parts[2]] = value
		return nil
	case len(parts) == 4 && parts[0] == "setup" && parts[1] == "palettes":
		if err := need("setup", BoardFile); err != nil {
			return err
		}
		n, err := strconv.Atoi(parts[2])
		if err != nil || n < 3 || n > 4 {
			return bad(key, "the set-ups are for 3 and 4 players", "les mises en place sont pour 3 et 4 joueurs")
		}
		if _, ok := d.JunkIndex(parts[3]); !ok {
			return bad(key, "%q is not a junk", "%q n'est pas une jonque", parts[3])
		}
		cs := words(value)
		if len(cs) == 1 && cs[0] == "none" {
			cs = nil
		}
		for _, c := range cs {
			if !slices.Contains(d.Colours[:n], c) {
				return bad(key, "%q does not play with %d players; the colours are %s", "%q ne joue pas à %d joueurs ; les couleurs sont %s", c, n, strings.Join(d.Colours[:n], " "))
			}
		}
		m := t.Board.Setup.Palettes[parts[2]]
		if len(cs) == 0 {
			delete(m, parts[3])
		} else {
			m[parts[3]] = cs
		}
		return nil
	case len(parts) == 2:
		if i, ok := d.MarketIndex(parts[0]); ok {
			if err := need(parts[0], CardsFile); err != nil {
				return err
			}
			g, ok := d.GoodsIndex(parts[1])
			if !ok {
				return bad(key, "a market card has a price for each goods: %s", "une carte marché a un prix par marchandise : %s", t.goodsKeys())
			}
			if value == "S" || value == "s" {
				t.Cards.Market[i].Prices[d.Goods[g].Key] = "S"
				return nil
			}
			p, err := strconv.Atoi(value)
			if err != nil || p < 0 || p > 99 {
				return bad(key, "%q: write the price in yuans (0 to 99) or S for a special card", "%q : écrivez le prix en yuans (0 à 99) ou S pour une carte spéciale", value)
			}
			t.Cards.Market[i].Prices[d.Goods[g].Key] = p
			return nil
		}
		if i, ok := d.SpecialIndex(parts[0]); ok {
			if err := need(parts[0], CardsFile); err != nil {
				return err
			}
			if parts[1] != "need" || d.Special[i].Effect != EffBonus {
				return bad(key, "what a stand-in special card asks is its need (crates per junk)", "ce qu'une carte spéciale provisoire demande est need (caisses par jonque)")
			}
			w := words(value)
			nd := map[string]int{}
			for k := 0; k+1 < len(w); k += 2 {
				n, err := strconv.Atoi(w[k+1])
				_, junk := d.JunkIndex(w[k])
				if err != nil || !junk || n < 1 || n > Layer*Layer || nd[w[k]] != 0 {
					nd = nil
					break
				}
				nd[w[k]] = n
			}
			if len(w) == 0 || len(w)%2 != 0 || nd == nil {
				return bad(key, "%q: write each junk once with its crates (1 to 9), like \"brown 5, orange 2\"", "%q : écrivez chaque jonque une fois avec ses caisses (1 à 9), comme « brown 5, orange 2 »", value)
			}
			t.Cards.Special[i].Need = nd
			return nil
		}
	}
	return bad(key, "nothing of that name to correct; the stand-ins are %s", "rien de ce nom à corriger ; les valeurs provisoires sont %s", strings.Join(*standIns, ", "))
}

func (t *tableFile) goodsKeys() string {
	var out []string
	for _, g := range t.Board.Goods {
		out = append(out, g.Key)
	}
	return strings.Join(out, ", ")
}

// Item is one value of the stand-in data the staff may correct, with what
// it is now (see Correction for the keys).
type Item struct {
	Key, Value string
}

// Items lists the values the staff may correct now, then a checked item
// per stand-in: the staff page offers them.
func (d *Data) Items() []Item {
	t := d.file()
	var out []Item
	for _, part := range d.StandInParts {
		switch part {
		case "junk-order":
			var keys []string
			for _, j := range t.Board.Junks {
				keys = append(keys, j.Key)
			}
			out = append(out, Item{"junk-order", strings.Join(keys, " ")})
		case "track":
			for r, row := range [][]squareFile{t.Board.Track.Bottom, t.Board.Track.Top} {
				for i, sq := range row {
					out = append(out, Item{fmt.Sprintf("track.%s.%d", []string{"bottom", "top"}[r], i+1), strings.TrimSuffix(sq.Action+" "+sq.Event, " none")})
				}
			}
		case "setup":
			for a := range NumMerchants {
				out = append(out, Item{"setup.merchants." + Action(a).String(), d.Junks[d.Merchants[a]].Key})
			}
			for _, n := range []int{3, 4} {
				for _, j := range d.Junks {
					v := strings.Join(t.Board.Setup.Palettes[strconv.Itoa(n)][j.Key], " ")
					if v == "" {
						v = "none"
					}
					out = append(out, Item{fmt.Sprintf("setup.palettes.%d.%s", n, j.Key), v})
				}
			}
		}
	}
	for i, c := range d.Market {
		if !c.StandIn {
			continue
		}
		for _, g := range d.Goods {
			out = append(out, Item{c.ID + "." + g.Key, fmt.Sprint(t.Cards.Market[i].Prices[g.Key])})
		}
	}
	for _, c := range d.Special {
		if !c.StandIn || c.Effect != EffBonus {
			continue
		}
		var need []string
		for j, n := range c.Need {
			if n > 0 {
				need = append(need, fmt.Sprintf("%s %d", d.Junks[j].Key, n))
			}
		}
		out = append(out, Item{c.ID + ".need", strings.Join(need, ", ")})
	}
	for _, s := range d.StandIns() {
		out = append(out, Item{"checked", s})
	}
	return out
}
