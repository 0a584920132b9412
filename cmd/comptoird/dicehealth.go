package main

import (
	"comptoir/cafe"
	"comptoir/dashboard"
	"comptoir/table"
)

// What the café's floor shows of a table's dice camera (cafe.DiceHealth):
// how it fared over the throws the staff page lists, and what it asks of
// the staff. The floor shows every table at once, so that the staff see
// which camera needs a hand without opening each table's staff page.

// Advice the floor shows, most pressing first.
var (
	adviceGlare = cafe.Line{
		FR: "La lampe éblouit les dés : écartez-la du plateau ou baissez-la.",
		EN: "The lamp washes the dice out: move it aside from the tray or dim it.",
	}
	adviceLower = cafe.Line{
		FR: "Les dés paraissent trop petits : descendez la caméra.",
		EN: "The dice look too small: bring the camera lower.",
	}
	adviceCalibrate = cafe.Line{
		FR: "La caméra lit mal ces dés : calibrez-la depuis la page du personnel de la table.",
		EN: "The camera reads these dice poorly: calibrate it from the table's staff page.",
	}
	adviceCheck = cafe.Line{
		FR: "La caméra lit mal ces dés, même calibrée : vérifiez la lumière et sa hauteur sur la page du personnel.",
		EN: "The camera reads these dice poorly, even calibrated: check the light and its height on the staff page.",
	}
)

// poorReads says whether a camera reads so few throws, or reads so many
// wrong, that the staff should see to it: two misreads, or under half the
// throws read once there are enough of them to tell.
func poorReads(h *cafe.DiceHealth) bool {
	return h.Misread >= 2 || h.Throws >= poorAfter && 2*h.Read < h.Throws
}

// poorAfter is how many throws the floor waits for before it says a
// camera reads too few of them.
const poorAfter = 10

// diceHealth sums up throws (the staff page's last throws, oldest first)
// for the floor; calibrated says whether the reader reads with a
// calibration.
func diceHealth(throws []dashboard.DiceThrow, calibrated bool) *cafe.DiceHealth {
	h := &cafe.DiceHealth{}
	for _, t := range throws {
		switch table.DiceFate(t.Fate) {
		case table.DiceAccepted:
			h.Read++
		case table.DiceEntered:
			h.Entered++
		case table.DiceMisread:
			h.Misread++
		case table.DiceUnreadable:
			// counted as thrown: the players have not entered it yet
		default:
			// refused by the game, held, not yet taken, or read again
			// once a die moved (the new reading is a throw of its own):
			// not counted
			continue
		}
		h.Throws++
	}
	for i := len(throws) - 1; i >= 0; i-- {
		if v := throws[i].View; v != nil {
			if v.Glare {
				h.Advice = append(h.Advice, adviceGlare)
			}
			if v.Small {
				h.Advice = append(h.Advice, adviceLower)
			}
			break
		}
	}
	if poorReads(h) {
		if calibrated {
			h.Advice = append(h.Advice, adviceCheck)
		} else {
			h.Advice = append(h.Advice, adviceCalibrate)
		}
	}
	return h
}

// health is the floor's summary of the table's dice camera.
func (l *diceLog) health() *cafe.DiceHealth {
	l.mu.Lock()
	defer l.mu.Unlock()
	return diceHealth(l.throws, l.calibration != nil && len(l.calibration.Faces) > 0)
}
