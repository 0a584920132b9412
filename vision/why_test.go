package vision

import (
	"errors"
	"fmt"
	"image"
	"strings"
	"testing"
)

// TestWhyTexts checks every reason code says something in both
// languages, not the same thing, and not what another code says, with
// every number it names in both.
func TestWhyTexts(t *testing.T) {
	seenEN, seenFR := map[string]WhyCode{}, map[string]WhyCode{}
	for c := WhyNone + 1; c < numWhyCodes; c++ {
		w := Why{Code: c, Face: 7, Other: 2, Pct: 63, Detail: "detail"}
		t.Run(w.EN(), func(t *testing.T) {
			en, fr := w.EN(), w.FR()
			if en == "" || fr == "" {
				t.Fatalf("Why{Code: %d}: EN %q, FR %q, want both said", c, en, fr)
			}
			if en == fr {
				t.Errorf("Why{Code: %d}: EN = FR = %q, want French in FR", c, en)
			}
			for _, s := range []string{en, fr} {
				if strings.Contains(s, "%!") {
					t.Errorf("Why{Code: %d}: %q has a bad format", c, s)
				}
				// what is wrong, then what to do
				if !strings.Contains(s, ":") && !strings.Contains(s, "?") {
					t.Errorf("Why{Code: %d}: %q does not say what to do", c, s)
				}
			}
			// a number the English names, the French names too
			for _, n := range []string{"7", "2", "63", "detail"} {
				if strings.Contains(en, n) != strings.Contains(fr, n) {
					t.Errorf("Why{Code: %d}: %q and %q do not both name %s", c, en, fr, n)
				}
			}
			if o, ok := seenEN[en]; ok {
				t.Errorf("Why{Code: %d}: EN %q is also code %d's", c, en, o)
			}
			if o, ok := seenFR[fr]; ok {
				t.Errorf("Why{Code: %d}: FR %q is also code %d's", c, fr, o)
			}
			seenEN[en], seenFR[fr] = c, c
		})
	}
	for _, w := range []Why{{}, {Code: numWhyCodes}, {Code: -1}} {
		if w.EN() != "" || w.FR() != "" {
			t.Errorf("Why{Code: %d}: EN %q, FR %q, want none", w.Code, w.EN(), w.FR())
		}
	}
}

// TestWhyNames: every code has a short name of its own.
func TestWhyNames(t *testing.T) {
	seen := map[string]WhyCode{}
	for c := WhyNone; c < numWhyCodes; c++ {
		n := c.Name()
		if n == "" || strings.HasPrefix(n, "WhyCode(") {
			t.Errorf("code %d: no name", c)
		}
		if o, ok := seen[n]; ok {
			t.Errorf("code %d: name %q is also code %d's", c, n, o)
		}
		seen[n] = c
	}
	for _, c := range []WhyCode{-1, numWhyCodes} {
		if n := c.Name(); n != fmt.Sprintf("WhyCode(%d)", int(c)) {
			t.Errorf("code %d: name %q", c, n)
		}
	}
}

