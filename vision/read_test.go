package vision

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"gocv.io/x/gocv"
)

// The bars of issue 3: on the accuracy set (testdata/rendered: realistic
// throws into a tray; a die labelled "?" must be refused, and refusing it
// is reading it right, see Score) at least 99% of the dice read right and
// at most 0.5% wrong, over the whole set and over the held-out half (the
// built-in model learns from Hershey numerals and the even-numbered
// renders only); on the real photos (single dice of other colours, read
// with ReadSingle, never learned from) at least 95% right and at most 1%
// wrong; on the adversarial set (testdata/rendered-hard, never learned
// from) at most 0.5% wrong, with the right-rate measured kept as a floor
// so that regressions show; on the refusal set (testdata/rendered-refuse)
// floors at the rates reached, and no readable die read wrong.
// The accuracy set's floors are below 99% since its two throws of dice
// touching (0134, 0255) are labelled with the faces they show: the reader
// refuses those four dice (the numeral found may be the other die's), where
// a refusal was counted right when they were labelled ? (2026-11-26).
const (
	renderedMinAccuracy = 0.985
	renderedMaxWrong    = 0.005
	heldOutMinAccuracy  = 0.983
	heldOutMaxWrong     = 0.005
	realMinAccuracy     = 0.95
	realMaxWrong        = 0.01
	hardMinAccuracy     = 0.87
	hardMaxWrong        = 0.005
	// the refusal set: the share of each kind of rest that must be
	// refused that is
	refuseOutOfFrame = 1
	refuseCocked     = 0.86
)

