package genoa

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"comptoir/engine"
)

// Staff corrections: the café staff set a player's holding right when the
// table and the game disagree (a payment forgotten, goods taken twice).
// Only engine.Staff may correct; the correction is an event of its own, so
// the journal and the invariants know what was changed and why.

// Amount is the amount of a correction: "120" makes the holding 120,
// "+10" or "-10" changes it by that much.
type Amount string

// Counts are the goods or tiles of a correction, each with its Amount:
// "silk:2,wine:+1" makes the silk 2 and adds a wine.
type Counts string

// Correct is the staff correcting one player's holding: Ducats, Goods,
// Tiles and Markers (the player's reserve) as Amounts. A good or tile
// added comes from the supply, one taken away goes back to it; markers
// come from and go back to the common supply of the player's colour; money
// is made or destroyed (counted apart from the bank's payments). Reason
// says why, for the journal.
//
//	staff: correct player=Anna ducats=+10 goods=silk:2 reason="deal paid twice"
type Correct struct {
	Player  engine.Seat `json:"player"`
	Ducats  Amount      `json:"ducats,omitempty"`
	Goods   Counts      `json:"goods,omitempty"`
	Tiles   Counts      `json:"tiles,omitempty"`
	Markers Amount      `json:"markers,omitempty"`
	Reason  string      `json:"reason,omitempty"`
}

func (Correct) Name() string { return "correct" }

// Corrected: the staff changed Seat's holding by these amounts (changes,
// not new holdings). Goods and tiles come from or go to the supply,
// markers the common supply of Seat's colour; ducats are made or
// destroyed.
type Corrected struct {
	Seat    engine.Seat    `json:"seat"`
	Ducats  int            `json:"ducats,omitempty"`
	Goods   map[string]int `json:"goods,omitempty"`
	Tiles   map[string]int `json:"tiles,omitempty"`
	Markers int            `json:"markers,omitempty"`
	Reason  string         `json:"reason"`
}

func (Corrected) Name() string { return "corrected" }

// correction is a money correction, kept for the player's own view.
type correction struct {
	Seat   engine.Seat
	Ducats int
	Reason string
}

// Refusals of corrections.
var (
	ErrStaffOnly  = engine.NewRule("genoa.staff-only", "only the staff corrects a holding", "seul le personnel corrige un avoir")
	ErrCorrection = engine.NewRule("genoa.correction", "that correction cannot be made", "cette correction est impossible")
)

// maxAmount bounds a correction's amount (far above any holding).
const maxAmount = 1_000_000

// resolve is the change that amount a makes to a holding of cur.
func (a Amount) resolve(cur int) (int, error) {
	s := strings.TrimSpace(string(a))
	n, err := strconv.Atoi(s)
	if err != nil || s == "" {
		return 0, fmt.Errorf("%q is not an amount: write 120 (the new holding) or +10, -10 (a change)", string(a))
	}
	if n > maxAmount || n < -maxAmount {
		return 0, fmt.Errorf("%q: an amount is at most %d", string(a), maxAmount)
	}
	if s[0] == '+' || s[0] == '-' {
		return n, nil
	}
	return n - cur, nil
}

// items reads Counts as key → Amount.
func (c Counts) items() ([][2]string, error) {
	var out [][2]string
	for _, part := range strings.Split(string(c), ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, ":")
		if !ok {
			return nil, fmt.Errorf("%q: write name:amount, e.g. silk:2 or silk:+1", part)
		}
		out = append(out, [2]string{strings.TrimSpace(k), strings.TrimSpace(v)})
	}
	return out, nil
}

