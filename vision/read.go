package vision

import (
	"bytes"
	"fmt"
	"image"
	"math"
	"sort"

	"gocv.io/x/gocv"
)

// Die is the reading of one die.
type Die struct {
	// Face is the numeral on the face that points up, 1 to 8, or 0 when
	// the reading is not certain.
	Face int
	// Confidence is 0 to 1; a die read with a Face has at least the
	// reader's MinConfidence.
	Confidence float64
	// Why says why the die could not be read (without naming the die:
	// the field holding it does); the zero Why when Face is set.
	Why Why
	// Found is true when the die was seen in the frame, read or not.
	Found bool
	// Box is where the die is in the frame, when Found.
	Box image.Rectangle
	// Guess is the learned reader's likeliest face when it refuses (Face
	// 0), its probability in Confidence; 0 otherwise.
	Guess int
	// Flat is the pose network's probability that the die lies flat
	// (not cocked), when the learned reader ran it on the die and did
	// not refuse it as cocked; 0 otherwise.
	Flat float64
	// at is the die's place in the frame and its numeral's offset
	// (flatSample), when the learned reader cut its numeral and the pose
	// network found it at least flatLearnFlat flat (hasAt): what a reader
	// learns where this camera shows a flat die's numeral from
	// (NetReader.LearnFlat).
	at    flatSample
	hasAt bool
	// onField is set when the learned reader knew where this camera
	// shows a flat die's numeral and this die's lies there (within
	// flatFieldAgree times the scatter).
	onField bool
	// across is the die's width in pixels of a picture 640 wide, when
	// the learned reader found it whole (not at the picture's edge); 0
	// otherwise: what a reader learns how large this camera shows the
	// dice from (NetReader.LearnFlat).
	across float64
	// byLearned: the learned reader found the die by the colour a
	// calibration learned, its own colour not finding it, or only a
	// piece of it
	byLearned bool
}

// Reason is Why in English (without naming the die); "" when the die
// was read.
func (d Die) Reason() string { return d.Why.EN() }

// Roll is the reading of the blue and the red die.
type Roll struct{ Blue, Red Die }

// Certain says whether both dice were read.
func (r Roll) Certain() bool { return r.Blue.Face != 0 && r.Red.Face != 0 }

// HSVRange is a range of colours in OpenCV's HSV: hue 0-179 (half
// degrees), saturation and value 0-255. A range with HMin > HMax wraps
// around 0 (red).
type HSVRange struct {
	HMin, HMax int
	SMin, SMax int
	VMin, VMax int
}

// Contains says whether the HSV colour (h, s, v) is in the range.
func (c HSVRange) Contains(h, s, v int) bool {
	if s < c.SMin || s > c.SMax || v < c.VMin || v > c.VMax {
		return false
	}
	if c.HMin <= c.HMax {
		return h >= c.HMin && h <= c.HMax
	}
	return h >= c.HMin || h <= c.HMax
}

// ReaderOpts controls a Reader.
type ReaderOpts struct {
	// Blue and Red are the colours of the two dice's plastic.
	Blue, Red HSVRange
	// Model holds calibration templates (see Calibrate); nil uses the
	// built-in model.
	Model *Model
	// MinConfidence is the confidence under which a die is reported as
	// uncertain rather than read.
	MinConfidence float64
	// MinContrast is how much brighter (0-255) than its surroundings a
	// numeral's pixels are.
	MinContrast float64
	// MinBackgroundDiff is how far (sum of the BGR differences) a die's
	// pixels are from the tray or table around them.
	MinBackgroundDiff int
	// DieSize is the size of a die across, as a fraction of the frame's
	// width.
	DieSize SizeRange
}

// DefaultReaderOpts fit common blue and red dice with light numerals under
// indoor light (warm or cool): blue is hue 95-130 (190-260 degrees), red is
// hue 170-10 (340-20 degrees), both fairly saturated and not black.
var DefaultReaderOpts = ReaderOpts{
	Blue:          HSVRange{HMin: 95, HMax: 130, SMin: 60, SMax: 255, VMin: 25, VMax: 255},
	Red:           HSVRange{HMin: 168, HMax: 10, SMin: 80, SMax: 255, VMin: 30, VMax: 255},
	MinConfidence: 0.5,
	MinContrast:   10,

	MinBackgroundDiff: 40,
	DieSize:           SizeRange{Min: 1.0 / 30, Max: 1.0 / 8},
}

// SizeRange is a range of sizes as fractions of the frame's width.
type SizeRange struct{ Min, Max float64 }

// areaRange is the area, in pixels of a mask w pixels wide, of a die of
// the size range seen from above (a hexagon, 0.65 of its square).
func (s SizeRange) areaRange(w int) (int, int) {
	lo, hi := s.Min*float64(w), s.Max*float64(w)
	return int(0.4 * lo * lo), int(math.Ceil(0.9 * hi * hi))
}

