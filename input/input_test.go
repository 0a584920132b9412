package input

import (
	"encoding/json"
	"testing"
)

// TestDiceUnreadableReasonIn checks the reason is said in the viewer's
// language, in English when the reader gave no French.
func TestDiceUnreadableReasonIn(t *testing.T) {
	both := DiceUnreadable{Reason: "red die: touching the other die", ReasonFR: "dé rouge : touche l'autre dé"}
	old := DiceUnreadable{Reason: "red die cocked"}
	for _, tc := range []struct {
		e    DiceUnreadable
		lang string
		want string
	}{
		{both, "fr", both.ReasonFR},
		{both, "en", both.Reason},
		{both, "", both.Reason},
		{old, "fr", old.Reason},
		{old, "en", old.Reason},
	} {
		if got := tc.e.ReasonIn(tc.lang); got != tc.want {
			t.Errorf("%#v.ReasonIn(%q) = %q, want %q", tc.e, tc.lang, got, tc.want)
		}
	}
}

// TestDiceReadingJSON checks a reading keeps its reasons in both languages
// as JSON, and that a reading without the French one (an older reader)
// still decodes.
func TestDiceReadingJSON(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     DiceReading
	}{
		{"english only", `{"t":"0001-01-01T00:00:00Z","blue":{"face":3,"confidence":0.9,"found":true},"red":{"face":0,"confidence":0.2,"found":true,"reason":"cocked"},"reason":"red die: cocked"}`,
			DiceReading{Blue: DieReading{Face: 3, Confidence: 0.9, Found: true}, Red: DieReading{Confidence: 0.2, Found: true, Reason: "cocked"}, Reason: "red die: cocked"}},
		{"both", `{"t":"0001-01-01T00:00:00Z","blue":{"face":3,"confidence":0.9,"found":true},"red":{"face":0,"confidence":0.2,"found":true,"reason":"cocked","reason_fr":"penché"},"reason":"red die: cocked","reason_fr":"dé rouge : penché"}`,
			DiceReading{Blue: DieReading{Face: 3, Confidence: 0.9, Found: true}, Red: DieReading{Confidence: 0.2, Found: true, Reason: "cocked", ReasonFR: "penché"}, Reason: "red die: cocked", ReasonFR: "dé rouge : penché"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got DiceReading
			if err := json.Unmarshal([]byte(tc.in), &got); err != nil || got != tc.want {
				t.Fatalf("Unmarshal(%s) = %#v, %v, want %#v", tc.in, got, err, tc.want)
			}
			b, err := json.Marshal(got)
			if err != nil || string(b) != tc.in {
				t.Errorf("Marshal(%#v) = %s, %v, want %s", got, b, err, tc.in)
			}
		})
	}
}
