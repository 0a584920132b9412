package vision

import (
	"context"
	"errors"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"comptoir/hw/clock"
	"comptoir/input"

	"gocv.io/x/gocv"
)

// copyFile copies src to dst, keeping the first n bytes when n >= 0.
func copyFile(t testing.TB, src, dst string, n int) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if n >= 0 {
		b = b[:n]
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestOpenDir(t *testing.T) {
	checkLeaks(t)
	seq := filepath.Join("testdata", "sequences", "roll")
	good := filepath.Join(seq, "000.jpg")

	t.Run("sorted, other files skipped", func(t *testing.T) {
		dir := t.TempDir()
		for _, name := range []string{"b.jpg", "a.png", "c.JPEG", "notes.txt", "frames.csv"} {
			copyFile(t, good, filepath.Join(dir, name), -1)
		}
		d, err := OpenDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		var names []string
		for _, f := range d.Files() {
			names = append(names, filepath.Base(f))
		}
		if got, want := strings.Join(names, " "), "a.png b.jpg c.JPEG"; got != want {
			t.Errorf("Files() = %q, want %q", got, want)
		}
		m := gocv.NewMat()
		defer m.Close()
		n := 0
		for d.Read(&m) {
			if m.Cols() != 320 || m.Rows() != 240 || m.Channels() != 3 {
				t.Errorf("frame %d is %dx%dx%d, want 320x240x3", n, m.Cols(), m.Rows(), m.Channels())
			}
			n++
		}
		if n != 3 || d.Err() != nil {
			t.Errorf("read %d frames, Err() = %v; want 3 frames, nil", n, d.Err())
		}
		if d.Read(&m) {
			t.Errorf("Read after the end = true")
		}
	})

	t.Run("corrupt picture", func(t *testing.T) {
		dir := t.TempDir()
		copyFile(t, good, filepath.Join(dir, "000.jpg"), -1)
		copyFile(t, good, filepath.Join(dir, "001.jpg"), 300) // truncated header
		copyFile(t, good, filepath.Join(dir, "002.jpg"), -1)
		d, err := OpenDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		m := gocv.NewMat()
		defer m.Close()
		n := 0
		for d.Read(&m) {
			n++
		}
		err = d.Err()
		if n != 1 || !errors.Is(err, ErrCorruptFrame) || !strings.Contains(fmt.Sprint(err), "001.jpg") {
			t.Errorf("read %d frames, Err() = %v; want 1 frame and an ErrCorruptFrame naming 001.jpg", n, err)
		}
	})

	for _, tt := range []struct {
		name  string
		setup func(dir string) string
		want  error
	}{
		{"missing folder", func(dir string) string { return filepath.Join(dir, "nope") }, os.ErrNotExist},
		{"no pictures", func(dir string) string {
			os.WriteFile(filepath.Join(dir, "frames.csv"), []byte("x"), 0o644)
			return dir
		}, ErrNoFrames},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.setup(t.TempDir())
			d, err := OpenDir(path)
			if !errors.Is(err, tt.want) || !strings.Contains(fmt.Sprint(err), path) {
				t.Errorf("OpenDir(%q) = %v, %v; want an error wrapping %v and naming the folder", path, d, err, tt.want)
			}
		})
	}
}

func TestOpenCameraMissing(t *testing.T) {
	checkLeaks(t)
	for _, dev := range []string{"/dev/video-comptoir-test-missing", "/dev/null", "97"} {
		c, err := OpenCamera(dev, DefaultCameraOpts)
		if err == nil {
			c.Close()
			t.Errorf("OpenCamera(%q) = nil error", dev)
			continue
		}
		if !errors.Is(err, ErrNoCamera) || !strings.Contains(err.Error(), dev) || !strings.Contains(err.Error(), "check") {
			t.Errorf("OpenCamera(%q) = %v; want an ErrNoCamera naming the device and what to check", dev, err)
		}
	}
}

