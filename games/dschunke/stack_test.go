package dschunke

import (
	"strings"
	"testing"
)

// grid draws a hold's visible crates: rows separated by '/', a seat as
// its letter (A = seat 0), '.' for bare.
func grid(h hold) string {
	var b strings.Builder
	for i, o := range h.cells() {
		if i > 0 && i%Layer == 0 {
			b.WriteByte('/')
		}
		if o == empty {
			b.WriteByte('.')
		} else {
			b.WriteByte(byte('A' + o))
		}
	}
	return b.String()
}

// TestVisibility lays palettes one by one (seat and slot 1 to 3) and
// checks the visible crates after several layers.
func TestVisibility(t *testing.T) {
	type lay struct{ seat, slot int }
	tests := []struct {
		name   string
		lays   []lay
		want   string
		counts [4]int
		layers int
	}{
		{"bare", nil, ".../.../...", [4]int{}, 0},
		{"one palette along row 1", []lay{{0, 1}}, "AAA/.../...", [4]int{3}, 1},
		{"first layer full", []lay{{0, 1}, {1, 2}, {2, 3}}, "AAA/BBB/CCC", [4]int{3, 3, 3}, 1},
		{"second layer across, column 1", []lay{{0, 1}, {1, 2}, {2, 3}, {3, 1}}, "DAA/DBB/DCC", [4]int{2, 2, 2, 3}, 2},
		{"second layer, column 3 then 2", []lay{{0, 1}, {1, 2}, {2, 3}, {3, 1}, {0, 3}, {1, 2}}, "DBA/DBA/DBA", [4]int{3, 3, 0, 3}, 2},
		{"third layer along the rows again", []lay{{0, 1}, {1, 2}, {2, 3}, {3, 1}, {0, 3}, {1, 2}, {2, 2}}, "DBA/CCC/DBA", [4]int{2, 2, 3, 2}, 3},
		{"fourth layer, across again", []lay{{0, 1}, {1, 2}, {2, 3}, {3, 1}, {0, 3}, {1, 2}, {2, 2}, {3, 1}, {0, 3}, {1, 2}, {2, 3}}, "DBC/CBC/ABC", [4]int{1, 3, 4, 1}, 4},
		{"fourth layer, other slots", []lay{{0, 1}, {1, 2}, {2, 3}, {3, 1}, {0, 3}, {1, 2}, {2, 2}, {1, 1}, {3, 3}, {2, 2}, {0, 1}}, "ACB/ACC/ACD", [4]int{3, 1, 4, 1}, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var h hold
			for i, l := range tt.lays {
				if !h.isFree(l.slot - 1) {
					t.Fatalf("lay %d: slot %d not free; free %v", i+1, l.slot, plus1(h.free()))
				}
				h = h.place(l.seat, l.slot-1)
			}
			if got := grid(h); got != tt.want {
				t.Errorf("grid = %s, want %s", got, tt.want)
			}
			for seat, want := range tt.counts {
				if got := h.visible(seat); got != want {
					t.Errorf("visible(%c) = %d, want %d", 'A'+seat, got, want)
				}
			}
			if len(h) != tt.layers {
				t.Errorf("layers = %d, want %d", len(h), tt.layers)
			}
		})
	}
}

// TestLayerOrder checks that a layer is begun only when the one below is
// full, and that a palette moved away leaves a hole filled first.
func TestLayerOrder(t *testing.T) {
	var h hold
	h = h.place(0, 1)
	if got := plus1(h.free()); len(got) != 2 || got[0] != 1 || got[1] != 3 {
		t.Fatalf("free after slot 2 = %v, want [1 3]", got)
	}
	h = h.place(1, 0).place(2, 2)
	if got := plus1(h.free()); len(got) != 3 {
		t.Fatalf("free after a full layer = %v, want [1 2 3]", got)
	}
	h = h.place(3, 0)
	if grid(h) != "DBB/DAA/DCC" {
		t.Fatalf("grid = %s", grid(h))
	}
	// The top layer's palette moved away: the hold is back to one layer.
	h = h.remove(0)
	if len(h) != 1 || grid(h) != "BBB/AAA/CCC" {
		t.Fatalf("after removal: %d layers, %s", len(h), grid(h))
	}
	// A hole in a full top layer is filled before a new layer begins.
	h = h.remove(1)
	if got := plus1(h.free()); len(got) != 1 || got[0] != 2 {
		t.Fatalf("free after a hole = %v, want [2]", got)
	}
	if h.top(0) != 1 || h.top(1) != empty || h.palettes(2) != 1 {
		t.Fatalf("top = %d %d, palettes(C) = %d", h.top(0), h.top(1), h.palettes(2))
	}
}