// Reader reads dice from frames. A reading depends on its frame alone, but
// the Reader keeps scratch buffers from frame to frame: use it from one
// goroutine at a time.
//
// How a frame is read (Read):
//
//  1. The frame is shrunk to 320 pixels wide; a median of it at 40 pixels
//     wide stands for the tray or table (a die is much smaller than the
//     median's window).
//  2. The pixels in the blue and the red HSV ranges that also differ from
//     that background are the colour masks; their compact blobs of a die's
//     size (ReaderOpts.DieSize) are the candidate dice.
//  3. Each candidate is cut out at full resolution, its silhouette made
//     convex (a top face lost to glare is inside the hull of its sides).
//  4. The numeral is the set of pixels brighter than their surroundings (a
//     white top-hat, threshold 0.45 of its strongest values) near the
//     centre of the die: the numeral of the face that points up; the
//     numerals of the side faces are off centre and foreshortened. The
//     centre is shifted for parallax: the top face shows further from the
//     picture's centre than the middle of the die's silhouette.
//  5. The candidate with the strongest, most central numeral is the die.
//     Its numeral is normalised for position and scale (centroid, RMS
//     radius) on a 20x20 grid: a glyph.
//  6. The glyph is matched against the model's templates at 36 rotations
//     (any rotation of the die), then, turned to the best rotation, against
//     the samples each template was learned from (nearest neighbour, by
//     the mean of the pixel and HOG correlations).
//  7. The confidence is the margin of the best face over the next. The
//     die is uncertain (Face 0, with a Reason) when the confidence is
//     under MinConfidence (unless the numeral's closed loops, as counted
//     in its mask, match one of the two likeliest faces only: 8 has two,
//     4 and 6 one) or, for a faint numeral (mean contrast under 24),
//     under 0.9,
//     when its glyph correlates under 0.85 with every learned sample (a
//     lit edge, a scratch), when the numeral's size is unusual for its
//     face (cut by glare, merged with an edge; a numeral a little short
//     that matches at 0.95 is trusted), when the same numeral cut at a lower
//     threshold reads confidently as another face (unless the loops of
//     both cuts match the first face only), or when a second
//     object of the die's colour with a numeral reads as another face.
//     Such a die is read again from ten other cuts of its numeral (five
//     thresholds, labelled with and without dilation): it is read after
//     all when at least three cuts read one face at confidence 0.9 and a
//     size usual for it, no cut reads another face so, and that face is
//     one of the two the first cut looked most like.
//  8. A die far enough from the picture's centre is refused as tilted
//     (leaning on the tray's wall) when its numeral matches its face
//     clearly better unshrunk across, along the line from the picture's
//     centre or lines near it, than a die lying flat there shows it (see
//     tiltedSlant), or when its numeral lies further out on its
//     silhouette than parallax moves a flat die's (see outward), whether
//     it was read or not: no other reading of it is tried.
//  9. Two dice whose silhouettes come within 3 pixels (at 640 wide) of
//     each other are touching: neither is read.
type Reader struct {
	opts  ReaderOpts
	m     *matcher
	sizes map[int][2]float64
	// scratch buffers reused from frame to frame
	scratch struct {
		bm, rm []byte
		labels []int32
		bg     []byte
		// the frame shrunk, when read is not given it shrunk
		sf shrunkFrame
	}
	// onGlyph, when set, sees the numeral glyph of every die read; the
	// learner uses it to collect samples.
	onGlyph func(die string, g glyph, size float64)
	// retry is the second tries allowed for the die being read
	retry retry
}

// retry says which second tries (rescue, and reading by hue) a numeral
// not read at first gets: retryAny, retryNone, or a face (1 to 8): read
// again as that face only. The Reader's own reads allow any; Combined
// allows only those whose answer it may use (see retryFor).
type retry int

const (
	retryAny  retry = 0
	retryNone retry = -1
)

// retryFaces says whether a numeral not read at first is read again by
// rescue, and as which faces: with retryAny, as either of the faces a
// and b it looks most like; with a face, as that face only, if it is a
// or b; with retryNone, not at all.
func (r *Reader) retryFaces(a, b int) (int, int, bool) {
	switch {
	case r.retry == retryAny:
		return a, b, true
	case r.retry > 0 && (int(r.retry) == a || int(r.retry) == b):
		return int(r.retry), int(r.retry), true
	}
	return 0, 0, false
}

// NewReader returns a reader with the given options.
func NewReader(opts ReaderOpts) (*Reader, error) {
	model := opts.Model
	if model == nil {
		bm, err := BuiltinModel()
		if err != nil {
			return nil, err
		}
		model = &bm
	}
	if err := model.check(); err != nil {
		return nil, err
	}
	if opts.MinConfidence <= 0 || opts.MinConfidence > 1 {
		return nil, fmt.Errorf("vision: MinConfidence %g, want in (0, 1]", opts.MinConfidence)
	}
	return &Reader{opts: opts, m: newMatcher(*model), sizes: model.Sizes}, nil
}

