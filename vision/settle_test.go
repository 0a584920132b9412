package vision

import (
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"image"
	"image/color"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"comptoir/hw/clock"
	"comptoir/input"

	"gocv.io/x/gocv"
)

var debugSettle = flag.Bool("settle.debug", false, "log the settler's view of every frame of the recorded sequences")

// frameTime is the time between frames of a 30 frames per second camera.
const frameTime = time.Second / 30

// seqFrame is the truth of one frame of a recorded sequence (frames.csv).
type seqFrame struct {
	state     string // empty, moving, rest, hand
	blue, red int    // faces up, 0 when not lying flat
	blueBox   image.Rectangle
	redBox    image.Rectangle
}

// seqWant is a roll a sequence must give (expected.csv).
type seqWant struct {
	frame      int // first frame of the rest
	blue, red  int
	correction bool
	unreadable bool // a DiceUnreadable
}

// readCSV is the rows of a CSV file after its header.
func readCSV(t testing.TB, path string) [][]string {
	t.Helper()
	return readCSVAll(t, path)[1:]
}

// readCSVAll is every row of a CSV file, its header first.
func readCSVAll(t testing.TB, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(rows) == 0 {
		t.Fatalf("%s: empty, want a header", path)
	}
	return rows
}

func atoi(t testing.TB, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func parseBox(t testing.TB, s string) image.Rectangle {
	if s == "" {
		return image.Rectangle{}
	}
	f := strings.Fields(s)
	return image.Rect(atoi(t, f[0]), atoi(t, f[1]), atoi(t, f[2]), atoi(t, f[3]))
}

// loadSequence reads a recorded sequence's truth.
func loadSequence(t testing.TB, dir string) ([]seqFrame, []seqWant) {
	t.Helper()
	var frames []seqFrame
	for i, r := range readCSV(t, filepath.Join(dir, "frames.csv")) {
		if atoi(t, r[0]) != i {
			t.Fatalf("%s: frames.csv row %d is frame %s", dir, i, r[0])
		}
		frames = append(frames, seqFrame{r[2], atoi(t, r[3]), atoi(t, r[4]), parseBox(t, r[5]), parseBox(t, r[6])})
	}
	var want []seqWant
	for _, r := range readCSV(t, filepath.Join(dir, "expected.csv")) {
		want = append(want, seqWant{atoi(t, r[0]), atoi(t, r[1]), atoi(t, r[2]), r[3] == "true", len(r) > 4 && r[4] == "true"})
	}
	return frames, want
}

// truthReader reads the dice from the truth of the current frame, *at, as
// a perfect reader would, and records the frames it was asked to read.
type truthReader struct {
	frames []seqFrame
	size   image.Rectangle // of the pictures
	at     *int
	reads  []int
}

func (r *truthReader) die(face int, box image.Rectangle) Die {
	if box.Empty() || !box.Overlaps(r.size) {
		return Die{Why: Why{Code: WhyNotFound}}
	}
	if face == 0 {
		return Die{Found: true, Box: box, Confidence: 0.2, Why: Why{Code: WhyTilted, Face: 4}}
	}
	return Die{Face: face, Found: true, Box: box, Confidence: 0.95}
}

func (r *truthReader) Read(m gocv.Mat) Roll {
	f := r.frames[*r.at]
	r.reads = append(r.reads, *r.at)
	return Roll{Blue: r.die(f.blue, f.blueBox), Red: r.die(f.red, f.redBox)}
}

// gotRoll is a roll reported while settling a sequence.
type gotRoll struct {
	frame      int // the frame that completed it
	ev         input.DiceRolled
	unreadable *input.DiceUnreadable // instead of ev
}

var sequenceNames = []string{"roll", "hand", "knock-change", "knock-same", "two-throws", "cocked"}

// TestSettleSequences settles the recorded sequences of
// testdata/sequences with a reader that knows the truth, and checks that
// each gives exactly its expected rolls, soon after the dice stop, and
// never reads while something moves or a hand is over the tray.
func TestSettleSequences(t *testing.T) {
	checkLeaks(t)
	for _, name := range sequenceNames {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("testdata", "sequences", name)
			frames, want := loadSequence(t, dir)
			got, reads := settleDir(t, dir, frames, DefaultSettleOpts)
			checkRolls(t, got, want, DefaultSettleOpts)
			pic := image.Rect(0, 0, 320, 240)
			for _, i := range reads {
				f := frames[i]
				inSight := f.blueBox.Overlaps(pic) || f.redBox.Overlaps(pic)
				if f.state != "rest" && f.state != "empty" && inSight {
					t.Errorf("read frame %d, whose dice are %s", i, f.state)
				}
			}
		})
	}
}

