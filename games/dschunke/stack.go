package dschunke

// A junk's hold is a 3x3 grid of cells. Palettes, strips of three crates,
// are laid in layers of three: layer 0 lies along the rows (slot r covers
// cells (r,0), (r,1), (r,2)), layer 1 across them along the columns (slot
// c covers (0,c), (1,c), (2,c)), and so on, alternating. A layer is begun
// only when the one below is full, so every layer under the top one is
// full; a palette moved away by a special card leaves a hole in the top
// layer, which the next palette laid fills.
//
// A crate is visible when no palette lies above its cell. Every palette of
// the top layer is wholly visible; no palette under it is, since each
// palette of a layer crosses every palette of the layer below.

const empty = -1

// hold is a junk's stack of layers; each slot holds the owner's seat or
// empty. The top layer is never wholly empty.
type hold [][Layer]int8

func (h hold) clone() hold { return append(hold(nil), h...) }

// free lists the slots (0 to 2) that the next palette may take: the holes
// of the top layer, or every slot of a new layer when it is full.
func (h hold) free() []int {
	if len(h) > 0 {
		var out []int
		for i, o := range h[len(h)-1] {
			if o == empty {
				out = append(out, i)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return []int{0, 1, 2}
}

// isFree reports whether slot may take the next palette.
func (h hold) isFree(slot int) bool {
	for _, f := range h.free() {
		if f == slot {
			return true
		}
	}
	return false
}

// place returns the hold with a palette of owner in slot of the current
// layer (see free). The caller has checked the slot.
func (h hold) place(owner int, slot int) hold {
	n := h.clone()
	if len(n) == 0 || full(n[len(n)-1]) {
		n = append(n, [Layer]int8{empty, empty, empty})
	}
	n[len(n)-1][slot] = int8(owner)
	return n
}

// remove returns the hold without the palette in slot of the top layer.
func (h hold) remove(slot int) hold {
	n := h.clone()
	n[len(n)-1][slot] = empty
	if n[len(n)-1] == [Layer]int8{empty, empty, empty} {
		n = n[:len(n)-1]
	}
	return n
}

func full(l [Layer]int8) bool { return l[0] != empty && l[1] != empty && l[2] != empty }

// top returns the owner of the top palette of slot in the top layer, or
// empty.
func (h hold) top(slot int) int {
	if len(h) == 0 {
		return empty
	}
	return int(h[len(h)-1][slot])
}

// cells returns the owner of the visible crate of each cell, row by row
// (cell 3r+c), empty where the hold is bare.
func (h hold) cells() [Layer * Layer]int {
	var out [Layer * Layer]int
	for r := 0; r < Layer; r++ {
		for c := 0; c < Layer; c++ {
			out[r*Layer+c] = empty
			for l := len(h) - 1; l >= 0; l-- {
				slot := r
				if l%2 == 1 {
					slot = c
				}
				if o := h[l][slot]; o != empty {
					out[r*Layer+c] = int(o)
					break
				}
			}
		}
	}
	return out
}

// visible returns the number of visible crates of seat.
func (h hold) visible(seat int) int {
	n := 0
	for _, o := range h.cells() {
		if o == seat {
			n++
		}
	}
	return n
}

// palettes returns the number of palettes of seat in the hold.
func (h hold) palettes(seat int) int {
	n := 0
	for _, l := range h {
		for _, o := range l {
			if int(o) == seat {
				n++
			}
		}
	}
	return n
}
