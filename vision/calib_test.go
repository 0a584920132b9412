package vision

import (
	"errors"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"gocv.io/x/gocv"
)

// renderedFonts maps each render to the font of its dice (details.csv).
func renderedFonts(t testing.TB) map[string]string {
	t.Helper()
	recs := readLabelsCSV(t, "testdata/rendered/details.csv", []string{"file", "die", "face"})
	out := map[string]string{}
	for _, rec := range recs {
		if len(rec) > 8 {
			out[filepath.Join("testdata/rendered", rec[0])] = rec[8]
		}
	}
	return out
}

// calibrationShots maps "path die" of the renders whose die lies towards
// the middle of the picture (its box's centre at least a sixth of the
// picture from its borders), with no blur or noise: where comptoir
// calibrate asks a player to show each face.
func calibrationShots(t testing.TB) map[string]bool {
	t.Helper()
	recs := readLabelsCSV(t, "testdata/rendered/details.csv", []string{"file", "die", "face", "x0", "y0", "x1", "y1"})
	out := map[string]bool{}
	for _, rec := range recs {
		var b [4]int
		for i := range b {
			b[i], _ = strconv.Atoi(rec[3+i])
		}
		cx, cy := (b[0]+b[2])/2, (b[1]+b[3])/2
		if cx > 100 && cx < 540 && cy > 75 && cy < 405 && len(rec) > 13 && rec[13] == "" {
			out[filepath.Join("testdata/rendered", rec[0])+" "+rec[1]] = true
		}
	}
	return out
}

// TestCalibrationRendered calibrates on one picture per face of each die,
// all of one font (one set of dice), from the even-numbered renders with
// the die in the middle of the picture, then reads the odd-numbered
// renders of that font with the calibration alone.
func TestCalibrationRendered(t *testing.T) {
	checkLeaks(t)
	fonts := renderedFonts(t)
	shots := calibrationShots(t)
	const font = "timrom.ttf"
	c, err := NewCalibration(DefaultReaderOpts)
	if err != nil {
		t.Fatal(err)
	}
	for _, li := range renderedSet(t, 0) {
		if fonts[li.Path] != font {
			continue
		}
		for _, die := range []string{"blue", "red"} {
			face := li.Faces[die]
			if face == 0 || !contains(c.Missing(die), face) || !shots[li.Path+" "+die] {
				continue
			}
			m := gocv.IMRead(li.Path, gocv.IMReadColor)
			if err := c.Add(m, die, face); err != nil {
				t.Logf("%s: %v", li.Path, err)
			}
			m.Close()
		}
	}
	for _, die := range []string{"blue", "red"} {
		if miss := c.Missing(die); len(miss) > 0 {
			t.Fatalf("%s die: no clear even-numbered render of faces %v in %s", die, miss, font)
		}
	}
	model, err := c.Model()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "calibration.json")
	if err := SaveCalibration(path, []string{"blue", "red"}, model, time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	loaded, err := LoadCalibration(path)
	if err != nil {
		t.Fatal(err)
	}
	o := DefaultReaderOpts
	o.Model = &loaded
	r, err := NewReader(o)
	if err != nil {
		t.Fatal(err)
	}
	var held []LabelledImage
	for _, li := range renderedSet(t, 1) {
		if fonts[li.Path] == font {
			held = append(held, li)
		}
	}
	s := scoreSet(t, r, held)
	t.Logf("calibrated on 16 pictures, read %d held-out renders in %s: %v", len(held), font, s)
	if s.Accuracy() < calibratedMinAccuracy || s.WrongRate() > calibratedMaxWrong {
		t.Errorf("calibrated reading: %v; want accuracy >= %.0f%% and wrong <= %.1f%%", s, 100*calibratedMinAccuracy, 100*calibratedMaxWrong)
	}
}

const (
	calibratedMinAccuracy = 0.93
	calibratedMaxWrong    = 0.01
)

func contains(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func TestCalibrationErrors(t *testing.T) {
	checkLeaks(t)
	c, err := NewCalibration(DefaultReaderOpts)
	if err != nil {
		t.Fatal(err)
	}
	blank := gocv.NewMatWithSize(480, 640, gocv.MatTypeCV8UC3)
	defer blank.Close()
	for _, tc := range []struct {
		die  string
		face int
	}{{"blue", 0}, {"blue", 9}, {"green", 1}, {"blue", 1}, {"die", 3}} {
		if err := c.Add(blank, tc.die, tc.face); !errors.Is(err, ErrCalibration) {
			t.Errorf("Add(blank, %s, %d) = %v, want ErrCalibration", tc.die, tc.face, err)
		}
	}
	if _, err := c.Model(); !errors.Is(err, ErrCalibration) {
		t.Errorf("Model() with nothing shown = %v, want ErrCalibration", err)
	}
	for _, data := range []string{"", "{", `{"model":{}}`, `{"model":{"grid":20,"span":4.2,"rotations":36,"templates":[{"face":9,"pix":""}]}}`} {
		if _, err := DecodeCalibration([]byte(data)); !errors.Is(err, ErrBadModel) {
			t.Errorf("DecodeCalibration(%q) = %v, want ErrBadModel", data, err)
		}
	}
}

func FuzzDecodeCalibration(f *testing.F) {
	f.Add([]byte(`{"made":"2026-01-01T00:00:00Z","dice":["blue"],"model":{"grid":20,"span":4.2,"rotations":36,"templates":[]}}`))
	f.Add(builtinJSON)
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodeCalibration(data)
		if err != nil {
			return
		}
		if _, err := NewReader(ReaderOpts{Model: &m, MinConfidence: 0.5, Blue: DefaultReaderOpts.Blue, Red: DefaultReaderOpts.Red}); err != nil {
			t.Fatalf("a decoded calibration makes no reader: %v", err)
		}
	})
}

func FuzzDecodeModel(f *testing.F) {
	f.Add(builtinJSON)
	f.Add([]byte(`{"grid":20,"span":4.2,"rotations":4,"templates":[{"face":1,"pix":""}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodeModel(data)
		if err != nil {
			return
		}
		if len(m.Faces()) == 0 {
			t.Fatal("a decoded model has no faces")
		}
	})
}

// TestCalibrationAddFrom learns from the fifth frame of a source, as
// comptoir calibrate does from a camera, and says why when the source runs
// dry.
func TestCalibrationAddFrom(t *testing.T) {
	checkLeaks(t)
	c, err := NewCalibration(DefaultReaderOpts)
	if err != nil {
		t.Fatal(err)
	}
	src, err := OpenDir("testdata/real") // d8_top012.jpg, the fifth, shows 7
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if err := c.AddFrom(src, "die", 7); err != nil {
		t.Fatalf("AddFrom: %v", err)
	}
	if m := c.Missing("die"); len(m) != 7 {
		t.Errorf("missing faces %v after learning 7, want the 7 others", m)
	}
	m := gocv.NewMat()
	for src.Read(&m) {
	}
	m.Close()
	err = c.AddFrom(src, "die", 3)
	if err == nil || errors.Is(err, ErrCalibration) {
		t.Errorf("AddFrom a source at its end = %v, want an error that is not ErrCalibration", err)
	}
}