// settleDir runs a settler over the pictures of dir and returns the rolls
// it reported and the frames it read.
func settleDir(t testing.TB, dir string, frames []seqFrame, o SettleOpts) ([]gotRoll, []int) {
	return settleDirWith(t, dir, frames, o, nil)
}

// settleDirWith is settleDir with each frame passed through perturb first.
func settleDirWith(t testing.TB, dir string, frames []seqFrame, o SettleOpts, perturb func(i int, m *gocv.Mat)) ([]gotRoll, []int) {
	t.Helper()
	src, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if len(src.Files()) != len(frames) {
		t.Fatalf("%s: %d pictures, %d frames in frames.csv", dir, len(src.Files()), len(frames))
	}
	i := 0
	tr := &truthReader{frames: frames, at: &i}
	st := NewSettler(tr.Read, o)
	defer st.Close()
	m := gocv.NewMat()
	defer m.Close()
	start := time.Date(2026, 1, 1, 20, 0, 0, 0, time.UTC)
	var got []gotRoll
	for ; src.Read(&m); i++ {
		tr.size = image.Rect(0, 0, m.Cols(), m.Rows())
		if perturb != nil {
			perturb(i, &m)
		}
		evs, err := st.Frame(m, start.Add(time.Duration(i)*frameTime))
		if *debugSettle {
			t.Logf("frame %d %s truth=%s", i, st.State(), frames[i].state)
		}
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		for _, e := range evs {
			switch e := e.(type) {
			case input.DiceRolled:
				got = append(got, gotRoll{frame: i, ev: e})
			case input.DiceUnreadable:
				got = append(got, gotRoll{frame: i, unreadable: &e})
			default:
				t.Errorf("frame %d: unexpected %v", i, e)
			}
		}
	}
	if err := src.Err(); err != nil {
		t.Fatal(err)
	}
	return got, tr.reads
}

// checkRolls compares the rolls reported with the rolls wanted, and checks
// each was reported within StillFrames+ReadFrames frames of the rest.
func checkRolls(t testing.TB, got []gotRoll, want []seqWant, o SettleOpts) {
	t.Helper()
	for i := 0; i < max(len(got), len(want)); i++ {
		switch {
		case i >= len(got):
			t.Errorf("roll %d: none, want blue=%d red=%d correction=%v at rest from frame %d", i, want[i].blue, want[i].red, want[i].correction, want[i].frame)
			continue
		case i >= len(want):
			t.Errorf("roll %d: got %v at frame %d, want no more rolls", i, got[i].ev, got[i].frame)
			continue
		}
		g, w := got[i], want[i]
		lat := g.frame - w.frame
		if w.unreadable || g.unreadable != nil {
			if !w.unreadable || g.unreadable == nil {
				t.Errorf("roll %d: got %v %v, want unreadable=%v blue=%d red=%d", i, g.ev, g.unreadable, w.unreadable, w.blue, w.red)
			} else if lat < o.StillFrames || lat > o.StillFrames+o.ReadFrames {
				t.Errorf("roll %d: %v at frame %d, %d frames after the rest began at %d", i, g.unreadable, g.frame, lat, w.frame)
			} else {
				t.Logf("roll %d: %v, %d frames after the dice stopped", i, g.unreadable, lat)
			}
			continue
		}
		if int(g.ev.Blue) != w.blue || int(g.ev.Red) != w.red || g.ev.Correction != w.correction {
			t.Errorf("roll %d: got %v, want blue=%d red=%d correction=%v", i, g.ev, w.blue, w.red, w.correction)
		}
		if lat < 1 || lat > o.StillFrames+o.ReadFrames {
			t.Errorf("roll %d: reported at frame %d, %d frames after the rest began at %d", i, g.frame, lat, w.frame)
		}
		if wantLat := time.Duration(lat) * frameTime; g.ev.Latency != wantLat {
			t.Errorf("roll %d: Latency = %v, want %v (%d frames)", i, g.ev.Latency, wantLat, lat)
		}
		t.Logf("roll %d: %v, %d frames (%v) after the dice stopped", i, g.ev, lat, g.ev.Latency)
	}
}

// synth draws synthetic frames: a felt tray with dice as squares, and a
// hand as a large disc.
type synth struct {
	w, h int
}

