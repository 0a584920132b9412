package vision

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gocv.io/x/gocv"
)

// fieldSamples draws n flat dice over the frame whose numerals lie at
// the field c, with a scatter of sd (die widths) each way.
func fieldSamples(rng *rand.Rand, n int, c [3][2]float64, sd float64) []flatSample {
	var s []flatSample
	for range n {
		x, y := rng.Float64()-0.5, (rng.Float64()-0.5)*0.75
		s = append(s, flatSample{
			X: x, Y: y,
			OX: c[0][0] + c[1][0]*x + c[2][0]*y + rng.NormFloat64()*sd,
			OY: c[0][1] + c[1][1]*x + c[2][1]*y + rng.NormFloat64()*sd,
		})
	}
	return s
}

// TestFitFlatField: the field of a leaning camera is found again from
// 16 flat dice, a numeral that lies off it by several times the dice's
// scatter strays, and too few dice give no field.
func TestFitFlatField(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	// a camera leaning towards +x: numerals off centre by 0.1 die widths
	// a frame width from the point below the lens
	lean := [3][2]float64{{-0.03, 0.01}, {0.1, 0}, {0, 0.1}}
	// the fit itself: with little scatter, the field is found again
	sharp, ok := fitFlatField(fieldSamples(rng, 48, lean, 0.002))
	if !ok {
		t.Fatal("no field from 48 dice")
	}
	for i := range 3 {
		for k := range 2 {
			if d := math.Abs(sharp.C[i][k] - lean[i][k]); d > 0.005 {
				t.Errorf("C[%d][%d] = %.4f, want %.4f", i, k, sharp.C[i][k], lean[i][k])
			}
		}
	}
	s := fieldSamples(rng, 16, lean, 0.02)
	f, ok := fitFlatField(s)
	if !ok {
		t.Fatal("no field from 16 dice")
	}
	if f.RMS < 0.015 || f.RMS > 0.05 {
		t.Errorf("scatter %.3f, want about 0.028 (0.02 each way)", f.RMS)
	}
	for _, tc := range []struct {
		name   string
		off    float64 // from the field, die widths
		refuse bool
	}{
		{"on the field", 0, false},
		{"off by the scatter", 0.03, false},
		{"off like a cocked die", 0.15, true},
	} {
		p := flatSample{X: 0.3, Y: -0.2}
		p.OX = lean[0][0] + lean[1][0]*p.X + lean[2][0]*p.Y + tc.off
		p.OY = lean[0][1] + lean[1][1]*p.X + lean[2][1]*p.Y
		if got := f.strays(p) >= flatFieldRefuse; got != tc.refuse {
			t.Errorf("%s: strays %.2f times the scatter, refused %v, want %v", tc.name, f.strays(p), got, tc.refuse)
		}
	}
	if _, ok := fitFlatField(s[:flatFieldMinDice-1]); ok {
		t.Errorf("a field from %d dice, want none under %d", flatFieldMinDice-1, flatFieldMinDice)
	}
	// dice all at one place: the ridge keeps the slopes finite, the
	// scatter at least its floor
	same := make([]flatSample, 16)
	for i := range same {
		same[i] = flatSample{X: 0.1, Y: 0.1, OX: 0.02, OY: 0.02}
	}
	g, ok := fitFlatField(same)
	if !ok || g.RMS != flatFieldMinRMS || math.Abs(g.C[1][0]) > 1 || g.strays(flatSample{X: 0.1, Y: 0.1, OX: 0.02, OY: 0.02}) > 0.01 {
		t.Errorf("dice at one place: field %+v, want finite slopes and the floor's scatter", g)
	}
}

