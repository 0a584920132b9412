package dicefeed

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"comptoir/hw/clock"
	"comptoir/hw/replay"
	"comptoir/input"
	"comptoir/vision"
)

// fakeMat stands for OpenCV's matrix in the tap's unit test: a grey
// picture of one level.
type fakeMat struct {
	level  uint8
	closed *int
}

func (m *fakeMat) Clone() fakeMat { return *m }
func (m *fakeMat) Close() error   { *m.closed++; return nil }
func (m *fakeMat) ToImage() (image.Image, error) {
	img := image.NewGray(image.Rect(0, 0, 64, 48))
	for i := range img.Pix {
		img.Pix[i] = m.level
	}
	return img, nil
}

// TestReadingTap checks the verdict given for each report (the reading
// the settler reported, die by die) and the inspection of the last frame
// read, on made-up readings.
func TestReadingTap(t *testing.T) {
	unclear := vision.Why{Code: vision.WhyLooksLike, Face: 6, Other: 8}
	notFound := vision.Why{Code: vision.WhyNotFound}
	die := func(face int, conf float64, why vision.Why) vision.Die {
		return vision.Die{Face: face, Confidence: conf, Found: why != notFound, Why: why}
	}
	none := vision.Why{}
	var reads []vision.Roll
	read := func(m fakeMat) vision.Roll { return reads[int(m.level)] }
	closed := 0
	tp, tapped := tapReader(read, 3, clock.Real())
	reads = []vision.Roll{
		{Blue: die(3, 0.98, none), Red: die(0, 0.3, unclear)},
		{Blue: die(3, 0.97, none), Red: die(5, 0.91, none)},
		{Blue: die(3, 0.99, none), Red: die(5, 0.95, none)},
		{Blue: die(0, 0, notFound), Red: die(0, 0.2, unclear)},
		{Blue: die(7, 0.6, none), Red: die(0, 0.4, unclear)},
	}
	if _, err := tp.inspect(filepath.Join(t.TempDir(), "none.jpg")); err != ErrNoFrame {
		t.Fatalf("inspect before any frame = %v, want ErrNoFrame", err)
	}
	for i := range 3 {
		tapped(fakeMat{level: uint8(i), closed: &closed})
	}
	if closed != 2 {
		t.Errorf("%d frames closed after 3 reads, want the 2 replaced", closed)
	}
	t.Run("roll", func(t *testing.T) {
		// The settler reported the second reading (its faces and its
		// confidence, the lower die's): the verdict is that one's.
		v := tp.verdict(input.DiceRolled{At: time.Unix(100, 0), Blue: 3, Red: 5, Confidence: 0.91})
		if v.Blue.Face != 3 || v.Red.Face != 5 || v.Blue.Confidence != 0.97 || v.Red.Confidence != 0.91 || v.Reason != "" || v.ReasonFR != "" || !v.At.Equal(time.Unix(100, 0)) {
			t.Errorf("verdict %+v, want blue 3 (0.97) red 5 (0.91)", v)
		}
	})
	t.Run("unreadable", func(t *testing.T) {
		tapped(fakeMat{level: 3, closed: &closed})
		tapped(fakeMat{level: 4, closed: &closed})
		v := tp.verdict(input.DiceUnreadable{At: time.Unix(200, 0), Reason: "red die: " + unclear.EN(), ReasonFR: "dé rouge : " + unclear.FR()})
		// The best of the rest: the one with the blue die read, the
		// reasons in both languages.
		if v.Blue.Face != 7 || v.Red.Face != 0 || v.Red.Reason != unclear.EN() || v.Red.ReasonFR != unclear.FR() ||
			v.Reason != "red die: "+unclear.EN() || v.ReasonFR != "dé rouge : "+unclear.FR() || v.Blue.Reason != "" || v.Blue.ReasonFR != "" {
			t.Errorf("verdict %+v, want blue 7, red unread (%s)", v, unclear.EN())
		}
	})
	t.Run("inspect", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "f.jpg")
		v, err := tp.inspect(path)
		if err != nil {
			t.Fatal(err)
		}
		if v.Blue.Face != 7 || v.Red.Face != 0 || v.Reason != "red die: "+unclear.EN() || v.ReasonFR != "dé rouge : "+unclear.FR() {
			t.Errorf("inspected verdict %+v, want the last frame's (blue 7, red unread)", v)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		img, err := jpeg.Decode(f)
		if err != nil {
			t.Fatalf("the frame saved is not a JPEG: %v", err)
		}
		if g := color.GrayModel.Convert(img.At(10, 10)).(color.Gray); img.Bounds().Dx() != 64 || g.Y < 2 || g.Y > 6 {
			t.Errorf("the frame saved is %v with level %d, want the last frame read (64 wide, level 4)", img.Bounds(), g.Y)
		}
	})
	tp.close()
	if closed != 5 {
		t.Errorf("%d frames closed in all, want the 5 read", closed)
	}
}