// ReadSingle reads the one die in the frame, whatever its colour: the
// object that stands out most from the tray or table around it.
func (r *Reader) ReadSingle(frame gocv.Mat) Die { return r.readSingle(frame, retryAny) }

// readSingle is ReadSingle with the second tries allowed.
func (r *Reader) readSingle(frame gocv.Mat, allowed retry) Die {
	r.retry = allowed
	im, err := viewBGR(frame)
	if err != nil {
		return Die{Why: badFrame(err)}
	}
	step := max(1, max(im.w, im.h)/240)
	sm := downsample(im, step)
	b0, g0, r0 := borderMedian(sm)
	cls := differsFrom(b0, g0, r0, 55, 35)
	mask := classMask(sm, cls, nil)
	blobs, _ := components(mask, sm.w, sm.h, nil)
	best := -1
	for i := range blobs {
		if best < 0 || blobs[i].area > blobs[best].area {
			best = i
		}
	}
	if best < 0 || blobs[best].area < 30 {
		return Die{Why: Why{Code: WhyNoDie}}
	}
	b := blobs[best]
	box := image.Rect(b.box.Min.X*step, b.box.Min.Y*step, b.box.Max.X*step, b.box.Max.Y*step)
	if b.edge {
		return Die{Found: true, Box: box, Why: Why{Code: WhyEdge}}
	}
	c := cropDie(im, b, step, func(_, _, b, g, r int) bool { return cls(b, g, r) })
	o := r.readCrop(&c)
	if o.die.Face == 0 && !o.tilted && allowed != retryNone {
		// a numeral that differs from the face by its hue more than its
		// brightness (gold on a blue die swirled with white)
		if cc, o2, ok := r.readHue(im, &c); ok {
			c, o = cc, o2
		}
	}
	if debugCrop != nil {
		debugCrop(im, &c, "die")
	}
	if r.onGlyph != nil && o.hasGlyph {
		r.onGlyph("die", o.g, o.size)
	}
	o.die.Box = box
	return o.die
}

// Read reads the blue and the red die in the frame.
func (r *Reader) Read(frame gocv.Mat) Roll { return r.read(frame, [2]retry{}, nil) }

