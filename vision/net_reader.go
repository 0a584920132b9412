package vision

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"

	"comptoir/input"

	"gocv.io/x/gocv"
)

// NetOpts controls a NetReader.
type NetOpts struct {
	// Blue and Red are the colours of the two dice's plastic.
	Blue, Red HSVRange
	// MinBackgroundDiff is how far (sum of the BGR differences) a die's
	// pixels are from the tray or table around them.
	MinBackgroundDiff int
	// MinAcross and MaxAcross bound a die's width, in pixels of a frame
	// 640 wide (scaled with the frame's width).
	MinAcross, MaxAcross float64
	// MinConfidence is the classifier's probability under which a die is
	// unreadable (Face 0) rather than read.
	MinConfidence float64
	// Model is an ONNX classifier; nil uses the committed one.
	Model []byte
	// MaxCocked is the pose network's probability from which a die is
	// refused as cocked (WhyCocked) before its numeral is read; 0 runs
	// no pose network.
	MaxCocked float64
	// PoseModel is an ONNX pose network; nil uses the committed one.
	PoseModel []byte
	// PoseSecondLook is the pose network's probability (under
	// MaxCocked) from which it looks at a die again in the seven other
	// views of its square's symmetries (quarter turns, mirrored: its
	// training turned and mirrored its crops so) and judges it by the
	// mean of the eight: a die it is unsure of is refused when the
	// views find it cocked on the whole. A die refused at first look
	// stays refused; the mean may also find a die flatter than the
	// first look did, which counts where the reader asks how sure the
	// network is that a die lies flat (the flat field's exemption,
	// learning the field). 0 never looks again.
	PoseSecondLook float64
	// PoseSize is the side of PoseModel's input, in pixels; 0 is
	// PoseSize, the committed network's. A network trained on crops of
	// another size (cropexport -pose-size, posenet.py --size) is read
	// with its own.
	PoseSize int
	// Calibration, when set, adapts the reader to one dice set (see
	// NetCalibration).
	Calibration *NetCalibration
}

// DefaultNetOpts reads blue and red dice 25 to 160 pixels across at 640
// wide (a camera 20 to 70 cm above the tray), refusing any numeral the
// classifier gives less than 0.97.
var DefaultNetOpts = NetOpts{
	Blue:              HSVRange{HMin: 95, HMax: 132, SMin: 50, SMax: 255, VMin: 20, VMax: 255},
	Red:               HSVRange{HMin: 166, HMax: 12, SMin: 70, SMax: 255, VMin: 25, VMax: 255},
	MinBackgroundDiff: 40,
	MinAcross:         25,
	MaxAcross:         160,
	MinConfidence:     0.97,
	MaxCocked:         defaultMaxCocked,
	PoseSecondLook:    defaultPoseSecondLook,
}

