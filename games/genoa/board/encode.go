package board

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// Encode writes the board back as a board file that Decode reads into an
// equal board: the market, the streets in reading order, the buildings in
// the order of the file they came from, and each cell's source note as a
// comment. The long header comment of the shipped file is not kept.
func (b *Board) Encode() []byte {
	var w bytes.Buffer
	w.WriteString("# Genoa board layout, written by comptoir (engine/genoa/board).\n")
	w.WriteString("# Cells are X-Y: X blue (column 1-8), Y red (row 1-8). Each cell's comment\n")
	w.WriteString("# says where it comes from (sourced or inferred) or that it was edited.\n")
	fmt.Fprintf(&w, "version: %d\n\nmarket:\n", Version)
	cell := func(indent string, c Cell) {
		fmt.Fprintf(&w, "%s- %s", indent, cellName(c))
		if n := b.notes[c]; n != "" {
			fmt.Fprintf(&w, " # %s", oneLine(n))
		}
		w.WriteByte('\n')
	}
	for _, c := range b.squares[b.market].Cells {
		cell("  ", c)
	}
	w.WriteString("\nstreets:\n")
	for i := range b.squares {
		if b.squares[i].Kind == Street {
			cell("  ", b.squares[i].Cells[0])
		}
	}
	w.WriteString("\nbuildings:\n")
	for _, id := range b.fileOrder {
		s := &b.squares[id]
		fmt.Fprintf(&w, "  - key: %s\n    fr: %s\n    en: %s\n", s.Key, quote(s.NameFR), quote(s.NameEN))
		if len(s.Names) > 0 {
			eds := make([]string, 0, len(s.Names))
			for e := range s.Names {
				eds = append(eds, e)
			}
			sort.Strings(eds)
			parts := make([]string, len(eds))
			for i, e := range eds {
				parts[i] = quote(e) + ": " + quote(s.Names[e])
			}
			fmt.Fprintf(&w, "    names: {%s}\n", strings.Join(parts, ", "))
		}
		if len(s.Aliases) > 0 {
			parts := make([]string, len(s.Aliases))
			for i, a := range s.Aliases {
				parts[i] = quote(a)
			}
			fmt.Fprintf(&w, "    aliases: [%s]\n", strings.Join(parts, ", "))
		}
		w.WriteString("    cells:\n")
		for _, c := range s.Cells {
			cell("      ", c)
		}
	}
	return w.Bytes()
}

// quote writes s as a double-quoted YAML scalar.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\x%02x", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