// writeVideo writes the pictures of dir as an MJPEG AVI file.
func writeVideo(t testing.TB, dir, path string, n int) {
	t.Helper()
	src, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := gocv.NewMat()
	defer m.Close()
	var w *gocv.VideoWriter
	for i := 0; i < n && src.Read(&m); i++ {
		if w == nil {
			w, err = gocv.VideoWriterFile(path, "MJPG", 30, m.Cols(), m.Rows(), true)
			if err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Write(m); err != nil {
			t.Fatal(err)
		}
	}
	if w == nil {
		t.Fatalf("no frames in %s", dir)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestOpenVideo(t *testing.T) {
	checkLeaks(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "roll.avi")
	writeVideo(t, filepath.Join("testdata", "sequences", "roll"), path, 12)

	t.Run("frames", func(t *testing.T) {
		v, err := OpenVideo(path)
		if err != nil {
			t.Fatal(err)
		}
		defer v.Close()
		m := gocv.NewMat()
		defer m.Close()
		n := 0
		for v.Read(&m) {
			if m.Cols() != 320 || m.Rows() != 240 {
				t.Errorf("frame %d is %dx%d, want 320x240", n, m.Cols(), m.Rows())
			}
			n++
		}
		if n != 12 || v.Err() != nil {
			t.Errorf("read %d frames, Err() = %v; want 12, nil", n, v.Err())
		}
	})
	t.Run("missing", func(t *testing.T) {
		missing := filepath.Join(dir, "nope.avi")
		if v, err := OpenVideo(missing); !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), missing) {
			t.Errorf("OpenVideo(%q) = %v, %v; want a not-exist error naming it", missing, v, err)
		}
	})
	t.Run("not a video", func(t *testing.T) {
		junk := filepath.Join(dir, "junk.avi")
		os.WriteFile(junk, []byte("this is not a video\n"), 0o644)
		v, err := OpenVideo(junk)
		if err == nil {
			// OpenCV may open it and find no frame: that must be an error.
			m := gocv.NewMat()
			defer m.Close()
			if v.Read(&m) {
				t.Errorf("read a frame from %s", junk)
			}
			err = v.Err()
			v.Close()
		}
		if err == nil || !strings.Contains(err.Error(), junk) {
			t.Errorf("OpenVideo(%q): error %v, want an error naming the file", junk, err)
		}
	})
}

// fakeCamera gives frames frames, then fails as an unplugged camera does.
type fakeCamera struct {
	frames int
	closed bool
}

func (c *fakeCamera) Read(m *gocv.Mat) bool {
	if c.frames == 0 || c.closed {
		return false
	}
	c.frames--
	f := gocv.NewMatWithSize(48, 64, gocv.MatTypeCV8UC3)
	defer f.Close()
	f.CopyTo(m)
	return true
}
func (c *fakeCamera) Err() error   { return fmt.Errorf("%w: fake camera unplugged", ErrCameraLost) }
func (c *fakeCamera) Close() error { c.closed = true; return nil }

// stepClock fires the fake clock's timers as soon as the code under test
// arms them, until ctx is done, so that back-off waits pass at once.
func stepClock(ctx context.Context, clk *clock.Fake) chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for clk.WaitTimers(ctx, 1) {
			clk.AdvanceToNext()
		}
	}()
	return done
}

// TestReconnect unplugs a camera mid-stream: the source reports the fault
// once, retries with doubling back-off while the device is away, reports
// its return, and goes on giving frames.
func TestReconnect(t *testing.T) {
	checkLeaks(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	start := time.Date(2026, 1, 1, 20, 0, 0, 0, time.UTC)
	clk := clock.NewFake(start)
	stepped := stepClock(ctx, clk)
	defer func() { cancel(); <-stepped }()

	opens := 0
	var cams []*fakeCamera
	open := func() (Source, error) {
		opens++
		switch opens {
		case 1, 5:
			c := &fakeCamera{frames: 3}
			cams = append(cams, c)
			return c, nil
		default: // unplugged
			return nil, fmt.Errorf("%w: /dev/video0 does not exist", ErrNoCamera)
		}
	}
	o := DefaultReconnectOpts
	o.Clock = clk
	src := Reconnect(ctx, open, o)
	var log []string
	src.OnStatus(func(s input.DeviceStatus) {
		log = append(log, fmt.Sprintf("%v %s", s.At.Sub(start), s))
	})
	m := gocv.NewMat()
	defer m.Close()
	for i := 0; i < 6; i++ {
		if !src.Read(&m) {
			t.Fatalf("Read %d = false", i)
		}
	}
	if err := src.Close(); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"0s camera fault: vision: camera stopped giving frames: fake camera unplugged; retrying",
		// Back-off: 250 ms, 500 ms, 1 s before the fifth open succeeds.
		"1.75s camera ok back",
	}
	if fmt.Sprint(log) != fmt.Sprint(want) {
		t.Errorf("statuses:\n%s\nwant:\n%s", strings.Join(log, "\n"), strings.Join(want, "\n"))
	}
	if opens != 5 || !cams[0].closed || !cams[1].closed {
		t.Errorf("opened %d times (want 5); first camera closed %v, second %v (want both)", opens, cams[0].closed, cams[1].closed)
	}
}

