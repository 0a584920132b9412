package dschunke

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"comptoir/engine"
)

// effectNames are the special cards' names in French and English.
var effectNames = [...][2]string{
	EffRestockPlus:  {"réapprovisionnement +1", "restock +1"},
	EffWinTies:      {"gagne les égalités", "wins ties"},
	EffExchange:     {"échange de marchandises", "exchange goods"},
	EffPlacePalette: {"palette sur la jonque de son choix", "palette on any junk"},
	EffIncome:       {"revenus de la jonque %s", "income of the %s junk"},
	EffTakeGoods:    {"marchandises sur la jonque de son choix", "goods from any junk"},
	EffMovePalette:  {"déplacer une palette", "move a palette"},
	EffBonus:        {"bonus de fin : %s", "end bonus: %s"},
}

// CardName is the special card's name in lang ("fr" or English).
func (d *Data) CardName(i int, lang string) string {
	c := d.Special[i]
	l := 1
	if lang == "fr" {
		l = 0
	}
	text := effectNames[c.Effect][l]
	switch c.Effect {
	case EffIncome:
		return fmt.Sprintf(text, d.Junks[c.Junk].Name(lang))
	case EffBonus:
		var parts []string
		for j, n := range c.Need {
			if n > 0 {
				if l == 0 {
					parts = append(parts, fmt.Sprintf("%d %s sur la jonque %s", n, plural(n, "fr", "caisse", "caisses"), d.Junks[j].FR))
				} else {
					parts = append(parts, fmt.Sprintf("%d %s on the %s junk", n, plural(n, "en", "crate", "crates"), d.Junks[j].EN))
				}
			}
		}
		return fmt.Sprintf(text, strings.Join(parts, ", ")) + fmt.Sprintf(" (%d)", c.Points)
	}
	return text
}

// GoodsCards counts n cards of goods k in lang: "1 carte poisson",
// "2 cartes légumes" / "1 fish card", "2 vegetables cards". The goods
// names of the data are the names of the goods, which do not agree with
// a number ("1 vegetables", "2 poisson"): the count is of cards, so the
// plural falls on "carte" / "card" and the names stay as the data gives.
func (d *Data) GoodsCards(n, k int, lang string) string {
	if lang == "fr" {
		return fmt.Sprintf("%d %s %s", n, plural(n, "fr", "carte", "cartes"), d.Goods[k].FR)
	}
	return fmt.Sprintf("%d %s %s", n, d.Goods[k].EN, plural(n, "en", "card", "cards"))
}

