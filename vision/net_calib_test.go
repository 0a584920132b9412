package vision

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"gocv.io/x/gocv"
)

// axis is a unit embedding along dimension i.
func axis(i int) [embedLen]float32 {
	var e [embedLen]float32
	e[i] = 1
	return e
}

// mix is the unit embedding a*axis(i) + b*axis(j).
func mix(i int, a float32, j int, b float32) [embedLen]float32 {
	var e [embedLen]float32
	e[i], e[j] = a, b
	return unit(e)
}

// TestNetCalibrationDecidePartial: a calibration that has prototypes of
// some faces only (free throws) never refuses a sure read of a face it
// has no prototypes of, however near a seen face is, and reads a
// hesitant die only when the faces in competition all have prototypes.
func TestNetCalibrationDecidePartial(t *testing.T) {
	const minConf = 0.97
	// faces 1 and 2 (two prototypes each) and 3 (one) along axes 0, 1, 2
	partial := &NetCalibration{}
	partial.Protos[0] = [][embedLen]float32{axis(0), axis(0)}
	partial.Protos[1] = [][embedLen]float32{axis(1), axis(1)}
	partial.Protos[2] = [][embedLen]float32{axis(2)}
	full := &NetCalibration{}
	for f := range full.Protos {
		full.Protos[f] = [][embedLen]float32{axis(f), axis(f)}
	}
	prob := func(face int, p float64, rival int, q float64) [8]float64 {
		var out [8]float64
		out[face-1] = p
		if rival > 0 {
			out[rival-1] = q
		}
		return out
	}
	for _, tc := range []struct {
		name     string
		c        *NetCalibration
		prob     [8]float64
		embed    [embedLen]float32
		face     int     // what decide must report
		conf     float64 // and its confidence
		readable bool    // face != 0 && conf >= minConf
		flat     float64 // the pose network's flat probability (0: not run)
	}{
		{"sure read of an unseen face, a seen face nearer", partial, prob(5, 0.99, 0, 0), axis(0), 5, 0.99, true, 0},
		{"sure read of an unseen face, nothing near", partial, prob(6, 0.995, 0, 0), axis(7), 6, 0.995, true, 0},
		{"sure read of a seen face, another seen face nearer: refused", partial, prob(2, 0.99, 0, 0), axis(0), 0, 0.99, false, 0},
		{"sure read of a face with one prototype, another nearer: kept", partial, prob(3, 0.99, 0, 0), axis(0), 3, 0.99, true, 0},
		{"sure read of a seen face, its own prototypes nearest", partial, prob(1, 0.99, 0, 0), axis(0), 1, 0.99, true, 0},
		{"hesitant, prototypes agree, rival seen: read", partial, prob(1, 0.96, 2, 0.04), axis(0), 1, minConf, true, 0},
		{"hesitant, prototypes agree, rival never shown: not read", partial, prob(1, 0.96, 7, 0.04), axis(0), 1, 0.96, false, 0},
		{"hesitant, face never shown: not read", partial, prob(6, 0.96, 1, 0.04), axis(0), 6, 0.96, false, 0},
		{"hesitant, prototypes nearer another face: not read", partial, prob(1, 0.96, 2, 0.04), axis(1), 1, 0.96, false, 0},
		{"hesitant, prototypes close to two faces: not read", partial, prob(1, 0.96, 2, 0.04), mix(0, 1, 1, 0.95), 1, 0.96, false, 0},
		{"hesitant under protoMinProb: not read", partial, prob(1, 0.93, 2, 0.07), axis(0), 1, 0.93, false, 0},
		{"complete: sure read, another face nearer: refused", full, prob(5, 0.99, 0, 0), axis(0), 0, 0.99, false, 0},
		{"complete: hesitant, prototypes agree: read", full, prob(5, 0.96, 7, 0.04), axis(4), 5, minConf, true, 0},
		{"no prototypes: as uncalibrated", &NetCalibration{}, prob(4, 0.99, 0, 0), axis(0), 4, 0.99, true, 0},
		{"complete: hesitant, prototypes agree, 95% flat: read", full, prob(5, 0.96, 7, 0.04), axis(4), 5, minConf, true, 0.95},
		{"complete: hesitant, prototypes agree, 65% flat: not read", full, prob(5, 0.96, 7, 0.04), axis(4), 5, 0.96, false, 0.65},
		{"complete: sure read, another face nearer, 65% flat: refused", full, prob(5, 0.99, 0, 0), axis(0), 0, 0.99, false, 0.65},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := netOut{prob: tc.prob, embed: tc.embed}
			face, p, _ := o.best()
			gf, gp := tc.c.decide(&o, face, p, minConf, tc.flat)
			if gf != tc.face || gp != tc.conf {
				t.Errorf("decide = face %d at %.3f, want face %d at %.3f", gf, gp, tc.face, tc.conf)
			}
			if got := gf != 0 && gp >= minConf; got != tc.readable {
				t.Errorf("readable %v, want %v", got, tc.readable)
			}
		})
	}
}