// TestReconnectStops checks that a source waiting for its camera gives up
// when its context is done.
func TestReconnectStops(t *testing.T) {
	checkLeaks(t)
	ctx, cancel := context.WithCancel(context.Background())
	clk := clock.NewFake(time.Unix(0, 0))
	o := DefaultReconnectOpts
	o.Clock = clk
	src := Reconnect(ctx, func() (Source, error) { return nil, ErrNoCamera }, o)
	var statuses []input.DeviceStatus
	src.OnStatus(func(s input.DeviceStatus) { statuses = append(statuses, s) })
	done := make(chan bool)
	go func() {
		m := gocv.NewMat()
		defer m.Close()
		done <- src.Read(&m)
	}()
	if !clk.WaitTimers(context.Background(), 1) {
		t.Fatal("no back-off timer")
	}
	cancel()
	if <-done {
		t.Errorf("Read = true after cancel, want false")
	}
	if len(statuses) != 1 || statuses[0].OK || statuses[0].Device != "camera" {
		t.Errorf("statuses = %v, want one camera fault", statuses)
	}
}

// TestWatchReconnect runs Watch on a camera unplugged mid-stream: the
// fault and the recovery come on the event channel.
func TestWatchReconnect(t *testing.T) {
	checkLeaks(t)
	ctx, cancel := context.WithCancel(context.Background())
	clk := clock.NewFake(time.Unix(0, 0))
	stepped := stepClock(ctx, clk)
	defer func() { cancel(); <-stepped }()
	opens := 0
	o := DefaultReconnectOpts
	o.Clock = clk
	src := Reconnect(ctx, func() (Source, error) {
		opens++
		if opens == 2 {
			return nil, ErrNoCamera
		}
		return &fakeCamera{frames: 5}, nil
	}, o)
	defer src.Close()
	events := Watch(ctx, src, func(gocv.Mat) Roll { return Roll{} }, WatchOpts{Settle: DefaultSettleOpts, Clock: clk})
	var got []string
	for e := range events {
		got = append(got, e.String())
		if len(got) == 4 {
			cancel()
		}
	}
	want := []string{
		"camera fault: vision: camera stopped giving frames: fake camera unplugged; retrying",
		"camera ok back",
		"camera fault: vision: camera stopped giving frames: fake camera unplugged; retrying",
		"camera ok back",
	}
	if fmt.Sprint(got[:min(4, len(got))]) != fmt.Sprint(want) {
		t.Errorf("events = %q, want %q", got, want)
	}
	_ = image.Point{}
}

// FuzzDirFrame feeds arbitrary bytes as a picture file: reading it gives a
// frame or an ErrCorruptFrame, never a crash, and leaks no Mat.
func FuzzDirFrame(f *testing.F) {
	good, err := os.ReadFile(filepath.Join("testdata", "sequences", "roll", "000.jpg"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte("\x89PNG\r\n\x1a\n"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "frame.jpg"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		d, err := OpenDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		m := gocv.NewMat()
		defer m.Close()
		if d.Read(&m) {
			if m.Empty() {
				t.Errorf("Read = true with an empty frame")
			}
			return
		}
		if !errors.Is(d.Err(), ErrCorruptFrame) {
			t.Errorf("Read = false, Err() = %v, want ErrCorruptFrame", d.Err())
		}
	})
}

func TestOpenSource(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	dir := filepath.Join("testdata", "sequences", "roll")
	video := filepath.Join(t.TempDir(), "roll.avi")
	writeVideo(t, dir, video, 3)
	tests := []struct {
		spec    string
		want    string // type of source
		wantErr error
	}{
		{dir, "*vision.Dir", nil},
		{video, "*vision.Video", nil},
		{"/dev/video-comptoir-test-missing", "", ErrNoCamera},
		{filepath.Join(dir, "nope.mp4"), "", os.ErrNotExist},
	}
	for _, tt := range tests {
		src, err := OpenSource(ctx, tt.spec, DefaultCameraOpts)
		if tt.wantErr != nil {
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("OpenSource(%q) = %v, want an error wrapping %v", tt.spec, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("OpenSource(%q) = %v", tt.spec, err)
			continue
		}
		if got := fmt.Sprintf("%T", src); got != tt.want {
			t.Errorf("OpenSource(%q) is a %s, want a %s", tt.spec, got, tt.want)
		}
		src.Close()
	}
}