type synthDie struct {
	x, y  int
	shade uint8
}

func (s synth) frame(dice []synthDie, hand image.Point, light float64, objects ...image.Rectangle) gocv.Mat {
	m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(40*light, 110*light, 40*light, 0), s.h, s.w, gocv.MatTypeCV8UC3)
	for _, r := range objects {
		gocv.Rectangle(&m, r, color.RGBA{20, 20, 20, 0}, -1)
	}
	for _, d := range dice {
		lit := func(v float64) uint8 { return uint8(min(v*light, 255)) }
		gocv.Rectangle(&m, image.Rect(d.x-12, d.y-12, d.x+12, d.y+12), color.RGBA{lit(float64(d.shade)), lit(40), lit(40), 0}, -1)
	}
	if hand != (image.Point{}) {
		gocv.Circle(&m, hand, s.h/3, color.RGBA{150, 170, 220, 0}, -1)
	}
	return m
}

// fakeRead returns a reading function that returns *r and counts calls.
func fakeRead(r *Roll, calls *int) func(gocv.Mat) Roll {
	return func(gocv.Mat) Roll { *calls++; return *r }
}

func sure(face, x, y int) Die {
	return Die{Face: face, Confidence: 0.9, Found: true, Box: image.Rect(x-12, y-12, x+12, y+12)}
}

// TestSettleSynthetic drives the settler with drawn frames through the
// cases the recorded sequences do not cover.
func TestSettleSynthetic(t *testing.T) {
	checkLeaks(t)
	sy := synth{640, 480}
	a := []synthDie{{100, 100, 200}, {300, 200, 60}}
	b := []synthDie{{400, 300, 200}, {500, 100, 60}}
	rollA := Roll{Blue: sure(3, 100, 100), Red: sure(5, 300, 200)}
	rollB := Roll{Blue: sure(3, 400, 300), Red: sure(5, 500, 100)}
	type step struct {
		dice  []synthDie
		hand  image.Point
		light float64
		box   image.Rectangle // something large put in the tray
		read  Roll
		n     int // frames
	}
	none := Roll{Blue: Die{Why: Why{Code: WhyNotFound}}, Red: Die{Why: Why{Code: WhyNotFound}}}
	tests := []struct {
		name  string
		steps []step
		want  []string // events, as strings
		reads int
		// learned are the readings given to OnRest's learn: one for each
		// rest that follows a movement
		learned []Roll
	}{
		{
			name:  "dice there from the start are not a roll",
			steps: []step{{dice: a, read: rollA, n: 20}},
			reads: 1,
		},
		{
			name: "a throw landing on the same numbers elsewhere is a new roll",
			steps: []step{
				{dice: a, read: rollA, n: 5}, {read: none, n: 1}, {dice: b, read: rollB, n: 8},
				{dice: a[:1], read: none, n: 1}, {dice: a, read: rollA, n: 8},
			},
			want:    []string{"dice blue=3 red=5 conf=0.90", "dice blue=3 red=5 conf=0.90"},
			reads:   3,
			learned: []Roll{rollB, rollA},
		},
		{
			name: "a reading that stays uncertain is unreadable, once",
			steps: []step{
				{read: none, n: 5}, {dice: a[:1], read: none, n: 1},
				{dice: a, read: Roll{Blue: sure(3, 100, 100), Red: Die{Found: true, Confidence: 0.3, Why: Why{Code: WhyTilted, Face: 4}}}, n: 10},
			},
			want:    []string{"dice unreadable: red die: " + Why{Code: WhyTilted, Face: 4}.EN()},
			reads:   1 + DefaultSettleOpts.ReadFrames,
			learned: []Roll{{Blue: sure(3, 100, 100), Red: Die{Found: true, Confidence: 0.3, Why: Why{Code: WhyTilted, Face: 4}}}},
		},
		{
			name: "a die missing is unreadable",
			steps: []step{
				{read: none, n: 5}, {dice: a[:1], read: none, n: 1},
				{dice: a[:1], read: Roll{Blue: sure(3, 100, 100), Red: Die{Why: Why{Code: WhyNotFound}}}, n: 10},
			},
			want:    []string{"dice unreadable: red die: " + Why{Code: WhyNotFound}.EN()},
			reads:   1 + DefaultSettleOpts.ReadFrames,
			learned: []Roll{{Blue: sure(3, 100, 100), Red: Die{Why: Why{Code: WhyNotFound}}}},
		},
		{
			name: "a hand held still over the tray is not read",
			steps: []step{
				{dice: a, read: rollA, n: 5}, {dice: b, read: rollB, n: 1}, {dice: b, read: rollB, n: 6},
				{dice: b, hand: image.Pt(320, 240), read: none, n: 30}, {dice: b, read: rollB, n: 6},
			},
			want:  []string{"dice blue=3 red=5 conf=0.90"},
			reads: 3,
			// the dice at rest after the throw, then again after the hand
			learned: []Roll{rollB, rollB},
		},
		{
			name: "a light switched on changes nothing",
			steps: []step{
				{dice: a, read: rollA, n: 5}, {dice: b, read: rollB, n: 1}, {dice: b, read: rollB, n: 6},
				{dice: b, light: 1.25, read: rollB, n: 10},
			},
			want:  []string{"dice blue=3 red=5 conf=0.90"},
			reads: 2,
		},
		{
			name: "something large left in the tray becomes its new look after HandTimeout",
			steps: []step{
				{dice: a, read: rollA, n: 5}, {dice: b, read: rollB, n: 1}, {dice: b, read: rollB, n: 6},
				{dice: b, box: image.Rect(0, 240, 640, 480), read: rollB, n: DefaultSettleOpts.HandTimeout + DefaultSettleOpts.StillFrames},
			},
			want:  []string{"dice blue=3 red=5 conf=0.90"},
			reads: 3,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var cur Roll
			calls := 0
			st := NewSettler(fakeRead(&cur, &calls), DefaultSettleOpts)
			defer st.Close()
			var learned []Roll
			st.OnRest(func(r Roll) { learned = append(learned, r) })
			var got []string
			at := time.Unix(0, 0)
			for _, s := range tt.steps {
				if s.light == 0 {
					s.light = 1
				}
				for i := 0; i < s.n; i++ {
					cur = s.read
					var objects []image.Rectangle
					if !s.box.Empty() {
						objects = append(objects, s.box)
					}
					m := sy.frame(s.dice, s.hand, s.light, objects...)
					evs, err := st.Frame(m, at)
					m.Close()
					if err != nil {
						t.Fatal(err)
					}
					at = at.Add(frameTime)
					for _, e := range evs {
						got = append(got, e.String())
					}
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("events = %q, want %q", got, tt.want)
			}
			if calls != tt.reads {
				t.Errorf("read %d times, want %d", calls, tt.reads)
			}
			if tt.learned != nil && fmt.Sprint(learned) != fmt.Sprint(tt.learned) {
				t.Errorf("learned from %v, want %v", learned, tt.learned)
			}
			if tt.name == "dice there from the start are not a roll" && len(learned) != 0 {
				t.Errorf("learned from the dice found at the start: %v", learned)
			}
		})
	}
}