// TestDieReason checks Die.Reason is Why in English.
func TestDieReason(t *testing.T) {
	for _, tc := range []struct {
		d    Die
		want string
	}{
		{Die{Face: 3, Confidence: 0.99, Found: true}, ""},
		{Die{Found: true, Why: Why{Code: WhyTouching}}, "touching the other die: move them apart"},
		{Die{Found: true, Confidence: 0.634, Why: Why{Code: WhyUnsure, Pct: pct(0.634)}}, "numeral unclear (63% sure): look again, or give more light"},
	} {
		if got := tc.d.Reason(); got != tc.want {
			t.Errorf("%+v.Reason() = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// TestRollUnread checks why a roll is not read, die by die, in both
// languages.
func TestRollUnread(t *testing.T) {
	read := Die{Face: 4, Confidence: 0.95, Found: true}
	for _, tc := range []struct {
		name     string
		r        Roll
		minConf  float64
		en, fr   string
		readable bool
	}{
		{"both read", Roll{Blue: read, Red: read}, 0.9, "", "", true},
		{"red not found, no reason", Roll{Blue: read, Red: Die{}}, 0.9,
			"red die: " + Why{Code: WhyNotFound}.EN(), "dé rouge : " + Why{Code: WhyNotFound}.FR(), false},
		{"blue touching, red at the edge", Roll{Blue: Die{Found: true, Why: Why{Code: WhyTouching}}, Red: Die{Found: true, Why: Why{Code: WhyEdge}}}, 0.9,
			"blue die: touching the other die: move them apart; red die: " + Why{Code: WhyEdge}.EN(),
			"dé bleu : touche l'autre dé : écartez-les ; dé rouge : " + Why{Code: WhyEdge}.FR(), false},
		{"read, but under the settler's confidence", Roll{Blue: Die{Face: 2, Confidence: 0.8, Found: true}, Red: read}, 0.9,
			"blue die: numeral unclear (80% sure): look again, or give more light",
			"dé bleu : chiffre peu net (sûr à 80 %) : regardez à nouveau, ou donnez plus de lumière", false},
		{"unread without a reason", Roll{Blue: read, Red: Die{Found: true, Confidence: 0.42}}, 0.5,
			"red die: " + Why{Code: WhyUnsure, Pct: 42}.EN(), "dé rouge : " + Why{Code: WhyUnsure, Pct: 42}.FR(), false},
		{"a bad frame says its error in both", Roll{Blue: Die{Why: badFrame(ErrBadFrame)}, Red: read}, 0.9,
			"blue die: the picture cannot be read (bad frame): check the camera and its cable",
			"dé bleu : l'image est illisible (bad frame) : vérifiez la caméra et son câble", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			en, fr := tc.r.Unread(tc.minConf)
			if en != tc.en || fr != tc.fr {
				t.Errorf("Unread(%g) = %q, %q, want %q, %q", tc.minConf, en, fr, tc.en, tc.fr)
			}
		})
	}
}

// TestCalibrationError checks a refused calibration picture says which
// die and face, why and what to do, in both languages, and is an
// ErrCalibration.
func TestCalibrationError(t *testing.T) {
	for _, tc := range []struct {
		e      *CalibrationError
		en, fr string
	}{
		{&CalibrationError{Die: "blue", Face: 3, Why: Why{Code: WhyNoCrop}},
			"calibration: blue face 3: " + Why{Code: WhyNoCrop}.EN() + "; show the die alone, face up, in the middle of the tray",
			"dé bleu, face 3 : " + Why{Code: WhyNoCrop}.FR() + " ; montrez le dé seul, face en haut, au milieu du plateau"},
		{&CalibrationError{Die: "die", Face: 6, Why: Why{Code: WhyOtherFace, Face: 9 - 6, Other: 6}},
			"calibration: die face 6: the reader sees a 3 on top: is face 6 up, alone in the tray?",
			"dé, face 6 : le lecteur voit un 3 dessus : la face 6 est-elle en haut, seule dans le plateau ?"},
	} {
		var err error = tc.e
		if !errors.Is(err, ErrCalibration) {
			t.Errorf("%v is not ErrCalibration", err)
		}
		if err.Error() != tc.en || tc.e.FR() != tc.fr {
			t.Errorf("CalibrationError = %q, %q, want %q, %q", err.Error(), tc.e.FR(), tc.en, tc.fr)
		}
	}
}

// TestMergeReasons checks the combined reader's verdict on one die and
// its reason: the learned reader does not overrule a die refused for
// what it is (touching, at the edge, tilted, two objects), but does one
// refused for its numeral, and one refused as tilted (touching) when
// the pose network is at least FlatOverTilt (FlatOverTouching) sure it
// lies flat; two readers that disagree refuse, saying so.
func TestMergeReasons(t *testing.T) {
	netRead := Die{Face: 5, Confidence: 0.99, Found: true}
	netFlat := Die{Face: 5, Confidence: 0.99, Found: true, Flat: 0.95}
	netUnsure := Die{Found: true, Guess: 6, Confidence: 0.7, Why: Why{Code: WhyUnsure, Pct: 70}}
	tilted := Die{Found: true, Why: Why{Code: WhyTilted, Face: 5}}
	washed := Die{Found: true, Flat: 0.99, Why: Why{Code: WhyWashedOut, Face: 7, Other: 4}}
	// read, 99.5% flat, its numeral where this camera shows a flat die's
	netOnField := Die{Face: 5, Confidence: 0.99, Found: true, Flat: 0.995, onField: true}
	notFlatHere := Die{Found: true, Why: Why{Code: WhyNotFlatHere}}
	at := image.Rect(100, 100, 160, 160)
	blank := Die{Found: true, Box: at, Why: Why{Code: WhyBlankFace}}
	cockedAt := Die{Found: true, Box: at, Why: Why{Code: WhyCocked, Pct: 88}}
	washedAt := washed
	washedAt.Box = at
	notFlatHereAt := Die{Found: true, Box: at, Why: Why{Code: WhyNotFlatHere}}
	for _, tc := range []struct {
		name                   string
		h, n                   Die
		overTilt, overTouching float64
		face                   int
		why                    Why
	}{
		{"tilted, the pose network sure it lies flat: the classifier reads", tilted, netFlat, 0.9, 0, 5, Why{}},
		{"tilted, the pose network less sure than FlatOverTilt", tilted, netFlat, 0.96, 0, 0, tilted.Why},
		{"tilted, no overrule asked", tilted, netFlat, 0, 0, 0, tilted.Why},
		{"tilted, its numeral where a flat die's lies: the classifier reads", tilted, netOnField, 0, 0, 5, Why{}},
		{"tilted, its numeral where a flat die's lies, the pose network less sure than FieldFlatOverTilt", tilted, Die{Face: 5, Confidence: 0.99, Found: true, Flat: 0.98, onField: true}, 0, 0, 0, tilted.Why},
		{"tilted, its numeral elsewhere", tilted, Die{Face: 5, Confidence: 0.99, Found: true, Flat: 0.995}, 0, 0, 0, tilted.Why},
		{"touching, its numeral where a flat die's lies: still refused", Die{Found: true, Why: Why{Code: WhyTouching}}, netOnField, 0, 0, 0, Why{Code: WhyTouching}},
		{"not where this camera shows a flat die's numeral: refused whatever the hand-tuned reader reads", Die{Face: 5, Confidence: 0.95, Found: true}, notFlatHere, 0, 0, 0, notFlatHere.Why},
		{"tilted, the pose network did not run", tilted, netRead, 0.5, 0.5, 0, tilted.Why},
		{"tilted, the classifier unsure", tilted, Die{Found: true, Guess: 5, Confidence: 0.7, Why: Why{Code: WhyUnsure, Pct: 70}, Flat: 0.99}, 0.5, 0.5, 0, tilted.Why},
		{"touching, overruled for a tilt only", Die{Found: true, Why: Why{Code: WhyTouching}}, netFlat, 0.5, 0, 0, Why{Code: WhyTouching}},
		{"touching, the pose network sure it lies flat: the classifier reads", Die{Found: true, Why: Why{Code: WhyTouching}}, netFlat, 0, 0.9, 5, Why{}},
		{"touching, the pose network less sure than FlatOverTouching", Die{Found: true, Why: Why{Code: WhyTouching}}, netFlat, 0.5, 0.96, 0, Why{Code: WhyTouching}},
		{"at the edge stays refused, however flat", Die{Found: true, Why: Why{Code: WhyEdge}}, netFlat, 0.5, 0.5, 0, Why{Code: WhyEdge}},
		{"touching stays refused", Die{Found: true, Why: Why{Code: WhyTouching}}, netRead, 0, 0, 0, Why{Code: WhyTouching}},
		{"at the edge stays refused", Die{Found: true, Why: Why{Code: WhyEdge}}, netRead, 0, 0, 0, Why{Code: WhyEdge}},
		{"tilted stays refused", tilted, netRead, 0, 0, 0, tilted.Why},
		{"two objects stay refused", Die{Found: true, Why: Why{Code: WhyTwoObjects, Face: 5, Other: 2}}, netRead, 0, 0, 0, Why{Code: WhyTwoObjects, Face: 5, Other: 2}},
		{"an unclear numeral is read by the classifier", Die{Found: true, Why: Why{Code: WhyLooksLike, Face: 5, Other: 6}}, netRead, 0, 0, 5, Why{}},
		{"the readers disagree", Die{Face: 3, Confidence: 0.95, Found: true}, netRead, 0, 0, 0, Why{Code: WhyReadersDisagree, Face: 3, Other: 5}},
		{"the classifier vetoes", Die{Face: 3, Confidence: 0.95, Found: true}, netUnsure, 0, 0, 0, Why{Code: WhyVetoed, Face: 3, Other: 6, Pct: 70}},
		{"neither reads: the hand-tuned reader's reason", Die{Found: true, Why: Why{Code: WhyNoNumeral}}, netUnsure, 0, 0, 0, Why{Code: WhyNoNumeral}},
		{"neither reads, no hand-tuned reason: the classifier's", Die{Found: true}, netUnsure, 0, 0, 0, netUnsure.Why},
		{"washed out: refused whatever the hand-tuned reader reads", Die{Face: 7, Confidence: 0.95, Found: true}, washed, 0, 0, 0, washed.Why},
		{"washed out, the hand-tuned reader refused", tilted, washed, 0.5, 0.5, 0, washed.Why},
		{"a blank top face: refused whatever the hand-tuned reader reads there", Die{Face: 1, Confidence: 0.95, Found: true, Box: image.Rect(110, 105, 170, 165)}, blank, 0, 0, 0, blank.Why},
		{"a blank top face, the hand-tuned reader found no box", Die{Face: 1, Confidence: 0.95, Found: true}, blank, 0, 0, 0, blank.Why},
		{"a blank face elsewhere says nothing of the die the hand-tuned reader read", Die{Face: 2, Confidence: 0.95, Found: true, Box: image.Rect(300, 300, 360, 360)}, blank, 0, 0, 2, Why{}},
		{"cocked: refused whatever the hand-tuned reader reads of the same die", Die{Face: 4, Confidence: 0.95, Found: true, Box: image.Rect(110, 105, 170, 165)}, cockedAt, 0, 0, 0, cockedAt.Why},
		{"cocked, the hand-tuned reader found no box", Die{Face: 4, Confidence: 0.95, Found: true}, cockedAt, 0, 0, 0, cockedAt.Why},
		{"a cocked blob elsewhere says nothing of the die the hand-tuned reader read", Die{Face: 4, Confidence: 0.95, Found: true, Box: image.Rect(300, 300, 360, 360)}, cockedAt, 0, 0, 4, Why{}},
		{"washed out elsewhere", Die{Face: 7, Confidence: 0.95, Found: true, Box: image.Rect(300, 300, 360, 360)}, washedAt, 0, 0, 7, Why{}},
		{"not where a flat die's numeral lies, elsewhere", Die{Face: 5, Confidence: 0.95, Found: true, Box: image.Rect(300, 300, 360, 360)}, notFlatHereAt, 0, 0, 5, Why{}},
		{"not where a flat die's numeral lies, the same die", Die{Face: 5, Confidence: 0.95, Found: true, Box: image.Rect(120, 120, 170, 170)}, notFlatHereAt, 0, 0, 0, notFlatHereAt.Why},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := merge(tc.h, tc.n, overrule{tilt: tc.overTilt, touching: tc.overTouching})
			if got.Face != tc.face || got.Why != tc.why {
				t.Errorf("merge(%+v, %+v) = face %d, %+v; want face %d, %+v", tc.h, tc.n, got.Face, got.Why, tc.face, tc.why)
			}
		})
	}
}