func builtinReader(t testing.TB) *Reader {
	t.Helper()
	r, err := NewReader(DefaultReaderOpts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// scoreSet reads every image of set and tallies the dice.
func scoreSet(t testing.TB, r *Reader, set []LabelledImage) Score {
	t.Helper()
	var s Score
	for _, li := range set {
		m := gocv.IMRead(li.Path, gocv.IMReadColor)
		if m.Empty() {
			m.Close()
			t.Fatalf("%s: does not decode", li.Path)
		}
		if want, single := li.Faces["die"]; single {
			d := r.ReadSingle(m)
			s.Add(want, d.Face)
			if d.Face == 0 && d.Why.Code == WhyNone {
				t.Errorf("%s: rejected with no reason", li.Path)
			}
			if d.Face != want {
				t.Logf("%s: want %d, read %d (confidence %.2f) %s", li.Path, want, d.Face, d.Confidence, d.Why)
			}
		} else {
			roll := r.Read(m)
			for _, d := range []struct {
				name string
				d    Die
			}{{"blue", roll.Blue}, {"red", roll.Red}} {
				want := li.Faces[d.name]
				s.Add(want, d.d.Face)
				if d.d.Face == 0 && d.d.Why.Code == WhyNone {
					t.Errorf("%s %s: rejected with no reason", li.Path, d.name)
				}
				if d.d.Face != want {
					t.Logf("%s %s: want %d, read %d (confidence %.2f) %s", li.Path, d.name, want, d.d.Face, d.d.Confidence, d.d.Why)
				}
			}
		}
		m.Close()
	}
	return s
}

func TestReadRendered(t *testing.T) {
	checkLeaks(t)
	r := builtinReader(t)
	for _, tc := range []struct {
		name       string
		parity     int
		acc, wrong float64
	}{{"all", -1, renderedMinAccuracy, renderedMaxWrong}, {"held-out", 1, heldOutMinAccuracy, heldOutMaxWrong}} {
		t.Run(tc.name, func(t *testing.T) {
			s := scoreSet(t, r, renderedSet(t, tc.parity))
			t.Logf("rendered %s: %v", tc.name, s)
			if s.Accuracy() < tc.acc || s.WrongRate() > tc.wrong {
				t.Errorf("rendered %s: %v; want accuracy >= %.1f%% and wrong <= %.1f%%", tc.name, s, 100*tc.acc, 100*tc.wrong)
			}
		})
	}
}

// TestReadMustReject checks every die of the accuracy set that must not
// be read is rejected, with its reason.
func TestReadMustReject(t *testing.T) {
	checkLeaks(t)
	r := builtinReader(t)
	want := map[string]string{"out-of-frame": "edge of the picture", "cocked": ""}
	rej := mustReject(t)
	if len(rej) == 0 {
		t.Fatal("testdata/rendered has no die that must be rejected")
	}
	for key, why := range rej {
		file, die, _ := strings.Cut(key, " ")
		m := gocv.IMRead(filepath.Join("testdata/rendered", file), gocv.IMReadColor)
		roll := r.Read(m)
		m.Close()
		d := roll.Blue
		if die == "red" {
			d = roll.Red
		}
		if d.Face != 0 || !strings.Contains(d.Reason(), want[why]) || d.Why.Code == WhyNone {
			t.Errorf("%s %s die (%s): read %d, reason %q; want it rejected, the reason saying %q", file, die, why, d.Face, d.Reason(), want[why])
		}
	}
}

// TestReadCaught reads testdata/rendered-caught, pictures of fresh throws
// the reader once read wrong (dice cocked against a wall, 5s read as 6):
// every die must now be read right, or refused when labelled "?".
func TestReadCaught(t *testing.T) {
	checkLeaks(t)
	r := builtinReader(t)
	set := pairSet(t, "testdata/rendered-caught", -1)
	if len(set) == 0 {
		t.Fatal("testdata/rendered-caught is empty")
	}
	if s := scoreSet(t, r, set); s.Wrong != 0 || s.Rejected != 0 {
		t.Errorf("rendered-caught: %v; want every die right", s)
	}
}

// TestReadRefuse reads testdata/rendered-refuse, throws that all end in a
// hard rest (a die cocked against a wall or partly out of the picture, to
// refuse; or the dice touching, both flat, readable): each kind to refuse
// is refused at least at the rate the reader reaches, and no readable die
// of those pictures is read wrong (the reader refuses dice touching, but
// for one pair touching at a corner, read as the faces they show). A die
// cocked against a wall is refused about five times in six (see
// testdata/rendered-refuse/README.md): the floor keeps that visible.
func TestReadRefuse(t *testing.T) {
	checkLeaks(t)
	r := builtinReader(t)
	checkRefuse(t, r.Read, "testdata/rendered-refuse", map[string]float64{"out-of-frame": refuseOutOfFrame, "cocked": refuseCocked})
}

// checkRefuse reads a set of throws that all end in a hard rest
// (dicerender -reject 1) with read: each kind of rest to refuse
// (out-of-frame, cocked, leaning) must be refused at least at its floor,
// and no readable die of those pictures read wrong (dice touching, both
// flat, are readable: how many are read is logged).
func checkRefuse(t *testing.T, read func(gocv.Mat) Roll, dir string, floors map[string]float64) {
	t.Helper()
	why, touching := map[string]string{}, map[string]bool{}
	for _, rec := range readLabelsCSV(t, dir+"/details.csv", []string{"file", "die", "face"}) {
		if len(rec) != 15 {
			t.Fatalf("%s/details.csv: %d columns, want 15", dir, len(rec))
		}
		why[rec[0]+" "+rec[1]] = rec[14]
		touching[rec[0]+" "+rec[1]] = slices.Contains(strings.Fields(rec[13]), "touching")
	}
	refused, total := map[string]int{}, map[string]int{}
	var readable, touchingScore Score
	for _, li := range pairSet(t, dir, -1) {
		m := gocv.IMRead(li.Path, gocv.IMReadColor)
		roll := read(m)
		m.Close()
		file := filepath.Base(li.Path)
		for _, d := range []struct {
			name string
			d    Die
		}{{"blue", roll.Blue}, {"red", roll.Red}} {
			w := why[file+" "+d.name]
			if w == "" {
				readable.Add(li.Faces[d.name], d.d.Face)
				if touching[file+" "+d.name] {
					touchingScore.Add(li.Faces[d.name], d.d.Face)
				}
				continue
			}
			total[w]++
			if d.d.Face == 0 {
				refused[w]++
			} else {
				t.Logf("%s %s (%s): read %d", file, d.name, w, d.d.Face)
			}
		}
	}
	for w, floor := range floors {
		if total[w] == 0 {
			t.Errorf("%s: no die %s", dir, w)
			continue
		}
		rate := float64(refused[w]) / float64(total[w])
		t.Logf("%s: %d of %d refused (%.1f%%)", w, refused[w], total[w], 100*rate)
		if rate < floor {
			t.Errorf("%s: %d of %d dice refused (%.1f%%), want at least %.1f%%", w, refused[w], total[w], 100*rate, 100*floor)
		}
	}
	t.Logf("readable dice: %v; of them, touching the other: %v", readable, touchingScore)
	if readable.Wrong > 0 {
		t.Errorf("readable dice: %v; want none read wrong", readable)
	}
}

// TestReadHard reads the adversarial set: wrong reads stay rare, and the
// right-rate does not fall below what the reader reaches.
func TestReadHard(t *testing.T) {
	checkLeaks(t)
	s := scoreSet(t, builtinReader(t), hardSet(t))
	t.Logf("rendered-hard: %v", s)
	if s.Accuracy() < hardMinAccuracy || s.WrongRate() > hardMaxWrong {
		t.Errorf("rendered-hard: %v; want accuracy >= %.1f%% and wrong <= %.1f%%", s, 100*hardMinAccuracy, 100*hardMaxWrong)
	}
}

func TestReadSingleReal(t *testing.T) {
	checkLeaks(t)
	r := builtinReader(t)
	s := scoreSet(t, r, realSet(t, -1))
	t.Logf("real photos: %v", s)
	if s.Accuracy() < realMinAccuracy || s.WrongRate() > realMaxWrong {
		t.Errorf("real photos: %v; want accuracy >= %.1f%% and wrong <= %.1f%%", s, 100*realMinAccuracy, 100*realMaxWrong)
	}
}

// TestReadBadFrames checks frames the reader cannot use give reasons, not
// crashes or faces.
func TestReadBadFrames(t *testing.T) {
	checkLeaks(t)
	r := builtinReader(t)
	for _, tc := range []struct {
		name string
		make func() gocv.Mat
	}{
		{"empty", gocv.NewMat},
		{"float", func() gocv.Mat { return gocv.NewMatWithSize(48, 64, gocv.MatTypeCV32FC1) }},
		{"tiny", func() gocv.Mat { return gocv.NewMatWithSize(2, 3, gocv.MatTypeCV8UC3) }},
		{"black", func() gocv.Mat { return gocv.NewMatWithSize(480, 640, gocv.MatTypeCV8UC3) }},
		{"grey", func() gocv.Mat { return gocv.NewMatWithSize(480, 640, gocv.MatTypeCV8UC1) }},
		{"one row", func() gocv.Mat { return gocv.NewMatWithSize(1, 640, gocv.MatTypeCV8UC3) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := tc.make()
			defer m.Close()
			roll := r.Read(m)
			for _, d := range []Die{roll.Blue, roll.Red, r.ReadSingle(m)} {
				if d.Face != 0 || d.Why.Code == WhyNone {
					t.Errorf("read %+v, want no face and a reason", d)
				}
			}
		})
	}
}

func TestDecodeImageCorrupt(t *testing.T) {
	checkLeaks(t)
	good, err := os.ReadFile("testdata/rendered/0000.jpg")
	if err != nil {
		t.Fatal(err)
	}
	// a JPEG whose header announces a picture 45120 x 45232 pixels:
	// OpenCV throws (more than its 2^30 pixels), which ended the process
	// before the decoder caught it (FuzzDirFrame found it)
	huge := append([]byte(nil), good...)
	sof := bytes.Index(huge, []byte{0xff, 0xc0})
	if sof < 0 {
		t.Fatal("testdata/rendered/0000.jpg has no baseline frame header")
	}
	copy(huge[sof+5:], []byte{0xb0, 0xb0, 0xb0, 0x40})
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"nothing", nil, "empty file"},
		{"text", []byte("not an image"), "not an image that OpenCV decodes"},
		{"a JPEG's first bytes", []byte{0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 'J', 'F', 'I', 'F'}, "not an image that OpenCV decodes"},
		{"a picture of two billion pixels", huge, "OpenCV refused it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := DecodeImage(tc.data)
			if err == nil {
				m.Close()
				t.Fatalf("nil error, want ErrBadFrame")
			}
			if !errors.Is(err, ErrBadFrame) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%v, want ErrBadFrame saying %q", err, tc.want)
			}
		})
	}
	// a good picture decodes to the pixels OpenCV's own decoder gives
	m, err := DecodeImage(good)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	want := gocv.IMRead("testdata/rendered/0000.jpg", gocv.IMReadColor)
	defer want.Close()
	if m.Cols() != 640 || m.Rows() != 480 || m.Type() != gocv.MatTypeCV8UC3 || !bytes.Equal(m.ToBytes(), want.ToBytes()) {
		t.Errorf("decoded %dx%d type %v, not the pixels gocv.IMRead reads", m.Cols(), m.Rows(), m.Type())
	}
}

