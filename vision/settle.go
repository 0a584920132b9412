package vision

import (
	"context"
	"fmt"
	"image"
	"math"
	"time"

	"comptoir/hw/clock"
	"comptoir/input"

	"gocv.io/x/gocv"
)

// SettleOpts tunes the settler. Areas are fractions of the picture.
type SettleOpts struct {
	// Width is the width frames are reduced to before comparing them; 0
	// keeps the frame's own width.
	Width int
	// PixelDelta is the grey-level difference (0-255), after a 3x3 blur
	// and once the brightness of the two frames is matched, that counts a
	// pixel as changed. Camera noise stays well below it.
	PixelDelta float64
	// MoveArea is the changed area between two frames above which
	// something is moving. A rocking die changes about 0.05% of a 640x480
	// picture of the tray.
	MoveArea float64
	// HandArea is the changed area, from one frame to the next or from the
	// last still picture, above which a hand (or something as large) is
	// over the tray. In the recorded sequences, two dice thrown change at
	// most 4.4% from frame to frame and a new rest differs from the last
	// by 2.5%; a hand changes 30% or more.
	HandArea float64
	// StillFrames is the number of frames that must show no motion before
	// the dice are read. With the rest's first frame, the report comes
	// StillFrames frames after the dice stop.
	StillFrames int
	// ReadFrames is how many still frames in a row are read when a
	// reading is uncertain, before the roll is declared unreadable.
	ReadFrames int
	// MinConfidence is the confidence below which a die's reading is
	// uncertain.
	MinConfidence float64
	// Thrown is how far, in die sizes, both dice must have moved since the
	// last report for a rest to be a new throw rather than a die knocked.
	Thrown float64
	// HandTimeout is how many still frames a large change may last before
	// it is taken as the tray's new look (something left in the tray, the
	// tray or the camera moved) rather than a hand. Light and exposure
	// changes need no time: brightness is matched first.
	HandTimeout int
}

// DefaultSettleOpts reports a roll 3 frames (100 ms at 30 frames per
// second) after the dice stop, within the 200 ms budget, and takes a
// change that stays still for 5 s as the tray's new look.
var DefaultSettleOpts = SettleOpts{
	Width:         320,
	PixelDelta:    20,
	MoveArea:      0.0002,
	HandArea:      0.15,
	StillFrames:   3,
	ReadFrames:    3,
	MinConfidence: 0.5,
	Thrown:        1.5,
	HandTimeout:   150,
}

// TrayState is the settler's view of the tray in one frame.
type TrayState int

//go:generate go run golang.org/x/tools/cmd/stringer@v0.30.0 -type TrayState -linecomment

// The states of the tray.
const (
	// TrayMoving: something moves (a die rolling or rocking, a finger).
	TrayMoving TrayState = iota // moving
	// TrayStill: nothing moves.
	TrayStill // still
	// TrayHand: a hand, or something as large, is over the tray.
	TrayHand // hand
)

// Settler turns a stream of frames into rolls: it watches the frames
// change, waits for the dice to come to rest, reads them once, and reports
// one input.DiceRolled per throw (or input.DiceUnreadable). A die knocked
// after a report gives a correction if it shows another face, nothing if
// not; a hand over the tray gives nothing.
//
// A Settler owns its Mats: Close it. It is used by one goroutine.
type Settler struct {
	read func(gocv.Mat) Roll
	// learn, when set (OnRest), is given the reading of each rest of
	// the dice that follows a movement.
	learn func(Roll)
	o     SettleOpts

	// Working pictures, reused from frame to frame.
	resized, bgr, small, prev, base, scaled, diff, diffGrey, mask gocv.Mat
	// The same reduced 4 times more, to fit brightness.
	tiny, prevTiny, baseTiny         gocv.Mat
	smallLevel, prevLevel, baseLevel level // of tiny, prevTiny, baseTiny
	hasPrev, hasBase                 bool

	state     TrayState // of the last frame
	still     int       // still frames in a row
	restStart time.Time // time of the first frame of the current rest
	prevAt    time.Time // time of the previous frame
	handled   bool      // the current rest has been read and decided
	largeRun  int       // still frames in a row that differ a lot from base
	moved     bool      // something moved since the last decided rest
	attempts  int       // reads of the current rest
	best      Roll      // best reading of the current rest

	last         Roll // last decided reading with both dice
	hasLast      bool
	lastReported bool // last was reported (not just the tray at start-up)
	emptySeen    bool // the tray was seen empty since last
	unreadable   bool // DiceUnreadable was reported since last
}

