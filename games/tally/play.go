package tally

import (
	"fmt"
	"strconv"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/games/kit"
)

// ConsentOption is the setup option that makes Tally's take of 3 coins a
// deal the next player must accept ("consent": "yes"). Tally has no
// money changing hands; the option stands in for one so that the
// dashboard's consent can be tested on the test game.
const ConsentOption = "consent"

// play is Tally played from a phone: one stepper "take 1 to 3 coins".
var play = &kit.Play{
	Actions: func(s engine.State, seat engine.Seat) []kit.Action {
		st, ok := s.(*enginetest.State)
		if !ok || st.Loser != engine.NoSeat || st.Turn != seat {
			return nil
		}
		most := min(3, st.Pile)
		return []kit.Action{{
			ID:     "take",
			Target: "pile",
			Group:  "take",
			Label:  kit.Text{FR: "Prendre {n}", EN: "Take {n}"},
			Fields: []kit.Field{{
				Key: "n", Label: kit.Text{FR: "Pièces", EN: "Coins"},
				Min: 1, Max: most, Value: 1,
				Unit: kit.Text{FR: "pièce", EN: "coin"}, Units: kit.Text{FR: "pièces", EN: "coins"},
			}},
			By: seat,
			Build: func(values map[string]string) (engine.Command, error) {
				n, err := strconv.Atoi(values["n"])
				if err != nil || n < 1 || n > most {
					return nil, engine.Refusef(enginetest.ErrTakeCount, "take 1 to %d coins", "prenez de 1 à %d pièces", most)
				}
				return enginetest.Take{N: n}, nil
			},
		}}
	},
	Prompt: func(s engine.State, viewer engine.Seat) kit.Text {
		st, ok := s.(*enginetest.State)
		if !ok {
			return kit.Text{}
		}
		if st.Loser != engine.NoSeat {
			return kit.Text{FR: "La partie est finie.", EN: "The game is over."}
		}
		most := min(3, st.Pile)
		if viewer == st.Turn {
			return kit.Text{FR: fmt.Sprintf("Prenez de 1 à %d pièces", most), EN: fmt.Sprintf("Take 1 to %d coins", most)}
		}
		name := st.Setup().Players[st.Turn]
		return kit.Text{FR: fmt.Sprintf("%s prend de 1 à %d pièces", name, most), EN: fmt.Sprintf("%s takes 1 to %d coins", name, most)}
	},
	Consent: func(s engine.State, a engine.Action) []engine.Seat {
		st, ok := s.(*enginetest.State)
		t, isTake := a.Cmd.(enginetest.Take)
		if !ok || !isTake || t.N != 3 || st.Setup().Options[ConsentOption] != "yes" {
			return nil
		}
		return []engine.Seat{(st.Turn + 1) % engine.Seat(len(st.Held))}
	},
	Undoable: func(before engine.State, a engine.Action, evs []engine.Event) bool { return true },
}
