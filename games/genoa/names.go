package genoa

import "strings"

// Refusals name a board square as printed ("Villa Monetti", "the market",
// "street 6-3"), never by its key (RULES-NOTES ruling): the key is for the
// notation, what a player reads is the board.

// sqName names square sq in lang ("fr" or "en").
func (s *State) sqName(sq int, lang string) string { return s.placeName(s.d.place(sq), lang) }

// sqNames names the squares sqs, joined, in lang.
func (s *State) sqNames(sqs []int, lang string) string {
	out := make([]string, len(sqs))
	for i, sq := range sqs {
		out[i] = s.sqName(sq, lang)
	}
	return strings.Join(out, ", ")
}

// bldNames names the buildings bs, joined, in lang.
func (s *State) bldNames(bs []int, lang string) string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = s.d.bldName(b, lang)
	}
	return strings.Join(out, ", ")
}