// read is Read with the second tries allowed for the blue and the red
// die, and the frame shrunk by the caller (sf), or by the reader itself
// (nil).
func (r *Reader) read(frame gocv.Mat, retries [2]retry, sf *shrunkFrame) Roll {
	im, err := viewBGR(frame)
	if err != nil {
		return Roll{Blue: Die{Why: badFrame(err)}, Red: Die{Why: badFrame(err)}}
	}
	step := max(1, im.w/maskWidth)
	ratio := max(1, maskWidth/40)
	if sf == nil {
		sf = &r.scratch.sf
		sf.forget()
	}
	sm, bg, err := shrink(sf, frame, step, ratio, r.scratch.bg)
	r.scratch.bg = bg.pix
	if err != nil {
		return Roll{Blue: Die{Why: badFrame(err)}, Red: Die{Why: badFrame(err)}}
	}
	bm, rm := colourMasks(sm, bg, ratio, r.opts.Blue, r.opts.Red, r.opts.MinBackgroundDiff, r.scratch.bm, r.scratch.rm)
	r.scratch.bm, r.scratch.rm = bm, rm
	lo, hi := r.opts.DieSize.areaRange(sm.w)
	if debugMasks != nil {
		debugMasks(sm, bg, bm, rm)
	}
	var roll Roll
	var crops [2]*dieCrop // the silhouette of each die found
	for k, d := range []struct {
		die  *Die
		name string
		mask []byte
		rng  HSVRange
	}{{&roll.Blue, "blue", bm, r.opts.Blue}, {&roll.Red, "red", rm, r.opts.Red}} {
		r.retry = retries[k]
		rng := d.rng
		minDiff := r.opts.MinBackgroundDiff
		cls := func(x, y, b, g, rr int) bool {
			h, s, v := hsv(b, g, rr)
			// the silhouette takes in a top face lit pale (a light plastic
			// under a strong light), less saturated than the die's colour
			pale := rng
			pale.SMin = rng.SMin * paleSat / 10
			if !pale.Contains(h, s, v) {
				return false
			}
			bx, by := min(bg.w-1, x/(step*ratio)), min(bg.h-1, y/(step*ratio))
			j := 3 * (by*bg.w + bx)
			return iabs(b-int(bg.pix[j]))+iabs(g-int(bg.pix[j+1]))+iabs(rr-int(bg.pix[j+2])) >= minDiff
		}
		blobs, labels := components(d.mask, sm.w, sm.h, r.scratch.labels)
		r.scratch.labels = labels
		cands, edge := dieCandidates(blobs, labels, sm.w, lo, hi, maxCandidates)
		if len(cands) == 0 && edge < 0 {
			// a die whose top face is lit pale (a light plastic under a
			// strong light) keeps too little of its colour's saturation:
			// look again, less strictly
			rng.SMin = rng.SMin * paleSat / 10
			mask, _ := colourMasks(sm, bg, ratio, rng, rng, minDiff, nil, nil)
			blobs, labels = components(mask, sm.w, sm.h, r.scratch.labels)
			r.scratch.labels = labels
			cands, edge = dieCandidates(blobs, labels, sm.w, lo, hi, maxCandidates)
		}
		if len(cands) == 0 {
			if edge >= 0 {
				b := blobs[edge]
				*d.die = Die{Found: true, Box: image.Rect(b.box.Min.X*step, b.box.Min.Y*step, b.box.Max.X*step, b.box.Max.Y*step),
					Why: Why{Code: WhyEdge}}
			} else {
				d.die.Why = Why{Code: WhyNotFound}
			}
			continue
		}
		// find the numerals of all the candidates, then match the ones
		// with the strongest numerals
		type cand struct {
			c  dieCrop
			nr numeralResult
		}
		var cs []cand
		for _, ci := range cands {
			c := cropDie(im, blobs[ci], step, cls)
			nr := findNumeral(&c, float32(r.opts.MinContrast), numeralFrac)
			c.num = nr.mask
			if debugCrop != nil {
				debugCrop(im, &c, d.name)
			}
			cs = append(cs, cand{c, nr})
		}
		sort.SliceStable(cs, func(i, j int) bool { return cs[i].nr.score() > cs[j].nr.score() })
		if len(cs) > maxMatched {
			cs = cs[:maxMatched]
		}
		// the die is the candidate with the strongest, most central
		// numeral; another candidate nearly as strong that reads as
		// another face makes the reading doubtful
		best := r.readNumeral(&cs[0].c, cs[0].nr)
		if r.onGlyph != nil && best.hasGlyph {
			// the learner sees the numeral found by brightness
			r.onGlyph(d.name, best.g, best.size)
		}
		if best.die.Face == 0 && !best.tilted && r.retry != retryNone {
			// a numeral that differs from the face by its hue more than
			// its brightness (cream or gold ink on a pale, lit face)
			if _, o2, ok := r.readHue(im, &cs[0].c); ok {
				best = o2
			}
		}
		var second readOut
		if len(cs) > 1 && cs[1].nr.score() >= rivalScore*cs[0].nr.score() {
			second = r.readNumeral(&cs[1].c, cs[1].nr)
		}
		*d.die = best.die
		if cs[0].nr.mask != nil {
			crops[k] = &cs[0].c
		}
		if second.die.Face != 0 && second.die.Face != best.die.Face {
			d.die.Face = 0
			d.die.Why = Why{Code: WhyTwoObjects, Face: best.die.Face, Other: second.die.Face}
		}
	}
	// two dice touching may lean on each other, and the numeral of one
	// may be the other's: neither is read
	if crops[0] != nil && crops[1] != nil && sameSize(crops[0], crops[1]) && silhouettesTouch(crops[0], crops[1], max(1, touchGap*im.w/640)) {
		for _, d := range []*Die{&roll.Blue, &roll.Red} {
			d.Face = 0
			d.Why = Why{Code: WhyTouching}
		}
	}
	return roll
}

// touchGap is the gap, in pixels of a 640-wide frame, under which the
// silhouettes of the two dice are taken to touch.
const touchGap = 3

// sameSize says whether the silhouettes of a and b are of about the same
// area, as the two dice of a pair are (a die and a patch of a cloth of
// its colour are not).
func sameSize(a, b *dieCrop) bool {
	na, nb := 0, 0
	for _, v := range a.in {
		na += int(v)
	}
	for _, v := range b.in {
		nb += int(v)
	}
	return 10*na >= 6*nb && 10*nb >= 6*na
}

// silhouettesTouch says whether the silhouettes of a and b come within gap
// pixels of each other.
func silhouettesTouch(a, b *dieCrop, gap int) bool {
	near := a.box.Inset(-gap).Intersect(b.box)
	if near.Empty() {
		return false
	}
	for y := near.Min.Y; y < near.Max.Y; y++ {
		for x := near.Min.X; x < near.Max.X; x++ {
			if b.in[(y-b.box.Min.Y)*b.w+x-b.box.Min.X] == 0 {
				continue
			}
			// a pixel of b: is a pixel of a within gap?
			for yy := max(y-gap, a.box.Min.Y); yy <= min(y+gap, a.box.Max.Y-1); yy++ {
				for xx := max(x-gap, a.box.Min.X); xx <= min(x+gap, a.box.Max.X-1); xx++ {
					if a.in[(yy-a.box.Min.Y)*a.w+xx-a.box.Min.X] != 0 {
						return true
					}
				}
			}
		}
	}
	return false
}

