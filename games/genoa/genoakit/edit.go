package genoakit

import (
	"errors"
	"fmt"

	"comptoir/engine"
	"comptoir/games/genoa"
	"comptoir/games/genoa/board"
	"comptoir/games/kit"
)

// loadBoard returns rules over a board layout file (nil: the default).
func loadBoard(data []byte, file string) (engine.Rules, error) {
	if data == nil {
		return genoa.New(), nil
	}
	b, err := board.Decode(data, file)
	if err != nil {
		return nil, err
	}
	return genoa.WithBoard(b)
}

// encodeBoard writes the rules' board layout.
func encodeBoard(r engine.Rules) []byte { return boardOf(r).Encode() }

// editCells gives each edit's cell ("3-4", blue column then red row) to
// its square (a building's key, "street" or "market"). A layout that is
// not valid yet (a board has fixed counts of streets and buildings, so
// most corrections take several cells), or that does not fit an
// edition's data, is incomplete.
func editCells(r engine.Rules, edits []kit.Edit) (engine.Rules, error) {
	var cells []board.Edit
	for _, e := range edits {
		var x, y int
		if _, err := fmt.Sscanf(e.Key, "%d-%d", &x, &y); err != nil || x < 1 || x > 8 || y < 1 || y > 8 || fmt.Sprintf("%d-%d", x, y) != e.Key {
			return nil, engine.Refusef(engine.ErrBadArgument, "cell %q: write column-row, each 1 to 8, like 3-4", "case %q : écrivez colonne-ligne, de 1 à 8, comme 3-4", e.Key)
		}
		cells = append(cells, board.Edit{X: x, Y: y, Key: e.Value})
	}
	b, err := boardOf(r).WithCells(cells...)
	if err != nil {
		if errors.Is(err, board.ErrInvalid) {
			return nil, fmt.Errorf("%w: %w", kit.ErrIncomplete, err)
		}
		return nil, err
	}
	rules, err := genoa.WithBoard(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", kit.ErrIncomplete, err)
	}
	return rules, nil
}
