package vision

import (
	"errors"
	"math"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

// TestNumeralAxisInk checks what numeralAxis says of a top face: its
// grey level and how much of it is ink, and so whether the face is blank
// (washed out, no numeral: numeralCut.blank).
func TestNumeralAxisInk(t *testing.T) {
	const n = CropSize
	radius := float64(n) / 2 / 1.5
	// face: a crop of grey level g, with a bar of grey level ink across
	// its middle (a numeral "1"), jittered by ±noise
	face := func(g, ink, noise int) []byte {
		b := make([]byte, n*n)
		for y := range n {
			for x := range n {
				v := g
				if ink >= 0 && x >= n/2-1 && x <= n/2+1 && y >= n/2-6 && y <= n/2+6 {
					v = ink
				}
				v += (x*7+y*13)%(2*noise+1) - noise
				b[y*n+x] = byte(min(max(v, 0), 255))
			}
		}
		return b
	}
	for _, tc := range []struct {
		name  string
		crop  []byte
		blank bool
	}{
		{"a washed-out face, nothing on it", face(240, -1, 0), true},
		{"a washed-out face, sensor noise", face(235, -1, 5), true},
		{"a washed-out face, its white numeral washed out with it", face(242, 254, 3), true},
		{"a pale face, a numeral darker than it", face(230, 180, 3), false},
		{"a pale face, a white numeral standing out", face(205, 250, 3), false},
		{"a dark face, a black numeral hardly darker (read, not refused)", face(60, 50, 3), false},
		{"a dark face, nothing on it", face(60, -1, 0), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, _, g, ink, _ := numeralAxis(tc.crop, n, radius)
			c := numeralCut{face: g, ink: ink}
			if c.blank() != tc.blank {
				t.Errorf("face %.0f, ink %.3f: blank %v, want %v", g, ink, c.blank(), tc.blank)
			}
			if math.IsNaN(ink) || ink < 0 || ink > 1 {
				t.Errorf("ink %v, want a share", ink)
			}
		})
	}
}

// TestBlankFaceRefused checks that a die whose top face a lamp washes out
// is refused as such, not read: the held-out table 6 of wide-tables
// (NotoSerif-Bold, white numerals on translucent red, a harsh neutral
// lamp), whose red dice the reader read as 1s at 100% before the check
// (a 6 and two 2s), and a throw of val-harsh whose red 7 is as blank.
func TestBlankFaceRefused(t *testing.T) {
	checkLeaks(t)
	c, err := NewCombined(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, file := range []string{"testdata/wide-tables/00232.jpg", "testdata/wide-tables/00235.jpg", "testdata/wide-tables/00248.jpg", "testdata/val-harsh/00234.jpg"} {
		t.Run(file, func(t *testing.T) {
			m, err := readPicture(file)
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			r := c.Read(m)
			if r.Red.Face != 0 || r.Red.Why.Code != WhyBlankFace {
				t.Errorf("red die: face %d (%v), want refused: %v", r.Red.Face, r.Red.Why, Why{Code: WhyBlankFace})
			}
			if !strings.Contains(r.Red.Why.EN(), "lamp") || !strings.Contains(r.Red.Why.FR(), "lampe") {
				t.Errorf("red die: %q / %q should say to move the lamp", r.Red.Why.EN(), r.Red.Why.FR())
			}
		})
	}
}

// TestCalibrationRefusesBlankFace checks that a calibration does not
// learn a face it cannot see (its crop would teach the face an edge of
// the die), and says to move the lamp: val-harsh's table 5, whose blue
// die's 1 a cool harsh lamp washes out; and its throw 00234, whose red 7
// is as blank (the blue die of that throw is learned).
func TestCalibrationRefusesBlankFace(t *testing.T) {
	checkLeaks(t)
	k, err := NewNetCalibrator(DefaultNetOpts)
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	read := func(file string) gocv.Mat {
		m, err := readPicture(file)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	m := read("testdata/val-harsh/00216.jpg")
	defer m.Close()
	err = k.Add(m, "blue", 1)
	var ce *CalibrationError
	if !errors.As(err, &ce) || ce.Why.Code != WhyBlankFace || !errors.Is(err, ErrCalibration) {
		t.Fatalf("blue face 1 washed out: %v, want a CalibrationError %v", err, Why{Code: WhyBlankFace})
	}
	if got := k.Missing("blue"); len(got) != 8 {
		t.Errorf("faces of the blue die still to show: %v, want all eight", got)
	}
	th := read("testdata/val-harsh/00234.jpg")
	defer th.Close()
	err = k.AddThrow(th, 3, 7)
	var te *ThrowError
	if !errors.As(err, &te) || len(te.Refused) != 1 || te.Refused[0].Die != "red" || te.Refused[0].Why.Code != WhyBlankFace {
		t.Fatalf("throw blue 3, red 7 (washed out): %v, want the red die refused as %v", err, Why{Code: WhyBlankFace})
	}
	if len(te.Learned) != 1 || te.Learned[0] != "blue" {
		t.Errorf("learned %v of the throw, want the blue die", te.Learned)
	}
}