// NewSettler returns a settler that reads the dice with read.
func NewSettler(read func(gocv.Mat) Roll, o SettleOpts) *Settler {
	if o.StillFrames < 1 {
		o.StillFrames = 1
	}
	if o.ReadFrames < 1 {
		o.ReadFrames = 1
	}
	return &Settler{read: read, o: o,
		resized: gocv.NewMat(), bgr: gocv.NewMat(), small: gocv.NewMat(), prev: gocv.NewMat(),
		base: gocv.NewMat(), scaled: gocv.NewMat(), diff: gocv.NewMat(), diffGrey: gocv.NewMat(), mask: gocv.NewMat(),
		tiny: gocv.NewMat(), prevTiny: gocv.NewMat(), baseTiny: gocv.NewMat()}
}

// Close releases the settler's Mats.
func (s *Settler) Close() error {
	for _, m := range []*gocv.Mat{&s.resized, &s.bgr, &s.small, &s.prev, &s.base, &s.scaled, &s.diff, &s.diffGrey, &s.mask, &s.tiny, &s.prevTiny, &s.baseTiny} {
		m.Close()
	}
	return nil
}

// State returns what the last frame showed.
func (s *Settler) State() TrayState { return s.state }

// changed returns the fraction of pixels of a and b that differ by more
// than PixelDelta. b's brightness is first fitted to a's (the gain and
// offset that best map b's pixels onto a's, within 0.75 to 1.33 for the
// gain), so that the light flickering or the camera changing its exposure
// moves nothing. The difference is taken per colour channel and then
// weighted as grey levels are, so that a red die on a green felt of the
// same brightness still shows.
//
// The fit is made on the pictures reduced 4 times more (ta and tb, with
// their levels la and lb): brightness needs no detail.
func (s *Settler) changed(a, ta gocv.Mat, la level, b, tb gocv.Mat, lb level) float64 {
	n := float64(ta.Rows() * ta.Cols() * ta.Channels())
	gain := 1.0
	if varB := lb.sumSq/n - lb.mean*lb.mean; varB > 4 {
		d := gocv.NormWithMats(ta, tb, gocv.NormL2)
		cov := (la.sumSq+lb.sumSq-d*d)/2/n - la.mean*lb.mean
		gain = min(max(cov/varB, 0.75), 1.33)
	}
	offset := la.mean - gain*lb.mean
	if math.Abs(gain-1) > 0.002 || math.Abs(offset) > 0.5 {
		b.ConvertToWithParams(&s.scaled, b.Type(), float32(gain), float32(offset))
		b = s.scaled
	}
	gocv.AbsDiff(a, b, &s.diff)
	d := s.diff
	if d.Channels() == 3 {
		gocv.CvtColor(s.diff, &s.diffGrey, gocv.ColorBGRToGray)
		d = s.diffGrey
	}
	gocv.Threshold(d, &s.mask, float32(s.o.PixelDelta), 255, gocv.ThresholdBinary)
	return float64(gocv.CountNonZero(s.mask)) / float64(s.mask.Rows()*s.mask.Cols())
}

// level is the brightness of a picture: the mean of its pixel values over
// all channels, and the sum of their squares.
type level struct{ mean, sumSq float64 }

// level measures m.
func (s *Settler) level(m gocv.Mat) level {
	v := m.Mean()
	l := level{mean: v.Val1}
	if c := m.Channels(); c == 3 {
		l.mean = (v.Val1 + v.Val2 + v.Val3) / 3
	}
	norm := gocv.Norm(m, gocv.NormL2)
	l.sumSq = norm * norm
	return l
}

// prepare reduces frame to a small blurred picture in s.small.
func (s *Settler) prepare(frame gocv.Mat) error {
	if frame.Empty() {
		return fmt.Errorf("%w: empty frame", ErrCorruptFrame)
	}
	if c := frame.Channels(); (c != 1 && c != 3 && c != 4) || frame.Type()&7 != 0 {
		return fmt.Errorf("%w: frame of type %v, want 8-bit grey, BGR or BGRA", ErrCorruptFrame, frame.Type())
	}
	src := frame
	if frame.Channels() == 4 {
		gocv.CvtColor(frame, &s.bgr, gocv.ColorBGRAToBGR)
		src = s.bgr
	}
	w := s.o.Width
	if w <= 0 {
		w = src.Cols()
	}
	if src.Cols() > w {
		// An area resize averages whole blocks of pixels: as cheap as
		// it gets, and the camera's noise averages out.
		h := max(int(math.Round(float64(src.Rows())*float64(w)/float64(src.Cols()))), 1)
		gocv.Resize(src, &s.resized, image.Pt(w, h), 0, 0, gocv.InterpolationArea)
		src = s.resized
	}
	gocv.GaussianBlur(src, &s.small, image.Pt(3, 3), 0, 0, gocv.BorderDefault)
	gocv.Resize(s.small, &s.tiny, image.Pt(max(s.small.Cols()/4, 1), max(s.small.Rows()/4, 1)), 0, 0, gocv.InterpolationArea)
	s.smallLevel = s.level(s.tiny)
	if s.hasPrev && (s.prev.Rows() != s.small.Rows() || s.prev.Cols() != s.small.Cols() || s.prev.Type() != s.small.Type()) {
		// The camera came back with another frame size or type: start
		// afresh.
		s.hasPrev, s.hasBase = false, false
	}
	return nil
}