// loopsSettle says whether the closed loops of a numeral found at two
// thresholds, a and b, both match face and not other: then the reading of
// b as other is a glyph's blur, not a doubt.
func loopsSettle(a, b numeralResult, c *dieCrop, face, other int) bool {
	if faceLoops[face] == faceLoops[other] {
		return false
	}
	return holes(a.mask, c.w, c.h) == faceLoops[face] && holes(b.mask, c.w, c.h) == faceLoops[face]
}

// A faint numeral (its mean contrast below faintContrast levels) is read
// only at faintConfidence.
const (
	faintContrast   = 24
	faintConfidence = 0.9
)

// minMatch is the correlation with its nearest learned sample under which
// a glyph is not read: of 1634 numerals read right (the rendered sets and
// a fresh one of 800 throws), all but one matched at 0.85 or more and
// 99.5% at 0.91 or more; a lit edge read as a 1 matched at 0.79.
const minMatch = 0.85

// A numeral shorter than its face's usual sizes, down to smallNumeral of
// the shortest, is read when it is not faint and its glyph correlates
// with its face's samples at smallNumeralScore or more.
const (
	smallNumeral      = 0.85
	smallNumeralScore = 0.95
)

// faceLoops is the number of closed loops of each numeral; closedLoops,
// of the numerals whose open strokes may close when cut thick or blurred,
// how many they then show: a 5's bowl (on fresh throws, three 5s were
// read as 6 for the loop so closed, no 6 was read right for it alone).
var (
	faceLoops   = [9]int{4: 1, 6: 1, 8: 2}
	closedLoops = [9]int{5: 1}
)

// readHue reads the numeral of c by its hue against the die's body (see
// chromaCrop); ok only when it reads at hueConfidence.
func (r *Reader) readHue(im bgrImage, c *dieCrop) (dieCrop, readOut, bool) {
	cc, ok := chromaCrop(im, c)
	if !ok {
		return dieCrop{}, readOut{}, false
	}
	o := r.readCrop(&cc)
	return cc, o, o.die.Face != 0 && o.die.Confidence >= hueConfidence
}

// hueConfidence is the confidence a numeral found by hue, after it was not
// read by brightness, must reach to be believed.
const hueConfidence = 0.9

// paleSat is the fraction, in tenths, of a colour's minimum saturation
// with which a die not found at first is looked for again.
const paleSat = 4

// maxCandidates is how many blobs of a die's colour are read, at most, to
// find the die.
const maxCandidates = 5

// maxMatched is how many candidates with a numeral are kept, at most.
const maxMatched = 3

// rivalScore is how strong (a fraction of the best) a second candidate's
// numeral must be to be read too.
const rivalScore = 0.7

// readOut is the reading of one candidate die.
type readOut struct {
	die      Die
	g        glyph
	hasGlyph bool
	contrast float64
	size     float64 // length of the numeral over the die's radius
	// tilted is set when the numeral was read but shows the die tilted:
	// no other way of reading it may overrule that
	tilted bool
	// m is the glyph's match: m.face and m.second are the two faces it
	// looks most like
	m match
}

// debugMasks, when set by a test, sees the colour masks.
var debugMasks func(sm, bg bgrImage, bm, rm []byte)

// debugCrop, when set by a test, sees every die cropped.
var debugCrop func(im bgrImage, c *dieCrop, name string)

// readCrop reads the numeral of a cropped die.
func (r *Reader) readCrop(c *dieCrop) readOut {
	nr := findNumeral(c, float32(r.opts.MinContrast), numeralFrac)
	c.num = nr.mask
	return r.readNumeral(c, nr)
}

// debugNumeral, when set by a test, sees every numeral matched.
var debugNumeral func(nr numeralResult, m match)

// readNumeral reads the numeral nr found on the die c; a numeral found
// but not read with certainty is read again from other cuts (rescue).
func (r *Reader) readNumeral(c *dieCrop, nr numeralResult) readOut {
	o := r.readNumeralOnce(c, nr)
	if a, b, try := r.retryFaces(o.m.face, o.m.second); o.die.Face == 0 && o.hasGlyph && try {
		if face, conf, ok := r.rescue(c, a, b); ok {
			o.die.Face, o.die.Confidence, o.die.Why = face, conf, Why{}
		}
	}
	// a numeral not read may still show the die tilted, as the face it
	// looks most like: then no other way of reading it is tried
	face := o.die.Face
	if face == 0 && o.hasGlyph {
		face = o.m.face
	}
	if face != 0 && r.tilted(c, nr, &o.g, o.m, face) {
		o.tilted = true
		o.die.Why = Why{Code: WhyTilted, Face: face}
		o.die.Face, o.die.Confidence = 0, math.Min(o.die.Confidence, r.opts.MinConfidence/2)
	}
	return o
}

