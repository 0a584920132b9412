package board

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"comptoir/input"
)

// Size is the number of cells on each side of the board.
const Size = 8

// Counts every valid board has.
const (
	NumCells     = Size * Size
	NumBuildings = 18
	NumStreets   = 20
	NumSquares   = NumBuildings + NumStreets + 1 // with the market
)

// Cell is one cell of the grid: X is the blue coordinate (column 1-8), Y the
// red coordinate (row 1-8).
type Cell = input.Cell

// SquareID is the index of a square of one board: a building, a street cell
// or the market. IDs run from 0 to NumSquares-1 and are stable for a given
// layout: the market is 0, the buildings follow in order of their keys, then
// the streets in reading order (row by row).
type SquareID uint8

// NoSquare is the SquareID of no square (a cell off the board).
const NoSquare SquareID = 0xff

// Kind is what a square is.
type Kind uint8

const (
	// Street is a street cell: no action, but ownership markers are placed
	// from the streets the pawn visited.
	Street Kind = iota
	// Building is one of the 18 buildings with an action.
	Building
	// Market is the 2x2 market in the centre: no action.
	Market
)

func (k Kind) String() string {
	switch k {
	case Street:
		return "street"
	case Building:
		return "building"
	case Market:
		return "market"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Square is one square of the board.
type Square struct {
	ID   SquareID
	Kind Kind
	// Key is the stable name of the square: a building key such as
	// "guild-hall", "market", or "street-X-Y" for a street cell.
	Key    string
	NameFR string
	NameEN string
	// Names maps an edition ("alea-2001", "filosofia-2008") to the name its
	// rules text uses. Empty for streets, the market and the warehouses,
	// whose names come with the edition's goods.
	Names map[string]string
	// Aliases are other names the texts use for this building ("Hangar").
	Aliases []string
	// Cells are the square's cells in reading order.
	Cells []Cell
	// Edge is true for a building with a cell on the board's border (the
	// 14 buildings with a contract/privilege card).
	Edge bool
}

// Name returns the square's name in the given edition's text, or else its
// French name.
func (s *Square) Name(edition string) string {
	if n, ok := s.Names[edition]; ok && n != "" {
		return n
	}
	return s.NameFR
}

// Set is a set of squares of one board, as a bit mask. The zero Set is
// empty. It allows the move generator to track visited squares without
// allocating.
type Set uint64

// Has reports whether id is in the set.
func (s Set) Has(id SquareID) bool { return id < 64 && s&(1<<id) != 0 }

// With returns the set with id added.
func (s Set) With(id SquareID) Set { return s | 1<<id }

// Len returns the number of squares in the set.
func (s Set) Len() int {
	n := 0
	for ; s != 0; s &= s - 1 {
		n++
	}
	return n
}

// Board is a validated Genoa board layout. It is immutable: editing
// returns a new board. All methods are safe for concurrent use.
type Board struct {
	squares []Square
	grid    [Size][Size]SquareID // [y-1][x-1]
	byKey   map[string]SquareID
	// neighbours[id] are the squares orthogonally adjacent to id, sorted.
	neighbours [][]SquareID
	nbMask     []Set
	// streetsTouching[b] for a building b: the streets adjacent to it;
	// buildingsTouching[s] for a street s: the buildings adjacent to it.
	streetsTouching   [][]SquareID
	buildingsTouching [][]SquareID
	dist              []uint8 // dist[a*n+b], moves
	market            SquareID
	// notes[cell] is the source comment of the cell in the file.
	notes map[Cell]string
	// order of the buildings as in the file, for Encode.
	fileOrder []SquareID
}

// Errors returned by Decode and WithCells.
var (
	// ErrInvalid is wrapped by every error about a bad layout or file.
	// Decode's errors are *strictyaml.Error values naming the file and
	// line; WithCells's are led by "invalid board: ".
	ErrInvalid = errors.New("invalid board")
)

// Squares returns all squares, indexed by SquareID. The slice must not be
// modified.
func (b *Board) Squares() []Square { return b.squares }

// Square returns the square with the given ID. It panics if id is out of
// range.
func (b *Board) Square(id SquareID) *Square { return &b.squares[id] }

// Len returns the number of squares (NumSquares).
func (b *Board) Len() int { return len(b.squares) }

// Market returns the ID of the market.
func (b *Board) Market() SquareID { return b.market }

// SquareAt returns the square at blue x (column 1-8) and red y (row 1-8),
// or NoSquare if the cell is off the board.
func (b *Board) SquareAt(x, y int) SquareID {
	if x < 1 || x > Size || y < 1 || y > Size {
		return NoSquare
	}
	return b.grid[y-1][x-1]
}

// Neighbours returns the squares orthogonally adjacent to id (sharing at
// least one cell edge), sorted by ID. The slice is shared and must not be
// modified. It does not allocate.
func (b *Board) Neighbours(id SquareID) []SquareID { return b.neighbours[id] }

// NeighbourSet returns the squares adjacent to id as a Set.
func (b *Board) NeighbourSet(id SquareID) Set { return b.nbMask[id] }

// Adjacent reports whether squares a and b share a cell edge. A square is
// not adjacent to itself.
func (b *Board) Adjacent(x, y SquareID) bool { return b.nbMask[x].Has(y) }

// BuildingsAdjacent reports whether a and b are two different buildings
// that touch: a cell of one shares an edge with a cell of the other. This is
// what the texts mean by adjacent buildings, for contract/privilege scoring
// ("Plus un joueur a de cartes Contrat correspondants à des bâtiments
// adjacents") and for ownership ("bâtiments adjacents (pas en diagonale)"):
// cells touching only at a corner do not count.
func (b *Board) BuildingsAdjacent(x, y SquareID) bool {
	return x != y && int(x) < len(b.squares) && int(y) < len(b.squares) &&
		b.squares[x].Kind == Building && b.squares[y].Kind == Building && b.nbMask[x].Has(y)
}

// StreetsTouching returns the streets adjacent to building id (empty for a
// street or the market). The slice is shared and must not be modified.
func (b *Board) StreetsTouching(id SquareID) []SquareID { return b.streetsTouching[id] }

// BuildingsTouching returns the buildings adjacent to street id: the
// buildings on which ownership markers may be placed from that street
// (empty for a building or the market). The slice is shared and must not be
// modified.
func (b *Board) BuildingsTouching(id SquareID) []SquareID { return b.buildingsTouching[id] }

// ByKey returns the square with the given key ("guild-hall", "market",
// "street-3-2").
func (b *Board) ByKey(key string) (SquareID, bool) {
	id, ok := b.byKey[key]
	return id, ok
}

// ByName returns the square that any text calls name: its key, its French or
// English name, an edition's name or an alias, compared without regard to
// case. It is meant for tools and tests, not hot paths.
func (b *Board) ByName(name string) (SquareID, bool) {
	if id, ok := b.byKey[name]; ok {
		return id, true
	}
	for i := range b.squares {
		s := &b.squares[i]
		if strings.EqualFold(s.NameFR, name) || strings.EqualFold(s.NameEN, name) {
			return s.ID, true
		}
		for _, n := range s.Names {
			if strings.EqualFold(n, name) {
				return s.ID, true
			}
		}
		for _, n := range s.Aliases {
			if strings.EqualFold(n, name) {
				return s.ID, true
			}
		}
	}
	return NoSquare, false
}

// Distance returns the least number of moves from a to b (0 if a == b).
// Every square is reachable on a valid board.
func (b *Board) Distance(x, y SquareID) int { return int(b.dist[int(x)*len(b.squares)+int(y)]) }

// Buildings returns the IDs of the buildings, in ID order.
func (b *Board) Buildings() []SquareID {
	out := make([]SquareID, 0, NumBuildings)
	for i := range b.squares {
		if b.squares[i].Kind == Building {
			out = append(out, SquareID(i))
		}
	}
	return out
}

// Note returns the source comment of a cell in the file the board was
// decoded from ("sourced: ..." or "inferred: ..."), or "".
func (b *Board) Note(c Cell) string { return b.notes[c] }

// layout is the raw description of a board before validation.
type layout struct {
	market    []Cell
	streets   []Cell
	buildings []rawBuilding
	notes     map[Cell]string
	// lines gives the file line of each cell and building for errors; nil
	// when the layout does not come from a file.
	cellLine map[Cell]int
}

type rawBuilding struct {
	key, fr, en string
	names       map[string]string
	aliases     []string
	cells       []Cell
	line        int
}

// Required building keys: the 18 buildings of the texts.
var (
	// CentreKeys are the four buildings flanking the market.
	CentreKeys = []string{"town-hall", "guild-hall", "cathedral", "post-office"}
	// VillaKeys are the four villas, at the corners.
	VillaKeys = []string{"villa-colini", "villa-monetti", "villa-ricci", "villa-zasteri"}
	// WarehouseKeys are the four warehouses, named by position; the edition
	// profile says which goods each one gives.
	WarehouseKeys = []string{"warehouse-nw", "warehouse-ne", "warehouse-sw", "warehouse-se"}
	// OtherEdgeKeys are the six edge buildings that give a special tile.
	OtherEdgeKeys = []string{"palazzo", "park", "coach-house", "harbour", "taverna", "trattoria"}
)

func requiredKeys() map[string]bool {
	m := map[string]bool{}
	for _, l := range [][]string{CentreKeys, VillaKeys, WarehouseKeys, OtherEdgeKeys} {
		for _, k := range l {
			m[k] = true
		}
	}
	return m
}

func isCentre(k string) bool {
	for _, c := range CentreKeys {
		if c == k {
			return true
		}
	}
	return false
}

func isVilla(k string) bool {
	for _, c := range VillaKeys {
		if c == k {
			return true
		}
	}
	return false
}

func streetKey(c Cell) string { return fmt.Sprintf("street-%d-%d", c.X, c.Y) }

func cellName(c Cell) string { return fmt.Sprintf("%d-%d", c.X, c.Y) }

// failFunc returns the error of build about line of the file (0 when the
// fault has no one line, or for edits); it wraps ErrInvalid.
type failFunc func(line int, format string, args ...any) error

// editFail is the failFunc of edits, which have no file.
func editFail(_ int, format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// build validates l and returns the board. Errors name the cells and keys
// at fault; fail makes them (decodeFail for a file, editFail for edits).
func build(l *layout, fail failFunc) (*Board, error) {
	lineOf := func(c Cell) int { return l.cellLine[c] }

	owner := map[Cell]string{}
	assign := func(c Cell, who string) error {
		if c.X < 1 || c.X > Size || c.Y < 1 || c.Y > Size {
			return fail(lineOf(c), "cell %s of %s is off the board; X and Y run from 1 to 8", cellName(c), who)
		}
		if prev, ok := owner[c]; ok {
			return fail(lineOf(c), "cell %s is given to both %s and %s; a cell belongs to one square", cellName(c), prev, who)
		}
		owner[c] = who
		return nil
	}
	for _, c := range l.market {
		if err := assign(c, "market"); err != nil {
			return nil, err
		}
	}
	for _, c := range l.streets {
		if err := assign(c, "streets"); err != nil {
			return nil, err
		}
	}
	seenKey := map[string]int{}
	req := requiredKeys()
	for _, rb := range l.buildings {
		if prev, dup := seenKey[rb.key]; dup {
			return nil, fail(rb.line, "building %q is given twice (first at line %d); keep one", rb.key, prev)
		}
		seenKey[rb.key] = rb.line
		if !req[rb.key] {
			return nil, fail(rb.line, "unknown building %q; the 18 buildings are %s", rb.key, strings.Join(sortedKeys(req), ", "))
		}
		if len(rb.cells) == 0 {
			return nil, fail(rb.line, "building %q has no cells", rb.key)
		}
		for _, c := range rb.cells {
			if err := assign(c, rb.key); err != nil {
				return nil, err
			}
		}
	}
	var missing []string
	for _, k := range sortedKeys(req) {
		if _, ok := seenKey[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return nil, fail(0, "missing buildings %s; a board has all 18", strings.Join(missing, ", "))
	}
	var holes []string
	for y := 1; y <= Size; y++ {
		for x := 1; x <= Size; x++ {
			if _, ok := owner[Cell{X: x, Y: y}]; !ok {
				holes = append(holes, cellName(Cell{X: x, Y: y}))
			}
		}
	}
	if len(holes) > 0 {
		return nil, fail(0, "cells %s belong to no square; every one of the 64 cells is a building, a street or the market", strings.Join(holes, ", "))
	}
	if len(l.streets) != NumStreets {
		return nil, fail(0, "%d street cells; the board has %d", len(l.streets), NumStreets)
	}
	// Market: exactly the 2x2 centre.
	centre := map[Cell]bool{{X: 4, Y: 4}: true, {X: 5, Y: 4}: true, {X: 4, Y: 5}: true, {X: 5, Y: 5}: true}
	if len(l.market) != 4 {
		return nil, fail(0, "the market has %d cells; it is the 4 centre cells 4-4, 5-4, 4-5, 5-5", len(l.market))
	}
	for _, c := range l.market {
		if !centre[c] {
			return nil, fail(lineOf(c), "market cell %s is not in the centre; the market is 4-4, 5-4, 4-5, 5-5", cellName(c))
		}
	}

	// Squares and IDs.
	b := &Board{byKey: map[string]SquareID{}, notes: l.notes}
	if b.notes == nil {
		b.notes = map[Cell]string{}
	}
	add := func(s Square) SquareID {
		s.ID = SquareID(len(b.squares))
		sortCells(s.Cells)
		b.squares = append(b.squares, s)
		b.byKey[s.Key] = s.ID
		for _, c := range s.Cells {
			b.grid[c.Y-1][c.X-1] = s.ID
		}
		return s.ID
	}
	b.market = add(Square{Kind: Market, Key: "market", NameFR: "Marché", NameEN: "Market",
		Names: map[string]string{"alea-2001": "Marktplatz", "filosofia-2008": "Marché"}, Cells: append([]Cell(nil), l.market...)})
	blds := append([]rawBuilding(nil), l.buildings...)
	sort.Slice(blds, func(i, j int) bool { return blds[i].key < blds[j].key })
	for _, rb := range blds {
		names := map[string]string{}
		for k, v := range rb.names {
			names[k] = v
		}
		add(Square{Kind: Building, Key: rb.key, NameFR: rb.fr, NameEN: rb.en, Names: names,
			Aliases: append([]string(nil), rb.aliases...), Cells: append([]Cell(nil), rb.cells...)})
	}
	for _, rb := range l.buildings {
		b.fileOrder = append(b.fileOrder, b.byKey[rb.key])
	}
	streets := append([]Cell(nil), l.streets...)
	sortCells(streets)
	for _, c := range streets {
		add(Square{Kind: Street, Key: streetKey(c), NameFR: "Rue " + cellName(c), NameEN: "Street " + cellName(c), Cells: []Cell{c}})
	}

	// Contiguity of each building.
	for i := range b.squares {
		s := &b.squares[i]
		if !contiguous(s.Cells) {
			return nil, fail(lineOf(s.Cells[0]), "building %q is in several pieces (cells %s); a building's cells must touch edge to edge", s.Key, cellList(s.Cells))
		}
	}

	// Adjacency.
	n := len(b.squares)
	b.nbMask = make([]Set, n)
	for y := 1; y <= Size; y++ {
		for x := 1; x <= Size; x++ {
			a := b.grid[y-1][x-1]
			if x < Size {
				if o := b.grid[y-1][x]; o != a {
					b.nbMask[a] = b.nbMask[a].With(o)
					b.nbMask[o] = b.nbMask[o].With(a)
				}
			}
			if y < Size {
				if o := b.grid[y][x-1]; o != a {
					b.nbMask[a] = b.nbMask[a].With(o)
					b.nbMask[o] = b.nbMask[o].With(a)
				}
			}
		}
	}
	backing := make([]SquareID, 0, 4*n)
	b.neighbours = make([][]SquareID, n)
	b.streetsTouching = make([][]SquareID, n)
	b.buildingsTouching = make([][]SquareID, n)
	for i := 0; i < n; i++ {
		start := len(backing)
		for j := 0; j < n; j++ {
			if b.nbMask[i].Has(SquareID(j)) {
				backing = append(backing, SquareID(j))
			}
		}
		b.neighbours[i] = backing[start:len(backing):len(backing)]
	}
	for i := 0; i < n; i++ {
		var touch []SquareID
		for _, j := range b.neighbours[i] {
			switch {
			case b.squares[i].Kind == Building && b.squares[j].Kind == Street:
				touch = append(touch, j)
			case b.squares[i].Kind == Street && b.squares[j].Kind == Building:
				touch = append(touch, j)
			}
		}
		if b.squares[i].Kind == Building {
			b.streetsTouching[i] = touch
		} else if b.squares[i].Kind == Street {
			b.buildingsTouching[i] = touch
		}
	}

	// Edge buildings, and where the known kinds of building must be.
	for i := range b.squares {
		s := &b.squares[i]
		if s.Kind != Building {
			continue
		}
		corner := false
		for _, c := range s.Cells {
			if c.X == 1 || c.X == Size || c.Y == 1 || c.Y == Size {
				s.Edge = true
			}
			if (c.X == 1 || c.X == Size) && (c.Y == 1 || c.Y == Size) {
				corner = true
			}
		}
		switch {
		case isCentre(s.Key):
			if !b.nbMask[i].Has(b.market) {
				return nil, fail(lineOf(s.Cells[0]), "building %q does not touch the market; the town hall, guild hall, cathedral and post office flank it", s.Key)
			}
			if s.Edge {
				return nil, fail(lineOf(s.Cells[0]), "building %q is on the board's edge; it belongs beside the market", s.Key)
			}
		case isVilla(s.Key):
			if !corner {
				return nil, fail(lineOf(s.Cells[0]), "villa %q has no corner cell; the villas are at the corners (1-1, 8-1, 1-8, 8-8)", s.Key)
			}
		default:
			if !s.Edge {
				return nil, fail(lineOf(s.Cells[0]), "building %q has no cell on the board's edge; the 14 contract buildings lie on the edge", s.Key)
			}
		}
	}

	// Distances (BFS from every square) and reachability.
	b.dist = make([]uint8, n*n)
	queue := make([]SquareID, 0, n)
	for a := 0; a < n; a++ {
		row := b.dist[a*n : (a+1)*n]
		for i := range row {
			row[i] = 0xff
		}
		row[a] = 0
		queue = append(queue[:0], SquareID(a))
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			for _, v := range b.neighbours[u] {
				if row[v] == 0xff {
					row[v] = row[u] + 1
					queue = append(queue, v)
				}
			}
		}
		for i, d := range row {
			if d == 0xff {
				return nil, fail(0, "square %q cannot be reached from %q", b.squares[i].Key, b.squares[a].Key)
			}
		}
	}
	return b, nil
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func sortCells(cs []Cell) {
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].Y != cs[j].Y {
			return cs[i].Y < cs[j].Y
		}
		return cs[i].X < cs[j].X
	})
}

func cellList(cs []Cell) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = cellName(c)
	}
	return strings.Join(parts, ", ")
}