func TestSettleBadFrame(t *testing.T) {
	checkLeaks(t)
	calls := 0
	var r Roll
	st := NewSettler(fakeRead(&r, &calls), DefaultSettleOpts)
	defer st.Close()
	empty := gocv.NewMat()
	defer empty.Close()
	if _, err := st.Frame(empty, time.Now()); err == nil {
		t.Errorf("Frame(empty Mat) = nil error, want an error")
	}
	two := gocv.NewMatWithSize(48, 64, gocv.MatTypeCV8UC2)
	defer two.Close()
	if _, err := st.Frame(two, time.Now()); err == nil {
		t.Errorf("Frame(2-channel Mat) = nil error, want an error")
	}
	// Grey frames, and a change of size mid-stream, are fine.
	for _, size := range []image.Point{{64, 48}, {64, 48}, {320, 240}, {320, 240}, {640, 480}} {
		g := gocv.NewMatWithSize(size.Y, size.X, gocv.MatTypeCV8UC1)
		_, err := st.Frame(g, time.Now())
		g.Close()
		if err != nil {
			t.Errorf("Frame(grey %v) = %v", size, err)
		}
	}
}

// clockedSource advances a fake clock by one frame time on each Read.
type clockedSource struct {
	Source
	clk *clock.Fake
}

func (c clockedSource) Read(m *gocv.Mat) bool {
	c.clk.Advance(frameTime)
	return c.Source.Read(m)
}

func (c clockedSource) Err() error { return SourceErr(c.Source) }