// NetReader reads dice with the learned classifier. It keeps scratch
// buffers and an OpenCV network: use it from one goroutine at a time, and
// Close it.
//
// How a frame is read (Read):
//
//  1. The frame is shrunk to 320 pixels wide; a median over a window of
//     half the frame stands for the tray or table.
//  2. The pixels in the blue and the red ranges that differ from that
//     background make a mask per colour; the largest compact blob of a
//     die's size (25 to 160 pixels across at 640 wide) is the die. Two
//     dice touching are two colours: each is read.
//  3. The pose network (net_pose.go) sees the die in colour, a square
//     1.5 widths a side around the blob: a die it finds cocked (leaning
//     on the tray's wall, at least MaxCocked sure) is refused
//     (WhyCocked), its numeral not read. A die it is unsure of (at
//     least PoseSecondLook likely cocked) it looks at again in the
//     eight views of the square turned and mirrored, and judges by
//     their mean.
//  4. Around the blob's centre, the numeral of the top face is found (the
//     pixels that differ most from the face, bright or dark ink), and a
//     square 0.7 of the die's width is cut centred on it, turned so that
//     its long axis is upright: CropSize grey levels. A face that a lamp
//     washes out (pale, not 1% of it ink: numeralCut.blank) shows no
//     numeral, and what the classifier would read there is an edge or a
//     side face's numeral: the die is refused (WhyBlankFace), whatever
//     the hand-tuned reader reads of it.
//  5. The network gives a probability per face (the mean of its answers
//     for the crop and the crop turned half round; an unsure crop is read
//     again turned a quarter round, then tiltDegrees each way, and the
//     surest reading stands); under MinConfidence the
//     die is unreadable ("numeral unclear"), never guessed. A
//     calibration may refuse more, or read a die the network hesitated on
//     when the dice set's own numerals say so (NetCalibration).
//  6. In Combined (Combined.CloserLook), a die the network is unsure
//     of, lying flat, is cut again over a smaller square, its numeral
//     larger, and read when that crop reads surely the face the first
//     look found likeliest.
//  7. A die whose coloured blob is only part of it (its top face washed
//     out by the light, step 2 grown into its pale pixels: grow) is
//     refused (WhyWashedOut) when the crop cut around the whole die
//     does not read the same face likeliest (washedOut).
type NetReader struct {
	opts   NetOpts
	cls    *classifier
	pose   *poser // nil when MaxCocked is 0
	poses  [2][]byte
	views  [][]byte // scratch: the eight views of a pose crop (secondLook)
	loc    locator
	crops  [2][]byte
	closer []byte  // scratch: the crop of a closer look (closerLook)
	tilt   float64 // tiltDegrees; 0 in the tests that measure without it
	// flat are the flat dice that say where this camera shows a flat
	// die's numeral, the calibration's and those learned since
	// (LearnFlat); field their fit, nil under flatFieldMinDice.
	flat  []flatSample
	field *flatField
	// playField is the fit of the flat dice of flat learned during play
	// alone, without the calibration's (nil without a calibration, or
	// when none of its dice are left: field is that fit). A die whose
	// numeral lies where either field shows a flat die's is on the
	// field (Die.onField): the calibrated reader then overrules the
	// hand-tuned "tilted" test wherever the uncalibrated one, which
	// learns from play alone, does (see playFitOf).
	playField *flatField
	// strayRun counts the last dice learned in a row whose numeral lay
	// off the field (LearnFlat).
	strayRun int
	// moves counts the times the reader took its camera as moved and
	// forgot the dice learned before (LearnFlat).
	moves int
	// sizes are the widths of the dice at the last rests, in pixels of
	// a picture 640 wide (LearnFlat; the last restSizes).
	sizes []float64
	// blanks say, of the dice found at the last rests (the last
	// restSizes), which were refused as blank: their top face washed out
	// by the lamp (WhyBlankFace).
	blanks []bool
}

// NewNetReader returns a reader with the given options.
func NewNetReader(o NetOpts) (*NetReader, error) {
	if o.MinConfidence <= 0 || o.MinConfidence > 1 {
		return nil, fmt.Errorf("vision: MinConfidence %g, want in (0, 1]", o.MinConfidence)
	}
	if o.MinAcross <= 0 || o.MaxAcross <= o.MinAcross {
		return nil, fmt.Errorf("vision: die widths %g to %g pixels, want 0 < min < max", o.MinAcross, o.MaxAcross)
	}
	model := o.Model
	if model == nil {
		model = dicenetONNX
	}
	cls, err := newClassifier(model)
	if err != nil {
		return nil, err
	}
	if o.MaxCocked < 0 || o.MaxCocked > 1 {
		cls.Close()
		return nil, fmt.Errorf("vision: MaxCocked %g, want in [0, 1] (0: no pose network)", o.MaxCocked)
	}
	if o.PoseSecondLook < 0 || o.PoseSecondLook > 1 {
		cls.Close()
		return nil, fmt.Errorf("vision: PoseSecondLook %g, want in [0, 1] (0: no second look)", o.PoseSecondLook)
	}
	if o.PoseSize != 0 && (o.PoseSize < MinPoseSize || o.PoseSize > MaxPoseSize || o.PoseModel == nil) {
		cls.Close()
		return nil, fmt.Errorf("vision: PoseSize %d, want 0 (the committed pose network's %d), or %d to %d with a PoseModel trained on crops of that size", o.PoseSize, PoseSize, MinPoseSize, MaxPoseSize)
	}
	r := &NetReader{opts: o, cls: cls, tilt: tiltDegrees, loc: locator{o: locateOpts{Blue: o.Blue, Red: o.Red, MinBackgroundDiff: o.MinBackgroundDiff, MinAcross: o.MinAcross, MaxAcross: o.MaxAcross, Grow: true}}}
	if c := o.Calibration; c != nil {
		r.flat = slices.Clone(c.flat)
		r.field = c.field
		// the colours the calibration learned, for the dice o's own do
		// not find, or find only a piece of
		r.loc.o.LearnedBlue, r.loc.o.LearnedRed = c.Blue, c.Red
	}
	poseSize := PoseSize
	if o.PoseSize > 0 {
		poseSize = o.PoseSize
	}
	r.closer = make([]byte, CropSize*CropSize)
	for i := range r.crops {
		r.crops[i] = make([]byte, CropSize*CropSize)
		r.poses[i] = make([]byte, 3*poseSize*poseSize)
	}
	if o.MaxCocked > 0 {
		pm := o.PoseModel
		if pm == nil {
			pm = posenetONNX
		}
		if r.pose, err = newPoser(pm, poseSize); err != nil {
			cls.Close()
			return nil, err
		}
	}
	return r, nil
}