// Frame takes the next frame, seen at time at, and returns the events it
// completes: none most of the time, a DiceRolled or DiceUnreadable when the
// dice have come to rest. A frame that cannot be used (empty, wrong type)
// is an error and changes nothing.
func (s *Settler) Frame(frame gocv.Mat, at time.Time) ([]input.Event, error) {
	if err := s.prepare(frame); err != nil {
		return nil, err
	}
	defer func() {
		s.prev, s.small = s.small, s.prev // keep this frame as the previous one
		s.prevTiny, s.tiny = s.tiny, s.prevTiny
		s.prevLevel = s.smallLevel
		s.hasPrev = true
		s.prevAt = at
	}()
	if !s.hasPrev {
		s.state = TrayMoving
		s.still = 0
		return nil, nil
	}
	motion := s.changed(s.small, s.tiny, s.smallLevel, s.prev, s.prevTiny, s.prevLevel)
	change := 0.0
	if s.hasBase {
		change = s.changed(s.small, s.tiny, s.smallLevel, s.base, s.baseTiny, s.baseLevel)
	}

	switch {
	case motion > s.o.HandArea:
		s.state = TrayHand
	case motion > s.o.MoveArea:
		s.state = TrayMoving
	case change > s.o.HandArea:
		// Still, but far from the last still picture: a hand held over the
		// tray, unless it lasts (then the tray itself changed).
		s.largeRun++
		s.state = TrayHand
		if s.largeRun >= s.o.HandTimeout {
			s.state = TrayStill
			s.rebase()
		}
	default:
		s.state = TrayStill
	}
	if s.state != TrayHand || motion > s.o.MoveArea {
		s.largeRun = 0
	}
	if s.state != TrayStill {
		s.still = 0
		s.handled = false
		s.moved = true
		return nil, nil
	}

	s.still++
	if s.still == 1 {
		s.restStart = s.prevAt // the previous frame already showed the rest
		s.attempts = 0
		s.best = Roll{}
	}
	if s.handled || s.still < s.o.StillFrames {
		return nil, nil
	}
	r := s.read(frame)
	s.attempts++
	if s.attempts == 1 || rollScore(r) > rollScore(s.best) {
		s.best = r
	}
	if !s.certain(s.best) && s.attempts < s.o.ReadFrames && (s.best.Blue.Found || s.best.Red.Found) {
		return nil, nil // try the next frame
	}
	return s.decide(s.best, at), nil
}

// OnRest makes the settler give learn the reading it decides on at each
// rest of the dice that follows a movement (a throw, a die turned or
// moved by hand; not the dice found in the tray at the start): a reader
// learns from them how this camera shows flat dice (NetReader.LearnFlat).
func (s *Settler) OnRest(learn func(Roll)) { s.learn = learn }

// rebase makes the current frame the still picture later frames are
// compared with.
func (s *Settler) rebase() {
	s.small.CopyTo(&s.base)
	s.tiny.CopyTo(&s.baseTiny)
	s.baseLevel = s.smallLevel
	s.hasBase = true
}

// certain says whether both dice of r are read with enough confidence.
func (s *Settler) certain(r Roll) bool {
	ok := func(d Die) bool { return d.Found && d.Face >= 1 && d.Face <= 8 && d.Confidence >= s.o.MinConfidence }
	return ok(r.Blue) && ok(r.Red)
}

// rollScore ranks readings of one rest: dice read, then confidence.
func rollScore(r Roll) float64 {
	score := 0.0
	for _, d := range []Die{r.Blue, r.Red} {
		if d.Found {
			score++
		}
		if d.Face != 0 {
			score += 2 + d.Confidence
		}
	}
	return score
}