func contiguous(cs []Cell) bool {
	if len(cs) == 0 {
		return false
	}
	in := map[Cell]bool{}
	for _, c := range cs {
		in[c] = true
	}
	seen := map[Cell]bool{cs[0]: true}
	stack := []Cell{cs[0]}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, d := range [4]Cell{{X: c.X + 1, Y: c.Y}, {X: c.X - 1, Y: c.Y}, {X: c.X, Y: c.Y + 1}, {X: c.X, Y: c.Y - 1}} {
			if in[d] && !seen[d] {
				seen[d] = true
				stack = append(stack, d)
			}
		}
	}
	return len(seen) == len(cs)
}

// toLayout returns the raw layout of b, for editing and encoding.
func (b *Board) toLayout() *layout {
	l := &layout{notes: map[Cell]string{}}
	for c, n := range b.notes {
		l.notes[c] = n
	}
	l.market = append(l.market, b.squares[b.market].Cells...)
	for _, id := range b.fileOrder {
		s := &b.squares[id]
		rb := rawBuilding{key: s.Key, fr: s.NameFR, en: s.NameEN, aliases: append([]string(nil), s.Aliases...),
			cells: append([]Cell(nil), s.Cells...), names: map[string]string{}}
		for k, v := range s.Names {
			rb.names[k] = v
		}
		l.buildings = append(l.buildings, rb)
	}
	for i := range b.squares {
		if b.squares[i].Kind == Street {
			l.streets = append(l.streets, b.squares[i].Cells[0])
		}
	}
	return l
}