// Options returns the reader's options.
func (r *NetReader) Options() NetOpts { return r.opts }

// Close releases the networks.
func (r *NetReader) Close() error {
	if r.pose != nil {
		r.pose.Close()
	}
	return r.cls.Close()
}

// Read reads the blue and the red die of a frame.
func (r *NetReader) Read(frame gocv.Mat) Roll { return r.read(frame, nil, 0) }

// read is Read with the frame shrunk by the caller (sf), or by the
// locator itself (nil), and the dice it is unsure of looked at closer
// over closer of the usual span (closerLook; 0: not).
func (r *NetReader) read(frame gocv.Mat, sf *shrunkFrame, closer float64) Roll {
	px := float64(frame.Cols()) / 640
	b, rd, bok, rok := r.loc.locate(frame, px, sf)
	var roll Roll
	var todo [][]byte
	var dice []*Die
	cocked, flat := r.cocked(frame, []located{b, rd}, []bool{bok && !b.edge, rok && !rd.edge})
	for k, d := range []struct {
		die *Die
		loc located
		ok  bool
	}{{&roll.Blue, b, bok}, {&roll.Red, rd, rok}} {
		switch {
		case !d.ok && r.loc.sameColour():
			d.die.Why = Why{Code: WhySameColour}
		case !d.ok:
			d.die.Why = Why{Code: WhyNotFound}
		case d.loc.edge:
			*d.die = Die{Found: true, Box: d.loc.box, Why: Why{Code: WhyEdge}}
		case cocked[k].Code != WhyNone:
			*d.die = Die{Found: true, Box: d.loc.box, Why: cocked[k]}
		case !r.cut(frame, d.loc, flat[k], r.crops[k], d.die):
		default:
			// (cut set where the die's numeral lies)
			d.die.Found, d.die.Box, d.die.Flat = true, d.loc.box, flat[k]
			todo = append(todo, r.crops[k])
			dice = append(dice, d.die)
		}
	}
	r.classify(todo, dice)
	r.closerLook(frame, &roll.Blue, b, closer)
	r.closerLook(frame, &roll.Red, rd, closer)
	r.washedOut(frame, &roll.Blue, b)
	r.washedOut(frame, &roll.Red, rd)
	if bok && !b.edge {
		roll.Blue.across = b.across / px
	}
	if rok && !rd.edge {
		roll.Red.across = rd.across / px
	}
	roll.Blue.byLearned, roll.Red.byLearned = bok && b.byLearned, rok && rd.byLearned
	return roll
}

// DefaultCloserLook is Combined.CloserLook, which NewCombined sets;
// closerLookFlat and closerLookFloor are how flat the pose network must
// find a die, and how sure the classifier's first look must be of its
// likeliest face, for the die to be looked at closer. Chosen on the
// tuning sets (vision/train/README.md, twenty-fourth stop): a closer
// look over 0.85 of the span read 20 dice more of 7,014 readings, none
// wrong; without the pose network's say it read cocked dice (the face
// they turn to the camera, 99.9% sure), and without the first look's
// likeliest face a flat 8 as a 3. The learned reader alone does not
// look closer: there it read a die wrong at val-harsh (a 5 whose first
// look found a 3 likeliest, 71%), which the hand-tuned reader refuses in
// Combined.
const (
	DefaultCloserLook = 0.85
	closerLookFlat    = 0.85
	closerLookFloor   = 0.5
)

// closerLook cuts the numeral of die (located as d), which the
// classifier was unsure of, again over the share s of the usual span
// (cropSpan of the die's width; 0: it does not), and reads it as
// classify does, calibration and all; the die is read when that reading
// is the face the first look found likeliest (its Guess). A numeral
// small in its crop (the die's silhouette taken wider than its top
// face: a shadow, a pale edge) fills more of the closer one. The die
// keeps where its numeral lies (the first cut's).
func (r *NetReader) closerLook(frame gocv.Mat, die *Die, d located, s float64) {
	if s == 0 || die.Why.Code != WhyUnsure || die.Guess == 0 || die.Flat < closerLookFlat || die.Confidence < closerLookFloor {
		return
	}
	d.across *= s
	if _, ok := cutNumeral(frame, d, r.closer); !ok {
		return
	}
	t := *die
	t.Face, t.Guess, t.Confidence, t.Why = 0, 0, 0, Why{}
	r.classify([][]byte{r.closer}, []*Die{&t})
	if t.Face != 0 && t.Face == die.Guess {
		*die = t
	}
}