// decide turns the reading of a rest into events.
func (s *Settler) decide(r Roll, at time.Time) []input.Event {
	s.handled = true
	s.rebase()
	moved := s.moved
	s.moved = false
	if moved && s.learn != nil {
		s.learn(r)
	}
	if !r.Blue.Found && !r.Red.Found {
		// An empty tray: the dice were picked up.
		s.emptySeen = true
		return nil
	}
	if !s.certain(r) {
		if !moved {
			return nil
		}
		s.unreadable = true
		en, fr := r.Unread(s.o.MinConfidence)
		return []input.Event{input.DiceUnreadable{At: at, Reason: en, ReasonFR: fr}}
	}
	if !s.hasLast && !moved {
		// Dice left in the tray before we started: remember them, but
		// there was no throw to report.
		s.last, s.hasLast, s.lastReported = r, true, false
		return nil
	}
	thrown := !s.hasLast || s.emptySeen || s.unreadable ||
		(displaced(s.last.Blue, r.Blue) >= s.o.Thrown && displaced(s.last.Red, r.Red) >= s.o.Thrown)
	changed := !s.hasLast || r.Blue.Face != s.last.Blue.Face || r.Red.Face != s.last.Red.Face
	correction := !thrown && s.lastReported
	s.last, s.hasLast = r, true
	s.emptySeen, s.unreadable = false, false
	if !thrown && !changed {
		return nil // a die knocked, still on the same face
	}
	s.lastReported = true
	return []input.Event{input.DiceRolled{
		At:         at,
		Blue:       input.Face(r.Blue.Face),
		Red:        input.Face(r.Red.Face),
		Confidence: math.Min(r.Blue.Confidence, r.Red.Confidence),
		Correction: correction,
		Latency:    at.Sub(s.restStart),
	}}
}

// displaced returns how far die b is from die a, in die sizes; +Inf when
// either box is unknown.
func displaced(a, b Die) float64 {
	if a.Box.Empty() || b.Box.Empty() {
		return math.Inf(1)
	}
	ca := a.Box.Min.Add(a.Box.Max).Div(2)
	cb := b.Box.Min.Add(b.Box.Max).Div(2)
	size := math.Max(float64(max(a.Box.Dx(), a.Box.Dy())), 1)
	return math.Hypot(float64(ca.X-cb.X), float64(ca.Y-cb.Y)) / size
}

// WatchOpts controls Watch.
type WatchOpts struct {
	Settle SettleOpts
	// Clock stamps the frames; nil is the real clock.
	Clock clock.Clock
	// Buffer is the size of the event channel.
	Buffer int
	// Learn, when set, is given the reading of each rest of the dice
	// after a movement, from Watch's goroutine (Settler.OnRest): a
	// reader's LearnFlat, so that it learns where this camera shows a
	// flat die's numeral as the table plays.
	Learn func(Roll)
	// FrameRate, when not 0, stamps the frames as if they came at this
	// rate from the first frame's time, rather than with Clock: for
	// replays of recorded frames read faster than they were filmed, so
	// that latencies are counted in the recording's time.
	FrameRate float64
}

// DefaultWatchOpts settles with DefaultSettleOpts on the real clock.
var DefaultWatchOpts = WatchOpts{Settle: DefaultSettleOpts, Buffer: 8}

// Watch reads frames from src until it ends or ctx is done, settles them
// with read, and sends the rolls on the returned channel, which it closes
// when it stops. A source that ends with an error (see Erring) gives a last
// input.DeviceStatus with the error; a StatusSource's faults and recoveries
// are forwarded as they come. Watch does not close src.
func Watch(ctx context.Context, src Source, read func(gocv.Mat) Roll, o WatchOpts) <-chan input.Event {
	if o.Clock == nil {
		o.Clock = clock.Real()
	}
	out := make(chan input.Event, max(o.Buffer, 0))
	send := func(e input.Event) bool {
		select {
		case out <- e:
			return true
		case <-ctx.Done():
			return false
		}
	}
	if ss, ok := src.(StatusSource); ok {
		ss.OnStatus(func(st input.DeviceStatus) { send(st) })
	}
	go func() {
		defer close(out)
		st := NewSettler(read, o.Settle)
		defer st.Close()
		if o.Learn != nil {
			st.OnRest(o.Learn)
		}
		frame := gocv.NewMat()
		defer frame.Close()
		var first time.Time
		for n := 0; ctx.Err() == nil; n++ {
			if !src.Read(&frame) {
				if err := SourceErr(src); err != nil && ctx.Err() == nil {
					send(input.DeviceStatus{At: o.Clock.Now(), Device: "camera", OK: false, Detail: err.Error()})
				}
				return
			}
			at := o.Clock.Now()
			if o.FrameRate > 0 {
				if n == 0 {
					first = at
				}
				at = first.Add(time.Duration(n) * time.Duration(float64(time.Second)/o.FrameRate))
			}
			evs, err := st.Frame(frame, at)
			if err != nil {
				continue // an unusable frame: skip it
			}
			for _, e := range evs {
				if !send(e) {
					return
				}
			}
		}
	}()
	return out
}