// TestWatchSequence runs Watch over a recorded sequence, on a fake clock,
// and checks it gives the rolls, then closes its channel at the end.
func TestWatchSequence(t *testing.T) {
	checkLeaks(t)
	dir := filepath.Join("testdata", "sequences", "knock-change")
	frames, want := loadSequence(t, dir)
	src, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	clk := clock.NewFake(time.Date(2026, 1, 1, 20, 0, 0, 0, time.UTC))
	start := clk.Now()
	i := -1
	tr := &truthReader{frames: frames, at: &i, size: image.Rect(0, 0, 320, 240)}
	counting := countingSource{src, &i}
	var got []gotRoll
	for e := range Watch(context.Background(), clockedSource{counting, clk}, tr.Read, WatchOpts{Settle: DefaultSettleOpts, Clock: clk}) {
		if r, ok := e.(input.DiceRolled); ok {
			got = append(got, gotRoll{frame: int(r.At.Sub(start)/frameTime) - 1, ev: r})
		} else {
			t.Errorf("unexpected %v", e)
		}
	}
	checkRolls(t, got, want, DefaultSettleOpts)
}

// countingSource sets *at to the index of the frame read.
type countingSource struct {
	Source
	at *int
}

func (c countingSource) Read(m *gocv.Mat) bool { *c.at++; return c.Source.Read(m) }
func (c countingSource) Err() error            { return SourceErr(c.Source) }

// loopSource gives the same frame for ever.
type loopSource struct{ reads int }

func (l *loopSource) Read(m *gocv.Mat) bool {
	l.reads++
	f := gocv.NewMatWithSize(120, 160, gocv.MatTypeCV8UC3)
	defer f.Close()
	f.CopyTo(m)
	return true
}
func (l *loopSource) Close() error { return nil }

// TestWatchStops checks that Watch stops and closes its channel when its
// context is cancelled, on a source that never ends, leaking nothing.
func TestWatchStops(t *testing.T) {
	checkLeaks(t)
	ctx, cancel := context.WithCancel(context.Background())
	src := &loopSource{}
	events := Watch(ctx, src, func(gocv.Mat) Roll { return Roll{} }, DefaultWatchOpts)
	time.Sleep(20 * time.Millisecond)
	cancel()
	for e := range events {
		t.Errorf("unexpected %v", e)
	}
	if src.reads == 0 {
		t.Errorf("Watch read no frame")
	}
}

// BenchmarkSettlerFrame measures the settler's own cost per 640x480 frame
// (the dice at rest and already read: the common case).
func BenchmarkSettlerFrame(b *testing.B) {
	sy := synth{640, 480}
	frames := [2]gocv.Mat{
		sy.frame([]synthDie{{100, 100, 200}, {300, 200, 60}}, image.Point{}, 1),
		sy.frame([]synthDie{{100, 100, 200}, {300, 200, 60}}, image.Point{}, 1),
	}
	defer frames[0].Close()
	defer frames[1].Close()
	r := Roll{Blue: sure(3, 100, 100), Red: sure(5, 300, 200)}
	st := NewSettler(func(gocv.Mat) Roll { return r }, DefaultSettleOpts)
	defer st.Close()
	at := time.Unix(0, 0)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := st.Frame(frames[i%2], at); err != nil {
			b.Fatal(err)
		}
		at = at.Add(frameTime)
	}
}