// TestNetCalibrationFlatDice: the flat dice go through the file, the
// field fitted on reading it; a file with too many dice or an offset out
// of range is refused, saying which.
func TestNetCalibrationFlatDice(t *testing.T) {
	var c NetCalibration
	c.Protos[0] = append(c.Protos[0], [embedLen]float32{1})
	c.flat = fieldSamples(rand.New(rand.NewPCG(3, 4)), 16, [3][2]float64{{0.02, -0.01}, {0.05, 0}, {0, 0.05}}, 0.02)
	data, err := EncodeNetCalibration(&c, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeNetCalibration(data)
	if err != nil {
		t.Fatal(err)
	}
	if n, used := got.FlatDice(); n != 16 || !used {
		t.Errorf("FlatDice = %d, %v; want 16, true", n, used)
	}
	want, _ := fitFlatField(c.flat)
	if got.field == nil || got.field.C != want.C {
		t.Errorf("field read back %+v, want %+v", got.field, want)
	}
	// a file made before the flat dice: no field, nothing refused by it
	var old NetCalibration
	old.Protos[0] = c.Protos[0]
	data0, _ := EncodeNetCalibration(&old, time.Unix(0, 0))
	if strings.Contains(string(data0), "flat_dice") {
		t.Errorf("a calibration without flat dice writes flat_dice: %s", data0)
	}
	if got, err := DecodeNetCalibration(data0); err != nil || got.field != nil {
		t.Errorf("no flat dice: %v; want no field", err)
	}
	var f map[string]any
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct {
		name string
		flat any
		want string
	}{
		{"offset out of range", [][4]float64{{0.1, 0.1, 1.5, 0}}, "flat_dice[0]"},
		{"too many", make([][4]float64, flatFieldMaxDice+1), "at most 48"},
		{"three numbers", [][]float64{{0.1, 0.1, 0}}, "flat_dice[0]: 3 numbers, want 4"},
		{"not numbers", []string{"x"}, "flat_dice"},
	} {
		f["flat_dice"] = bad.flat
		b, _ := json.Marshal(f)
		_, err := DecodeNetCalibration(b)
		if !errors.Is(err, ErrNetCalibration) || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: %v, want ErrNetCalibration naming %q", bad.name, err, bad.want)
		}
	}
}

// TestCalibrationSeesCockedDie: at a tuning table (val-tables, table 3:
// FreeMonoBoldOblique, silver ink, dice 110 pixels across under a camera
// leaning 14 degrees), a red die cocked against a tray's wall shows an 8
// and a 2 (00138.jpg). The daemon's reader, uncalibrated, reads it as a
// 2: the pose network finds it 89% flat and the hand-tuned reader does
// not find dice that large. Calibrated face by face at that table, its
// numeral is not where this camera shows a flat die's, and it is
// refused; the blue die, lying flat, is still read.
func TestCalibrationSeesCockedDie(t *testing.T) {
	checkLeaks(t)
	dir := "testdata/val-tables"
	rows := readCSVAll(t, filepath.Join(dir, "labels.csv"))
	k, err := NewNetCalibrator(DefaultNetOpts)
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	for _, row := range rows[1:] {
		// file, blue, red, ..., table, use
		if row[len(row)-2] != "3" || row[len(row)-1] != "calibrate" {
			continue
		}
		die, face := "blue", row[1]
		if face == "-" {
			die, face = "red", row[2]
		}
		m := gocv.IMRead(filepath.Join(dir, row[0]), gocv.IMReadColor)
		err := k.Add(m, die, int(face[0]-'0'))
		m.Close()
		if err != nil {
			t.Logf("%s: %v", row[0], err)
		}
	}
	c, err := k.Calibration()
	if err != nil {
		t.Fatal(err)
	}
	if n, used := c.FlatDice(); n < flatFieldMinDice || !used {
		t.Fatalf("FlatDice = %d, %v; want at least %d, used", n, used, flatFieldMinDice)
	}
	frame := gocv.IMRead(filepath.Join(dir, "00138.jpg"), gocv.IMReadColor)
	defer frame.Close()
	for _, tc := range []struct {
		name string
		c    *NetCalibration
		red  int
		why  WhyCode
	}{
		{"uncalibrated", nil, 2, WhyNone},
		{"calibrated", c, 0, WhyNotFlatHere},
	} {
		r, err := NewCombined(tc.c)
		if err != nil {
			t.Fatal(err)
		}
		roll := r.Read(frame)
		r.Close()
		if roll.Red.Face != tc.red || roll.Red.Why.Code != tc.why {
			t.Errorf("%s: red die read %d (%v), want %d (%v)", tc.name, roll.Red.Face, roll.Red.Why, tc.red, Why{Code: tc.why})
		}
		if roll.Blue.Face != 1 {
			t.Errorf("%s: blue die (flat, a 1) read %d (%v)", tc.name, roll.Blue.Face, roll.Blue.Why)
		}
	}
	if en, fr := (Why{Code: WhyNotFlatHere}).EN(), (Why{Code: WhyNotFlatHere}).FR(); !strings.Contains(en, "lay it flat or roll again") && !strings.Contains(en, "Lay it flat or roll again") || !strings.Contains(fr, "relancez") {
		t.Errorf("the refusal's texts %q and %q do not say what to do", en, fr)
	}
}