// TestNetCalibrationFilePartial: a partial calibration's file says which
// faces it has and reads back the same; a file from before faces_shown
// still reads; a file whose faces_shown or partial contradict its
// prototypes is refused.
func TestNetCalibrationFilePartial(t *testing.T) {
	c := &NetCalibration{}
	c.Protos[1] = [][embedLen]float32{axis(1)}
	c.Protos[6] = [][embedLen]float32{axis(6), axis(3)}
	data, err := EncodeNetCalibration(c, time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"faces_shown": [`, `"partial": true`} {
		if !strings.Contains(strings.Join(strings.Fields(string(data)), " "), want) {
			t.Errorf("file lacks %s:\n%s", want, data)
		}
	}
	back, err := DecodeNetCalibration(data)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(back.Faces()); got != "[2 7]" || back.Complete() || len(back.Protos[6]) != 2 {
		t.Errorf("decoded faces %s (complete %v, %d prototypes of 7), want [2 7], partial, 2", got, back.Complete(), len(back.Protos[6]))
	}
	full := &NetCalibration{}
	for f := range full.Protos {
		full.Protos[f] = [][embedLen]float32{axis(f)}
	}
	data, err = EncodeNetCalibration(full, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "partial") {
		t.Errorf("a complete calibration's file says partial:\n%s", data)
	}
	proto := "[" + strings.TrimSuffix(strings.Repeat("0.125,", embedLen), ",") + "]"
	file := func(extra string) string {
		return fmt.Sprintf(`{"kind":"comptoir dice prototypes","model_sha256":%q,"made":"2026-11-25T12:00:00Z","faces":{"3":[%s],"5":[%s]}%s}`, ModelSum(), proto, proto, extra)
	}
	for _, tc := range []struct {
		name  string
		data  string
		faces string // "" when refused
	}{
		{"before faces_shown", file(""), "[3 5]"},
		{"faces_shown right", file(`,"faces_shown":[3,5],"partial":true`), "[3 5]"},
		{"faces_shown lists a face without prototypes", file(`,"faces_shown":[3,4,5],"partial":true`), ""},
		{"faces_shown leaves out a face", file(`,"faces_shown":[3],"partial":true`), ""},
		{"partial missing", file(`,"faces_shown":[3,5]`), ""},
		{"partial without faces_shown", file(`,"partial":true`), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecodeNetCalibration([]byte(tc.data))
			if tc.faces == "" {
				if !errors.Is(err, ErrNetCalibration) {
					t.Errorf("decoded %v, want ErrNetCalibration", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got.Faces()) != tc.faces {
				t.Errorf("faces %v, want %s", got.Faces(), tc.faces)
			}
		})
	}
}

// wideFrame reads a frame of testdata/wide-frames and its labels.
func wideFrame(t *testing.T, file string) (gocv.Mat, int, int) {
	t.Helper()
	for _, rec := range readLabelsCSV(t, "testdata/wide-frames/labels.csv", []string{"file", "blue", "red"}) {
		if rec[0] != file {
			continue
		}
		b, _ := strconv.Atoi(rec[1])
		r, _ := strconv.Atoi(rec[2])
		m := gocv.IMRead(filepath.Join("testdata/wide-frames", file), gocv.IMReadColor)
		if m.Empty() {
			t.Fatalf("cannot read %s", file)
		}
		return m, b, r
	}
	t.Fatalf("%s not in wide-frames/labels.csv", file)
	return gocv.Mat{}, 0, 0
}

// TestNetCalibratorAddThrow learns both dice of frames of ordinary throws
// (testdata/wide-frames); a throw with one die hidden learns the other
// and says which was not; an empty table learns nothing; a face out of
// range learns nothing.
func TestNetCalibratorAddThrow(t *testing.T) {
	checkLeaks(t)
	k, err := NewNetCalibrator(DefaultNetOpts)
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	if _, err := k.PartialCalibration(1); !errors.Is(err, ErrCalibration) {
		t.Errorf("PartialCalibration with nothing learned: %v, want ErrCalibration", err)
	}
	want := map[string]map[int]bool{"blue": {}, "red": {}}
	// frames whose two dice the locator finds whole
	for _, file := range []string{"00000.jpg", "00001.jpg", "00003.jpg"} {
		m, b, r := wideFrame(t, file)
		before := k.Learned()
		err := k.AddThrow(m, b, r)
		m.Close()
		if err != nil {
			t.Fatalf("%s (blue %d, red %d): %v", file, b, r, err)
		}
		if k.Learned() != before+2 {
			t.Errorf("%s: %d dice learned, want %d", file, k.Learned(), before+2)
		}
		want["blue"][b], want["red"][r] = true, true
	}
	for die, faces := range want {
		var w []int
		for f := 1; f <= 8; f++ {
			if faces[f] {
				w = append(w, f)
			}
		}
		if fmt.Sprint(k.Shown(die)) != fmt.Sprint(w) {
			t.Errorf("%s die shown %v, want %v", die, k.Shown(die), w)
		}
	}

	t.Run("red die hidden", func(t *testing.T) {
		m, b, r := wideFrame(t, "00006.jpg")
		defer m.Close()
		roll := k.Read(m)
		if !roll.Red.Found || !roll.Blue.Found {
			t.Fatalf("00006.jpg: dice not found: %+v", roll)
		}
		// paint the red die over with the table beside it
		box := roll.Red.Box.Inset(-4)
		c := m.GetVecbAt(min(box.Max.Y+6, m.Rows()-1), min(box.Max.X+6, m.Cols()-1))
		gocv.Rectangle(&m, box, color.RGBA{c[2], c[1], c[0], 0}, -1)
		before := k.Learned()
		err := k.AddThrow(m, b, r)
		var te *ThrowError
		if !errors.As(err, &te) || !errors.Is(err, ErrCalibration) {
			t.Fatalf("AddThrow without the red die: %v, want a ThrowError", err)
		}
		var ce *CalibrationError
		if !errors.As(err, &ce) || ce.Die != "red" || ce.Face != r || len(te.Refused) != 1 {
			t.Errorf("refused %v, want the red die, face %d", err, r)
		}
		if fmt.Sprint(te.Learned) != "[blue]" || k.Learned() != before+1 {
			t.Errorf("learned %v (%d dice), want the blue die", te.Learned, k.Learned()-before)
		}
		if !strings.Contains(te.EN(), "red die, face") || !strings.Contains(te.EN(), "blue die learned") || !strings.Contains(te.FR(), "dé rouge") || !strings.Contains(te.FR(), "dé bleu appris") {
			t.Errorf("refusal does not say which die: %q / %q", te.EN(), te.FR())
		}
	})
	t.Run("empty table", func(t *testing.T) {
		m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(40, 120, 40, 0), 480, 640, gocv.MatTypeCV8UC3)
		defer m.Close()
		before := k.Learned()
		err := k.AddThrow(m, 2, 3)
		var te *ThrowError
		if !errors.As(err, &te) || len(te.Refused) != 2 || len(te.Learned) != 0 || k.Learned() != before {
			t.Errorf("AddThrow on an empty table: %v, want both dice refused, none learned", err)
		}
		if !strings.Contains(te.EN(), "throw again") || !strings.Contains(te.FR(), "relancez") {
			t.Errorf("refusal %q / %q does not say to throw again", te.EN(), te.FR())
		}
	})
	t.Run("face out of range", func(t *testing.T) {
		m, _, r := wideFrame(t, "00000.jpg")
		defer m.Close()
		before := k.Learned()
		if err := k.AddThrow(m, 9, r); !errors.Is(err, ErrCalibration) || k.Learned() != before {
			t.Errorf("AddThrow with face 9: %v, %d learned; want ErrCalibration, nothing learned", err, k.Learned()-before)
		}
	})

	c, err := k.PartialCalibration(4)
	if err != nil {
		t.Fatal(err)
	}
	var all []int
	for f := 1; f <= 8; f++ {
		if want["blue"][f] || want["red"][f] {
			all = append(all, f)
		}
	}
	if fmt.Sprint(c.Faces()) != fmt.Sprint(all) {
		t.Errorf("partial calibration has faces %v, want %v", c.Faces(), all)
	}
	if _, err := k.PartialCalibration(100); !errors.Is(err, ErrCalibration) {
		t.Errorf("PartialCalibration(100) after %d dice: %v, want ErrCalibration", k.Learned(), err)
	}
	if _, err := k.Calibration(); !errors.Is(err, ErrCalibration) {
		t.Errorf("Calibration with faces missing: %v, want ErrCalibration", err)
	}
	// the partial calibration reads the throws' frames no worse
	r := netReader(t, DefaultNetOpts)
	o := DefaultNetOpts
	o.Calibration = c
	rc := netReader(t, o)
	plain, cal := readSet(t, r, "testdata/wide-frames", nil), readSet(t, rc, "testdata/wide-frames", nil)
	t.Logf("wide-frames: uncalibrated %v; calibrated from 3 throws %v", plain.All, cal.All)
	if cal.All.Right < plain.All.Right || cal.All.Wrong > plain.All.Wrong {
		t.Errorf("calibrated from 3 throws %v is worse than uncalibrated %v", cal.All, plain.All)
	}
}

// TestNetCalibrationThrowsNeverWorse calibrates each dice set of the test
// split from 4, 8 and 16 free throws (ReadSets, several draws) and reads
// the set's other crops: no die the uncalibrated reader read right is
// lost, none is read wrong that it did not read so, and no set reads
// fewer right.
func TestNetCalibrationThrowsNeverWorse(t *testing.T) {
	checkLeaks(t)
	sr, err := ReadSets(DefaultNetOpts, "testdata/wide-sets")
	if err != nil {
		t.Fatal(err)
	}
	if len(sr.Throws) != len(FreeThrows) {
		t.Fatalf("%d free-throw measures, want %d", len(sr.Throws), len(FreeThrows))
	}
	for _, ts := range sr.Throws {
		t.Run(fmt.Sprintf("%d throws", ts.Throws), func(t *testing.T) {
			t.Logf("%d calibrations, %.1f faces each: uncalibrated %v; calibrated %v", ts.Draws, float64(ts.Faces)/float64(max(ts.Draws, 1)), ts.Plain.All, ts.Calibrated.All)
			if ts.Draws != len(sr.Sets)*ThrowDraws || ts.Calibrated.All.Total() == 0 {
				t.Fatalf("%d calibrations, %d dice read; want %d and some", ts.Draws, ts.Calibrated.All.Total(), len(sr.Sets)*ThrowDraws)
			}
			if ts.Lost != 0 || ts.NewWrong != 0 {
				t.Errorf("%d dice read right only uncalibrated, %d read wrong only calibrated; want none", ts.Lost, ts.NewWrong)
			}
			if ts.Calibrated.All.Wrong > ts.Plain.All.Wrong {
				t.Errorf("calibrated %v reads more wrong than uncalibrated %v", ts.Calibrated.All, ts.Plain.All)
			}
			for font, c := range ts.Calibrated.Groups["font"] {
				if p := ts.Plain.Groups["font"][font]; c.Right < p.Right || c.Wrong > p.Wrong {
					t.Errorf("set of %s: calibrated %v is worse than uncalibrated %v", font, *c, *p)
				}
			}
		})
	}
}

// TestNetReportThrows prints the free-throw measure of a sets folder.
func TestNetReportThrows(t *testing.T) {
	sr := &SetsReport{Throws: []ThrowsScore{{Throws: 4, Draws: 2, Faces: 9}}}
	sr.Throws[0].Plain.All.Add(3, 3)
	sr.Throws[0].Calibrated.All.Add(3, 3)
	var b strings.Builder
	sr.Write(&b)
	for _, want := range []string{"calibrated from free throws", "     4    4.5      1   100.00%"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}

// TestNetCalibratorSeed: a calibrator seeded with a calibration (Seed)
// counts its prototypes as dice learned and keeps them with a throw
// learned after, in PartialCalibration; Shown lists only the faces of the
// throw; the seed is not changed; a calibrator not seeded has the
// throw's prototypes only.
func TestNetCalibratorSeed(t *testing.T) {
	checkLeaks(t)
	seed := &NetCalibration{}
	seed.Protos[0] = [][embedLen]float32{axis(0), axis(1)}
	seed.Protos[7] = [][embedLen]float32{axis(2)}
	m, b, r := wideFrame(t, "00000.jpg")
	defer m.Close()
	for _, tc := range []struct {
		name   string
		seed   *NetCalibration
		protos map[int]int // per face (1-8), want
	}{
		{"seeded", seed, map[int]int{1: 2, 8: 1}},
		{"not seeded", nil, map[int]int{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k, err := NewNetCalibrator(DefaultNetOpts)
			if err != nil {
				t.Fatal(err)
			}
			defer k.Close()
			seeded := 0
			if tc.seed != nil {
				k.Seed(tc.seed)
				seeded = 3
			}
			if k.Learned() != seeded || len(k.Shown("blue"))+len(k.Shown("red")) != 0 {
				t.Errorf("after the seed: %d learned, shown %v %v; want %d, none shown", k.Learned(), k.Shown("blue"), k.Shown("red"), seeded)
			}
			if err := k.AddThrow(m, b, r); err != nil {
				t.Fatal(err)
			}
			want := map[int]int{b: 1}
			want[r]++
			for f, n := range tc.protos {
				want[f] += n
			}
			c, err := k.PartialCalibration(seeded + 2)
			if err != nil {
				t.Fatal(err)
			}
			for f := 1; f <= 8; f++ {
				if len(c.Protos[f-1]) != want[f] {
					t.Errorf("face %d: %d prototypes, want %d", f, len(c.Protos[f-1]), want[f])
				}
			}
			if fmt.Sprint(k.Shown("blue"), k.Shown("red")) != fmt.Sprint([]int{b}, []int{r}) {
				t.Errorf("shown %v %v, want the throw's faces %d %d", k.Shown("blue"), k.Shown("red"), b, r)
			}
			if tc.seed != nil && (c.Protos[0][0] != axis(0) || c.Protos[0][1] != axis(1) || c.Protos[7][0] != axis(2)) {
				t.Errorf("the seed's prototypes are not kept as they were")
			}
		})
	}
	n := 0
	for _, ps := range seed.Protos {
		n += len(ps)
	}
	if n != 3 || len(seed.Protos[0]) != 2 || len(seed.Protos[7]) != 1 {
		t.Errorf("the seed changed: %d prototypes, %d of face 1, %d of face 8; want 3, 2, 1", n, len(seed.Protos[0]), len(seed.Protos[7]))
	}
}

// TestNetCalibratorKeepsLast: a face keeps its last maxProtos prototypes,
// from the calibration in use (Seed) and from the throws learned after
// it: calibrating again and again does not grow the file without end.
func TestNetCalibratorKeepsLast(t *testing.T) {
	checkLeaks(t)
	seed := &NetCalibration{}
	for i := 0; i < maxProtos+3; i++ {
		seed.Protos[0] = append(seed.Protos[0], axis(i))
	}
	seed.Protos[1] = [][embedLen]float32{axis(50)}
	k, err := NewNetCalibrator(DefaultNetOpts)
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	k.Seed(seed)
	if k.Learned() != maxProtos+1 {
		t.Errorf("seeded with %d prototypes of face 1 and 1 of face 2: %d learned, want %d", maxProtos+3, k.Learned(), maxProtos+1)
	}
	check := func(first, last int) {
		t.Helper()
		c, err := k.PartialCalibration(1)
		if err != nil {
			t.Fatal(err)
		}
		ps := c.Protos[0]
		if len(ps) != maxProtos || ps[0] != axis(first) || ps[len(ps)-1] != axis(last) {
			t.Errorf("face 1: %d prototypes, want %d, axis %d to %d", len(ps), maxProtos, first, last)
		}
		if len(c.Protos[1]) != 1 {
			t.Errorf("face 2: %d prototypes, want 1 (kept)", len(c.Protos[1]))
		}
	}
	check(3, maxProtos+2)
	k.learn(netOut{embed: axis(60)}, "blue", 1)
	check(4, 60)
	if len(seed.Protos[0]) != maxProtos+3 {
		t.Errorf("the calibration seeded from changed: %d prototypes of face 1", len(seed.Protos[0]))
	}
}

// TestNetCalibrationFileTilted: the count of calibration dice the
// hand-tuned reader refused as tilted is kept in the file; more refused
// than shown is refused; files without the counts read as none.
func TestNetCalibrationFileTilted(t *testing.T) {
	c := &NetCalibration{HandChecked: 16, HandTilted: 2}
	c.Protos[4] = [][embedLen]float32{axis(4)}
	back := rewritten(t, c)
	if back.HandChecked != 16 || back.HandTilted != 2 || !back.TiltMisleads() {
		t.Errorf("read back %d of %d tilted (misleads %v), want 2 of 16, true", back.HandTilted, back.HandChecked, back.TiltMisleads())
	}
	proto := "[" + strings.TrimSuffix(strings.Repeat("0.125,", embedLen), ",") + "]"
	for _, tc := range []struct {
		name, extra string
		misleads    bool
		refused     bool
	}{
		{"before the counts", "", false, false},
		{"none tilted", `,"hand_checked":12`, false, false},
		{"one tilted", `,"hand_checked":12,"hand_tilted":1`, false, false},
		{"two tilted", `,"hand_checked":12,"hand_tilted":2`, true, false},
		{"more tilted than shown", `,"hand_checked":2,"hand_tilted":3`, false, true},
		{"negative", `,"hand_checked":-1`, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := fmt.Sprintf(`{"kind":"comptoir dice prototypes","model_sha256":%q,"made":"2026-11-27T12:00:00Z","faces":{"5":[%s]},"faces_shown":[5],"partial":true%s}`, ModelSum(), proto, tc.extra)
			got, err := DecodeNetCalibration([]byte(data))
			if tc.refused {
				if !errors.Is(err, ErrNetCalibration) || !strings.Contains(err.Error(), "hand_tilted") {
					t.Errorf("decoded %v, want an ErrNetCalibration naming hand_tilted", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.TiltMisleads() != tc.misleads {
				t.Errorf("TiltMisleads %v, want %v", got.TiltMisleads(), tc.misleads)
			}
		})
	}
}

// TestNetCalibratorDieAcross calibrates each table of val-tables face by
// face, then from its first throws: the median width of the dice learned
// is the table's (its label, size_px, is the dice's width in the
// renderer), within a fifth, and under SmallDieAcross exactly at the
// tables whose camera is far (dice 25 to 40 pixels across; a table
// whose dice are within 5 pixels of it may go either way). A reset
// forgets the widths.
func TestNetCalibratorDieAcross(t *testing.T) {
	checkLeaks(t)
	dir := "testdata/val-tables"
	rows := readCSVAll(t, filepath.Join(dir, "labels.csv"))
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	k, err := NewNetCalibrator(DefaultNetOpts)
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	for table := range 8 {
		t.Run(fmt.Sprintf("table %d", table), func(t *testing.T) {
			var size float64
			throws := 0
			for _, phase := range []string{"calibrate", "eval"} {
				k.reset()
				if k.DieAcross() != 0 {
					t.Fatalf("DieAcross after a reset = %v, want 0", k.DieAcross())
				}
				for _, row := range rows[1:] {
					if row[col["table"]] != strconv.Itoa(table) || row[col["use"]] != phase {
						continue
					}
					size, _ = strconv.ParseFloat(row[col["size_px"]], 64)
					blue, _ := strconv.Atoi(row[col["blue"]])
					red, _ := strconv.Atoi(row[col["red"]])
					m := gocv.IMRead(filepath.Join(dir, row[col["file"]]), gocv.IMReadColor)
					switch {
					case phase == "eval" && blue > 0 && red > 0 && throws < TableThrows:
						throws++
						k.AddThrow(m, blue, red)
					case phase == "calibrate" && blue > 0:
						k.Add(m, "blue", blue)
					case phase == "calibrate":
						k.Add(m, "red", red)
					}
					m.Close()
				}
				got := k.DieAcross()
				if math.Abs(got-size) > size/5 {
					t.Errorf("%s: DieAcross = %.1f, want the table's dice, %.1f pixels across, within a fifth", phase, got, size)
				}
				if small, far := got < SmallDieAcross, size < 40; small != far && math.Abs(size-SmallDieAcross) > 5 {
					t.Errorf("%s: DieAcross = %.1f (under %d: %v) for dice %.1f pixels across", phase, got, SmallDieAcross, small, size)
				}
			}
		})
	}
}

// rewritten is c written to its file (EncodeNetCalibration) and read back.
func rewritten(t *testing.T, c *NetCalibration) *NetCalibration {
	t.Helper()
	data, err := EncodeNetCalibration(c, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeNetCalibration(data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	return back
}