// A die leaning on the tray's wall turns its top face further from the
// camera than a die lying flat there: its numeral shows shrunk across,
// along the wall's normal (near the line from the picture's centre),
// more than the camera's slant alone shrinks it (cos 25 degrees, 0.9, at
// the picture's edge; a die leaning 20 to 30 degrees on the wall, 0.55
// to 0.75). A die is refused as tilted when its numeral matches its face
// best shrunk to tiltedSlant or less along one of the lines of
// tiltTurns, by tiltedGain or more over its match seen square on, in its
// first cut and in one of the two others (checkFrac, highCheckFrac).
// Nearer the picture's centre than tiltedFrom (of the picture's width) a
// die leaning on a wall shows its face shrunk by 0.87 to 0.94 only, which
// no numeral's shape tells from 1: it is not tested. A numeral that
// matches its face worse by tiltGate or more shrunk by tiltedSlant along
// the line from the picture's centre than as it is is not tried along the
// lines turned from it (the shrinking of a die leaning near a tray's
// corner shows along that line too, if less).
const (
	tiltedSlant = 0.85
	tiltedGain  = 0.015
	tiltedFrom  = 0.25
	tiltGate    = 0.01
)

// tiltTurns are the angles (degrees) from the line from the picture's
// centre of the lines along which a numeral is tried shrunk.
var tiltTurns = [...]float64{0, 30, -30}

// tiltSlantAbove is the foreshortening just above tiltedSlant, and
// tiltSlants those below it, that a numeral is tried at, unslanted.
const tiltSlantAbove = 0.9

var tiltSlants = []float64{0.75, 0.65, 0.55}

// tilted says whether the numeral nr of the die c, read as face (its
// glyph g, matched as m), shows the die tilted (see tiltedSlant).
func (r *Reader) tilted(c *dieCrop, nr numeralResult, g *glyph, m match, face int) bool {
	if c.fw == 0 || nr.mask == nil {
		return false
	}
	px := float64(c.box.Min.X) + nr.cx - float64(c.fw)/2
	py := float64(c.box.Min.Y) + nr.cy - float64(c.fh)/2
	rad := math.Hypot(px, py)
	if rad < tiltedFrom*float64(c.fw) {
		return false
	}
	// the other cuts and their matches as they are, found when first
	// needed
	type cut struct {
		nr numeralResult
		m  match
	}
	var others []cut
	m1 := m
	if m.face != face {
		// read from other cuts as the face it looked next most like
		m1 = r.m.faceMatch(g, face)
	}
	for i, t := range tiltTurns {
		// a die leaning on a wall turns its face about the wall; near a
		// corner of the tray the wall's normal is off the line from the
		// picture's centre
		cs, sn := math.Cos(t*math.Pi/180), math.Sin(t*math.Pi/180)
		dx, dy := (px*cs-py*sn)/rad, (px*sn+py*cs)/rad
		fires, gain := r.shrunk(c, nr, m1, dx, dy)
		if i == 0 {
			if outward(c, nr, dx, dy, rad)+outwardShrunk*gain >= outwardRefuse {
				return true
			}
			if gain < -tiltGate {
				return false
			}
		}
		if !fires {
			continue
		}
		if others == nil {
			for _, f := range []float32{checkFrac, highCheckFrac} {
				if nr2 := findNumeral(c, float32(r.opts.MinContrast), f); nr2.mask != nil {
					g2 := glyphOf(nr2.mask, c.w, c.h, nr2.cx, nr2.cy, nr2.rms)
					others = append(others, cut{nr2, r.m.faceMatch(&g2, face)})
				}
			}
		}
		for _, o := range others {
			if fires, _ := r.shrunk(c, o.nr, o.m, dx, dy); fires {
				return true
			}
		}
	}
	return false
}

// A die leaning on the tray's wall also shows its face further out on its
// silhouette than a die lying flat there: its top is raised towards the
// wall, and the side face below it turns towards the camera. The middle
// of a flat die's numeral, along the line from the picture's centre,
// lies flatShift0 + flatShift1 r of the die's radius outwards of the
// silhouette's centroid (parallax: the face is higher than the middle of
// the die), r the distance from the picture's centre over its width (the
// fit over 1889 flat dice of fresh throws; 95% lie within 0.1 of it). A
// die is refused as tilted when its numeral lies outwards of that, plus
// outwardShrunk times the gain of its match shrunk to tiltedSlant, by
// outwardRefuse or more: the two signs together tell a leaning die
// better than either alone. A camera tilted from straight down moves
// the point that parallax spreads from off the picture's centre, and a
// flat die then looks leaning more often (see the package doc).
const (
	flatShift0    = 0.063
	flatShift1    = 0.629
	outwardShrunk = 4
	outwardRefuse = 0.16
)