// cut cuts the numeral crop of die d of frame into crop, and keeps in
// *die where its numeral lies (for LearnFlat, and whether that is where
// a flat die's lies: Die.onField). When it cannot be cut, or the flat
// dice the reader knows (its calibration's and those learned since) say
// that the numeral is not where a flat die's lies at this camera
// (flatField) and the pose network is less than flatFieldSure that it
// lies flat (its probability flat), it sets why in *die and returns
// false.
func (r *NetReader) cut(frame gocv.Mat, d located, flat float64, crop []byte, die *Die) bool {
	c, ok := cutNumeral(frame, d, crop)
	if !ok {
		*die = Die{Found: true, Box: d.box, Why: Why{Code: WhyTooSmall}}
		return false
	}
	if c.blank() {
		*die = Die{Found: true, Box: d.box, Why: Why{Code: WhyBlankFace}}
		return false
	}
	at := flatSampleOf(frame.Cols(), frame.Rows(), d, c.fx, c.fy)
	if f := r.field; f != nil {
		z := f.strays(at)
		if flat < flatFieldSure && z >= flatFieldRefuse {
			*die = Die{Found: true, Box: d.box, Why: Why{Code: WhyNotFlatHere}}
			return false
		}
		die.onField = r.onFieldAt(at)
	}
	die.at, die.hasAt = at, flat >= flatLearnFlat
	return true
}

// LearnFlat learns where this camera shows a flat die's numeral from
// the dice of roll, a reading of this reader at a rest of the dice
// (Watch calls it once a rest, WatchOpts.Learn): each die read whose
// numeral it cut and that the pose network found at least flatLearnFlat
// flat. Once it has flatFieldMinDice such dice (its calibration's
// included), it refuses, as a calibration does, the dice whose numeral
// lies elsewhere (WhyNotFlatHere). It keeps the last flatFieldMaxDice.
// When the camera is moved, the dice the pose network is sure lie flat,
// which the field never refuses (flatFieldSure), go on teaching it; once
// flatMovedRun of them in a row lie off the field, it forgets the dice
// before them and learns the new camera afresh.
//
// It also keeps how wide the dice at rest are (restAcross, View).
func (r *NetReader) LearnFlat(roll Roll) {
	if w := restAcross(roll, r.opts.MinAcross, r.opts.MaxAcross); len(w) > 0 {
		r.sizes = lastOf(append(r.sizes, w...), restSizes)
	}
	learnt := false
	for _, d := range []Die{roll.Blue, roll.Red} {
		if d.Found {
			r.blanks = lastOf(append(r.blanks, d.Why.Code == WhyBlankFace), restSizes)
		}
		if !d.hasAt || d.Face == 0 {
			continue
		}
		r.flat = append(r.flat, d.at)
		learnt = true
		if r.field == nil || r.field.strays(d.at) < flatFieldRefuse {
			r.strayRun = 0
			continue
		}
		// a die the pose network is sure lies flat, off the field
		if r.strayRun++; r.strayRun >= flatMovedRun {
			// the camera was moved: its old dice mislead
			r.flat = append(r.flat[:0:0], r.flat[len(r.flat)-r.strayRun:]...)
			// and the dice's widths: a camera moved (brought lower, as
			// the staff page may have asked) shows them at another size
			r.sizes = lastOf(r.sizes, r.strayRun)
			r.strayRun = 0
			r.moves++
		}
	}
	if n := len(r.flat) - flatFieldMaxDice; n > 0 {
		r.flat = append(r.flat[:0:0], r.flat[n:]...)
	}
	// while dice in a row lie off the field, it stays as it was: fitted
	// to them as they come, it would grow lax and take them in
	if learnt && (r.strayRun == 0 || r.field == nil) {
		r.fitFields(r.flat)
	}
}

// fitFields fits the field and the field of play to the flat dice s.
func (r *NetReader) fitFields(s []flatSample) {
	r.field, _ = fitFlatField(s)
	r.playField = playFitOf(s, r.opts.Calibration)
}

// onFieldAt says whether a flat die's numeral lies at p at this camera:
// within flatFieldAgree times the scatter of the field, or of the field
// of the dice learned during play alone (playField). False when the
// reader knows no field.
func (r *NetReader) onFieldAt(p flatSample) bool {
	for _, f := range []*flatField{r.field, r.playField} {
		if f != nil && f.strays(p) < flatFieldAgree {
			return true
		}
	}
	return false
}