// TestNetReaderLearnFlat: the reader learns from the dice it read that
// the pose network found flat (each die's place and numeral offset kept
// when it cut the numeral), not from dice refused or not surely flat;
// from flatFieldMinDice on it has a field, and it keeps the last
// flatFieldMaxDice. A calibration's flat dice are its start.
func TestNetReaderLearnFlat(t *testing.T) {
	checkLeaks(t)
	r, err := NewNetReader(DefaultNetOpts)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rng := rand.New(rand.NewPCG(5, 6))
	lean := [3][2]float64{{0.01, 0.02}, {0.08, 0}, {0, 0.08}}
	die := func(p flatSample, face int, learnable bool) Die {
		return Die{Found: true, Face: face, Confidence: 1, Flat: 1, at: p, hasAt: learnable}
	}
	s := fieldSamples(rng, 80, lean, 0.01)
	for i := 0; i < 10; i += 2 {
		// blue read and flat, red refused or not surely flat
		red := die(s[i+1], 0, true)
		if i%4 == 0 {
			red = die(s[i+1], 5, false)
		}
		r.LearnFlat(Roll{Blue: die(s[i], 3, true), Red: red})
	}
	if n, used := r.FlatDice(); n != 5 || used {
		t.Fatalf("after 5 throws, FlatDice = %d, %v; want the 5 blue dice, no field", n, used)
	}
	for i := 10; i < 80; i += 2 {
		r.LearnFlat(Roll{Blue: die(s[i], 3, true), Red: die(s[i+1], 4, true)})
	}
	if n, used := r.FlatDice(); n != flatFieldMaxDice || !used {
		t.Fatalf("after 40 throws, FlatDice = %d, %v; want %d, used", n, used, flatFieldMaxDice)
	}
	if r.flat[len(r.flat)-1] != s[79] || r.flat[0] != s[80-flatFieldMaxDice] {
		t.Errorf("kept %v … %v, want the last %d dice learned", r.flat[0], r.flat[len(r.flat)-1], flatFieldMaxDice)
	}
	off := flatSample{X: 0.2, Y: 0.1}
	off.OX, off.OY = lean[0][0]+lean[1][0]*off.X+0.12, lean[0][1]+lean[2][1]*off.Y
	if z := r.field.strays(off); z < flatFieldRefuse {
		t.Errorf("a numeral 0.12 die widths off the field strays %.1f times its scatter, want at least %g", z, flatFieldRefuse)
	}
	// a calibration's flat dice are a new reader's start
	c := &NetCalibration{flat: s[:20]}
	c = c.withField()
	o := DefaultNetOpts
	o.Calibration = c
	r2, err := NewNetReader(o)
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	if n, used := r2.FlatDice(); n != 20 || !used {
		t.Errorf("a reader calibrated with 20 flat dice: FlatDice = %d, %v", n, used)
	}
	r2.LearnFlat(Roll{Blue: die(s[30], 3, true)})
	if n, _ := r2.FlatDice(); n != 21 || len(c.flat) != 20 {
		t.Errorf("learning after a calibration: the reader has %d dice, the calibration %d; want 21 and 20 (the calibration unchanged)", n, len(c.flat))
	}
}