func (t *tx) correct(by engine.Seat, c Correct) error {
	s := t.s
	if by != engine.Staff {
		return refuse(ErrStaffOnly).enf("only the staff may correct a holding: ask them (staff page, \"correct\")").frf("seul le personnel peut corriger un avoir : demandez-le-lui (page du personnel, « corriger »)")
	}
	if c.Player < 0 || int(c.Player) >= s.n {
		return refuse(engine.ErrBadArgument).enf("correct: player= must name a player (%s)", strings.Join(s.setup.Players, ", ")).frf("correct : player= doit nommer un joueur (%s)", strings.Join(s.setup.Players, ", "))
	}
	if strings.TrimSpace(c.Reason) == "" {
		return engine.Refuse(ErrCorrection, "say why, for the journal: reason=\"...\"", "dites pourquoi, pour le journal : reason=\"...\"")
	}
	bad := func(err error) error { return refuse(ErrCorrection).enf("%v", err).frf("%v", err) }
	p := &s.P[c.Player]
	ev := Corrected{Seat: c.Player, Reason: strings.TrimSpace(c.Reason)}
	name := s.name(c.Player)
	if c.Ducats != "" {
		d, err := c.Ducats.resolve(p.Ducats)
		if err != nil {
			return bad(err)
		}
		if p.Ducats+d < 0 {
			// The refusal is the staff's: it may tell the holding.
			return refuse(ErrCorrection).enf("%s holds %d ducats: a change of %d would leave fewer than none", name, p.Ducats, d).frf("%s a %d ducats : un changement de %d en laisserait moins que zéro", name, p.Ducats, d)
		}
		ev.Ducats = d
	}
	if c.Markers != "" {
		d, err := c.Markers.resolve(p.Markers)
		if err != nil {
			return bad(err)
		}
		if p.Markers+d < 0 {
			return refuse(ErrCorrection).enf("%s holds %d markers in reserve: %d more would leave fewer than none", name, p.Markers, d).frf("%s a %d marqueurs en réserve : %d de plus en laisserait moins que zéro", name, p.Markers, d)
		}
		if d > s.Common[c.Player] {
			return refuse(ErrCorrection).enf("the common supply has %d markers of %s's colour, not %d (the others are on buildings)", s.Common[c.Player], name, d).frf("la réserve commune n'a que %d marqueurs de la couleur de %s, pas %d (les autres sont sur des bâtiments)", s.Common[c.Player], name, d)
		}
		ev.Markers = d
	}
	gs, err := c.Goods.items()
	if err != nil {
		return bad(err)
	}
	for _, kv := range gs {
		g, ok := s.d.goodByK[kv[0]]
		if !ok {
			return refuse(ErrCorrection).enf("%q is not a good of this edition (goods: %s)", kv[0], strings.Join(s.d.prof.Goods, ", ")).frf("%q n'est pas une marchandise de cette édition (marchandises : %s)", kv[0], strings.Join(s.d.prof.Goods, ", "))
		}
		d, err := Amount(kv[1]).resolve(int(p.Goods[g]))
		if err != nil {
			return bad(err)
		}
		switch {
		case int(p.Goods[g])+d < 0:
			return refuse(ErrCorrection).enf("%s holds %d %s: %d would leave fewer than none", name, p.Goods[g], kv[0], d).frf("%s a %d %s : %d en laisserait moins que zéro", name, p.Goods[g], s.d.prof.GoodsFR[g], d)
		case d > s.Supply[g]:
			return refuse(ErrCorrection).enf("the supply has %d %s, not %d: correct the player who holds too many first", s.Supply[g], kv[0], d).frf("la réserve n'a que %d %s, pas %d : corrigez d'abord le joueur qui en a trop", s.Supply[g], s.d.prof.GoodsFR[g], d)
		}
		if d != 0 {
			if ev.Goods == nil {
				ev.Goods = map[string]int{}
			}
			ev.Goods[kv[0]] += d
		}
	}
	ts, err := c.Tiles.items()
	if err != nil {
		return bad(err)
	}
	for _, kv := range ts {
		k := tileIndex(kv[0])
		if k < 0 {
			return refuse(ErrCorrection).enf("%q is not a tile (tiles: %s)", kv[0], strings.Join(tileKeys[:], ", ")).frf("%q n'est pas une tuile (tuiles : %s)", kv[0], strings.Join(tileKeys[:], ", "))
		}
		d, err := Amount(kv[1]).resolve(int(p.Tiles[k]))
		if err != nil {
			return bad(err)
		}
		switch {
		case int(p.Tiles[k])+d < 0:
			return refuse(ErrCorrection).enf("%s holds %d %s tiles: %d would leave fewer than none", name, p.Tiles[k], kv[0], d).frf("%s a %d tuiles %s : %d en laisserait moins que zéro", name, p.Tiles[k], tileFR[k], d)
		case d > s.TileSup[k]:
			return refuse(ErrCorrection).enf("the supply has %d %s tiles, not %d: correct the player who holds too many first", s.TileSup[k], kv[0], d).frf("la réserve n'a que %d tuiles %s, pas %d : corrigez d'abord le joueur qui en a trop", s.TileSup[k], tileFR[k], d)
		}
		if d != 0 {
			if ev.Tiles == nil {
				ev.Tiles = map[string]int{}
			}
			ev.Tiles[kv[0]] += d
		}
	}
	if ev.Ducats == 0 && ev.Markers == 0 && len(ev.Goods) == 0 && len(ev.Tiles) == 0 {
		return engine.Refuse(ErrCorrection, "the correction changes nothing: name ducats=, goods=, tiles= or markers= with a new amount (120) or a change (+10, -1)", "la correction ne change rien : indiquez ducats=, goods=, tiles= ou markers= avec un nouveau montant (120) ou un changement (+10, -1)")
	}
	t.emit(ev)
	return nil
}

