package dashboard

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"comptoir/engine"
	"comptoir/games/genoa/board"
	"comptoir/input"
)

func TestBoardEditor(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.yaml")
	e := &BoardEditor{Path: path}
	tests := []struct {
		name   string
		cell   input.Cell
		square string
		want   string // "" for accepted, else a piece of the refusal
	}{
		{"unknown square", input.Cell{X: 2, Y: 2}, "castle", "no square \"castle\""},
		{"same square", input.Cell{X: 2, Y: 2}, "street", "already on street"},
		{"one more street", input.Cell{X: 4, Y: 4}, "street", "21 street cells"},
		{"swap breaks a building", input.Cell{X: 7, Y: 3}, "7-5", "coach-house"},
		{"swap off the board", input.Cell{X: 2, Y: 3}, "9-9", "no square"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := e.EditCell(tt.cell, tt.square)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("EditCell(%v, %q) = %v, want accepted", tt.cell, tt.square, err)
				}
				return
			}
			if !errors.Is(err, engine.ErrIllegal) || !strings.Contains(strings.ToLower(err.Error()), tt.want) {
				t.Errorf("EditCell(%v, %q) = %v, want a refusal about %q", tt.cell, tt.square, err, tt.want)
			}
		})
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("refused edits wrote the file: %v", err)
	}
	// A swap that keeps the board valid: the harbour's lane cell 2-3 and
	// the street 2-5.
	if err := e.EditCell(input.Cell{X: 2, Y: 3}, "2-5"); err != nil {
		t.Fatalf("swap 2-3 and 2-5: %v", err)
	}
	saved, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := board.Decode(saved, "board.yaml")
	if err != nil {
		t.Fatalf("the saved board does not decode: %v", err)
	}
	if got := b.Square(b.SquareAt(2, 5)).Key; got != "harbour" {
		t.Errorf("after the swap 2-5 is %s, want harbour", got)
	}
	if got := b.Square(b.SquareAt(2, 3)).Kind; got != board.Street {
		t.Errorf("after the swap 2-3 is a %v, want a street", got)
	}
	data, _ := os.ReadFile(filepath.Join("..", "configs", "genoa", "board.yaml"))
	out, err := moveCell(data, input.Cell{X: 2, Y: 2}, "market")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := board.Decode(out, "board.yaml"); err == nil {
		t.Error("a fifth market cell decodes: the board checks are not run")
	}
	if !strings.Contains(string(out), "# sourced:") {
		t.Error("moveCell lost the file's comments")
	}
}