// FuzzSettlerFrames feeds the settler frames drawn from the input (grey
// squares on a plain tray, 0xFF starting a new frame) and a reader whose
// answers come from the input too. Whatever the frames, the settler reports
// at most once per rest, never sooner than StillFrames after it began, and
// leaks no Mat.
func FuzzSettlerFrames(f *testing.F) {
	f.Add([]byte{0xFF, 0xFF, 0xFF, 10, 10, 200, 0xFF, 10, 10, 200, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF})
	f.Add([]byte{1, 2, 3, 0xFF, 4, 5, 6, 0xFF, 0xFF, 0xFF, 0xFF, 7, 8, 9, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		const w, h = 64, 48
		o := DefaultSettleOpts
		k := 0
		read := func(gocv.Mat) Roll {
			k++
			v := 0
			if len(b) > 0 {
				v = int(b[k%len(b)])
			}
			die := func(face int, x int) Die {
				if v%7 == 0 {
					return Die{Found: v%2 == 0, Confidence: 0.1, Why: Why{Code: WhyCode(v % int(numWhyCodes))}}
				}
				return Die{Face: face, Confidence: 0.9, Found: true, Box: image.Rect(x, 10, x+6, 16)}
			}
			return Roll{Blue: die(1+v%8, v%40), Red: die(1+(v/8)%8, 40-v%40)}
		}
		st := NewSettler(read, o)
		defer st.Close()
		at := time.Unix(0, 0)
		reported, movedSince := false, false
		frame := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(60, 60, 60, 0), h, w, gocv.MatTypeCV8UC1)
		defer frame.Close()
		step := func() {
			evs, err := st.Frame(frame, at)
			if err != nil {
				t.Fatal(err)
			}
			at = at.Add(frameTime)
			if len(evs) > 1 {
				t.Fatalf("%d events from one frame", len(evs))
			}
			for _, e := range evs {
				switch e := e.(type) {
				case input.DiceRolled:
					if e.Latency < time.Duration(o.StillFrames)*frameTime {
						t.Errorf("%v reported %v after the rest began, want at least %d frames", e, e.Latency, o.StillFrames)
					}
				case input.DiceUnreadable:
				default:
					t.Errorf("unexpected %v", e)
				}
			}
			if len(evs) > 0 && st.State() != TrayStill {
				t.Errorf("reported while the tray is %v", st.State())
			}
			if st.State() != TrayStill {
				movedSince = true
			}
			if len(evs) > 0 {
				if reported && !movedSince {
					t.Errorf("%v: a second report of the same rest", evs[0])
				}
				reported, movedSince = true, false
			}
		}
		for i := 0; i+2 < len(b); i += 3 {
			if b[i] == 0xFF {
				step()
				i -= 2
				continue
			}
			r := image.Rect(int(b[i])%w, int(b[i+1])%h, int(b[i])%w+4, int(b[i+1])%h+4)
			gocv.Rectangle(&frame, r, color.RGBA{b[i+2], b[i+2], b[i+2], 0}, -1)
		}
		for i := 0; i < o.StillFrames+o.ReadFrames+1; i++ {
			step()
		}
	})
}

// TestWatchFrameRate replays a sequence as fast as it can be read, with
// frames stamped at 30 per second: the latencies are in the recording's
// time, whatever the real clock does.
func TestWatchFrameRate(t *testing.T) {
	checkLeaks(t)
	dir := filepath.Join("testdata", "sequences", "two-throws")
	frames, want := loadSequence(t, dir)
	src, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	i := -1
	tr := &truthReader{frames: frames, at: &i, size: image.Rect(0, 0, 320, 240)}
	var got []gotRoll
	// A clock that never moves: only FrameRate can space the frames.
	start := time.Date(2026, 1, 1, 20, 0, 0, 0, time.UTC)
	o := DefaultWatchOpts
	o.FrameRate = 30
	o.Clock = clock.NewFake(start)
	for e := range Watch(context.Background(), countingSource{src, &i}, tr.Read, o) {
		if r, ok := e.(input.DiceRolled); ok {
			got = append(got, gotRoll{frame: int(r.At.Sub(start) / frameTime), ev: r})
		} else {
			t.Errorf("unexpected %v", e)
		}
	}
	checkRolls(t, got, want, DefaultSettleOpts)
}

// TestSettleNoisyCamera settles the recorded sequences through a poor
// camera: strong sensor noise (standard deviation 8 levels) and the whole
// picture flickering from frame to frame (gain 4% and offset 4 levels up
// and down), as under mains lighting. The rolls must not change.
func TestSettleNoisyCamera(t *testing.T) {
	checkLeaks(t)
	for _, name := range sequenceNames {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("testdata", "sequences", name)
			frames, want := loadSequence(t, dir)
			r := rand.New(rand.NewPCG(1, 2))
			perturb := func(i int, m *gocv.Mat) {
				px, err := m.DataPtrUint8()
				if err != nil {
					t.Fatal(err)
				}
				flicker := float64(i%2*2 - 1)
				for j, v := range px {
					px[j] = uint8(min(max(float64(v)*(1+0.04*flicker)+4*flicker+r.NormFloat64()*8+0.5, 0), 255))
				}
			}
			got, _ := settleDirWith(t, dir, frames, DefaultSettleOpts, perturb)
			checkRolls(t, got, want, DefaultSettleOpts)
		})
	}
}

func TestTrayStateString(t *testing.T) {
	for s, want := range map[TrayState]string{TrayMoving: "moving", TrayStill: "still", TrayHand: "hand", 7: "TrayState(7)"} {
		if got := s.String(); got != want {
			t.Errorf("TrayState(%d).String() = %q, want %q", int(s), got, want)
		}
	}
}