// BenchmarkHandTunedRead640 is the former hand-tuned reader's cost per
// 640x480 frame (BenchmarkRead640 measures the learned reader).
func BenchmarkHandTunedRead640(b *testing.B) {
	readerThreads(b)
	r := builtinReader(b)
	m := gocv.IMRead("testdata/rendered/0000.jpg", gocv.IMReadColor)
	defer m.Close()
	if m.Cols() != 640 || m.Rows() != 480 {
		b.Fatalf("frame is %dx%d, want 640x480", m.Cols(), m.Rows())
	}
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		r.Read(m)
	}
	// the budget is CPU time: on a loaded machine the wall time is not
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkReadRendered reads the 300 renders of the accuracy set in turn:
// the mean cost of a frame.
func BenchmarkReadRendered(b *testing.B) {
	readerThreads(b)
	r := builtinReader(b)
	var frames []gocv.Mat
	for _, li := range renderedSet(b, -1) {
		m := gocv.IMRead(li.Path, gocv.IMReadColor)
		defer m.Close()
		frames = append(frames, m)
	}
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		r.Read(frames[i%len(frames)])
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// cpuTime is the CPU time (user and system) this process used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// rescueEveryCut is rescue as first written: every cut read, then the
// votes counted; the oracle of TestRescueStopsEarlySameAnswer. It
// returns the face the cuts agree on, whichever it is (rescue then takes
// it only when its caller allows it).
func rescueEveryCut(r *Reader, c *dieCrop) (int, float64, bool) {
	var votes [9]int
	n, face := 0, 0
	for _, cut := range rescueCuts {
		nr := findNumeralCut(c, float32(r.opts.MinContrast), cut.frac, cut.dilate)
		if nr.mask == nil {
			continue
		}
		g := glyphOf(nr.mask, c.w, c.h, nr.cx, nr.cy, nr.rms)
		m := r.m.best(&g)
		if confidence(m) < rescueConfidence || !r.usualSize(m.face, nr.length/nr.dieRadius) {
			continue
		}
		if votes[m.face] == 0 {
			n++
		}
		votes[m.face]++
		face = m.face
	}
	if n != 1 || votes[face] < rescueVotes {
		return 0, 0, false
	}
	return face, max(r.opts.MinConfidence, float64(votes[face])/float64(len(rescueCuts))), true
}

// TestRescueStopsEarlySameAnswer: rescue, which stops at the first cut
// that decides it and reads a mask kept by two cuts once, answers as
// reading every cut does, on every die cropped from the held-out frames
// and a fifth of the hard renders: for the faces its caller allows, and for the
// face the cuts agree on allowed first, second or not at all.
func TestRescueStopsEarlySameAnswer(t *testing.T) {
	r := builtinReader(t)
	crops, rescued := 0, 0
	debugCrop = func(im bgrImage, c *dieCrop, name string) {
		nr := findNumeral(c, float32(r.opts.MinContrast), numeralFrac)
		if nr.mask == nil {
			return
		}
		crops++
		o := r.readNumeralOnce(c, nr)
		face, conf, ok := rescueEveryCut(r, c)
		pairs := [][2]int{{o.m.face, o.m.second}}
		if ok {
			rescued++
			other := face%8 + 1
			pairs = append(pairs, [2]int{face, other}, [2]int{other, face}, [2]int{other, other%8 + 1})
		}
		for _, p := range pairs {
			allowed := ok && (face == p[0] || face == p[1])
			wf, wc := 0, 0.0
			if allowed {
				wf, wc = face, conf
			}
			gf, gc, gok := r.rescue(c, p[0], p[1])
			if gf != wf || gc != wc || gok != allowed {
				t.Errorf("%s die at %v, faces %d or %d: rescue = %d %.2f %v, every cut read: %d %.2f %v", name, c.box, p[0], p[1], gf, gc, gok, wf, wc, allowed)
			}
		}
	}
	defer func() { debugCrop = nil }()
	// every held-out frame, every fifth hard render (the race detector
	// makes this test slow)
	for _, set := range []struct {
		dir   string
		every int
	}{{"testdata/wide-frames", 1}, {"testdata/rendered-hard", 5}} {
		names, err := filepath.Glob(filepath.Join(set.dir, "*.jpg"))
		if err != nil || len(names) == 0 {
			t.Fatalf("no frames in %s: %v", set.dir, err)
		}
		for i, n := range names {
			if i%set.every != 0 {
				continue
			}
			m := gocv.IMRead(n, gocv.IMReadColor)
			r.Read(m)
			m.Close()
		}
	}
	t.Logf("%d crops, %d rescued by the cuts", crops, rescued)
	if rescued == 0 {
		t.Error("the cuts agreed on no die: the test compares nothing that matters")
	}
}