// playFitOf fits the field to the dice of s that c's calibration did not
// give (those learned during play); nil when c is nil, when s holds none
// of c's dice (the field of s is that fit), or when fewer than
// flatFieldMinDice were learned.
//
// A calibration's flat dice lie where its user showed them (in the middle
// of the tray, face by face), the dice of play anywhere in it. Fitted
// together, the field may say that a flat die's numeral near the tray's
// wall strays a little (between flatFieldAgree and flatFieldRefuse times
// the scatter) where the field of the dice of play alone says it does
// not: the uncalibrated reader, which knows only those, then read it over
// the hand-tuned "tilted" test and the calibrated one did not (val-tables
// table 5, 00206.jpg red, with a pose network trained on more cocked
// dice; vision/train/README.md, thirtieth stop).
func playFitOf(s []flatSample, c *NetCalibration) *flatField {
	if c == nil || len(c.flat) == 0 {
		return nil
	}
	play := make([]flatSample, 0, len(s))
	for _, p := range s {
		if !slices.Contains(c.flat, p) {
			play = append(play, p)
		}
	}
	if len(play) == len(s) {
		return nil
	}
	f, _ := fitFlatField(play)
	return f
}

// FlatDice is how many flat dice the reader knows where this camera
// shows their numeral (its calibration's and those it learned), and
// whether that is enough to refuse a die whose numeral lies elsewhere.
func (r *NetReader) FlatDice() (n int, used bool) { return len(r.flat), r.field != nil }

// restAcross is what a rest of the dice says of how wide the camera
// shows them, in pixels of a picture 640 wide: the widths of the dice
// read (what was found was a die); when none was read, the narrower of
// those found whole, within a fifth of the locator's bounds lo and hi
// (a blob of the die's colour may be the die with its shadow, or run
// into a mat's print or a tray of its colour, and is then wider; none
// read, the dice may still tell the camera is too far).
func restAcross(roll Roll, lo, hi float64) []float64 {
	var read []float64
	narrowest := 0.0
	for _, d := range []Die{roll.Blue, roll.Red} {
		if d.across < 0.8*lo || d.across > 1.2*hi {
			continue
		}
		if d.Face != 0 {
			read = append(read, d.across)
		}
		if narrowest == 0 || d.across < narrowest {
			narrowest = d.across
		}
	}
	if len(read) > 0 || narrowest == 0 {
		return read
	}
	return []float64{narrowest}
}

// restSizes is how many widths of dice at rest the reader keeps (the
// median of which says how large its camera shows them, View): eight
// throws' worth, so that a camera brought lower, as the staff page asks of
// dice too small, is seen lower within five throws.
const restSizes = 16

// minSizes is how many dice at rest the reader must have seen before it
// says how large its camera shows them (View): one die may be grown or
// cut.
const minSizes = 4

// View is what the reader learned of its camera: how many flat dice say
// where it shows a flat die's numeral, how many more it needs before it
// refuses a die whose numeral lies elsewhere, how many times it took the
// camera as moved during play (flatMovedRun flat dice in a row off what
// it had learned) and started learning it afresh; and, from minSizes
// dice at rest, their median width, small under SmallDieAcross; and how
// many of the last dice found at rest were refused as blank, the lamp
// washing their top face out (Glare from GlareDice of them; a count a
// restart does not keep, LearnedCamera being the camera's).
func (r *NetReader) View() input.ReaderView {
	v := input.ReaderView{Flat: len(r.flat), Moved: r.moves}
	if r.field == nil {
		// (a fit that failed needs more dice, however many it has)
		v.FlatNeed = max(flatFieldMinDice-v.Flat, 1)
	}
	if len(r.sizes) >= minSizes {
		a := medianOf(r.sizes)
		v.Across = int(math.Round(a))
		v.Small, v.SmallUnder = DiceTooSmall(a), SmallDieAcross
	}
	for _, b := range r.blanks {
		if b {
			v.Blank++
		}
	}
	v.BlankOf, v.Glare = len(r.blanks), v.Blank >= GlareDice
	return v
}

// GlareDice is how many of the last dice found at rest (restSizes) must
// have shown a top face the lamp washes out (WhyBlankFace) for the
// reader to say the lamp is to be moved (ReaderView.Glare): a few at a
// table under a harsh lamp, none at any tuning table
// (vision/train/README.md, twenty-first stop).
const GlareDice = 3

// washedOut refuses a die read from the crop cut around its coloured
// part, or guessed from it, when the die's top face is washed out (the
// locator grew it into its pale pixels: d.whole) and the crop cut around
// the whole die reads another face likeliest: the first crop may show a
// side face's numeral (WhyWashedOut). The crops of training are cut
// around the coloured part (NumeralCrop), so that the whole die's crop
// checks the reading rather than replace it: read instead, it read a
// pearl die's veined 7 as a 5 (vision/train/README.md, "tenth stop").
func (r *NetReader) washedOut(frame gocv.Mat, die *Die, d located) {
	f := die.Face
	if f == 0 {
		f = die.Guess
	}
	if d.whole == nil || f == 0 || !normaliseCrop(frame, *d.whole, r.crops[0]) {
		return
	}
	outs, err := r.infer([][]byte{r.crops[0]})
	if err != nil {
		*die = Die{Found: true, Box: d.box, Why: Why{Code: WhyClassifier, Detail: err.Error()}}
		return
	}
	if g, _, _ := outs[0].best(); g != f {
		*die = Die{Found: true, Box: d.box, Why: Why{Code: WhyWashedOut, Face: f, Other: g}}
	}
}