// TestCalibratedOnPlayField: a calibration's flat dice lie where its
// user showed them, in the middle of the tray; the dice of play anywhere.
// They agree more closely than thrown dice: fitted together, the field's
// scatter is smaller, and a flat die whose numeral lies a little off may
// be more than flatFieldAgree times it off where the field of the dice of
// play alone, all an uncalibrated reader knows, puts it within:
// the calibrated reader takes that die as on the field too (onFieldAt),
// so that it overrules the hand-tuned "tilted" test wherever the
// uncalibrated one does (val-tables table 5, 00206.jpg red). A numeral
// off both fields is not on the field; once the calibration's dice are
// all forgotten, the two fields are one.
func TestCalibratedOnPlayField(t *testing.T) {
	checkLeaks(t)
	rng := rand.New(rand.NewPCG(7, 8))
	lean := [3][2]float64{{0.01, 0.02}, {0.08, 0}, {0, 0.08}}
	var calib []flatSample
	for _, p := range fieldSamples(rng, 16, lean, 0.004) {
		// shown in the middle of the tray, with care
		p.X, p.Y = p.X/5, p.Y/5
		p.OX = lean[0][0] + lean[1][0]*p.X + lean[2][0]*p.Y + rng.NormFloat64()*0.004
		p.OY = lean[0][1] + lean[1][1]*p.X + lean[2][1]*p.Y + rng.NormFloat64()*0.004
		calib = append(calib, p)
	}
	thrown := fieldSamples(rng, 80, lean, 0.02)
	die := func(p flatSample) Die { return Die{Found: true, Face: 3, Confidence: 1, Flat: 1, at: p, hasAt: true} }
	o := DefaultNetOpts
	o.MaxCocked = 0
	plain := netReader(t, o)
	o.Calibration = (&NetCalibration{flat: calib}).withField()
	cal := netReader(t, o)
	for _, p := range thrown[:14] {
		plain.LearnFlat(Roll{Blue: die(p)})
		cal.LearnFlat(Roll{Blue: die(p)})
	}
	// a flat die by the tray's left wall, its numeral 1.3 times the
	// scatter of play off where play shows it
	wall := flatSample{X: -0.45, Y: 0.3}
	f := plain.field
	wall.OX = f.C[0][0] + f.C[1][0]*wall.X + f.C[2][0]*wall.Y + 1.3*f.RMS
	wall.OY = f.C[0][1] + f.C[1][1]*wall.X + f.C[2][1]*wall.Y
	if z := cal.field.strays(wall); z < flatFieldAgree || z >= flatFieldRefuse || cal.playField == nil {
		t.Fatalf("the calibrated reader's field puts the die %.2f times its scatter off (play field %v): want %g to %g, the case tests nothing", z, cal.playField != nil, flatFieldAgree, flatFieldRefuse)
	}
	if !plain.onFieldAt(wall) {
		t.Fatalf("the uncalibrated reader takes the die by the wall as off its field (%.2f)", plain.field.strays(wall))
	}
	if !cal.onFieldAt(wall) {
		t.Errorf("the calibrated reader takes the die by the wall as off its field, the uncalibrated one as on it")
	}
	off := wall
	off.OX += 2 * f.RMS
	if plain.onFieldAt(off) || cal.onFieldAt(off) {
		t.Errorf("a numeral 3.3 times the scatter of play off its field taken as on the field")
	}
	for _, p := range thrown[14:] {
		cal.LearnFlat(Roll{Blue: die(p)})
	}
	if cal.playField != nil {
		t.Errorf("after %d dice of play (it keeps %d), the calibrated reader still has a field of play apart", len(thrown), flatFieldMaxDice)
	}
	// what the reader learned, restored, has its field of play too
	cal2 := netReader(t, o)
	for _, p := range thrown[:14] {
		cal2.LearnFlat(Roll{Blue: die(p)})
	}
	cal3 := netReader(t, o)
	if err := cal3.RestoreCamera(cal2.LearnedCamera()); err != nil {
		t.Fatal(err)
	}
	if !cal3.onFieldAt(wall) {
		t.Errorf("restored, the calibrated reader takes the die by the wall as off its field")
	}
}

