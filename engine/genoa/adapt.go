package genoa

import (
	"fmt"

	"comptoir/engine/genoa/board"
)

// gridOf reads the board layout as a grid of square keys, and its
// buildings' names, for newData.
func gridOf(b *board.Board, edition string) (grid [8][8]string, names map[string][2]string) {
	names = map[string][2]string{}
	for x := 1; x <= 8; x++ {
		for y := 1; y <= 8; y++ {
			sq := b.Square(b.SquareAt(x, y))
			switch sq.Kind {
			case board.Market:
				grid[x-1][y-1] = "market"
			case board.Building:
				grid[x-1][y-1] = sq.Key
				fr := sq.Name(edition)
				names[sq.Key] = [2]string{fr, sq.NameEN}
			}
		}
	}
	return grid, names
}

// withBoard builds the engine's data from a board and the edition's
// buildings (their actions), profile and cards.
func withBoard(b *board.Board, blds []building, prof profile, cards []card) (*Data, error) {
	grid, names := gridOf(b, prof.Edition)
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
