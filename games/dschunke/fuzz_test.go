package dschunke

import (
	"testing"

	"comptoir/engine"
)

func engineSetup(n int) engine.Setup {
	return engine.Setup{Game: Name, Players: players4[:n]}
}

// FuzzCommand sends phone commands (a name and JSON, as the dashboard
// passes them on) to positions of a seeded game: decoding and deciding
// must never panic, a refusal must be a rule with both languages, and an
// accepted command's events must apply and keep the invariants.
func FuzzCommand(f *testing.F) {
	for _, c := range []struct{ name, js string }{
		{"bid", `{"goods":{"fish":3}}`},
		{"bid", `{"goods":{"fish":-1}}`},
		{"load", `{"with":"merchant","at":[1,2]}`},
		{"take", `{"with":"helper","junk":"white","goods":{"rice":3}}`},
		{"play", `{"card":"move-palette-1","from":"brown","slot":2,"junk":"grey","at":[3]}`},
		{"draw", `{"card":"win-ties"}`},
		{"reveal", `{"market":"market-07"}`},
		{"hand", `{"goods":{"fish":8}}`},
		{"exchange", `{"give":{"fish":1},"take":{"rice":1}}`},
		{"restock", `{"goods":{"spices":9}}`},
	} {
		for seat := -1; seat < 4; seat++ {
			f.Add(c.name, c.js, seat, uint8(seat*37))
		}
	}
	// Positions: every 4th state of a seeded game, through every phase.
	var states []*State
	k := 0
	randomGame(f, players4, 7, func(s *State, _ []engine.Action) {
		if k++; k%4 == 0 {
			states = append(states, s)
		}
	})
	f.Fuzz(func(t *testing.T, name, js string, seat int, pos uint8) {
		s := states[int(pos)%len(states)]
		cmd, err := codec.DecodeCommand(name, []byte(js))
		if err != nil {
			return
		}
		evs, err := s.Decide(engine.Action{By: engine.Seat(seat%6 - 2), Cmd: cmd})
		if err != nil {
			if r, ok := engine.AsRefusal(err); !ok || r.EN == "" || r.FR == "" {
				t.Fatalf("%s %s: %v is not a refusal in both languages", name, js, err)
			}
			return
		}
		next := engine.State(s)
		for _, ev := range evs {
			if next, err = next.Apply(ev); err != nil {
				t.Fatalf("%s %s: accepted, but %s does not apply: %v", name, js, ev.Name(), err)
			}
			if err := next.(engine.Checker).Check(); err != nil {
				t.Fatalf("%s %s: %v", name, js, err)
			}
		}
	})
}
