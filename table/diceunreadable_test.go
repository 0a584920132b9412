package table

import (
	"strings"
	"testing"

	"comptoir/input"
)

// TestDiceUnreadableReason checks the refusal of an unreadable roll says
// the reader's reason in each language: the French one to French
// readers, the English one to English readers, and the English one to
// both when the reader said it in English only (an old recording).
func TestDiceUnreadableReason(t *testing.T) {
	checkLeaks(t)
	for _, tc := range []struct {
		name   string
		ev     input.DiceUnreadable
		en, fr string
	}{
		{"both languages", input.DiceUnreadable{Reason: "red die: touching the other die: move them apart", ReasonFR: "dé rouge : touche l'autre dé : écartez-les"},
			"the dice could not be read (red die: touching the other die: move them apart): look again, roll again or enter the roll",
			"les dés n'ont pas pu être lus (dé rouge : touche l'autre dé : écartez-les) : regardez à nouveau, relancez ou saisissez le tirage"},
		{"english only", input.DiceUnreadable{Reason: "red die cocked"},
			"the dice could not be read (red die cocked): look again, roll again or enter the roll",
			"les dés n'ont pas pu être lus (red die cocked) : regardez à nouveau, relancez ou saisissez le tirage"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, "")
			tc.ev.At = r.clock.Now()
			r.input(tc.ev)
			u := r.latest()
			if u.Refusal == nil || u.Refusal.Code != ErrDiceUnreadable.Code {
				t.Fatalf("refusal %+v, want %s", u.Refusal, ErrDiceUnreadable.Code)
			}
			if u.Refusal.EN != tc.en || u.Refusal.FR != tc.fr {
				t.Errorf("refusal EN %q, FR %q; want %q, %q", u.Refusal.EN, u.Refusal.FR, tc.en, tc.fr)
			}
			if tc.ev.ReasonFR != "" && strings.Contains(u.Refusal.EN, tc.ev.ReasonFR) {
				t.Errorf("refusal EN %q says the French reason", u.Refusal.EN)
			}
		})
	}
}