// TestFieldStraightDown: under a camera looking straight down at a tray,
// where the hand-tuned reader's "tilted" test was made, a reader that has
// learned where flat dice show their numerals (from the throws of
// testdata/rendered) reads the cocked dice of rendered-refuse and
// rendered-refuse-2 and the dice leaning on the other of
// rendered-leaning no more wrong than a reader that learned nothing:
// the field's refusal and its overruling of the "tilted" test
// (flatFieldAgree, FieldFlatOverTilt) let none more through. (Overruling
// it within 2.5 times the scatter, 0.7 flat, read 3 more of them wrong.)
func TestFieldStraightDown(t *testing.T) {
	checkLeaks(t)
	c, err := NewCombined(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	names, err := filepath.Glob("testdata/rendered/*.jpg")
	if err != nil || len(names) < 100 {
		t.Fatalf("testdata/rendered: %d pictures, %v", len(names), err)
	}
	for _, n := range names[:100] {
		m := gocv.IMRead(n, gocv.IMReadColor)
		c.LearnFlat(c.Read(m))
		m.Close()
	}
	if n, used := c.Net.FlatDice(); n != flatFieldMaxDice || !used {
		t.Fatalf("after 100 throws: FlatDice = %d, %v; want %d, used", n, used, flatFieldMaxDice)
	}
	for _, tc := range []struct {
		set   string
		wrong int // read wrong by a reader that learned nothing
	}{
		{"rendered-refuse", 2},
		{"rendered-refuse-2", 0},
		{"rendered-leaning", 2},
	} {
		var rp Report
		if _, err := ReadSet(c, filepath.Join("testdata", tc.set), func(map[string]string) bool { return true }, &rp); err != nil {
			t.Fatal(err)
		}
		if rp.All.Wrong > tc.wrong {
			t.Errorf("%s: %v; want at most %d dice wrong, as without the field", tc.set, rp.All, tc.wrong)
		}
	}
}

// TestNetReaderCameraMoved: a camera moved during play. The dice the
// pose network is sure lie flat now lie off the field learned before;
// after flatMovedRun of them in a row the reader forgets the old
// camera's dice, and from flatFieldMinDice new ones on it knows the new
// camera: a numeral where the old camera showed flat dice's strays.
func TestNetReaderCameraMoved(t *testing.T) {
	checkLeaks(t)
	r, err := NewNetReader(DefaultNetOpts)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rng := rand.New(rand.NewPCG(7, 8))
	before := [3][2]float64{{0, 0}, {0.08, 0}, {0, 0.08}}
	after := [3][2]float64{{0.12, -0.1}, {-0.05, 0}, {0, 0.1}}
	// the old camera shows the dice 34 pixels across, the new one 40
	across := 34.0
	learn := func(s flatSample) {
		r.LearnFlat(Roll{Blue: Die{Found: true, Face: 2, Confidence: 1, Flat: 1, at: s, hasAt: true, across: across}})
	}
	for _, s := range fieldSamples(rng, flatFieldMaxDice, before, 0.01) {
		learn(s)
	}
	across = 40
	moved := fieldSamples(rng, 20, after, 0.01)
	for i, s := range moved[:flatMovedRun-1] {
		learn(s)
		if n, used := r.FlatDice(); n != flatFieldMaxDice || !used || r.View().Moved != 0 {
			t.Fatalf("after %d dice off the field: FlatDice = %d, %v, CameraMoves %d; want the old camera's field still", i+1, n, used, r.View().Moved)
		}
	}
	if v := r.View(); !v.Small {
		t.Fatalf("before the move is known: %+v, want the old camera's small dice", v)
	}
	learn(moved[flatMovedRun-1])
	if n, used := r.FlatDice(); n != flatMovedRun || used || r.View().Moved != 1 {
		t.Fatalf("after %d dice in a row off the field: FlatDice = %d, %v, CameraMoves %d; want only those %d, no field yet, one move", flatMovedRun, n, used, r.View().Moved, flatMovedRun)
	}
	// the old camera's widths are forgotten too: it no longer says to
	// bring the camera lower
	if v := r.View(); v.Across != 40 || v.Small {
		t.Errorf("after the move: %+v, want the new camera's dice, 40 pixels across", v)
	}
	for _, s := range moved[flatMovedRun:flatFieldMinDice] {
		learn(s)
	}
	if n, used := r.FlatDice(); n != flatFieldMinDice || !used {
		t.Fatalf("after %d dice of the new camera: FlatDice = %d, %v", flatFieldMinDice, n, used)
	}
	p := flatSample{X: 0.3, Y: -0.2}
	old := flatSample{X: p.X, Y: p.Y, OX: before[1][0] * p.X, OY: before[2][1] * p.Y}
	now := flatSample{X: p.X, Y: p.Y, OX: after[0][0] + after[1][0]*p.X, OY: after[0][1] + after[2][1]*p.Y}
	if z := r.field.strays(now); z >= flatFieldRefuse {
		t.Errorf("a flat die of the new camera strays %.1f times the scatter", z)
	}
	if z := r.field.strays(old); z < flatFieldRefuse {
		t.Errorf("a numeral where the old camera showed flat dice's strays %.1f times the scatter, want at least %g", z, flatFieldRefuse)
	}
}

// TestNetReaderViewSizes: the reader says how large its camera shows the
// dice at rest from minSizes dice (their median width, the last
// maxAcross), small under SmallDieAcross: the dice read, or when none of
// a rest was read the narrower found; dice not found whole (across 0) or
// far wider than a die do not count.
func TestNetReaderViewSizes(t *testing.T) {
	r := &NetReader{opts: DefaultNetOpts}
	rest := func(blue, red float64) {
		r.LearnFlat(Roll{Blue: Die{Found: blue > 0, Face: 3, across: blue}, Red: Die{Found: red > 0, Face: 5, across: red}})
	}
	// a blob far wider than a die says nothing of the dice's size
	r.LearnFlat(Roll{Blue: Die{Found: true, across: 300}, Red: Die{Found: true, across: 300}})
	rest(30, 0)
	rest(34, 0)
	rest(36, 0)
	if v := r.View(); v.Across != 0 || v.Small {
		t.Errorf("after 3 dice: %+v, want no width yet", v)
	}
	rest(31, 0)
	if v := r.View(); v.Across != 33 || !v.Small || v.SmallUnder != SmallDieAcross {
		t.Errorf("after 4 dice 30 to 36 pixels across: %+v, want 33, small", v)
	}
	for range 40 {
		rest(30, 34)
	}
	// the camera brought lower, as the staff page asked: within five
	// throws the reader sees the dice larger
	for range 5 {
		rest(60, 62)
	}
	if v := r.View(); v.Across < 60 || v.Small {
		t.Errorf("five throws after the camera was lowered: %+v, want 60 or more (the last %d dice), not small", v, restSizes)
	}
	for range restSizes / 2 {
		rest(60, 62)
	}
	if v := r.View(); v.Across != 61 || v.Small || len(r.sizes) != restSizes {
		t.Errorf("after the camera was lowered: %+v from %d widths, want 61 from the last %d", v, len(r.sizes), restSizes)
	}
	// Dice found but not read: the narrower of the two says how wide
	// they are (the other may be a die grown into its shadow).
	r = &NetReader{opts: DefaultNetOpts}
	for range minSizes {
		r.LearnFlat(Roll{Blue: Die{Found: true, across: 44}, Red: Die{Found: true, across: 26}})
	}
	if v := r.View(); v.Across != 26 || !v.Small {
		t.Errorf("dice 44 and 26 pixels across, not read: %+v, want 26, small", v)
	}
}

// TestNetReaderViewGlare: the reader says the lamp washes the dice's top
// faces out (Glare) once GlareDice of the last dice found at rest
// (restSizes) were refused as blank, and stops saying it once the lamp
// is moved and the blank dice are older than that; dice not found do
// not count.
func TestNetReaderViewGlare(t *testing.T) {
	r := &NetReader{opts: DefaultNetOpts}
	blank := Die{Found: true, Why: Why{Code: WhyBlankFace}}
	read := Die{Found: true, Face: 4, Confidence: 0.99}
	for _, step := range []struct {
		name      string
		blue, red Die
		blank, of int
		glare     bool
	}{
		{"a die read, one not found", read, Die{}, 0, 1, false},
		{"a blank face", read, blank, 1, 3, false},
		{"two", blank, read, 2, 5, false},
		{"three: the lamp is to be moved", read, blank, 3, 7, true},
	} {
		r.LearnFlat(Roll{Blue: step.blue, Red: step.red})
		if v := r.View(); v.Blank != step.blank || v.BlankOf != step.of || v.Glare != step.glare {
			t.Errorf("%s: blank %d of %d, glare %v; want %d of %d, %v", step.name, v.Blank, v.BlankOf, v.Glare, step.blank, step.of, step.glare)
		}
	}
	// the lamp moved: the dice read since push the blank ones out
	for range restSizes / 2 {
		r.LearnFlat(Roll{Blue: read, Red: read})
	}
	if v := r.View(); v.Blank != 0 || v.BlankOf != restSizes || v.Glare {
		t.Errorf("after %d dice read: blank %d of %d, glare %v; want none of %d", restSizes, v.Blank, v.BlankOf, v.Glare, restSizes)
	}
}
