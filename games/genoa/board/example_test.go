package board_test

import (
	"fmt"

	"comptoir/games/genoa/board"
)

func Example() {
	b := board.Default()
	guild, _ := b.ByKey("guild-hall")
	start := b.SquareAt(3, 2) // blue 3, red 2
	fmt.Println(b.Square(start).Key, b.Square(start).Kind)
	fmt.Println("moves from the guild hall to Villa Colini:", b.Distance(guild, b.SquareAt(8, 8)))
	for _, id := range b.BuildingsTouching(b.SquareAt(6, 3)) {
		fmt.Println("from street 6-3, a marker may go on", b.Square(id).Key)
	}
	// Output:
	// street-3-2 street
	// moves from the guild hall to Villa Colini: 4
	// from street 6-3, a marker may go on coach-house
	// from street 6-3, a marker may go on guild-hall
	// from street 6-3, a marker may go on post-office
}

func ExampleBoard_WithCells() {
	b := board.Default()
	// The harbour takes street 2-2 and gives up its cell 2-4 to the lane:
	// counts stay right, so the edit is accepted.
	nb, err := b.WithCells(board.Edit{X: 2, Y: 2, Key: "harbour"}, board.Edit{X: 2, Y: 4, Key: "street"})
	fmt.Println(err, nb.Square(nb.SquareAt(2, 2)).Key, nb.Note(board.Cell{X: 2, Y: 2}))
	// A single cell more for the palazzo leaves 19 streets: refused.
	_, err = b.WithCell(3, 7, "palazzo")
	fmt.Println(err)
	// Output:
	// <nil> harbour edited: was street
	// invalid board: 19 street cells; the board has 20
}

func ExampleDecode() {
	_, err := board.Decode([]byte("version: 1\nmarket: [4-4]\nstreets: []\nbuildings: []\ncolour: red\n"), "board.yaml")
	fmt.Println(err)
	// Output:
	// board.yaml:5: key "colour": unknown key in the board file; expected one of version, market, streets, buildings
}
