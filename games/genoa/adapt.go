package genoa

import (
	"fmt"

	"comptoir/games/genoa/board"
	"comptoir/games/genoa/catalog"
)

// gridOf reads the board layout as a grid of square keys, and its
// buildings' names, for newData.
func gridOf(b *board.Board) (grid [8][8]string, names map[string][2]string) {
	names = map[string][2]string{}
	for x := 1; x <= 8; x++ {
		for y := 1; y <= 8; y++ {
			sq := b.Square(b.SquareAt(x, y))
			switch sq.Kind {
			case board.Market:
				grid[x-1][y-1] = "market"
			case board.Building:
				grid[x-1][y-1] = sq.Key
				names[sq.Key] = [2]string{sq.NameFR, sq.NameEN}
			}
		}
	}
	return grid, names
}

// withBoard builds the engine's data from a board and the edition's
// buildings (their actions), profile and cards.
func withBoard(b *board.Board, blds []building, prof profile, cards []card) (*Data, error) {
	grid, names := gridOf(b)
	for i := range blds {
		n, ok := names[blds[i].Key]
		if !ok {
			return nil, fmt.Errorf("genoa: building %q of the %s profile is not on the board", blds[i].Key, prof.Edition)
		}
		if blds[i].NameFR == "" {
			blds[i].NameFR = n[0]
		}
		if blds[i].NameEN == "" {
			blds[i].NameEN = n[1]
		}
	}
	return newData(layout{grid: grid, blds: blds, prof: prof, cards: cards})
}

// fromCatalog builds an edition's data from the board, the edition
// profile and the card catalog.
func fromCatalog(b *board.Board, e *catalog.Edition, c *catalog.Catalog) (*Data, error) {
	prof := profile{
		Edition:               e.Key,
		GoodsEach:             e.GoodsPerKind,
		Rounds:                e.Rounds,
		StartDucats:           e.StartDucats,
		StartCards:            e.StartCardsPerDeck,
		MarkersPerColour:      e.MarkersPerColour,
		MarketAdvances:        e.MarketAdvances,
		LastRoundFull:         e.LastRoundExempt,
		MarketOptional:        e.MarketAdvanceOptional,
		MaxPlacements:         e.MaxMarkersPerStreet,
		RemovalCost:           e.RemovalCost,
		TwoPlayerOfferGoods:   e.TwoPlayerOfferNeedsGoods,
		TwoPlayerSecondAction: e.TwoPlayerSecondAction,
		TieBreakAll:           e.TieBreak == catalog.TieGoodsTilesCards,
		Promises:              e.Promises,
		Income:                e.Income,
		PerMark:               e.EndValue,
		Large:                 e.LargeOrderDucats,
		Small:                 e.SmallOrderDucats,
		Message:               e.MessageDucats,
		Scale:                 e.ContractScale,
		Beyond:                e.ContractBeyond,
	}
	for i := range nTiles {
		prof.TileCounts[i] = e.Tiles[i]
	}
	for _, g := range e.Goods {
		prof.Goods = append(prof.Goods, g.Key)
		prof.GoodsFR = append(prof.GoodsFR, g.NameFR)
		prof.GoodsEN = append(prof.GoodsEN, g.NameEN)
	}
	var blds []building
	bi := map[string]int{}
	for _, a := range e.Actions {
		sqID, ok := b.ByKey(a.Building)
		if !ok {
			return nil, fmt.Errorf("genoa: %s: building %q is not on the board", e.Key, a.Building)
		}
		sq := b.Square(sqID)
		// Players read the names the screen's board prints in their
		// language, whatever the edition's rules text calls a building
		// (the Alea text keeps the German "Gildenhalle"): the log and the
		// refusals name what the board shows.
		bl := building{Key: a.Building, NameFR: sq.NameFR, NameEN: sq.NameEN, Edge: sq.Edge, Count: a.Count}
		if w, ok := e.Warehouse(a.Building); ok {
			bl.NameFR, bl.NameEN = w.NameFR, w.NameEN
		}
		switch a.Kind {
		case catalog.ActDraw:
			bl.Act, bl.Deck = aDraw, int(a.Deck)
		case catalog.ActMarkers:
			bl.Act = aMarkers
		case catalog.ActTile:
			bl.Act, bl.Tile = aTile, int(a.Tile)
		case catalog.ActWarehouse:
			bl.Act, bl.Goods = aWarehouse, [2]int{int(a.Goods[0]), int(a.Goods[1])}
		case catalog.ActVilla:
			bl.Act = aVilla
		default:
			return nil, fmt.Errorf("genoa: %s: building %q has an action of unknown kind %v", e.Key, a.Building, a.Kind)
		}
		bi[a.Building] = len(blds)
		blds = append(blds, bl)
	}
	bldOf := func(id, key string) (int, error) {
		i, ok := bi[key]
		if !ok {
			return -1, fmt.Errorf("genoa: card %s: no building %q", id, key)
		}
		return i, nil
	}
	var cards []card
	for _, cc := range c.Cards {
		cd := card{ID: cc.ID, Deck: int(cc.Deck), Villa: -1, Bld: -1}
		for _, g := range cc.Goods {
			cd.Goods = append(cd.Goods, int(g))
		}
		var err error
		switch cc.Deck {
		case catalog.LargeOrder:
			cd.Villa, err = bldOf(cc.ID, cc.Villa)
		case catalog.SmallOrder, catalog.Contract:
			cd.Bld, err = bldOf(cc.ID, cc.Building)
		case catalog.Message:
			if cd.Pair[0], err = bldOf(cc.ID, cc.Buildings[0]); err == nil {
				cd.Pair[1], err = bldOf(cc.ID, cc.Buildings[1])
			}
		}
		if err != nil {
			return nil, err
		}
		if (cc.Deck == catalog.LargeOrder && len(cd.Goods) != 3) || (cc.Deck == catalog.SmallOrder && len(cd.Goods) != 1) {
			return nil, fmt.Errorf("genoa: card %s has %d goods", cc.ID, len(cd.Goods))
		}
		cards = append(cards, cd)
	}
	return withBoard(b, blds, prof, cards)
}
