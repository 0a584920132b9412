package vision

import (
	"errors"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

// sameColourFrames are throws of the accuracy set with one die's colour
// turned into the other's (testdata/same-colour/README.md): a set of two
// blue dice, and one of two red dice. missing is the colour no die has
// any more; origin is the throw each was made from.
var sameColourFrames = []struct {
	file, origin, missing string
	blue, red             int
}{
	{"testdata/same-colour/two-blue.jpg", "testdata/rendered/0000.jpg", "red", 8, 6},
	{"testdata/same-colour/two-red.jpg", "testdata/rendered/0001.jpg", "blue", 1, 7},
}

func dieOf(r Roll, colour string) Die {
	if colour == "red" {
		return r.Red
	}
	return r.Blue
}

// TestSameColourSaid: the die of a colour no die has, when two dice of
// the other colour are in the picture, is refused saying to play with a
// die of each colour (the issue asks the reader to say "two dice of the
// same colour", not "not found: more light"), by the learned reader and
// by the combined one; the throws they were made from are read right,
// and a die missing beside a single die of the other colour is still
// "not found".
func TestSameColourSaid(t *testing.T) {
	checkLeaks(t)
	n := netReader(t, DefaultNetOpts)
	c := combinedReader(t)
	for _, tc := range sameColourFrames {
		t.Run(tc.file, func(t *testing.T) {
			o := gocv.IMRead(tc.origin, gocv.IMReadColor)
			defer o.Close()
			if r := c.Read(o); r.Blue.Face != tc.blue || r.Red.Face != tc.red {
				t.Fatalf("the throw it was made from reads blue %d, red %d (%v, %v); want %d and %d: the case tests nothing", r.Blue.Face, r.Red.Face, r.Blue.Why, r.Red.Why, tc.blue, tc.red)
			}
			m := gocv.IMRead(tc.file, gocv.IMReadColor)
			defer m.Close()
			for name, r := range map[string]Roll{"learned": n.Read(m), "combined": c.Read(m)} {
				if d := dieOf(r, tc.missing); d.Face != 0 || d.Why.Code != WhySameColour {
					t.Errorf("%s reader, %s die: face %d (%v), want refused: %v", name, tc.missing, d.Face, d.Why.EN(), Why{Code: WhySameColour}.EN())
				}
			}
		})
	}
	t.Run("one die", func(t *testing.T) {
		m := gocv.IMRead("testdata/rendered-single/0001.jpg", gocv.IMReadColor)
		defer m.Close()
		r := c.Read(m)
		if r.Blue.Face != 5 || r.Red.Found || r.Red.Why.Code != WhyNotFound {
			t.Errorf("a blue die alone: blue %d, red %v (%v), want blue 5 and red not found", r.Blue.Face, r.Red.Found, r.Red.Why.EN())
		}
	})
	if en, fr := (Why{Code: WhySameColour}).EN(), (Why{Code: WhySameColour}).FR(); !strings.Contains(en, "one blue and one red") || !strings.Contains(fr, "un d8 bleu et un d8 rouge") {
		t.Errorf("the refusal says %q / %q, want it to name the set to play with", en, fr)
	}
}

// TestSameColourCalibration: calibration told to learn the die of a
// colour no die has, beside two dice of the other colour, refuses,
// saying to play with one die of each colour (not to show the die alone,
// nor to give more light), from a picture and from a throw.
func TestSameColourCalibration(t *testing.T) {
	checkLeaks(t)
	for _, tc := range sameColourFrames {
		t.Run(tc.file, func(t *testing.T) {
			k, err := NewNetCalibrator(DefaultNetOpts)
			if err != nil {
				t.Fatal(err)
			}
			defer k.Close()
			m := gocv.IMRead(tc.file, gocv.IMReadColor)
			defer m.Close()
			face := tc.blue
			if tc.missing == "red" {
				face = tc.red
			}
			err = k.Add(m, tc.missing, face)
			var ce *CalibrationError
			if !errors.As(err, &ce) || ce.Why.Code != WhySameColour {
				t.Fatalf("Add(%s %d): %v, want a CalibrationError: %v", tc.missing, face, err, Why{Code: WhySameColour}.EN())
			}
			if !errors.Is(err, ErrCalibration) || strings.Contains(ce.EN(), "alone") || strings.Contains(ce.FR(), "seul") {
				t.Errorf("Add(%s %d): %q / %q, want ErrCalibration, without \"show the die alone\"", tc.missing, face, ce.EN(), ce.FR())
			}
			err = k.AddThrow(m, tc.blue, tc.red)
			var te *ThrowError
			if !errors.As(err, &te) {
				t.Fatalf("AddThrow: %v, want a ThrowError", err)
			}
			said := false
			for _, ce := range te.Refused {
				said = said || ce.Die == tc.missing && ce.Why.Code == WhySameColour
			}
			if !said {
				t.Errorf("AddThrow: %v, want the %s die refused: %v", err, tc.missing, Why{Code: WhySameColour}.EN())
			}
		})
	}
}
