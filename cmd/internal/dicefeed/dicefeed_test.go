package dicefeed

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"image"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"comptoir/hw/replay"
	"comptoir/input"
	"comptoir/vision"
)

// feedRun is dicefeed running on pipes.
type feedRun struct {
	stdin  *io.PipeWriter
	events chan input.Event
	// readings are the reader's verdicts (o.Readings), each with the
	// event after it.
	readings chan input.DiceReading
	done     chan error
	stderr   *strings.Builder
}

// startFeed runs dicefeed with o; every line it writes is decoded with the
// recording decoder (a line that does not decode fails the test), but
// for the verdicts (o.Readings), which go to readings.
func startFeed(t *testing.T, ctx context.Context, o feedOpts) *feedRun {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	f := &feedRun{stdin: inW, events: make(chan input.Event, 100), readings: make(chan input.DiceReading, 100), done: make(chan error, 1), stderr: &strings.Builder{}}
	go func() {
		err := dicefeed(ctx, o, inR, outW, lockedWriter{f.stderr})
		inR.Close()
		outW.Close()
		f.done <- err
	}()
	go func() {
		defer close(f.events)
		defer close(f.readings)
		sc := bufio.NewScanner(outR)
		for n := 1; sc.Scan(); n++ {
			var rl readingLine
			if o.Readings && json.Unmarshal(sc.Bytes(), &rl) == nil && rl.Type == "reading" {
				f.readings <- rl.DiceReading
				continue
			}
			evs, err := replay.Decode(strings.NewReader(sc.Text()), fmt.Sprintf("stdout:%d", n))
			if err != nil || len(evs) != 1 {
				t.Errorf("dicefeed wrote %q: %v", sc.Text(), err)
				continue
			}
			f.events <- evs[0]
		}
	}()
	return f
}

type lockedWriter struct{ b *strings.Builder }

func (w lockedWriter) Write(p []byte) (int, error) { return w.b.Write(p) }

// next returns the next event of type T, skipping others.
func next[T input.Event](t *testing.T, f *feedRun, within time.Duration) T {
	t.Helper()
	timeout := time.After(within)
	for {
		select {
		case e, ok := <-f.events:
			if !ok {
				var zero T
				t.Fatalf("dicefeed stopped before a %T", zero)
			}
			if v, ok := e.(T); ok {
				return v
			}
			t.Logf("event %v", e)
		case <-timeout:
			var zero T
			t.Fatalf("no %T within %v", zero, within)
		}
	}
}

