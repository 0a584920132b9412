package engine

import (
	"fmt"
	"strings"
)

// Seat is a player's place at the table, 0 for the first player. The
// negative values name who is not a player.
type Seat int

const (
	// NoSeat is an action that comes from no player: a device (the dice
	// camera, the NFC reader) or the table itself. Rules decide whom it acts
	// for, usually the player whose step it is.
	NoSeat Seat = -1
	// Staff is the café staff, allowed corrections no player may make.
	Staff Seat = -2
)

func (s Seat) String() string {
	switch s {
	case NoSeat:
		return "table"
	case Staff:
		return "staff"
	}
	return fmt.Sprintf("seat %d", int(s)+1)
}

// Command is what a player or device asks for. Its name is the verb in the
// game record notation and in phone messages, for example "roll".
type Command interface {
	Name() string
}

// Event is a fact that an accepted command produced. Its name keys it in
// the journal.
type Event interface {
	Name() string
}

// Action is a command from a seat.
type Action struct {
	By  Seat
	Cmd Command
}

// Setup is everything needed to start a game.
type Setup struct {
	// Game is the rules' name, for example "genoa".
	Game string `json:"game"`
	// Variant is the edition or variant, for example "alea-2001".
	Variant string `json:"variant,omitempty"`
	// Players are the players' names, in seating order from the first
	// player.
	Players []string `json:"players"`
	// Options are the variant's options, by name.
	Options map[string]string `json:"options,omitempty"`
}

// SeatOf returns the seat of the named player (case-insensitive), or the
// seat written as a 1-based number.
func (s Setup) SeatOf(name string) (Seat, bool) {
	for i, p := range s.Players {
		if strings.EqualFold(p, name) {
			return Seat(i), true
		}
	}
	var n int
	if _, err := fmt.Sscanf(name, "%d", &n); err == nil && fmt.Sprint(n) == name && n >= 1 && n <= len(s.Players) {
		return Seat(n - 1), true
	}
	return NoSeat, false
}

// Rules are one game's rules.
type Rules interface {
	// Name is the game's name in setups and records, for example "genoa".
	Name() string
	// Start returns the state at the start of a game, or an error that says
	// what is wrong with the setup (an unknown edition, a player count the
	// game does not allow).
	Start(Setup) (State, error)
	// Codec knows the game's commands and events.
	Codec() *Codec
}

// State is a game's position. States are values: Apply returns a new state
// and leaves its receiver as it was, so a state may be kept, compared and
// shared between goroutines that only read it.
type State interface {
	// Setup is the setup the game started from.
	Setup() Setup
	// Decide validates the action and returns the events it produces, in
	// order, or an error: a *Refusal for an illegal action. Decide does not
	// change the state.
	Decide(Action) ([]Event, error)
	// Apply returns the state after the event. An error means the event
	// does not fit the state (a corrupt journal), never an illegal move.
	Apply(Event) (State, error)
	// Legal lists the legal actions, for every seat that may act now. A
	// command that takes a free amount (a sum of money in a deal) is listed
	// once with a representative amount; Decide is the judge.
	Legal() []Action
	// Waiting lists the seats the game waits for now (empty when over).
	Waiting() []Seat
	// Result is the score so far, final when Over is true.
	Result() Result
	// View is the projection of the state that seat may see: its own
	// secrets and nothing of anyone else's. NoSeat is the table's public
	// view, Staff the staff's. The value encodes to JSON.
	View(Seat) any
}

// Describer is implemented by states that can tell an event in words, for
// the game's log. lang is "fr" or "en".
type Describer interface {
	Describe(ev Event, lang string) string
}

// Checker is implemented by states that can check their own invariants
// (money, goods, cards conserved); the simulator calls it after every event.
type Checker interface {
	Check() error
}

// Result is the scoring of a game.
type Result struct {
	// Over is true once the game has ended.
	Over bool `json:"over"`
	// Scores are per seat, in seat order.
	Scores []Score `json:"scores"`
	// Winners are the seats that won (more than one on an unbroken tie).
	Winners []Seat `json:"winners"`
}

// Score is one player's score and its breakdown.
type Score struct {
	Seat   Seat   `json:"seat"`
	Player string `json:"player"`
	Total  int    `json:"total"`
	// Parts is the breakdown, in the order the game's rules list it.
	Parts []Part `json:"parts"`
	// TieBreak is the value that breaks a tie on Total, higher first.
	TieBreak int `json:"tieBreak"`
	// Rank is 1 for the winner(s).
	Rank int `json:"rank"`
}

// Part is one line of a score's breakdown.
type Part struct {
	Name   string `json:"name"` // stable key, e.g. "money"
	NameFR string `json:"nameFr"`
	NameEN string `json:"nameEn"`
	Points int    `json:"points"`
}

// Rank fills in Rank and Winners from Total then TieBreak.
func (r *Result) Rank() {
	r.Winners = r.Winners[:0]
	for i := range r.Scores {
		rank := 1
		for j := range r.Scores {
			if better(r.Scores[j], r.Scores[i]) {
				rank++
			}
		}
		r.Scores[i].Rank = rank
		if rank == 1 {
			r.Winners = append(r.Winners, r.Scores[i].Seat)
		}
	}
}

func better(a, b Score) bool {
	if a.Total != b.Total {
		return a.Total > b.Total
	}
	return a.TieBreak > b.TieBreak
}

// Play decides the action on s and applies its events. It returns the new
// state and the events, or s unchanged and the refusal.
func Play(s State, a Action) (State, []Event, error) {
	evs, err := s.Decide(a)
	if err != nil {
		return s, nil, err
	}
	next := s
	for _, ev := range evs {
		if next, err = next.Apply(ev); err != nil {
			return s, nil, fmt.Errorf("apply %s after deciding %s: %w", ev.Name(), a.Cmd.Name(), err)
		}
	}
	return next, evs, nil
}

// Replay starts a game from its setup and applies the events in order.
func Replay(r Rules, setup Setup, events []Event) (State, error) {
	s, err := r.Start(setup)
	if err != nil {
		return nil, err
	}
	for i, ev := range events {
		if s, err = s.Apply(ev); err != nil {
			return nil, fmt.Errorf("event %d (%s): %w", i+1, ev.Name(), err)
		}
	}
	return s, nil
}

// Catalog is implemented by rules that list their variants and the player
// counts they allow, for the simulator and the dashboard's new-game form.
type Catalog interface {
	// Variants lists the variants (editions), the default first; empty when
	// the game has none.
	Variants() []string
	// PlayerCounts lists the allowed numbers of players.
	PlayerCounts() []int
}
