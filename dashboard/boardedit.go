package dashboard

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"comptoir/configs"
	"comptoir/engine"
	"comptoir/games/genoa"
	"comptoir/games/genoa/board"
	"comptoir/input"
)

// ErrBoardEdit refuses a cell edit that would make the board invalid.
var ErrBoardEdit = engine.NewRule("dashboard.board-edit", "this change would make the board invalid", "cette modification rendrait le plateau invalide")

// BoardEditor edits a café's Genoa board file cell by cell, for the staff
// page (give its EditCell to TableOpts.EditCell). The file starts as a
// copy of the default board (configs/genoa/board.yaml) on the first edit;
// each edit moves one cell to another square ("market", "street" or a
// building's key), keeps every comment, and is saved only if the board
// it gives is valid for both editions' data. The table plays a new layout
// from its next start (genoa.WithBoard over the file).
type BoardEditor struct {
	// Path is the café's board file.
	Path string

	mu sync.Mutex // serialises edits of the file
}

// EditCell puts cell c on square: "market", "street", a building's key,
// or another cell "X-Y" to swap the two cells' squares (a board has a
// fixed number of street and market cells, so most corrections are
// swaps). Refusals say what is wrong.
func (e *BoardEditor) EditCell(c input.Cell, square string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	data, err := os.ReadFile(e.Path)
	if errors.Is(err, os.ErrNotExist) {
		data, err = configs.FS.ReadFile(board.DefaultFile)
	}
	if err != nil {
		return fmt.Errorf("board file: %w", err)
	}
	out, err := moveCell(data, c, square)
	if err != nil {
		return err
	}
	b, err := board.Decode(out, filepath.Base(e.Path))
	if err != nil {
		return engine.Refusef(ErrBoardEdit, "%v", "%v", err)
	}
	if _, err := genoa.WithBoard(b); err != nil {
		return engine.Refusef(ErrBoardEdit, "%v", "%v", err)
	}
	tmp := e.Path + ".tmp"
	if err := os.WriteFile(tmp, out, 0o644); err != nil {
		return fmt.Errorf("board file: %w", err)
	}
	if err := os.Rename(tmp, e.Path); err != nil {
		return fmt.Errorf("board file: %w", err)
	}
	return nil
}

// moveCell rewrites a board file with cell c moved to square.
func moveCell(data []byte, c input.Cell, square string) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("board file: not a board (%v)", err)
	}
	root := doc.Content[0]
	field := func(m *yaml.Node, key string) *yaml.Node {
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value == key {
				return m.Content[i+1]
			}
		}
		return nil
	}
	lists := map[string]*yaml.Node{"market": field(root, "market"), "street": field(root, "streets")}
	var keys []string
	if bs := field(root, "buildings"); bs != nil {
		for _, b := range bs.Content {
			if k, cells := field(b, "key"), field(b, "cells"); k != nil && cells != nil {
				lists[k.Value] = cells
				keys = append(keys, k.Value)
			}
		}
	}
	if other, ok := parseCell(square); ok {
		return swapCells(&doc, lists, c.String(), other.String())
	}
	to, ok := lists[square]
	if !ok || to == nil {
		sort.Strings(keys)
		return nil, engine.Refusef(ErrBoardEdit, "no square %q: write market, street or a building (%s)", "pas de lieu %q : écrivez market, street ou un bâtiment (%s)", square, strings.Join(keys, ", "))
	}
	name := c.String()
	found := false
	for _, l := range lists {
		if l == nil {
			continue
		}
		for i, n := range l.Content {
			if n.Value == name {
				if l == to {
					return nil, engine.Refusef(ErrBoardEdit, "cell %s is already on %s", "la case %s est déjà sur %s", name, square)
				}
				l.Content = append(l.Content[:i], l.Content[i+1:]...)
				found = true
				break
			}
		}
	}
	if !found {
		return nil, engine.Refusef(ErrBoardEdit, "cell %s is on no square of the file", "la case %s n'est sur aucun lieu du fichier", name)
	}
	to.Content = append(to.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: name, LineComment: "# edited from the staff page"})
	return encodeDoc(&doc)
}

func parseCell(s string) (input.Cell, bool) {
	var x, y int
	if _, err := fmt.Sscanf(s, "%d-%d", &x, &y); err != nil || x < 1 || x > 8 || y < 1 || y > 8 || fmt.Sprintf("%d-%d", x, y) != s {
		return input.Cell{}, false
	}
	return input.Cell{X: x, Y: y}, true
}

// swapCells exchanges the squares of cells a and b.
func swapCells(doc *yaml.Node, lists map[string]*yaml.Node, a, b string) ([]byte, error) {
	var na, nb *yaml.Node
	for _, l := range lists {
		if l == nil {
			continue
		}
		for _, n := range l.Content {
			switch n.Value {
			case a:
				na = n
			case b:
				nb = n
			}
		}
	}
	if na == nil || nb == nil {
		return nil, engine.Refusef(ErrBoardEdit, "cells %s and %s must both be on the board", "les cases %s et %s doivent être sur le plateau", a, b)
	}
	na.Value, nb.Value = b, a
	na.LineComment, nb.LineComment = "# swapped from the staff page", "# swapped from the staff page"
	return encodeDoc(doc)
}

func encodeDoc(doc *yaml.Node) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("board file: %w", err)
	}
	enc.Close()
	return b.Bytes(), nil
}
