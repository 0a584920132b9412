package stills

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"comptoir/hw/clock"
	"comptoir/vision"
)

func solid(v float64) gocv.Mat {
	return gocv.NewMatWithSizeFromScalar(gocv.NewScalar(v, v, v, 0), 4, 4, gocv.MatTypeCV8UC3)
}

// TestShown checks a shown picture is filmed until another replaces it,
// and that reads stop at Close and at the context's end.
func TestShown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	s := NewShown(ctx, solid(10), 1000, clock.Real())
	m := gocv.NewMat()
	defer m.Close()
	for _, want := range []uint8{10, 10} {
		if !s.Read(&m) || m.GetVecbAt(0, 0)[0] != want {
			t.Fatalf("read %v, want a picture of %d", m.GetVecbAt(0, 0), want)
		}
	}
	s.Show(solid(200))
	if !s.Read(&m) || m.GetVecbAt(0, 0)[0] != 200 {
		t.Fatalf("after Show, read %v, want 200", m.GetVecbAt(0, 0))
	}
	cancel()
	if s.Read(&m) {
		t.Errorf("read after the context's end")
	}
	s.Close()
	s.Show(solid(5)) // closed at once, not leaked
	if s.Read(&m) {
		t.Errorf("read after Close")
	}
}

// TestPacedLoop plays a folder of three pictures twice, paced, and checks
// the order and the pace.
func TestPacedLoop(t *testing.T) {
	dir := t.TempDir()
	for i, v := range []float64{1, 2, 3} {
		img := solid(v * 50)
		if !gocv.IMWrite(filepath.Join(dir, string(rune('a'+i))+".png"), img) {
			t.Fatal("cannot write a test picture")
		}
		img.Close()
	}
	opens := 0
	src := Pace(context.Background(), Loop(func() (vision.Source, error) {
		opens++
		return vision.OpenDir(dir)
	}), 100, clock.Real())
	defer src.Close()
	m := gocv.NewMat()
	defer m.Close()
	start := time.Now()
	var got []uint8
	for range 6 {
		if !src.Read(&m) {
			t.Fatalf("the loop ended: %v", src.Err())
		}
		got = append(got, m.GetVecbAt(0, 0)[0])
	}
	if want := []uint8{50, 100, 150, 50, 100, 150}; string(got) != string(want) {
		t.Errorf("frames %v, want %v", got, want)
	}
	if opens != 2 {
		t.Errorf("opened the folder %d times, want 2", opens)
	}
	// 6 frames at 100 a second: the 6th comes 50 ms after the first.
	if d := time.Since(start); d < 45*time.Millisecond {
		t.Errorf("6 frames in %v: not paced at 100 a second", d)
	}
}

// TestLoopError checks a folder that goes away ends the loop with its error.
func TestLoopError(t *testing.T) {
	dir := t.TempDir()
	l := Loop(func() (vision.Source, error) { return vision.OpenDir(dir) })
	m := gocv.NewMat()
	defer m.Close()
	if l.Read(&m) {
		t.Fatal("read a frame from an empty folder")
	}
	if l.Err() == nil {
		t.Error("no error for an empty folder")
	}
	os.RemoveAll(dir)
}