// readAt reads the die whose silhouette's bounding box in frame is box
// (found by another reader): its centre the box's, its width the box's
// mean side.
func (r *NetReader) readAt(frame gocv.Mat, box image.Rectangle) Die {
	c := box.Min.Add(box.Max)
	return r.readOne(frame, located{cx: float64(c.X) / 2, cy: float64(c.Y) / 2, across: float64(box.Dx()+box.Dy()) / 2, box: box})
}

// readOne cuts the numeral crop of the die d found in frame and
// classifies it.
func (r *NetReader) readOne(frame gocv.Mat, d located) Die {
	w, flat := r.cocked(frame, []located{d}, []bool{true})
	if w[0].Code != WhyNone {
		return Die{Found: true, Box: d.box, Why: w[0]}
	}
	var out Die
	if !r.cut(frame, d, flat[0], r.crops[0], &out) {
		return out
	}
	out.Found, out.Box, out.Flat = true, d.box, flat[0]
	r.classify([][]byte{r.crops[0]}, []*Die{&out})
	r.washedOut(frame, &out, d)
	return out
}

// ReadSingle reads the one die of a picture, whatever its colour: the
// largest object that stands out from the picture's border.
func (r *NetReader) ReadSingle(frame gocv.Mat) Die {
	d, ok := locateSingle(frame)
	if !ok {
		return Die{Why: Why{Code: WhyNoDie}}
	}
	if d.edge {
		return Die{Found: true, Box: d.box, Why: Why{Code: WhyEdge}}
	}
	return r.readOne(frame, d)
}

// NumeralCrop returns the normalised numeral crop of the die of the given
// colour ("blue", "red", or "any" for the largest object that stands out)
// in a picture whose scale is px (1 for a 640-wide frame, or a crop cut
// from one), and whether one was found: what the classifier sees, for
// training and inspection. It needs no classifier. The crop is cut
// around the die's coloured blob, as the reader cuts it, not grown into
// a washed-out face: make model's crops, and so the committed model,
// are those the reader reads (washedOut). The die is found as the
// committed models' training crops found it (trainingLocator).
func NumeralCrop(pic gocv.Mat, colour string, px float64, o NetOpts) ([]byte, bool) {
	l := trainingLocator(o)
	return l.crop(pic, colour, px)
}

// trainingLocator is the locator make model cuts its crops with
// (NumeralCrop, PoseCrop): the reader's, not grown into a washed-out
// face, and keeping a blob wider than a die when it is the largest of a
// die's shape (KeepWide), as the locator did when the committed models
// were trained. The rule that leaves such a blob out (the rim of a tray
// of the die's colour) came after them, and it changes 44 of their
// 31,500 numeral crops (dice found in a picture, or not) and some pose
// crops: cut with it, make model wrote other networks, and the
// classifier so trained read 11 fewer dice of the tuning sets and 4
// more wrong (vision/train/README.md, twenty-fifth stop). Cut so, make
// model learns from the crops the committed models learned from (the
// networks' bytes also depend on the CPU's kernels, which the training
// scripts cap, vision/train/generator.sh: the pose network comes out
// byte for byte).
func trainingLocator(o NetOpts) locator {
	return locator{o: locateOpts{Blue: o.Blue, Red: o.Red, MinBackgroundDiff: o.MinBackgroundDiff, MinAcross: o.MinAcross, MaxAcross: o.MaxAcross, KeepWide: true}}
}

func (l *locator) crop(pic gocv.Mat, colour string, px float64) ([]byte, bool) {
	var out []byte
	ok := l.find(pic, colour, px, func(pic gocv.Mat, d located) bool {
		out = make([]byte, CropSize*CropSize)
		return normaliseCrop(pic, d, out)
	})
	return out, ok
}

