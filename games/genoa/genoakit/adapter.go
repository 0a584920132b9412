package genoakit

import (
	"fmt"
	"sort"
	"strings"

	"comptoir/engine"
	"comptoir/games/genoa"
	"comptoir/games/genoa/board"
	"comptoir/games/kit"
	"comptoir/input"
)

// genoaAdapter plays The Traders of Genoa at a table:
//
//   - a settled roll of the blue and red dice is the merchant's roll: the
//     pawn starts on the square at their crossing;
//   - a tap of a square's tag moves the pawn there (one square at a time, as
//     the pawn goes); a tap of the square the pawn already stands on (after
//     the roll or a deal placed it) is the merchant showing where the pawn
//     is, and means nothing more;
//   - the board sensors' cells, less the squares the pawn has visited this
//     turn, are the square the pawn moved to (two at once are refused);
//   - a tap of a card's tag names the card drawn, for whoever the rules wait
//     for (the player whose action drew it);
//   - the confirm button ends the merchant's movement, and in the
//     acquisition phase passes for the player whose turn it is to acquire.
//
// Squares are matched to cells on the board layout the adapter is made
// with (see Adapter).
type genoaAdapter struct {
	board *board.Board
}

// Adapter returns the Genoa adapter for a table whose board has the
// layout b.
func Adapter(b *board.Board) kit.Adapter { return genoaAdapter{board: b} }

func (g genoaAdapter) Translate(s engine.State, ev input.Event, t kit.Target) (engine.Action, error) {
	v, ok := s.View(engine.NoSeat).(genoa.View)
	if !ok {
		return engine.Action{}, fmt.Errorf("genoa adapter: the state is a %T, not a Genoa game: %w", s, kit.ErrNoCommand)
	}
	table := func(cmd engine.Command) (engine.Action, error) {
		return engine.Action{By: engine.NoSeat, Cmd: cmd}, nil
	}
	switch ev := ev.(type) {
	case input.DiceRolled:
		return table(genoa.Roll{Blue: int(ev.Blue), Red: int(ev.Red)})
	case input.TagTapped:
		switch t.Kind {
		case "square":
			sq, err := g.square(t.ID)
			if err != nil {
				return engine.Action{}, err
			}
			if n := len(v.Path); n > 0 && v.Phase == "move" && v.Path[n-1] == genoa.Place(sq) {
				return engine.Action{}, fmt.Errorf("the pawn already stands on %s: %w", sq, kit.ErrNoCommand)
			}
			return table(genoa.Move{To: genoa.Place(t.ID)})
		case "card":
			return table(genoa.Draw{Card: t.ID})
		}
		return engine.Action{}, engine.Refusef(kit.ErrTagNotForGame, "a %s tag means nothing in Genoa", "un badge %s ne veut rien dire à Gênes", t.Kind)
	case input.SquareSensed:
		return g.sensed(v, ev)
	case input.Button:
		if ev.Name != "confirm" {
			break
		}
		switch v.Phase {
		case "move":
			return table(genoa.End{})
		case "acquire":
			return table(genoa.Pass{})
		case "start":
			return engine.Action{}, engine.Refuse(kit.ErrNothingToDo, "roll the dice first: nothing to confirm yet", "lancez d'abord les dés : rien à confirmer encore")
		}
		return engine.Action{}, engine.Refuse(kit.ErrNothingToDo, "", "")
	}
	return engine.Action{}, fmt.Errorf("genoa: %v: %w", ev, kit.ErrNoCommand)
}

// square returns the key of the square at the cell "x-y".
func (g genoaAdapter) square(cell string) (string, error) {
	var x, y int
	if _, err := fmt.Sscanf(cell, "%d-%d", &x, &y); err != nil || x < 1 || x > 8 || y < 1 || y > 8 || fmt.Sprintf("%d-%d", x, y) != cell {
		return "", engine.Refusef(kit.ErrTagNotForGame, "square tag %q is not a cell of the board: enroll it again", "le badge de case %q n'est pas une case du plateau : enrôlez-le à nouveau", cell)
	}
	return g.key(x, y), nil
}

// key is the engine's name of the square at x, y: a building's key,
// "market", or the cell "x-y" of a street.
func (g genoaAdapter) key(x, y int) string {
	return strings.TrimPrefix(g.board.Square(g.board.SquareAt(x, y)).Key, "street-")
}

// sensed finds the square the pawn moved to from the cells the sensors
// feel: those not on the squares visited this turn.
func (g genoaAdapter) sensed(v genoa.View, ev input.SquareSensed) (engine.Action, error) {
	if v.Phase != "move" {
		return engine.Action{}, fmt.Errorf("sensors outside the movement: %w", kit.ErrNoCommand)
	}
	visited := map[string]bool{}
	for _, p := range v.Path {
		visited[string(p)] = true
	}
	fresh := map[string]input.Cell{}
	for _, c := range ev.Cells {
		if c.X < 1 || c.X > 8 || c.Y < 1 || c.Y > 8 {
			continue
		}
		key := g.key(c.X, c.Y)
		if !visited[key] {
			if _, seen := fresh[key]; !seen {
				fresh[key] = c
			}
		}
	}
	switch len(fresh) {
	case 0:
		return engine.Action{}, fmt.Errorf("no new square under the pawn: %w", kit.ErrNoCommand)
	case 1:
		for _, c := range fresh {
			return engine.Action{By: engine.NoSeat, Cmd: genoa.Move{To: genoa.Place(c.String())}}, nil
		}
	}
	keys := make([]string, 0, len(fresh))
	for k := range fresh {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return engine.Action{}, engine.Refusef(kit.ErrSensors, "the sensors feel %d new squares at once (%v): move the pawn one square at a time",
		"les capteurs sentent %d nouvelles cases à la fois (%v) : déplacez le pion d'une case à la fois", len(keys), keys)
}

// AwaitsTable is true when the game waits for the dice or for a card to
// be scanned.
func (g genoaAdapter) AwaitsTable(s engine.State) bool {
	v, ok := s.View(engine.NoSeat).(genoa.View)
	return ok && (v.Phase == "start" || v.Drawing != nil)
}
