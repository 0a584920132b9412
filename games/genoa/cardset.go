package genoa

import (
	"iter"
	"math/bits"
)

// cardSet is a set of cards by catalog index (the catalog holds at most
// maxCards = 64): a value, so a state's copy copies it and holds no
// pointer for the collector to follow.
type cardSet uint64

// All yields the cards in catalog order.
func (h cardSet) All() iter.Seq[int] {
	return func(yield func(int) bool) {
		for x := uint64(h); x != 0; x &= x - 1 {
			if !yield(bits.TrailingZeros64(x)) {
				return
			}
		}
	}
}

// Len is the number of cards.
func (h cardSet) Len() int { return bits.OnesCount64(uint64(h)) }

// First is the first card in catalog order, or -1.
func (h cardSet) First() int {
	if h == 0 {
		return -1
	}
	return bits.TrailingZeros64(uint64(h))
}

// Has reports whether card c is in the cardSet.
func (h cardSet) Has(c int) bool { return h&(1<<uint(c)) != 0 }

// With is the cardSet with card c.
func (h cardSet) With(c int) cardSet { return h | 1<<uint(c) }

// Without is the cardSet without card c.
func (h cardSet) Without(c int) cardSet { return h &^ (1 << uint(c)) }
