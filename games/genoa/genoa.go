package genoa

import (
	"fmt"
	"sort"
	"strings"

	"comptoir/engine"
	"comptoir/games/genoa/board"
	"comptoir/games/genoa/catalog"
)

// Rules are the rules of Genoa, both editions. The data of each edition
// (board, profile, cards) is built once by New and only read afterwards.
type Rules struct {
	board    *board.Board
	editions map[string]*Data
	err      error
}

// Board is the board layout the rules play on.
func (r *Rules) Board() *board.Board { return r.board }

var _ engine.Rules = (*Rules)(nil)

// Name is "genoa".
func (*Rules) Name() string { return "genoa" }

// Codec knows Genoa's commands and events.
func (*Rules) Codec() *engine.Codec { return codec }

// Editions lists the editions the rules know.
func (r *Rules) Editions() []string {
	var out []string
	for k := range r.editions {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Options of a game (Setup.Options).
const (
	// OptMarketAdvance "off": a start on the market does not advance the
	// round track (the Alea translator's advice, a house rule of the
	// editions that allow it; "on" by default).
	OptMarketAdvance = "market-advance"
)

// defaultEdition is the edition of a setup that names none.
const (
	defaultEdition = "filosofia-2008"
)

// Start starts a game: Setup.Variant is the edition ("alea-2001" or
// "filosofia-2008"), 2 to 5 players. The first player of Setup.Players is
// the first player, fixed for the whole game. The first commands deal the
// starting hands: one card of each deck per player, in seat order.
func (r *Rules) Start(setup engine.Setup) (engine.State, error) {
	if r.err != nil {
		return nil, r.err
	}
	ed := setup.Variant
	if ed == "" {
		ed = defaultEdition
		setup.Variant = ed
	}
	d, ok := r.editions[ed]
	if !ok {
		return nil, fmt.Errorf("genoa: no edition %q; editions: %s", ed, strings.Join(r.Editions(), ", "))
	}
	n := len(setup.Players)
	rounds, ok := d.prof.Rounds[n]
	if !ok {
		return nil, fmt.Errorf("genoa: %d players; %s is played by 2 to 5", n, ed)
	}
	for k, v := range setup.Options {
		switch {
		case k == OptMarketAdvance && v == "on":
		case k == OptMarketAdvance && v == "off" && d.prof.MarketOptional:
		default:
			return nil, fmt.Errorf("genoa: option %s=%q unknown; options: market-advance=on, and market-advance=off where the edition allows that house rule (%s: %v)", k, v, ed, d.prof.MarketOptional)
		}
	}
	seen := map[string]bool{}
	for _, p := range setup.Players {
		if p == "" || seen[strings.ToLower(p)] {
			return nil, fmt.Errorf("genoa: players must have different, non-empty names: %q", setup.Players)
		}
		seen[strings.ToLower(p)] = true
	}
	return newState(d, setup, rounds), nil
}

// New returns the rules of Genoa over the embedded data: the default board
// (configs/genoa/board.yaml), the edition profiles (editions.yaml) and the
// card catalog (cards.yaml). A fault in the data is reported by Start.
func New() engine.Rules {
	b := board.Default()
	r := &Rules{board: b, editions: map[string]*Data{}}
	for _, ed := range catalog.Editions() {
		e, c, err := catalog.Load(ed)
		if err != nil {
			r.err = fmt.Errorf("genoa: %w", err)
			return r
		}
		d, err := fromCatalog(b, e, c)
		if err != nil {
			r.err = err
			return r
		}
		r.editions[ed] = d
	}
	return r
}

// WithBoard returns rules that play on another layout of the board (a café
// that corrected the default), with the embedded profiles and cards.
func WithBoard(b *board.Board) (engine.Rules, error) {
	r := &Rules{board: b, editions: map[string]*Data{}}
	for _, ed := range catalog.Editions() {
		e, c, err := catalog.Load(ed)
		if err != nil {
			return nil, fmt.Errorf("genoa: %w", err)
		}
		if err := catalog.Check(b, e, c); err != nil {
			return nil, fmt.Errorf("genoa: the board does not fit the %s data: %w", ed, err)
		}
		d, err := fromCatalog(b, e, c)
		if err != nil {
			return nil, err
		}
		r.editions[ed] = d
	}
	return r, nil
}

var _ engine.Catalog = (*Rules)(nil)

// Variants lists the editions, the default (Filosofia, the edition in
// print) first.
func (r *Rules) Variants() []string {
	out := r.Editions()
	for i, e := range out {
		if e == defaultEdition {
			out[0], out[i] = out[i], out[0]
		}
	}
	return out
}

// PlayerCounts lists 2 to 5.
func (r *Rules) PlayerCounts() []int { return []int{2, 3, 4, 5} }
