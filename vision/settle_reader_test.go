package vision

import (
	"image"
	"path/filepath"
	"testing"
	"time"

	"comptoir/input"

	"gocv.io/x/gocv"
)

// TestSettleWithReader settles recorded 640x480 throws with the real
// reader: a roll, and a roll followed by a die knocked onto another face.
// The settler reads the dice only once they rest, and the reader reads
// them right.
func TestSettleWithReader(t *testing.T) {
	checkLeaks(t)
	for _, name := range []string{"roll", "knock-change"} {
		t.Run(name, func(t *testing.T) { settleWithReader(t, filepath.Join("testdata", "sequences-640", name)) })
	}
}

func settleWithReader(t *testing.T, dir string) {
	frames, want := loadSequence(t, dir)
	r, err := NewReader(DefaultReaderOpts)
	if err != nil {
		t.Fatal(err)
	}
	src, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	i := 0
	var reads []int
	read := func(m gocv.Mat) Roll {
		reads = append(reads, i)
		return r.Read(m)
	}
	st := NewSettler(read, DefaultSettleOpts)
	defer st.Close()
	m := gocv.NewMat()
	defer m.Close()
	start := time.Date(2026, 1, 1, 20, 0, 0, 0, time.UTC)
	var got []gotRoll
	for ; src.Read(&m); i++ {
		evs, err := st.Frame(m, start.Add(time.Duration(i)*frameTime))
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		for _, e := range evs {
			if r, ok := e.(input.DiceRolled); ok {
				got = append(got, gotRoll{frame: i, ev: r})
			} else {
				t.Errorf("frame %d: %v", i, e)
			}
		}
	}
	if err := src.Err(); err != nil {
		t.Fatal(err)
	}
	checkRolls(t, got, want, DefaultSettleOpts)
	pic := image.Rect(0, 0, 640, 480)
	for _, i := range reads {
		f := frames[i]
		if f.state != "rest" && f.state != "empty" && (f.blueBox.Overlaps(pic) || f.redBox.Overlaps(pic)) {
			t.Errorf("read frame %d, whose dice are %s", i, f.state)
		}
	}
}
