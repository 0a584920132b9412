package dicefeed

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"comptoir/input"
	"comptoir/vision"
)

// valTables is a folder of the dice reader's tuning tables (dicewide -kind
// tables): per table, frames of each die alone, then throws.
const valTables = "../../../vision/testdata/val-tables"

// TestDicefeedLearnsFlatDice plays the throws of a tuning table (table 3
// of val-tables: dice 110 pixels across under a camera leaning 14
// degrees) to dicefeed as a camera would film them, the table without
// dice between throws (the median of the table's frames). The reader learns, at each rest of the
// dice, where this camera shows a flat die's numeral; by the fifteenth
// throw it knows, and refuses the red die of 00138.jpg, cocked against
// the tray's wall and showing an 8 and a 2, that a reader which learned
// nothing reads as a 2 (vision.TestCalibrationSeesCockedDie). The table
// is then asked for the roll, with the reason.
func TestDicefeedLearnsFlatDice(t *testing.T) {
	throws, walls, frames := table3Throws(t)
	dir := frames(throws)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	fr := startFeed(t, ctx, feedOpts{Frames: dir, FPS: 30, KeepOnEOF: true, Readings: true})
	fr.stdin.Close()
	var readings []input.DiceReading
	gotAll := make(chan struct{})
	go func() {
		defer close(gotAll)
		for r := range fr.readings {
			readings = append(readings, r)
		}
	}()
	var last input.Event
	rests := 0
	for e := range fr.events {
		switch e.(type) {
		case input.DiceRolled, input.DiceUnreadable:
			rests++
			last = e
		}
	}
	if err := <-fr.done; err != nil {
		t.Fatalf("dicefeed: %v\n%s", err, fr.stderr)
	}
	<-gotAll
	// the other pictures with a wall, shown 10 frames only, are not
	// read
	if rests != len(throws)-walls {
		t.Errorf("%d throws reported, want %d (%d throws, %d with a tray wall)", rests, len(throws)-walls, len(throws), walls)
	}
	// each verdict says what the reader had learned of its camera:
	// more and more flat dice, until it refuses the dice whose numeral
	// lies elsewhere; and, by the fourth throw (a die or two a throw),
	// how large the dice look (110 pixels across: not small)
	if len(readings) != rests {
		t.Fatalf("%d verdicts for %d throws reported", len(readings), rests)
	}
	prev := 0
	for i, r := range readings {
		v := r.View
		switch {
		case v == nil:
			t.Fatalf("verdict %d has no view", i+1)
		case v.Flat < prev || v.Flat > 2*(i+1) || v.Moved != 0:
			t.Errorf("verdict %d: view %+v after %d flat dice; want at most two more a throw, no camera move", i+1, *v, prev)
		case (v.Flat >= vision.MinFlatDice) != (v.FlatNeed == 0) || v.FlatNeed > vision.MinFlatDice:
			t.Errorf("verdict %d: view %+v: want flat_need 0 from %d dice, and how many more before", i+1, *v, vision.MinFlatDice)
		case (i >= 3 || v.Across != 0) && (v.Across < 90 || v.Across > 130 || v.Small || v.SmallUnder != vision.SmallDieAcross):
			t.Errorf("verdict %d: view %+v: want the dice about 110 pixels across, not small", i+1, *v)
		}
		prev = v.Flat
	}
	if v := readings[len(readings)-1].View; v == nil || v.FlatNeed != 0 {
		t.Errorf("the last verdict's view %+v: want the reader refusing by then (flat_need 0)", v)
	}
	u, ok := last.(input.DiceUnreadable)
	if !ok || !strings.Contains(u.Reason, "red die: "+vision.Why{Code: vision.WhyNotFlatHere}.EN()) {
		t.Errorf("the throw of 00138.jpg: %v, want the red die refused: %s", last, vision.Why{Code: vision.WhyNotFlatHere}.EN())
	}
}

// table3Throws returns the throws of table 3 of val-tables up to
// 00138.jpg (15), how many of them before it show a tray wall, and
// frames, which writes a folder of frames of the throws given, filmed as
// a camera would: the table without dice (the median of the table's
// frames) between throws, each throw held long enough to be a rest.
func table3Throws(t *testing.T) (throws []string, walls int, frames func([]string) string) {
	t.Helper()
	rows := readCSV(t, filepath.Join(valTables, "labels.csv"))
	wallCol := slices.Index(rows[0], "wall")
	if wallCol < 0 {
		t.Fatalf("%s/labels.csv has no wall column", valTables)
	}
	var all []string
	for _, row := range rows[1:] {
		// file, blue, red, ..., table, use
		if row[len(row)-2] != "3" {
			continue
		}
		all = append(all, filepath.Join(valTables, row[0]))
		if row[len(row)-1] != "eval" || len(throws) > 0 && throws[len(throws)-1] == "00138.jpg" {
			continue
		}
		throws = append(throws, row[0])
		if row[wallCol] == "true" && row[0] != "00138.jpg" {
			walls++
		}
	}
	if len(throws) != 15 || throws[14] != "00138.jpg" {
		t.Fatalf("table 3's throws up to 00138.jpg: %v, want 15", throws)
	}
	empty := filepath.Join(t.TempDir(), "empty.jpg")
	writeMedian(t, empty, all)
	abs, err := filepath.Abs(valTables)
	if err != nil {
		t.Fatal(err)
	}
	frames = func(throws []string) string {
		dir := t.TempDir()
		n := 0
		link := func(src string) {
			t.Helper()
			n++
			if err := os.Symlink(src, filepath.Join(dir, fmt.Sprintf("f%05d.jpg", n))); err != nil {
				t.Fatal(err)
			}
		}
		for _, th := range throws {
			// long enough to be a rest of the empty table, which later
			// rests are compared with
			for range 6 {
				link(empty)
			}
			// a picture with a tray wall (a die cocked against it)
			// differs from the empty table as a hand over the tray does:
			// the settler takes it as the tray's new look after
			// HandTimeout frames
			frames := 10
			if th == "00138.jpg" {
				frames += vision.DefaultSettleOpts.HandTimeout
			}
			for range frames {
				link(filepath.Join(abs, th))
			}
		}
		for range 3 {
			link(empty)
		}
		return dir
	}
	return throws, walls, frames
}

// writeMedian writes the median of the pictures, pixel by pixel: the
// table without its dice, which lie elsewhere in each.
func writeMedian(t *testing.T, path string, pictures []string) {
	t.Helper()
	var pics []image.Image
	for _, p := range pictures {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		m, err := jpeg.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		pics = append(pics, m)
	}
	b := pics[0].Bounds()
	out := image.NewRGBA(b)
	vals := make([][3]uint32, len(pics))
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			for i, m := range pics {
				r, g, bl, _ := m.At(x, y).RGBA()
				vals[i] = [3]uint32{r, g, bl}
			}
			var c [3]uint8
			for k := range 3 {
				s := make([]uint32, len(vals))
				for i, v := range vals {
					s[i] = v[k]
				}
				slices.Sort(s)
				c[k] = uint8(s[len(s)/2] >> 8)
			}
			out.SetRGBA(x, y, color.RGBA{c[0], c[1], c[2], 255})
		}
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := jpeg.Encode(f, out, &jpeg.Options{Quality: 92}); err != nil {
		t.Fatal(err)
	}
}
