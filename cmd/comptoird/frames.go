//go:build !novision

package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"gocv.io/x/gocv"

	"comptoir/hw/clock"
	"comptoir/input"
	"comptoir/vision"
)

// framePeriod is the pace of the pictured camera: 30 frames a second, as
// the real one.
const framePeriod = time.Second / 30

// demoHandTimeout replaces the settler's hand timeout for pictures: a
// roll is a new picture at once, not dice tumbling then resting, so the
// settler takes the changed tray as a new look after this many still
// frames (a third of a second) instead of waiting for a hand to leave.
const demoHandTimeout = 10

// pictures is a camera that shows labelled pictures of the dice: the
// recording's rolls become pictures of that roll, read by the real dice
// reader and settler, which report the roll as they would from a camera.
type pictures struct {
	dir    string
	byRoll map[[2]int][]string // (blue, red) -> files, from labels.csv
	check  *vision.Reader      // reads candidates before they are shown; used under mu

	mu      sync.Mutex
	closed  bool               // guarded by mu
	cur     gocv.Mat           // the picture shown, guarded by mu
	box     [2]image.Rectangle // where its dice are, guarded by mu
	curName string             // its file, guarded by mu
}

// openPictures reads the labels of a folder of dice pictures (labels.csv:
// file,blue,red) and shows the first picture.
func openPictures(dir string) (*pictures, error) {
	f, err := os.Open(filepath.Join(dir, "labels.csv"))
	if err != nil {
		return nil, fmt.Errorf("dice pictures: %w (a folder of pictures needs labels.csv: file,blue,red)", err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("dice pictures: %s: %w", f.Name(), err)
	}
	p := &pictures{dir: dir, byRoll: map[[2]int][]string{}}
	for i, r := range rows {
		if i == 0 && r[0] == "file" {
			continue
		}
		if len(r) < 3 {
			return nil, fmt.Errorf("dice pictures: %s:%d: want file,blue,red", f.Name(), i+1)
		}
		b, errb := strconv.Atoi(r[1])
		d, errd := strconv.Atoi(r[2])
		if errb != nil || errd != nil {
			return nil, fmt.Errorf("dice pictures: %s:%d: %q,%q are not faces", f.Name(), i+1, r[1], r[2])
		}
		p.byRoll[[2]int{b, d}] = append(p.byRoll[[2]int{b, d}], r[0])
	}
	if len(rows) < 2 {
		return nil, fmt.Errorf("dice pictures: %s lists no picture", f.Name())
	}
	if p.check, err = vision.NewReader(vision.DefaultReaderOpts); err != nil {
		return nil, err
	}
	first := gocv.IMRead(filepath.Join(dir, rows[1][0]), gocv.IMReadColor)
	if first.Empty() {
		first.Close()
		return nil, fmt.Errorf("dice pictures: cannot read %s", rows[1][0])
	}
	p.cur, p.curName = first, rows[1][0]
	return p, nil
}

// show puts up a picture of the roll that the reader reads right and whose
// dice lie away from the last picture's (so the settler sees a new throw,
// not a die knocked). It reports false when no picture fits.
func (p *pictures) show(blue, red int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	for _, name := range p.byRoll[[2]int{blue, red}] {
		if name == p.curName {
			continue
		}
		img := gocv.IMRead(filepath.Join(p.dir, name), gocv.IMReadColor)
		if img.Empty() {
			img.Close()
			continue
		}
		r := p.check.Read(img)
		if r.Blue.Face != blue || r.Red.Face != red || near(r.Blue.Box, p.box[0]) || near(r.Red.Box, p.box[1]) {
			img.Close()
			continue
		}
		p.cur.Close()
		p.cur, p.curName, p.box = img, name, [2]image.Rectangle{r.Blue.Box, r.Red.Box}
		return true
	}
	return false
}

// near reports whether two dice boxes are less than two die sizes apart.
func near(a, b image.Rectangle) bool {
	if a.Empty() || b.Empty() {
		return false
	}
	ca := a.Min.Add(a.Max).Div(2)
	cb := b.Min.Add(b.Max).Div(2)
	d := ca.Sub(cb)
	size := max(a.Dx(), a.Dy(), 1)
	return d.X*d.X+d.Y*d.Y < 4*size*size
}

// source is the camera: the current picture, 30 times a second, until ctx
// ends.
func (p *pictures) source(ctx context.Context, clk clock.Clock) vision.Source {
	return &pictureSource{p: p, ctx: ctx, clk: clk}
}

// Close releases the picture shown.
func (p *pictures) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	return p.cur.Close()
}

type pictureSource struct {
	p   *pictures
	ctx context.Context
	clk clock.Clock
}

func (s *pictureSource) Read(m *gocv.Mat) bool {
	if clock.Sleep(s.ctx, s.clk, framePeriod) != nil {
		return false
	}
	s.p.mu.Lock()
	defer s.p.mu.Unlock()
	if s.p.closed {
		return false
	}
	s.p.cur.CopyTo(m)
	return true
}

func (s *pictureSource) Close() error { return nil }

// openPictureDice returns the source of the rolls the pictures show, and
// the hook that turns a recorded roll into a picture (or, when no picture
// of that roll reads right, lets the recorded roll through).
func openPictureDice(dir string, clk clock.Clock, logf func(string, ...any)) (func(context.Context) <-chan input.Event, func(input.DiceRolled) bool, func() error, error) {
	p, err := openPictures(dir)
	if err != nil {
		return nil, nil, nil, err
	}
	reader, err := vision.NewReader(vision.DefaultReaderOpts)
	if err != nil {
		p.Close()
		return nil, nil, nil, err
	}
	run := func(ctx context.Context) <-chan input.Event {
		wo := vision.DefaultWatchOpts
		wo.Clock = clk
		wo.Settle.HandTimeout = demoHandTimeout
		return vision.Watch(ctx, p.source(ctx, clk), reader.Read, wo)
	}
	hook := func(e input.DiceRolled) bool {
		if p.show(int(e.Blue), int(e.Red)) {
			return true
		}
		logf("dice pictures: no picture of blue=%d red=%d reads right; the recorded roll goes through", e.Blue, e.Red)
		return false
	}
	return run, hook, p.Close, nil
}