// find locates the die of the given colour ("blue", "red" or "any") in
// pic at scale px and calls use with the picture and the die, when one is
// found away from the picture's edge; it returns what use returns, false
// when no die is found. A picture under minFrameSide a side (a crop cut
// around a small die: 25 pixels across at 640 wide makes a crop of about
// 56) has its last row and column repeated to that size, the die's
// coordinates unchanged: use sees the padded picture.
func (l *locator) find(pic gocv.Mat, colour string, px float64, use func(gocv.Mat, located) bool) bool {
	if w, h := pic.Cols(), pic.Rows(); w > 0 && h > 0 && (w < minFrameSide || h < minFrameSide) {
		padded := gocv.NewMat()
		defer padded.Close()
		gocv.CopyMakeBorder(pic, &padded, 0, max(0, minFrameSide-h), 0, max(0, minFrameSide-w), gocv.BorderReplicate, color.RGBA{})
		pic = padded
	}
	var d located
	var ok bool
	switch colour {
	case "any":
		d, ok = locateSingle(pic)
	default:
		b, rd, bok, rok := l.locate(pic, px, nil)
		d, ok = b, bok
		if colour == "red" {
			d, ok = rd, rok
		}
	}
	if !ok || d.edge {
		return false
	}
	return use(pic, d)
}

// ReadCrop reads the die of the given colour ("blue", "red" or "any") in a
// picture at the scale of a 640-wide frame (a crop cut from such a frame).
func (r *NetReader) ReadCrop(pic gocv.Mat, colour string) Die {
	out := Die{Why: Why{Code: WhyNotFound}}
	r.loc.find(pic, colour, 1, func(pic gocv.Mat, d located) bool {
		out = r.readOne(pic, d)
		out.Box = image.Rectangle{} // the box of a crop, not of a frame
		return true
	})
	return out
}

// infer runs the network on each crop and on the crop turned half round
// (the normaliser cannot tell a numeral from itself upside down) and
// averages the two answers' probabilities and embeddings. A crop whose
// answer is under MinConfidence is read again turned a quarter round (and
// three quarters): the normaliser turns a numeral upright by its long
// axis, which misses by a quarter turn on numerals about as wide as they
// are tall (a 4 or a 7 of a font training never saw); the more confident
// of the two readings stands. Reading every crop four ways read the same
// dice and cost a classifier run more on every sure die. A crop still
// unsure is read again turned tiltDegrees each way, and the most
// confident reading stands (the normaliser's axis off by more than the
// network learned).
func (r *NetReader) infer(crops [][]byte) ([]netOut, error) {
	outs, err := r.inferHalf(crops)
	if err != nil {
		return nil, err
	}
	if err := r.reread(crops, outs, quarterTurn); err != nil {
		return nil, err
	}
	if r.tilt == 0 {
		return outs, nil
	}
	tilt := func(deg float64) func([]byte) []byte {
		return func(c []byte) []byte { return tiltCrop(c, deg) }
	}
	if err := r.reread(crops, outs, tilt(-r.tilt), tilt(r.tilt)); err != nil {
		return nil, err
	}
	return outs, nil
}

// reread reads the crops whose answer in outs is under MinConfidence
// again, turned by each of turns (inferHalf: with their half turns),
// and keeps the surest answer of each in outs.
func (r *NetReader) reread(crops [][]byte, outs []netOut, turns ...func([]byte) []byte) error {
	var which []int
	for k := range outs {
		if _, p, _ := outs[k].best(); p < r.opts.MinConfidence {
			which = append(which, k)
		}
	}
	if len(which) == 0 {
		return nil
	}
	again := make([][]byte, len(which))
	for _, turn := range turns {
		for i, k := range which {
			again[i] = turn(crops[k])
		}
		res, err := r.inferHalf(again)
		if err != nil {
			return err
		}
		for i, k := range which {
			_, p, _ := outs[k].best()
			if _, q, _ := res[i].best(); q > p {
				outs[k] = res[i]
			}
		}
	}
	return nil
}

// tiltDegrees is how far infer turns a crop still unsure after the
// quarter turns, each way: the network learned numerals up to 12 degrees
// off upright, and the normaliser's axis misses by more on a short
// numeral (a 1) whose face's edges and side numerals weigh as much as it
// does: the lavender die's 1s of the real held-out clips, turned about 30
// degrees, were read as 4s and 7s at 41% to 74% and vetoed the hand-tuned
// reader's right reading. One value was tried, chosen before measuring;
// see vision/train/README.md for what it changed.
const tiltDegrees = 25.0

// tiltCrop returns the square crop c turned by deg degrees about its
// centre, the border repeated.
func tiltCrop(c []byte, deg float64) []byte {
	src, err := gocv.NewMatFromBytes(CropSize, CropSize, gocv.MatTypeCV8U, c)
	if err != nil {
		return c
	}
	defer src.Close()
	m := gocv.GetRotationMatrix2D(image.Pt(CropSize/2, CropSize/2), deg, 1)
	defer m.Close()
	dst := gocv.NewMat()
	defer dst.Close()
	gocv.WarpAffineWithParams(src, &dst, m, image.Pt(CropSize, CropSize), gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{})
	return dst.ToBytes()
}

