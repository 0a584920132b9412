package genoa

import (
	"fmt"
	"testing"

	"comptoir/engine"
	"comptoir/games/genoa/board"
)

// fixtureData builds an edition's data from the default board, a profile
// written from RULES-NOTES.md and a made-up card catalog of the right
// shape (16 large orders, 16 small orders, 14 messages, 14 contracts). It
// lets the rules be tested apart from the catalog's exact cards.
func fixtureData(t testing.TB, edition string) *Data {
	t.Helper()
	b := board.Default()
	prof := profile{
		Edition: edition, GoodsEach: 5, StartDucats: 130, StartCards: 1, MarkersPerColour: 7, RemovalCost: 1,
		TileCounts: [nTiles]int{5, 5, 5, 7, 5}, MarketAdvances: true,
		Income: 10, PerMark: 10, Large: 100, Small: 40, Message: 30,
		Scale: []int{10, 30, 60, 100}, Beyond: 50,
	}
	var pairs [4][2]string // nw, ne, sw, se
	if edition == "alea-2001" {
		prof.Goods = []string{"silver", "copper", "salt", "pepper", "wheat", "rice", "silk", "linen"}
		prof.GoodsFR = []string{"argent", "cuivre", "sel", "poivre", "blé", "riz", "soie", "lin"}
		prof.Rounds = map[int]int{2: 12, 3: 10, 4: 8, 5: 7}
		prof.Promises, prof.MarketOptional = true, true
	} else {
		prof.Goods = []string{"silver", "copper", "pepper", "saffron", "ale", "wine", "linen", "silk"}
		prof.GoodsFR = []string{"argent", "cuivre", "poivre", "safran", "bière", "vin", "lin", "soie"}
		prof.Rounds = map[int]int{2: 12, 3: 10, 4: 8, 5: 6}
		prof.LastRoundFull, prof.MaxPlacements = true, 2
		prof.TwoPlayerOfferGoods, prof.TwoPlayerSecondAction, prof.TieBreakAll = true, true, true
	}
	for i := range pairs {
		pairs[i] = [2]string{prof.Goods[2*i], prof.Goods[2*i+1]}
	}
	goodIdx := func(k string) int {
		for i, g := range prof.Goods {
			if g == k {
				return i
			}
		}
		t.Fatalf("no good %q", k)
		return -1
	}
	var blds []building
	add := func(key string, act actKind, f func(*building)) {
		bl := building{Key: key, Act: act}
		if f != nil {
			f(&bl)
		}
		blds = append(blds, bl)
	}
	add("guild-hall", aDraw, func(b *building) { b.Deck, b.Count = deckLarge, 1 })
	add("town-hall", aDraw, func(b *building) { b.Deck, b.Count = deckSmall, 2 })
	add("post-office", aDraw, func(b *building) { b.Deck, b.Count = deckMessage, 2 })
	add("cathedral", aMarkers, func(b *building) { b.Count = 2 })
	for _, v := range board.VillaKeys {
		add(v, aVilla, func(b *building) { b.Edge = true })
	}
	for i, w := range board.WarehouseKeys {
		add(w, aWarehouse, func(b *building) {
			b.Edge = true
			b.Goods = [2]int{goodIdx(pairs[i][0]), goodIdx(pairs[i][1])}
		})
	}
	tileOf := map[string]int{"palazzo": tileBuild, "park": tileExtra, "coach-house": tileStart, "harbour": tileGoods, "taverna": tileTrade, "trattoria": tileTrade}
	for _, k := range board.OtherEdgeKeys {
		add(k, aTile, func(b *building) { b.Edge, b.Tile = true, tileOf[k] })
	}
	bi := map[string]int{}
	for i, bl := range blds {
		bi[bl.Key] = i
	}
	var cards []card
	// Large orders: 4 per villa, goods from warehouses the villa does not touch.
	n := 0
	for _, v := range board.VillaKeys {
		vid, _ := b.ByKey(v)
		var far []int
		for wi, w := range board.WarehouseKeys {
			wid, _ := b.ByKey(w)
			if !b.BuildingsAdjacent(vid, wid) {
				far = append(far, goodIdx(pairs[wi][0]), goodIdx(pairs[wi][1]))
			}
		}
		for k := range 4 {
			n++
			cards = append(cards, card{ID: fmt.Sprintf("L%d", n), Deck: deckLarge, Villa: bi[v],
				Goods: []int{far[k%len(far)], far[(k+2)%len(far)], far[(k+3)%len(far)]}})
		}
	}
	// Small orders.
	n = 0
	for _, k := range []string{"guild-hall", "post-office", "cathedral", "palazzo", "park", "coach-house", "harbour", "taverna", "trattoria"} {
		copies := 2
		if k == "taverna" || k == "trattoria" {
			copies = 1
		}
		for range copies {
			n++
			cards = append(cards, card{ID: fmt.Sprintf("S%d", n), Deck: deckSmall, Bld: bi[k], Goods: []int{n % len(prof.Goods)}})
		}
	}
	// Messages: pairs of buildings.
	for i := range 14 {
		cards = append(cards, card{ID: fmt.Sprintf("M%d", i+1), Deck: deckMessage, Pair: [2]int{i % 18, (i*5 + 3) % 18}})
	}
	// Contracts: one per edge building.
	n = 0
	for i, bl := range blds {
		if bl.Edge {
			n++
			cards = append(cards, card{ID: fmt.Sprintf("C%d", n), Deck: deckContract, Bld: i})
		}
	}
	d, err := withBoard(b, blds, prof, cards)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// fixtureRules are the rules over the fixture data of both editions.
func fixtureRules(t testing.TB) *Rules {
	return &Rules{editions: map[string]*Data{
		"alea-2001":      fixtureData(t, "alea-2001"),
		"filosofia-2008": fixtureData(t, "filosofia-2008"),
	}}
}

var _ = engine.NoSeat