// applyCorrected applies a Corrected event.
func (s *State) applyCorrected(e Corrected) error {
	if err := s.seatOK(e.Seat); err != nil {
		return err
	}
	p := &s.P[e.Seat]
	var goods [maxGoods]int
	for k, v := range e.Goods {
		g, ok := s.d.goodByK[k]
		if !ok {
			return fmt.Errorf("no good %q", k)
		}
		goods[g] += v
	}
	var tiles [nTiles]int
	for k, v := range e.Tiles {
		t := tileIndex(k)
		if t < 0 {
			return fmt.Errorf("no tile %q", k)
		}
		tiles[t] += v
	}
	if p.Ducats+e.Ducats < 0 || p.Markers+e.Markers < 0 || e.Markers > s.Common[e.Seat] {
		return fmt.Errorf("correction beyond the holdings")
	}
	for g, v := range goods {
		if int(p.Goods[g])+v < 0 || v > s.Supply[g] {
			return fmt.Errorf("correction of %s beyond the holdings", s.d.prof.Goods[g])
		}
	}
	for t, v := range tiles {
		if int(p.Tiles[t])+v < 0 || v > s.TileSup[t] {
			return fmt.Errorf("correction of tile %s beyond the holdings", tileKeys[t])
		}
	}
	p.Ducats += e.Ducats
	s.StaffMoney += e.Ducats
	p.Markers += e.Markers
	s.Common[e.Seat] -= e.Markers
	for g, v := range goods {
		p.Goods[g] += int8(v)
		s.Supply[g] -= v
	}
	for t, v := range tiles {
		p.Tiles[t] += int8(v)
		s.TileSup[t] -= v
	}
	if e.Ducats != 0 {
		s.Corr = append(s.Corr, correction{Seat: e.Seat, Ducats: e.Ducats, Reason: e.Reason})
	}
	return nil
}

// describeCorrected tells a correction for the public log: what was
// corrected, never the money (secret) nor, when money was corrected, the
// reason (it might tell the amount: the player sees both in their view).
func (s *State) describeCorrected(e Corrected, fr bool) string {
	var what []string
	if e.Ducats != 0 {
		what = append(what, "ducats")
	}
	keys := func(m map[string]int) []string {
		ks := make([]string, 0, len(m))
		for k := range m {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		return ks
	}
	signed := func(n int) string {
		if n > 0 {
			return "+" + strconv.Itoa(n)
		}
		return strconv.Itoa(n)
	}
	for _, k := range keys(e.Goods) {
		name := k
		if g, ok := s.d.goodByK[k]; ok && fr {
			name = s.d.prof.GoodsFR[g]
		}
		what = append(what, signed(e.Goods[k])+" "+name)
	}
	for _, k := range keys(e.Tiles) {
		if fr {
			name := k
			if t := tileIndex(k); t >= 0 {
				name = tileFR[t]
			}
			what = append(what, signed(e.Tiles[k])+" tuile "+name)
		} else {
			what = append(what, signed(e.Tiles[k])+" "+TileName(k, "en")+either(e.Tiles[k] == 1 || e.Tiles[k] == -1, " tile", " tiles"))
		}
	}
	if e.Markers != 0 {
		if fr {
			what = append(what, signed(e.Markers)+either(e.Markers == 1 || e.Markers == -1, " marqueur", " marqueurs")+" en réserve")
		} else {
			what = append(what, signed(e.Markers)+either(e.Markers == 1 || e.Markers == -1, " marker", " markers")+" in reserve")
		}
	}
	list := strings.Join(what, ", ")
	why := ""
	if e.Ducats == 0 && e.Reason != "" {
		why = " (" + e.Reason + ")"
	}
	if fr {
		return fmt.Sprintf("le personnel corrige l'avoir de %s : %s%s", s.name(e.Seat), list, why)
	}
	return fmt.Sprintf("the staff corrected %s's holding: %s%s", s.name(e.Seat), list, why)
}

// CorrectionView is a money correction, in the corrected player's view
// only.
type CorrectionView struct {
	Ducats int    `json:"ducats"`
	Reason string `json:"reason"`
}