// Describe tells an event in words, in "fr" or "en", for the game's log,
// which everyone sees: it never tells a starting hand, a sealed bid, a
// secret special card or anyone's money but at a Y.
func (s *State) Describe(ev engine.Event, lang string) string {
	fr := lang == "fr"
	say := func(frText, enText string, a ...any) string {
		if fr {
			return fmt.Sprintf(frText, a...)
		}
		return fmt.Sprintf(enText, a...)
	}
	pl := func(seat engine.Seat) string {
		if s.seatOK(seat) {
			return s.name(int(seat))
		}
		return seat.String()
	}
	goods := func(m map[string]int) string {
		if len(m) == 0 {
			return say("aucune carte", "no card")
		}
		var parts []string
		for _, k := range sortedKeys(m) {
			if g, ok := s.d.GoodsIndex(k); ok {
				parts = append(parts, s.d.GoodsCards(m[k], g, lang))
				continue
			}
			parts = append(parts, fmt.Sprintf("%d %s", m[k], k))
		}
		return strings.Join(parts, ", ")
	}
	junk := func(key string) string {
		if j, ok := s.d.JunkIndex(key); ok {
			return s.d.Junks[j].Name(lang)
		}
		return key
	}
	card := func(id string) string {
		if i, ok := s.d.SpecialIndex(id); ok {
			return say("« %s »", "“%s”", s.d.CardName(i, lang))
		}
		return id
	}
	yuans := func(n int) string { return fmt.Sprintf("%d %s", n, plural(n, lang, "yuan", "yuans")) }
	by := func(with, id string) string {
		if id != "" {
			return say("avec la carte %s", "with the card %s", card(id))
		}
		if with == WithMerchant {
			return say("avec le marchand", "with the merchant")
		}
		return say("avec l'aide", "with the helper")
	}
	switch e := ev.(type) {
	case HandDealt:
		if fr {
			return fmt.Sprintf("La main de départ %s est notée (%d cartes)", de(pl(e.By)), HandSize)
		}
		return fmt.Sprintf("%s's starting hand is recorded (%d cards)", pl(e.By), HandSize)
	case MarketRevealed:
		i, _ := s.d.MarketIndex(e.Card)
		var parts []string
		for g, p := range s.d.Market[i].Prices {
			price := yuans(p)
			if p == PriceSpecial {
				price = say("une carte spéciale", "a special card")
			}
			parts = append(parts, s.d.Goods[g].Name(lang)+" "+price)
		}
		return say("Tour %d : la carte marché est retournée : %s", "Round %d: the market card is turned over: %s", s.round, strings.Join(parts, ", "))
	case Exchanged:
		return say("%s échange %s contre %s", "%s exchanges %s for %s", pl(e.By), goods(e.Give), goods(e.Take))
	case Passed:
		if s.step == stepExchange {
			return say("%s n'échange pas", "%s does not exchange", pl(e.By))
		}
		return say("%s finit son tour", "%s ends the turn", pl(e.By))
	case WealthAnnounced:
		var parts []string
		for i, m := range e.Money {
			parts = append(parts, s.name(i)+" "+yuans(m))
		}
		return say("Chacun annonce sa richesse : %s", "Everyone announces their wealth: %s", strings.Join(parts, ", "))
	case SpecialDrawn:
		i, _ := s.d.SpecialIndex(e.Card)
		pile := e.Pile
		if p, ok := s.d.PileIndex(e.Pile); ok {
			pile = s.d.Piles[p].Name(lang)
		}
		if s.d.Special[i].Timing == Always {
			return say("%s prend une carte spéciale du paquet %s et la pose : %s", "%s takes a special card from the %s pile and lays it face up: %s", pl(e.By), pile, card(e.Card))
		}
		return say("%s prend une carte spéciale du paquet %s", "%s takes a special card from the %s pile", pl(e.By), pile)
	case Loaded:
		if len(e.At) == 0 {
			return say("%s n'a plus de palette à charger", "%s has no palette left to load", pl(e.By))
		}
		n := fmt.Sprintf("%d %s", len(e.At), plural(len(e.At), lang, "palette", "palettes"))
		return say("%s charge %s sur la jonque %s %s", "%s loads %s on the %s junk %s", pl(e.By), n, junk(e.Junk), by(e.With, e.Card))
	case IncomeReceived:
		return say("%s reçoit %s de la jonque %s %s", "%s receives %s from the %s junk %s", pl(e.By), yuans(e.Yuans), junk(e.Junk), by(e.With, e.Card))
	case GoodsTaken:
		return say("%s prend %s pour la jonque %s %s", "%s takes %s for the %s junk %s", pl(e.By), goods(e.Goods), junk(e.Junk), by(e.With, e.Card))
	case PaletteMoved:
		return say("%s déplace une palette de la jonque %s vers la jonque %s %s", "%s moves a palette from the %s junk to the %s junk %s", pl(e.By), junk(e.From), junk(e.Junk), by("", e.Card))
	case Restocked:
		return say("%s se réapprovisionne : %s", "%s restocks: %s", pl(e.By), goods(e.Goods))
	case BidSealed:
		return say("%s a misé", "%s has bid", pl(e.By))
	case BidsRevealed:
		var parts []string
		for i, b := range e.Bids {
			text := say("rien", "nothing")
			if b != "" {
				m := map[string]int{}
				for _, p := range strings.Split(b, "+") {
					var k string
					var n int
					if kk, nn, ok := strings.Cut(p, ":"); ok {
						k = kk
						fmt.Sscan(nn, &n)
					}
					m[k] = n
				}
				text = goods(m)
				if len(m) > 1 {
					text += say(" (bluff : compte pour rien)", " (a bluff: counts as nothing)")
				}
			}
			parts = append(parts, s.name(i)+" "+text)
		}
		return say("Les mises sont révélées : %s", "The bids are revealed: %s", strings.Join(parts, say(" ; ", "; ")))
	case Sold:
		g, _ := s.d.GoodsIndex(e.Goods)
		name := s.d.Goods[g].Name(lang)
		var names []string
		for _, w := range e.Winners {
			names = append(names, pl(w))
		}
		who := strings.Join(names, ", ")
		if n := len(names); n > 1 {
			who = strings.Join(names[:n-1], ", ") + say(" et ", " and ") + names[n-1]
		}
		switch {
		case e.Special:
			return say("%s : %s remporte une carte spéciale", "%s: %s wins a special card", name, who)
		case len(e.Winners) > 1 && e.Yuans == 0:
			return say("%s : égalité entre %s, qui ne reçoivent rien", "%s: %s tie and receive nothing", name, who)
		case len(e.Winners) > 1:
			return say("%s : égalité, %s reçoivent %s chacun", "%s: a tie, %s receive %s each", name, who, yuans(e.Yuans))
		}
		return say("%s : %s reçoit %s", "%s: %s receives %s", name, who, yuans(e.Yuans))
	case Rebid:
		var names []string
		for _, k := range e.Goods {
			if g, ok := s.d.GoodsIndex(k); ok {
				names = append(names, s.d.Goods[g].Name(lang))
			}
		}
		return say("Nouvelle enchère pour : %s", "New bidding for: %s", strings.Join(names, ", "))
	case RoundEnded:
		if e.Round == Rounds {
			return say("Fin du tour %d : la partie est finie", "End of round %d: the game is over", e.Round)
		}
		return say("Fin du tour %d : les marchands et les aides avancent, %s devient premier joueur", "End of round %d: merchants and helpers move on, %s becomes first player",
			e.Round, s.name((s.first+1)%s.n))
	}
	return ev.Name()
}

