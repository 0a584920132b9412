// Package board is the Genoa board layout as data: which of the 64 cells
// belongs to which square (18 buildings, 20 street cells, the market),
// decoded strictly from configs/genoa/board.yaml, validated, and
// precomputed for the rules engine.
//
// # Coordinates and squares
//
// A cell is (X, Y): X is the blue die's coordinate (column 1-8, left to
// right), Y the red die's (row 1-8, top to bottom). A building and the
// market count as one square whatever their size; each street cell is a
// square. Squares get small integer IDs (SquareID) so that the move
// generator can keep visited squares in a Set (a uint64) and walk
// Neighbours without allocating.
//
// # Adjacency
//
// Two squares are adjacent when a cell of one shares an edge with a cell
// of the other; cells touching only at a corner do not count ("adjacents
// (pas en diagonale)", Berclaz; "adjacents orthogonalement", Filosofia).
// The same relation serves the pawn's moves, contract/privilege groups
// (BuildingsAdjacent) and ownership markers (BuildingsTouching of a street).
//
// # What is sourced and what is inferred
//
// The printed layout is in none of the rules texts. Sourced facts:
//
//   - 8x8 cells, 18 buildings, 20 streets, one market on 4-4, 5-4, 4-5,
//     5-5 (Filosofia: "la case du marché (case correspondant aux quatre
//     résultats suivants; 4-4, 5-4, 4-5, 5-5)").
//   - Blue 3, red 2 is a street (Filosofia's starting-space example).
//   - From the guild hall, Villa Colini in 4 moves and the metal warehouse
//     in 3 (Filosofia's movement example).
//   - A street touches the guild hall and the "Hangar"; another touches the
//     Hangar and the spice warehouse (Filosofia's ownership example).
//   - Park, Kutscherei and Villa Ricci are a chain of adjacent buildings;
//     Metallager, Hafen and Villa Zasteri touch none of those six (Berclaz's
//     privilege example, 3x10 + 60 = 90 ducats).
//   - Each villa is placed so that its large orders hold no good of the
//     warehouse next to it (Berclaz, 6.1), so each villa touches a warehouse.
//   - From RULES-NOTES.md: the town hall, guild hall, cathedral and post
//     office flank the market; the other 14 buildings lie on the edge, the
//     villas on the corners; a villa on the right edge touches the spice
//     warehouse, which touches the trattoria and streets.
//
// Inferred, to satisfy those facts: the lane of streets (rows 2 and 7,
// columns 2 and 7, and the four cells diagonal to the centre, save the
// four lane cells taken by the harbour, the park and the coach house), which side
// of the market each centre building is on (guild hall above it, so that
// street 6-3 touches it and the coach house), that the texts' "Hangar" is
// the coach house (Relais, Kutscherei: a shed for coaches; no other building
// fits the example), the harbour next to Villa Monetti (Filosofia's port
// example has the merchant go on to Villa Monetti in the same turn), and
// the position of every edge building. board.yaml comments each cell with
// its source. Layouts are validated on load, so a café that owns the board
// corrects the file, or edits cells from the dashboard (WithCells), and
// every rule of the engine follows.
//
// Warehouses are keyed by position (warehouse-nw, -ne, -sw, -se); the
// edition profile (package catalog) says which goods each one gives and
// what it is called: the north-west one is the metal warehouse in both
// editions, the south-west one is grain in the Alea edition and drinks in
// Filosofia's.
package board