// TestDicefeedReadings runs the real reader on pictured rolls with
// --readings: each roll comes after its verdict die by die, and an
// inspect request saves the last frame read as a JPEG with the verdict.
func TestDicefeedReadings(t *testing.T) {
	feed := startDemoFeed(t)
	rolls, inW := feed.rolls[:2], feed.in
	nextLine := func(typ string) map[string]any {
		t.Helper()
		raw := feed.next(typ, 15*time.Second)
		var m map[string]any
		json.Unmarshal([]byte(raw), &m)
		m["raw"] = raw
		return m
	}
	time.Sleep(time.Second) // the settler learns the tray
	w := replay.NewWriter(inW)
	for _, roll := range rolls {
		w.Write(input.DiceRolled{At: time.Now(), Blue: input.Face(roll[0]), Red: input.Face(roll[1]), Confidence: 1})
		rd := nextLine("reading")
		next := feed.line()
		evs, err := replay.Decode(strings.NewReader(next), "stdout")
		if err != nil || len(evs) != 1 {
			t.Fatalf("the line after the reading is %v (%v), want the roll", next, err)
		}
		d, ok := evs[0].(input.DiceRolled)
		if !ok {
			t.Fatalf("the line after the reading is %v, want the roll", evs[0])
		}
		var v readingLine
		json.Unmarshal([]byte(rd["raw"].(string)), &v)
		if int(v.Blue.Face) != roll[0] || int(v.Red.Face) != roll[1] || min(v.Blue.Confidence, v.Red.Confidence) != d.Confidence || !v.At.Equal(d.At) || v.Reason != "" {
			t.Errorf("reading %s before roll %v, want the dice %v with the roll's confidence and time", rd["raw"], d, roll)
		}
	}
	path := filepath.Join(t.TempDir(), "inspect.jpg")
	fmt.Fprintf(inW, `{"type":"inspect","file":%q}`+"\n", path)
	got := nextLine("inspected")
	var v readingLine
	json.Unmarshal([]byte(got["raw"].(string)), &v)
	last := rolls[len(rolls)-1]
	if v.Error != "" || v.File != path || int(v.Blue.Face) != last[0] || int(v.Red.Face) != last[1] {
		t.Errorf("inspected %s, want the last roll %v saved to %s", got["raw"], last, path)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := jpeg.DecodeConfig(f)
	f.Close()
	if err != nil || cfg.Width < 320 {
		t.Errorf("the saved frame: %v, %dx%d, want a camera-sized JPEG", err, cfg.Width, cfg.Height)
	}
	if fi, err := os.Stat(path); err == nil {
		t.Logf("frame saved for inspection: %dx%d, %d bytes", cfg.Width, cfg.Height, fi.Size())
	}
	fmt.Fprintln(inW, `{"type":"inspect","file":"relative.jpg"}`)
	if got := nextLine("inspected"); !strings.Contains(fmt.Sprint(got["error"]), "absolute") {
		t.Errorf("a relative path: %v, want an error", got["raw"])
	}
	feed.stop()
}

// demoFeed is the real dice reader (dicefeed --readings) on the demo's
// pictured rolls, fed on a pipe and read line by line.
type demoFeed struct {
	t      *testing.T
	in     *io.PipeWriter
	lines  chan string
	done   chan error
	stderr *strings.Builder
	// rolls are the demo's pictured rolls (blue, red), from the third
	// labelled picture on.
	rolls [][2]int
}

// startDemoFeed starts the reader on the demo's pictures, its options
// changed by each of set.
func startDemoFeed(t *testing.T, set ...func(*feedOpts)) *demoFeed {
	t.Helper()
	f := &demoFeed{t: t, lines: make(chan string, 100), done: make(chan error, 1), stderr: &strings.Builder{}}
	for i, r := range readCSV(t, filepath.Join(demoPictures, "labels.csv")) {
		if i >= 2 {
			var b, d int
			fmt.Sscan(r[1], &b)
			fmt.Sscan(r[2], &d)
			f.rolls = append(f.rolls, [2]int{b, d})
		}
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	f.in = inW
	go func() {
		o := feedOpts{Pictures: demoPictures, FPS: 30, Readings: true}
		for _, s := range set {
			s(&o)
		}
		err := dicefeed(context.Background(), o, inR, outW, lockedWriter{f.stderr})
		outW.Close()
		f.done <- err
	}()
	go func() {
		defer close(f.lines)
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			if !json.Valid(sc.Bytes()) {
				t.Errorf("line %q is not JSON", sc.Text())
				continue
			}
			f.lines <- sc.Text()
		}
	}()
	return f
}

// line returns the reader's next line.
func (f *demoFeed) line() string { return <-f.lines }

// next returns the reader's next line of type typ, skipping the others,
// waiting up to wait.
func (f *demoFeed) next(typ string, wait time.Duration) string {
	f.t.Helper()
	timeout := time.After(wait)
	for {
		select {
		case l, ok := <-f.lines:
			if !ok {
				f.t.Fatalf("dicefeed stopped before a %q line:\n%s", typ, f.stderr.String())
			}
			var m struct{ Type string }
			json.Unmarshal([]byte(l), &m)
			if m.Type == typ {
				return l
			}
		case <-timeout:
			f.t.Fatalf("no %q line", typ)
		}
	}
}

// stop ends the reader's stdin and waits for it to stop.
func (f *demoFeed) stop() {
	f.t.Helper()
	f.in.Close()
	select {
	case err := <-f.done:
		if err != nil {
			f.t.Error(err)
		}
	case <-time.After(10 * time.Second):
		f.t.Fatal("dicefeed did not stop at the end of stdin")
	}
}
