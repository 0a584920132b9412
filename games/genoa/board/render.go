package board

import (
	"fmt"
	"strings"
)

// String prints the layout as an 8x8 grid of letters, one letter per
// building (A, B, ... in reading order of their first cell), "." for a
// street and "#" for the market, followed by a legend with the French
// names. It is what `comptoir board` prints.
func (b *Board) String() string {
	return b.Format(func(s *Square) string { return s.NameFR })
}

// Format is String with the names given by name, for example an edition's
// names.
func (b *Board) Format(name func(*Square) string) string {
	letters := make(map[SquareID]byte, NumBuildings)
	var order []SquareID
	for y := 1; y <= Size; y++ {
		for x := 1; x <= Size; x++ {
			id := b.grid[y-1][x-1]
			if b.squares[id].Kind != Building {
				continue
			}
			if _, ok := letters[id]; !ok {
				letters[id] = byte('A' + len(order))
				order = append(order, id)
			}
		}
	}
	var w strings.Builder
	w.WriteString("         blue →\n        ")
	for x := 1; x <= Size; x++ {
		fmt.Fprintf(&w, " %d", x)
	}
	w.WriteString("\n")
	for y := 1; y <= Size; y++ {
		if y == 1 {
			w.WriteString("red ↓ ")
		} else {
			w.WriteString("      ")
		}
		fmt.Fprintf(&w, "%d ", y)
		for x := 1; x <= Size; x++ {
			id := b.grid[y-1][x-1]
			c := byte('.')
			switch b.squares[id].Kind {
			case Building:
				c = letters[id]
			case Market:
				c = '#'
			}
			w.WriteByte(' ')
			w.WriteByte(c)
		}
		w.WriteString("\n")
	}
	w.WriteString("\n")
	for _, id := range order {
		s := &b.squares[id]
		fmt.Fprintf(&w, "  %c  %-24s %-14s %s\n", letters[id], name(s), s.Key, cellList(s.Cells))
	}
	m := &b.squares[b.market]
	fmt.Fprintf(&w, "  #  %-24s %-14s %s\n", name(m), m.Key, cellList(m.Cells))
	fmt.Fprintf(&w, "  .  %-24s %-14s %d cells\n", "rue / street", "street-X-Y", NumStreets)
	return w.String()
}
