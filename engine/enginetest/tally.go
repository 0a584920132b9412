// Package enginetest holds Tally, a tiny but complete game used to test
// the game-agnostic parts of Comptoir (the journal, the notation, the table
// session, the dashboard) apart from any real game's rules.
//
// Tally: a pile of coins (21 unless the "pile" option says otherwise);
// players, in turn, take 1, 2 or 3 coins; what a player holds is secret;
// whoever takes the last coin loses. Score: coins held, the loser 0.
package enginetest

import (
	"fmt"
	"strconv"

	"comptoir/engine"
)

// Rules are Tally's rules.
type Rules struct{}

// Name is "tally".
func (Rules) Name() string { return "tally" }

// Take is the command to take N coins.
type Take struct {
	N int `json:"n"`
}

// Name is "take".
func (Take) Name() string { return "take" }

// Taken is the event: By took N coins.
type Taken struct {
	By engine.Seat `json:"by"`
	N  int         `json:"n"`
}

// Name is "taken".
func (Taken) Name() string { return "taken" }

var codec = engine.NewCodec("tally", []engine.Command{Take{}}, []engine.Event{Taken{}})

// Codec knows Take and Taken.
func (Rules) Codec() *engine.Codec { return codec }

// Rules of Tally.
var (
	ErrTakeCount = engine.NewRule("tally.take-count", "take 1, 2 or 3 coins", "prenez 1, 2 ou 3 pièces")
	ErrPileShort = engine.NewRule("tally.pile-short", "the pile has fewer coins", "la pile a moins de pièces")
)

// Start returns a game with 2 to 4 players.
func (Rules) Start(s engine.Setup) (engine.State, error) {
	if len(s.Players) < 2 || len(s.Players) > 4 {
		return nil, fmt.Errorf("tally: %d players; play with 2 to 4", len(s.Players))
	}
	pile := 21
	if p, ok := s.Options["pile"]; ok {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("tally: option pile=%q: want a whole number from 1", p)
		}
		pile = n
	}
	return &State{setup: s, Pile: pile, Held: make([]int, len(s.Players)), Loser: engine.NoSeat}, nil
}

// State is a Tally position.
type State struct {
	setup engine.Setup
	Pile  int
	Held  []int
	Turn  engine.Seat
	Loser engine.Seat
}

func (s *State) Setup() engine.Setup { return s.setup }

func (s *State) over() bool { return s.Loser != engine.NoSeat }

// Decide checks a Take.
func (s *State) Decide(a engine.Action) ([]engine.Event, error) {
	if s.over() {
		return nil, engine.Refuse(engine.ErrGameOver, "", "")
	}
	t, ok := a.Cmd.(Take)
	if !ok {
		return nil, engine.Refusef(engine.ErrUnknownCommand, "tally has no command %q", "tally n'a pas de commande %q", a.Cmd.Name())
	}
	if a.By != s.Turn && a.By != engine.NoSeat {
		return nil, engine.Refusef(engine.ErrNotYourTurn, "it is %s's turn", "c'est le tour de %s", s.setup.Players[s.Turn])
	}
	if t.N < 1 || t.N > 3 {
		return nil, engine.Refusef(ErrTakeCount, "you cannot take %d coins: take 1, 2 or 3", "vous ne pouvez pas prendre %d pièces : prenez 1, 2 ou 3", t.N)
	}
	if t.N > s.Pile {
		return nil, engine.Refusef(ErrPileShort, "only %d coins are left", "il ne reste que %d pièces", s.Pile)
	}
	return []engine.Event{Taken{By: s.Turn, N: t.N}}, nil
}

// Apply applies a Taken.
func (s *State) Apply(ev engine.Event) (engine.State, error) {
	t, ok := ev.(Taken)
	if !ok {
		return nil, fmt.Errorf("tally: unknown event %q", ev.Name())
	}
	if t.By != s.Turn || t.N < 1 || t.N > s.Pile || s.over() {
		return nil, fmt.Errorf("tally: event %+v does not fit the state", t)
	}
	n := *s
	n.Held = append([]int(nil), s.Held...)
	n.Held[t.By] += t.N
	n.Pile -= t.N
	if n.Pile == 0 {
		n.Loser = t.By
	} else {
		n.Turn = (s.Turn + 1) % engine.Seat(len(s.Held))
	}
	return &n, nil
}

// Legal lists the takes allowed.
func (s *State) Legal() []engine.Action {
	if s.over() {
		return nil
	}
	var out []engine.Action
	for n := 1; n <= 3 && n <= s.Pile; n++ {
		out = append(out, engine.Action{By: s.Turn, Cmd: Take{N: n}})
	}
	return out
}

// Waiting is the seat whose turn it is.
func (s *State) Waiting() []engine.Seat {
	if s.over() {
		return nil
	}
	return []engine.Seat{s.Turn}
}

// Result scores the coins held; the loser scores 0.
func (s *State) Result() engine.Result {
	r := engine.Result{Over: s.over()}
	for i, h := range s.Held {
		pts := h
		if engine.Seat(i) == s.Loser {
			pts = 0
		}
		r.Scores = append(r.Scores, engine.Score{Seat: engine.Seat(i), Player: s.setup.Players[i], Total: pts,
			Parts: []engine.Part{{Name: "coins", NameFR: "pièces", NameEN: "coins", Points: pts}}})
	}
	r.Rank()
	return r
}

// View is the pile, whose turn, and the seat's own coins; the table and
// other seats see only how many coins are in the pile.
type View struct {
	Pile int         `json:"pile"`
	Turn engine.Seat `json:"turn"`
	Mine *int        `json:"mine,omitempty"`
	Over bool        `json:"over"`
}

// View shows a seat its own coins only.
func (s *State) View(seat engine.Seat) any {
	v := View{Pile: s.Pile, Turn: s.Turn, Over: s.over()}
	if seat >= 0 && int(seat) < len(s.Held) {
		h := s.Held[seat]
		v.Mine = &h
	}
	return v
}

// Describe tells an event in words.
func (s *State) Describe(ev engine.Event, lang string) string {
	t := ev.(Taken)
	if lang == "fr" {
		return fmt.Sprintf("%s prend %d pièce(s)", s.setup.Players[t.By], t.N)
	}
	return fmt.Sprintf("%s takes %d coin(s)", s.setup.Players[t.By], t.N)
}

// Check checks that no coin was made or lost.
func (s *State) Check() error {
	total := s.Pile
	for _, h := range s.Held {
		total += h
	}
	want := 21
	if p, ok := s.setup.Options["pile"]; ok {
		want, _ = strconv.Atoi(p)
	}
	if total != want {
		return fmt.Errorf("tally: %d coins in play, want %d", total, want)
	}
	return nil
}