// Edit is one cell given to a square: Key is a building key, "street" or
// "market".
type Edit struct {
	X, Y int
	Key  string
}

// WithCell returns a new board where cell (x, y) belongs to the square
// named key (a building key, "street" or "market"), after validating it.
// Since a valid board has exactly 20 streets and 18 buildings, most
// corrections move several cells at once: use WithCells for those.
func (b *Board) WithCell(x, y int, key string) (*Board, error) {
	return b.WithCells(Edit{X: x, Y: y, Key: key})
}

// WithCells applies all edits, then validates the result as a whole, so
// that a correction can swap cells between squares. The source note of an
// edited cell becomes "edited: was <old key>". b is not changed.
func (b *Board) WithCells(edits ...Edit) (*Board, error) {
	l := b.toLayout()
	for _, e := range edits {
		c := Cell{X: e.X, Y: e.Y}
		if e.X < 1 || e.X > Size || e.Y < 1 || e.Y > Size {
			return nil, editFail(0, "cell %s is off the board; X and Y run from 1 to 8", cellName(c))
		}
		old := b.squares[b.grid[e.Y-1][e.X-1]]
		oldKey := old.Key
		if old.Kind == Street {
			oldKey = "street"
		}
		// Remove c from wherever it is.
		l.market = removeCell(l.market, c)
		l.streets = removeCell(l.streets, c)
		for i := range l.buildings {
			l.buildings[i].cells = removeCell(l.buildings[i].cells, c)
		}
		switch e.Key {
		case "street":
			l.streets = append(l.streets, c)
		case "market":
			l.market = append(l.market, c)
		default:
			found := false
			for i := range l.buildings {
				if l.buildings[i].key == e.Key {
					l.buildings[i].cells = append(l.buildings[i].cells, c)
					found = true
				}
			}
			if !found {
				return nil, editFail(0, "no building %q; give a building key, \"street\" or \"market\"", e.Key)
			}
		}
		if oldKey != e.Key {
			l.notes[c] = "edited: was " + oldKey
		}
	}
	for i := range l.buildings {
		sortCells(l.buildings[i].cells)
	}
	return build(l, editFail)
}

func removeCell(cs []Cell, c Cell) []Cell {
	out := cs[:0:0]
	for _, d := range cs {
		if d != c {
			out = append(out, d)
		}
	}
	return out
}