// outward is how far outwards along (dx, dy), the unit line from the
// picture's centre through the numeral nr rad pixels away, the middle of
// the numeral lies on the silhouette of c from where a flat die's would,
// in the die's radii (see flatShift0). A silhouette that reaches the
// crop's border was cut (a pale, lit face the colour mask lost where the
// die was found): its centroid is not the die's, and outward says 0.
func outward(c *dieCrop, nr numeralResult, dx, dy, rad float64) float64 {
	if silhouetteCut(c) {
		return 0
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for y := 0; y < c.h; y++ {
		for x := 0; x < c.w; x++ {
			if nr.mask[y*c.w+x] != 0 {
				p := float64(x)*dx + float64(y)*dy
				lo, hi = math.Min(lo, p), math.Max(hi, p)
			}
		}
	}
	f := c.face
	return ((lo+hi)/2-(f.sx*dx+f.sy*dy))/f.dr - flatShift0 - flatShift1*rad/float64(c.fw)
}

// silhouetteCut says whether the silhouette of c reaches its border.
func silhouetteCut(c *dieCrop) bool {
	for x := 0; x < c.w; x++ {
		if c.in[x] != 0 || c.in[(c.h-1)*c.w+x] != 0 {
			return true
		}
	}
	for y := 0; y < c.h; y++ {
		if c.in[y*c.w] != 0 || c.in[y*c.w+c.w-1] != 0 {
			return true
		}
	}
	return false
}

// shrunk says whether the numeral nr of the die c, whose glyph matches
// its face as m, matches it best with a shrinking along (dx, dy) undone,
// one of tiltedSlant or less, by tiltedGain or more over m (against m's
// template at m's rotation: the numeral turns as it is shrunk no more
// than the die). The match rises and falls once as the shrinking undone
// grows: the search stops where it falls.
func (r *Reader) shrunk(c *dieCrop, nr numeralResult, m match, dx, dy float64) (fires bool, gain float64) {
	score := func(k float64) float64 {
		sl := slant{dx, dy, k}
		g := glyphSlanted(nr.mask, c.w, c.h, nr.cx, nr.cy, slantedRMS(nr.mask, c.w, nr.cx, nr.cy, sl), sl)
		return r.m.scoreAt(&g, m.template, m.rotation)
	}
	best := score(tiltedSlant)
	gain = best - m.score
	if best <= m.score || score(tiltSlantAbove) >= best {
		// no better shrunk, or best less shrunk than tiltedSlant
		return false, gain
	}
	for _, k := range tiltSlants {
		s := score(k)
		if s <= best {
			break
		}
		best = s
	}
	return best-m.score >= tiltedGain, gain
}

// rescueCuts are the other ways the numeral of a die not read with
// certainty is cut from its face: thresholds (fractions of the strongest
// top-hat values) and labelling (see findNumeralCut).
var rescueCuts = []struct {
	frac   float32
	dilate int
}{
	{0.3, -1}, {0.4, -1}, {0.5, -1}, {0.6, -1}, {0.7, -1},
	{0.3, 1}, {0.4, 1}, {0.5, 1}, {0.6, 1}, {0.7, 1},
}

// rescueConfidence is the confidence each cut of a rescue must read its
// face with; rescueVotes is how many cuts must agree, none reading
// another face.
const (
	rescueConfidence = 0.9
	rescueVotes      = 3
)

// rescue reads the numeral of c from each of rescueCuts and returns the
// face when at least rescueVotes of them read it with rescueConfidence,
// at a size usual for it, and none reads another face so; only face a
// or b (the faces the numeral's first cut looks most like) is taken. It
// stops at the first cut that makes the answer no: a sure reading of a
// third face or of a second one, or too few cuts left to reach
// rescueVotes (the same answer as reading every cut, at a fraction of
// the cost on the dice it refuses).
func (r *Reader) rescue(c *dieCrop, a, b int) (face int, conf float64, ok bool) {
	votes := 0
	// two cuts often keep the same pixels: their vote is the same (a
	// numeral's glyph and size are its mask's)
	type cutVote struct {
		mask []byte
		face int // 0: no vote
	}
	seen := make([]cutVote, 0, len(rescueCuts))
	vote := func(nr numeralResult) int {
		for _, s := range seen {
			if bytes.Equal(s.mask, nr.mask) {
				return s.face
			}
		}
		g := glyphOf(nr.mask, c.w, c.h, nr.cx, nr.cy, nr.rms)
		m := r.m.best(&g)
		f := m.face
		if confidence(m) < rescueConfidence || !r.usualSize(m.face, nr.length/nr.dieRadius) {
			f = 0
		}
		seen = append(seen, cutVote{nr.mask, f})
		return f
	}
	for i, cut := range rescueCuts {
		if votes+len(rescueCuts)-i < rescueVotes {
			return 0, 0, false
		}
		nr := findNumeralCut(c, float32(r.opts.MinContrast), cut.frac, cut.dilate)
		if nr.mask == nil {
			continue
		}
		f := vote(nr)
		if f == 0 {
			continue
		}
		if face != 0 && f != face || f != a && f != b {
			return 0, 0, false
		}
		face = f
		votes++
	}
	if votes < rescueVotes {
		return 0, 0, false
	}
	return face, max(r.opts.MinConfidence, float64(votes)/float64(len(rescueCuts))), true
}

// usualSize says whether a numeral read as face, size long (over the
// die's radius), is within the sizes learned for that face (any size when
// none were learned).
func (r *Reader) usualSize(face int, size float64) bool {
	rg, ok := r.sizes[face]
	return !ok || size >= rg[0] && size <= rg[1]
}

// readNumeralOnce reads the numeral nr found on the die c.
func (r *Reader) readNumeralOnce(c *dieCrop, nr numeralResult) readOut {
	o := readOut{die: Die{Found: true, Box: c.box}}
	if nr.mask == nil {
		o.die.Why = nr.emptyReason
		return o
	}
	o.contrast = nr.contrast
	o.size = nr.length / nr.dieRadius
	o.g = glyphOf(nr.mask, c.w, c.h, nr.cx, nr.cy, nr.rms)
	o.hasGlyph = true
	m := r.m.best(&o.g)
	o.m = m
	if debugNumeral != nil {
		debugNumeral(nr, m)
	}
	o.die.Confidence = confidence(m)
	if o.die.Confidence < r.opts.MinConfidence {
		// the two likeliest faces may differ by their closed loops, which
		// a small numeral's glyph blurs (an 8 and a 6, a 3 and an 8): loops
		// seen are evidence (blur may close a loop, not open one), but not
		// against the likeliest face when its own strokes may close as
		// many (a 5's bowl)
		n := holes(nr.mask, c.w, c.h)
		if n > 0 && (faceLoops[m.face] == n) != (faceLoops[m.second] == n) && !(faceLoops[m.second] == n && closedLoops[m.face] == n) {
			if faceLoops[m.second] == n {
				m.face, m.second = m.second, m.face
			}
			o.die.Confidence = r.opts.MinConfidence
		}
	}
	// a glyph unlike every learned numeral is a lit edge, a scratch or a
	// numeral half lost, whatever it looks least unlike
	if m.score < minMatch {
		o.die.Confidence = math.Min(o.die.Confidence, r.opts.MinConfidence/2)
		o.die.Why = Why{Code: WhyUnlike, Face: m.face}
		return o
	}
	if o.die.Confidence < r.opts.MinConfidence || o.contrast < faintContrast && o.die.Confidence < faintConfidence {
		o.die.Confidence = math.Min(o.die.Confidence, r.opts.MinConfidence/2)
		o.die.Why = Why{Code: WhyLooksLike, Face: m.face, Other: m.second}
		return o
	}
	// a numeral much longer or shorter than this face's usually is was
	// cut badly (merged with an edge, half lost to glare); a little
	// shorter is trusted when it is not faint and matches its face's
	// samples closely (a die far from the camera's axis, seen slanted)
	// (o.size/smallNumeral usual: o.size at least smallNumeral of the
	// shortest learned, the longer side being ruled out just above)
	if !r.usualSize(m.face, o.size) &&
		!(r.usualSize(m.face, o.size/smallNumeral) && m.score >= smallNumeralScore && o.contrast >= faintContrast) {
		o.die.Confidence = math.Min(o.die.Confidence, r.opts.MinConfidence/2)
		o.die.Why = Why{Code: WhyOddSize, Face: m.face}
		return o
	}
	// the same numeral cut at a lower threshold must not read confidently
	// as another face; on a large die, where thin swirls of the plastic
	// and lit edges are resolved and may join the numeral, nor cut at a
	// higher one
	fracs := []float32{checkFrac}
	if nr.dieRadius >= dilateBelow {
		fracs = append(fracs, highCheckFrac)
	}
	for _, f := range fracs {
		nr2 := findNumeral(c, float32(r.opts.MinContrast), f)
		if nr2.mask == nil {
			continue
		}
		g2 := glyphOf(nr2.mask, c.w, c.h, nr2.cx, nr2.cy, nr2.rms)
		if m2 := r.m.best(&g2); m2.face != m.face && confidence(m2) >= r.opts.MinConfidence &&
			!loopsSettle(nr, nr2, c, m.face, m2.face) {
			o.die.Confidence = math.Min(o.die.Confidence, r.opts.MinConfidence/2)
			o.die.Why = Why{Code: WhyContrast, Face: m.face, Other: m2.face}
			return o
		}
	}
	o.die.Face = m.face
	return o
}

// confidenceMargin is the margin of correlation of the best face over the
// next at which the confidence reaches 1: the glyphs of two different
// numerals correlate at 0.6 to 0.8, a numeral with its own template at 0.8
// to 0.95.
const confidenceMargin = 0.06

// confidence maps a match to 0-1: the margin of the best face over the
// next, scaled, times how well the best face matches at all.
func confidence(m match) float64 {
	margin := math.Min(1, math.Max(0, (m.score-m.score2)/confidenceMargin))
	fit := math.Min(1, math.Max(0, (m.score-0.3)/0.3))
	return margin * fit
}

// maskWidth is the width the frame is shrunk to to find the dice by colour.
const maskWidth = 320