// inferHalf reads each crop and the crop turned half round, and averages
// the two answers.
func (r *NetReader) inferHalf(crops [][]byte) ([]netOut, error) {
	both := make([][]byte, 0, 2*len(crops))
	for _, c := range crops {
		t := make([]byte, len(c))
		for i, v := range c {
			t[len(c)-1-i] = v
		}
		both = append(both, c, t)
	}
	outs2, err := r.cls.run(both)
	if err != nil {
		return nil, err
	}
	outs := make([]netOut, len(crops))
	for k := range outs {
		outs[k] = meanOut(&outs2[2*k], &outs2[2*k+1])
	}
	return outs, nil
}

// meanOut is the mean of two answers, probabilities and embeddings.
func meanOut(a, b *netOut) netOut {
	var o netOut
	for i := range o.prob {
		o.prob[i] = (a.prob[i] + b.prob[i]) / 2
	}
	for i := range o.embed {
		o.embed[i] = (a.embed[i] + b.embed[i]) / 2
	}
	return o
}

// quarterTurn returns the square crop c turned a quarter round.
func quarterTurn(c []byte) []byte {
	n := CropSize
	t := make([]byte, len(c))
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			t[x*n+(n-1-y)] = c[y*n+x]
		}
	}
	return t
}

// cocked runs the pose network on the dice of frame whose ok is true
// and returns, for each die, WhyCocked when the network finds it cocked
// (at least MaxCocked sure), the zero Why otherwise (and when there is no
// pose network), and the network's probability that the die lies flat
// (0 where it did not run). A die it finds at least PoseSecondLook
// likely cocked, but under MaxCocked, it looks at again in the other
// views of its crop (secondLook). A network that fails gives
// WhyClassifier: a die that may be cocked is not read.
func (r *NetReader) cocked(frame gocv.Mat, ds []located, ok []bool) ([]Why, []float64) {
	res := make([]Why, len(ds))
	flat := make([]float64, len(ds))
	if r.pose == nil {
		return res, flat
	}
	var crops [][]byte
	var which []int
	for k, d := range ds {
		if ok[k] && poseCrop(frame, d, r.poses[k], r.pose.size) {
			crops = append(crops, r.poses[k])
			which = append(which, k)
		}
	}
	ps, err := r.pose.cocked(crops)
	if err == nil {
		err = r.secondLook(crops, ps)
	}
	if err != nil {
		for _, k := range which {
			res[k] = Why{Code: WhyClassifier, Detail: err.Error()}
		}
		return res, flat
	}
	for i, k := range which {
		if ps[i] >= r.opts.MaxCocked {
			res[k] = Why{Code: WhyCocked, Pct: pct(ps[i])}
		} else {
			flat[k] = 1 - ps[i]
		}
	}
	return res, flat
}

// secondLook replaces, in ps (the pose network's probabilities that the
// dice of crops are cocked), each from PoseSecondLook to under MaxCocked
// by its mean over the eight views of its crop (poseViews): a die the
// network is unsure of is judged by all of them, as its training saw
// them. Since only dice under MaxCocked are looked at again, a die
// refused as cocked at first look stays refused.
func (r *NetReader) secondLook(crops [][]byte, ps []float64) error {
	lo := r.opts.PoseSecondLook
	if lo <= 0 {
		return nil
	}
	for i, p := range ps {
		if p < lo || p >= r.opts.MaxCocked {
			continue
		}
		views := poseViews(crops[i], r.views)
		r.views = views
		qs, err := r.pose.cocked(views[1:])
		if err != nil {
			return err
		}
		sum := p
		for _, q := range qs {
			sum += q
		}
		ps[i] = sum / float64(len(qs)+1)
	}
	return nil
}

// classify runs the network on crops and fills dice (Face, Confidence,
// Why), applying the calibration when there is one.
func (r *NetReader) classify(crops [][]byte, dice []*Die) {
	if len(crops) == 0 {
		return
	}
	outs, err := r.infer(crops)
	if err != nil {
		for _, d := range dice {
			d.Why = Why{Code: WhyClassifier, Detail: err.Error()}
		}
		return
	}
	for k, o := range outs {
		face, p, _ := o.best()
		d := dice[k]
		d.Confidence = p
		if c := r.opts.Calibration; c != nil {
			face, p = c.decide(&o, face, p, r.opts.MinConfidence, d.Flat)
			d.Confidence = p
		}
		if face == 0 || p < r.opts.MinConfidence {
			d.Why = Why{Code: WhyUnsure, Pct: pct(p)}
			d.Guess = face
			continue
		}
		d.Face = face
	}
}