// TestDicefeedPictures asks dicefeed, on its stdin, to show rolls as
// rendered pictures: the real reader and settler report those rolls on its
// stdout, and the end of stdin stops it.
func TestDicefeedPictures(t *testing.T) {
	// The demo's pictured rolls (one picture each, each roll's dice away
	// from the one before), and one labelled with a roll it does not show.
	dir := t.TempDir()
	rows := readCSV(t, filepath.Join(demoPictures, "labels.csv"))
	if len(rows) < 5 {
		t.Fatalf("%s/labels.csv lists %d pictures, want the start and 3 rolls or more", demoPictures, len(rows)-1)
	}
	var labels strings.Builder
	var rolls [][2]int
	for i, r := range rows {
		fmt.Fprintf(&labels, "%s,%s,%s\n", r[0], r[1], r[2])
		if i == 0 {
			continue
		}
		copyPicture(t, filepath.Join(demoPictures, r[0]), filepath.Join(dir, r[0]))
		if i >= 2 && len(rolls) < 3 {
			var b, d int
			fmt.Sscan(r[1], &b)
			fmt.Sscan(r[2], &d)
			rolls = append(rolls, [2]int{b, d})
		}
	}
	// A picture of the first roll, labelled 8,1 (no picture of 8,1 reads so).
	fmt.Fprintf(&labels, "%s,8,1\n", rows[2][0])
	if err := os.WriteFile(filepath.Join(dir, "labels.csv"), []byte(labels.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFeed(t, context.Background(), feedOpts{Pictures: dir, FPS: 30})
	if st := next[input.DeviceStatus](t, f, 10*time.Second); !st.OK || st.Device != "camera" {
		t.Fatalf("first status %v, want the camera OK", st)
	}
	// The settler first learns the tray's look from the first picture.
	time.Sleep(time.Second)
	w := replay.NewWriter(f.stdin)
	for _, roll := range rolls {
		if err := w.Write(input.DiceRolled{At: time.Now(), Blue: input.Face(roll[0]), Red: input.Face(roll[1]), Confidence: 1}); err != nil {
			t.Fatal(err)
		}
		d := next[input.DiceRolled](t, f, 10*time.Second)
		if int(d.Blue) != roll[0] || int(d.Red) != roll[1] || d.Correction {
			t.Fatalf("dicefeed reports %+v, want the roll %v", d, roll)
		}
	}
	if s := f.stderr.String(); strings.Contains(s, "reported unread") {
		t.Fatalf("a pictured roll was not read by the reader:\n%s", s)
	}
	// A roll with no picture: reported as asked, and said on stderr.
	w.Write(input.DiceRolled{At: time.Now(), Blue: 8, Red: 1, Confidence: 1})
	if d := next[input.DiceRolled](t, f, 10*time.Second); d.Blue != 8 || d.Red != 1 {
		t.Errorf("a roll without a picture came out as %v", d)
	}
	f.stdin.Close()
	select {
	case err := <-f.done:
		if err != nil {
			t.Errorf("dicefeed after the end of stdin: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("dicefeed did not stop at the end of stdin")
	}
	if !strings.Contains(f.stderr.String(), "blue=8 red=1") {
		t.Errorf("stderr does not name the roll without a picture:\n%s", f.stderr)
	}
}

// TestDicefeedFrames reads a recorded throw from a folder of frames and
// checks the rolls against the sequence's expected.csv; then the same
// folder looping reports the throw again, until the context ends.
func TestDicefeedFrames(t *testing.T) {
	dir := "../../../vision/testdata/sequences-640/roll"
	want := expectedRolls(t, filepath.Join(dir, "expected.csv"))
	f := startFeed(t, context.Background(), feedOpts{Frames: dir, FPS: 200, KeepOnEOF: true})
	var got []string
	for e := range f.events {
		if d, ok := e.(input.DiceRolled); ok {
			got = append(got, fmt.Sprintf("%d,%d,%v", d.Blue, d.Red, d.Correction))
		}
	}
	if err := <-f.done; err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("rolls %v, want %v (expected.csv)", got, want)
	}

	ctx, cancel := context.WithCancel(context.Background())
	f = startFeed(t, ctx, feedOpts{Frames: dir, FPS: 200, Loop: true, KeepOnEOF: true})
	for range 2 * len(want) {
		next[input.DiceRolled](t, f, 10*time.Second)
	}
	cancel()
	if err := <-f.done; err != nil {
		t.Errorf("dicefeed after cancel: %v", err)
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	rows, err := csv.NewReader(fh).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func copyPicture(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err == nil {
		err = os.WriteFile(to, data, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}

func expectedRolls(t *testing.T, path string) []string {
	t.Helper()
	rows := readCSV(t, path)
	var out []string
	for _, r := range rows[1:] {
		if len(r) < 5 || r[4] != "true" {
			out = append(out, r[1]+","+r[2]+","+r[3])
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s expects no roll", path)
	}
	return out
}

// TestDicefeedErrors checks bad arguments and missing folders.
func TestDicefeedErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no source", nil, "give one of"},
		{"two sources", []string{"--frames", "a", "--video", "b"}, "give one of"},
		{"bad fps", []string{"--frames", "a", "--fps", "0"}, "usage"},
		{"stray argument", []string{"--frames", "a", "b"}, "usage"},
		{"missing folder", []string{"--frames", "/nonexistent/frames"}, "frames folder"},
		{"missing labels", []string{"--pictures", t.TempDir()}, "labels.csv"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Run(tc.args, io.Discard, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want one saying %q", err, tc.want)
			}
			if tc.want == "usage" && !errors.Is(err, ErrUsage) {
				t.Errorf("err %v is not ErrUsage", err)
			}
		})
	}
}

var update = flag.Bool("update", false, "pick the demo's pictured rolls again (TestDemoPictures)")

// demoPictures is the demo's folder of pictured rolls
// (configs/tables/demo.yaml's replay.frames).
const demoPictures = "../../../configs/demo/dice"

// TestDemoPictures checks the demo's pictured rolls: every picture is
// read right by the current reader, every roll of the demo's recording
// has pictures, and dicefeed, asked for the recording's rolls in order,
// reports them. With -update it picks the pictures again from
// vision/testdata/rendered, keeping those the reader reads right.
func TestDemoPictures(t *testing.T) {
	rec, err := replay.Open("../../../configs/demo/genoa-inputs.jsonl", replay.DefaultOpts)
	if err != nil {
		t.Fatal(err)
	}
	var rolls [][2]int
	for _, e := range rec.Events() {
		if d, ok := e.(input.DiceRolled); ok {
			rolls = append(rolls, [2]int{int(d.Blue), int(d.Red)})
		}
	}
	reader, err := vision.NewReader(vision.DefaultReaderOpts)
	if err != nil {
		t.Fatal(err)
	}
	readsRight := func(path string, blue, red int) bool {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		img, err := vision.DecodeImage(data)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		defer img.Close()
		r := reader.Read(img)
		return r.Blue.Face == blue && r.Red.Face == red
	}
	if *update {
		pickDemoPictures(t, reader, rolls)
	}
	have := map[[2]int]int{}
	for _, r := range readCSV(t, filepath.Join(demoPictures, "labels.csv"))[1:] {
		var b, d int
		fmt.Sscan(r[1], &b)
		fmt.Sscan(r[2], &d)
		if !readsRight(filepath.Join(demoPictures, r[0]), b, d) {
			t.Errorf("%s is labelled %d,%d but the reader does not read it so (go test ./cmd/internal/dicefeed -run TestDemoPictures -update picks others)", r[0], b, d)
		}
		have[[2]int{b, d}]++
	}
	for _, roll := range rolls {
		if have[roll] == 0 {
			t.Errorf("the demo's roll %v has no picture (go test ./cmd/internal/dicefeed -run TestDemoPictures -update)", roll)
		}
	}
	if t.Failed() {
		return
	}

	// The recording's rolls, twice (the demo loops), through dicefeed.
	f := startFeed(t, context.Background(), feedOpts{Pictures: demoPictures, FPS: 30})
	next[input.DeviceStatus](t, f, 10*time.Second)
	time.Sleep(time.Second)
	w := replay.NewWriter(f.stdin)
	for _, roll := range append(rolls, rolls...) {
		w.Write(input.DiceRolled{At: time.Now(), Blue: input.Face(roll[0]), Red: input.Face(roll[1]), Confidence: 1})
		d := next[input.DiceRolled](t, f, 10*time.Second)
		if int(d.Blue) != roll[0] || int(d.Red) != roll[1] || d.Correction {
			t.Fatalf("dicefeed reports %v, want the roll %v", d, roll)
		}
	}
	f.stdin.Close()
	if err := <-f.done; err != nil {
		t.Error(err)
	}
	if s := f.stderr.String(); strings.Contains(s, "reported unread") {
		t.Errorf("a demo roll was not read by the reader:\n%s", s)
	}
}

// pickDemoPictures writes the demo's folder of pictured rolls: one picture
// of each roll of the recording, read right by the reader, each with both
// dice away from the picture before it in the looping recording (so the
// settler sees a new throw, not a die knocked), and the first rendered
// picture as the tray's look at start.
func pickDemoPictures(t *testing.T, reader *vision.Reader, rolls [][2]int) {
	t.Helper()
	src := "../../../vision/testdata/rendered"
	rows := readCSV(t, filepath.Join(src, "labels.csv"))
	type cand struct {
		row []string
		box [2]image.Rectangle
	}
	cands := map[[2]int][]cand{}
	for _, r := range rows[1:] {
		var b, d int
		fmt.Sscan(r[1], &b)
		fmt.Sscan(r[2], &d)
		data, err := os.ReadFile(filepath.Join(src, r[0]))
		if err != nil {
			t.Fatal(err)
		}
		img, err := vision.DecodeImage(data)
		if err != nil {
			t.Fatal(err)
		}
		got := reader.Read(img)
		img.Close()
		if got.Blue.Face == b && got.Red.Face == d {
			cands[[2]int{b, d}] = append(cands[[2]int{b, d}], cand{r, [2]image.Rectangle{got.Blue.Box, got.Red.Box}})
		}
	}
	far := func(a, b cand) bool { return !near(a.box[0], b.box[0]) && !near(a.box[1], b.box[1]) }
	pick := make([]cand, len(rolls))
	var search func(i int) bool
	search = func(i int) bool {
		if i == len(rolls) {
			return len(rolls) < 2 || far(pick[i-1], pick[0])
		}
		for _, c := range cands[rolls[i]] {
			if i > 0 && !far(pick[i-1], c) {
				continue
			}
			pick[i] = c
			if search(i + 1) {
				return true
			}
		}
		return false
	}
	if !search(0) {
		t.Fatalf("no pictures of the rolls %v with each roll's dice away from the last's", rolls)
	}
	os.RemoveAll(demoPictures)
	if err := os.MkdirAll(demoPictures, 0o755); err != nil {
		t.Fatal(err)
	}
	labels := "file,blue,red\n"
	for _, r := range append([][]string{rows[1]}, func() (out [][]string) {
		for _, c := range pick {
			out = append(out, c.row)
		}
		return out
	}()...) {
		labels += strings.Join(r[:3], ",") + "\n"
		copyPicture(t, filepath.Join(src, r[0]), filepath.Join(demoPictures, r[0]))
	}
	if err := os.WriteFile(filepath.Join(demoPictures, "labels.csv"), []byte(labels), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDicefeedMissingCamera starts on a camera that is not there: it is
// reported down once, tried again, and the end of stdin stops dicefeed.
func TestDicefeedMissingCamera(t *testing.T) {
	f := startFeed(t, context.Background(), feedOpts{Camera: "/dev/video-comptoir-none", FPS: 30})
	st := next[input.DeviceStatus](t, f, 10*time.Second)
	if st.OK || st.Device != "camera" || !strings.Contains(st.Detail, "retrying") {
		t.Errorf("status %+v, want the camera down and retried", st)
	}
	f.stdin.Close()
	select {
	case err := <-f.done:
		if err != nil {
			t.Errorf("dicefeed after the end of stdin: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("dicefeed did not stop at the end of stdin")
	}
	for e := range f.events {
		if st, ok := e.(input.DeviceStatus); ok && !st.OK && strings.Contains(st.Detail, "does not exist") {
			t.Errorf("the missing camera was reported again at once: %v", st)
		}
	}
}