// String draws the position for `comptoir replay`: every secret is shown
// (the replay reads a whole record).
func (s *State) String() string {
	var b strings.Builder
	if s.step == stepOver {
		fmt.Fprintf(&b, "Dschunke, game over after %d rounds\n", Rounds)
	} else {
		fmt.Fprintf(&b, "Dschunke, round %d of %d, phase %s, first player %s\n", s.round, Rounds, s.step, s.name(s.first))
	}
	if s.market >= 0 {
		m := s.d.Market[s.market]
		fmt.Fprintf(&b, "Market %s:", m.ID)
		for g, p := range m.Prices {
			price := fmt.Sprint(p)
			if p == PriceSpecial {
				price = "S"
			}
			mark := ""
			if s.sold[g] {
				mark = " (sold)"
			}
			fmt.Fprintf(&b, " %s %s%s", s.d.Goods[g].Key, price, mark)
		}
		b.WriteString("\n")
	}
	initial := func(o int) string {
		if o == empty {
			return "."
		}
		return string([]rune(s.name(o))[0])
	}
	for j, h := range s.holds {
		merchant := ""
		for a, m := range s.merchants {
			if m == j {
				merchant = "merchant " + Action(a).String()
			}
		}
		cards := "no goods"
		if g := s.d.Junks[j].Goods; g >= 0 {
			cards = fmt.Sprintf("%s %d", s.d.Goods[g].Key, s.piles[g])
		}
		cells := h.cells()
		var rows []string
		for r := 0; r < Layer; r++ {
			rows = append(rows, initial(cells[3*r])+initial(cells[3*r+1])+initial(cells[3*r+2]))
		}
		var crates []string
		for seat := 0; seat < s.n; seat++ {
			if v := h.visible(seat); v > 0 {
				crates = append(crates, fmt.Sprintf("%s %d", s.name(seat), v))
			}
		}
		fmt.Fprintf(&b, "  %-7s %-16s %-14s layers %-2d %s  visible: %s\n", s.d.Junks[j].Key, merchant, cards, len(h), strings.Join(rows, "/"), strings.Join(crates, ", "))
	}
	for p := NumMerchants; p < s.pawns(); p++ {
		sq := s.d.Track[p-pawnHelper][min(s.round, Rounds)-1]
		fmt.Fprintf(&b, "  %s on square %d: %s %s\n", pawnName(p), min(s.round, Rounds), sq.Action, [...]string{"", "(S)", "(Y)"}[sq.Event])
	}
	fmt.Fprintf(&b, "  special piles: %v\n", s.pileLeft)
	for seat := 0; seat < s.n; seat++ {
		var cards []string
		for i, o := range s.owner {
			if o == seat {
				id := s.d.Special[i].ID
				if s.spent[i] {
					id += " (played)"
				}
				cards = append(cards, id)
			}
		}
		sort.Strings(cards)
		fmt.Fprintf(&b, "%s (%s): %d yuans, hand %s, %d palettes left, special: %s\n", s.name(seat), s.d.Colours[seat], s.money[seat],
			orNone(s.bidText(s.hand[seat])), s.palettes[seat], orNone(strings.Join(cards, ", ")))
	}
	return b.String()
}

// plural picks the singular or the plural in lang: French keeps 0 and
// 1 in the singular, English only 1.
func plural(n int, lang, one, many string) string {
	if n == 1 || (lang == "fr" && n == 0) {
		return one
	}
	return many
}

// de is French "de Bruno", "d'Anna".
func de(name string) string {
	if r, _ := utf8.DecodeRuneInString(name); strings.ContainsRune("AEIOUYÀÂÉÈÊÎÏÔÛaeiouyàâéèêîïôû", r) {
		return "d'" + name
	}
	return "de " + name
}

func orNone(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
