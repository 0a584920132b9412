package vision

import (
	"comptoir/input"

	"gocv.io/x/gocv"
)

// Combined reads each frame with the learned reader and the hand-tuned
// one and reports a face only when they do not contradict each other: both
// read it; or the hand-tuned reader reads it and the classifier, unsure,
// still finds that face the likeliest; or the classifier reads it and the
// hand-tuned reader refused for its numeral (not for touching dice, the
// picture's edge or a tilt). On the dice the hand-tuned reader was built
// for it keeps most of its reads (95.3% of the accuracy set, where the
// learned reader alone reads 77%); on new fonts and tables the learned
// reader adds its reads and vetoes the hand-tuned reader's wrong ones, so
// that no set measured has a wrong read (see doc.go, Accuracy). It costs
// both readers' time.
type Combined struct {
	Hand *Reader
	// HandLearned, when set, is the hand-tuned reader that finds the dice
	// by the colours a calibration learned (LearnedHand): it reads, in
	// Hand's place, a die the learned reader found by those colours (its
	// own not finding it, or only a piece of it).
	HandLearned *Reader
	Net         *NetReader
	// TrustAlone: see DefaultTrustAlone, which NewCombined sets.
	TrustAlone float64
	// FlatOverTilt and FlatOverTouching: see DefaultFlatOverTilt, which
	// NewCombined sets (and DefaultFlatOverTouching).
	FlatOverTilt, FlatOverTouching float64
	// CloserLook: see DefaultCloserLook, which NewCombined sets. A die
	// the learned reader is unsure of, that the pose network finds flat,
	// is cut again over this share of the usual span, its numeral
	// larger, and read when that crop reads surely the face the first
	// look found likeliest (NetReader.closerLook); 0 never looks closer.
	CloserLook float64
	// sf is the frame being read shrunk, for both readers (they shrink
	// it alike)
	sf shrunkFrame
}

// NewCombined makes both readers with their default options and the
// learned reader's calibration, if any.
func NewCombined(calibration *NetCalibration) (*Combined, error) {
	h, err := NewReader(DefaultReaderOpts)
	if err != nil {
		return nil, err
	}
	o := DefaultNetOpts
	o.Calibration = calibration
	n, err := NewNetReader(o)
	if err != nil {
		return nil, err
	}
	hl, err := LearnedHand(calibration)
	if err != nil {
		n.Close()
		return nil, err
	}
	return &Combined{Hand: h, HandLearned: hl, Net: n, TrustAlone: DefaultTrustAlone, FlatOverTilt: DefaultFlatOverTilt, FlatOverTouching: DefaultFlatOverTouching, CloserLook: DefaultCloserLook}, nil
}

// Close releases the learned reader's network.
func (c *Combined) Close() error { return c.Net.Close() }

// vetoConfidence is how sure the learned reader must be of another face
// to veto the hand-tuned reader's reading: not at all (0.9 and 0.5 were
// measured: they keep the hand-tuned reader's wrong reads of new fonts,
// 3.75% of the held-out frames).
const vetoConfidence = 0.0

// agreeFloor is how sure the classifier must be of the face the
// hand-tuned reader read, when it is not sure enough to read it itself,
// for the hand-tuned reading to stand. Chosen on a held-out set: with the
// classifier of 2026-11-25 (wider, trained on twice the synthetic
// pictures) the hand-tuned reader read a 4 of rendered-hard/0246.jpg as a
// 1 and the classifier's likeliest face was a 1 too, at 20%; 0.25 refused
// it and cost the fewest right reads of the floors measured (0.25, 0.4,
// 0.6). Raised to 0.4 on 2026-11-27: on the tables of val-tables and the
// cocked frames of tune-cocked, three dice whose top face a lamp washes
// out (a 4, a 4 and a cocked die) were read as a 1 by the hand-tuned
// reader and the classifier's likeliest face was a 1 too, at 30% to
// 37%; 0.4 refuses the three and 5 right reads of the tuning sets (of
// about 3,800 dice; see vision/train/README.md, fourteenth stop).
const agreeFloor = 0.4

// mustRefuse says whether the hand-tuned reader refused a die for what it
// is, not for its numeral: touching the other die, at the picture's edge,
// tilted against a wall, two objects of its colour. The learned reader
// does not overrule such a refusal.
func mustRefuse(h Die) bool {
	switch h.Why.Code {
	case WhyTouching, WhyEdge, WhyTilted, WhyCocked, WhyTwoObjects:
		return true
	}
	return false
}

// elsewhere says whether the hand-tuned reader's refusal h is of another
// object than the die the learned reader read (n): a blob of the die's
// colour cut by the picture's edge (a stripe of a cloth, a mat's print)
// that does not overlap the die the learned locator found whole. The
// learned locator refuses a die cut by the edge itself, so the
// hand-tuned reader's "at the edge" says nothing of that die.
func elsewhere(h, n Die) bool {
	return h.Why.Code == WhyEdge && !n.Box.Empty() && !h.Box.Overlaps(n.Box)
}

// sameDie says whether the two readers' readings h and n may be of the
// same die: their boxes overlap, or h has none. The learned reader may
// take something else of the die's colour for it (a piece of the tray, a
// blob beside the die): its refusal of that, cocked, washed out, blank or
// not where a flat die's numeral lies, says nothing of the die the
// hand-tuned reader read elsewhere. First for a blank face only
// (twenty-first stop); for every such refusal since the twenty-second:
// on the tuning sets it reads one die more of val-cocked, on the held-out
// ones 3 more of wide-harsh's 320 and 1 more of wide-tables', none wrong
// anywhere (vision/train/README.md).
func sameDie(h, n Die) bool { return h.Box.Empty() || h.Box.Overlaps(n.Box) }

// netMustRefuse says whether the learned reader refused a die for what
// it is, whatever its numeral reads: the pose network finds it cocked,
// or its numeral is not where this camera shows a flat die's
// (WhyNotFlatHere), or its top face is washed out (the numeral by its
// coloured side may be a side face's, which the hand-tuned reader may
// read too), or shows no numeral at all (WhyBlankFace: what the
// hand-tuned reader reads there is an edge or a side face's numeral).
// merge keeps such a refusal of the die the hand-tuned reader read
// (sameDie).
func netMustRefuse(n Die) bool {
	switch n.Why.Code {
	case WhyCocked, WhyWashedOut, WhyNotFlatHere, WhyBlankFace:
		return true
	}
	return false
}

// DefaultFlatOverTilt is how sure the pose network must be that a die
// lies flat for the classifier's reading of it to stand over the
// hand-tuned reader's "tilted" refusal; 0: never. DefaultFlatOverTouching
// is the same for its "touching the other die" refusal. Both are off:
// with the committed pose network, every threshold measured (0.5 to
// 0.99) read cocked dice of throws (tilted) or dice leaning on the other
// (touching) that the hand-tuned reader refuses, and a pose network
// trained on such throws too refused more flat dice and read one more
// die wrong (vision/train/README.md, "ninth stop").
const (
	DefaultFlatOverTilt     = 0.0
	DefaultFlatOverTouching = 0.0
)

// overrule holds how sure the pose network must be that a die lies flat
// for the classifier's reading to stand over a hand-tuned refusal of
// that kind (Combined.FlatOverTilt, FlatOverTouching); 0: never.
type overrule struct{ tilt, touching float64 }

func (c *Combined) overrule() overrule {
	o := overrule{c.FlatOverTilt, c.FlatOverTouching}
	if o.tilt == 0 && c.Net.opts.Calibration.TiltMisleads() {
		o.tilt = CalibratedFlatOverTilt
	}
	return o
}

// CalibratedFlatOverTilt is FlatOverTilt at a table whose calibration
// saw the hand-tuned reader's "tilted" test refuse flat dice
// (NetCalibration.TiltMisleads): under a camera that leans that test
// refuses flat dice away from the picture's centre, and where the pose
// network is at least this sure a die lies flat, the classifier's reading
// stands. Chosen on the tuning tables (val-tables, val-tables-8; see
// vision/train/README.md, fifteenth stop); without a calibration that
// says so the test stands (DefaultFlatOverTilt: it catches cocked dice
// of throws under a camera looking straight down).
const CalibratedFlatOverTilt = 0.9

// flatEnough says whether the pose network finds n flat enough for its
// reading to stand over h's refusal: at least the overrule's threshold
// for that refusal; or, for a "tilted" refusal, at least
// FieldFlatOverTilt when n's numeral lies where this camera shows a flat
// die's (Die.onField: the reader has learned it, net_flat.go).
func (o overrule) flatEnough(h, n Die) bool {
	th := 0.0
	switch h.Why.Code {
	case WhyTilted:
		th = o.tilt
	case WhyTouching:
		th = o.touching
	}
	if h.Why.Code == WhyTilted && n.onField && n.Flat >= FieldFlatOverTilt {
		return true // its numeral lies where a flat die's does at this camera
	}
	return th > 0 && n.Flat >= th
}

// merge decides one die from the two readings.
func merge(h, n Die, o overrule) Die {
	switch {
	case netMustRefuse(n) && sameDie(h, n):
		return n
	case h.Face != 0 && n.Face != 0 && h.Face != n.Face:
		h.Why = Why{Code: WhyReadersDisagree, Face: h.Face, Other: n.Face}
		h.Face = 0
		return h
	case h.Face != 0 && n.Face == 0 && n.Guess != 0 && n.Guess != h.Face && n.Confidence >= vetoConfidence:
		h.Why = Why{Code: WhyVetoed, Face: h.Face, Other: n.Guess, Pct: pct(n.Confidence)}
		h.Face = 0
		return h
	case h.Face != 0 && n.Face == 0 && n.Guess == h.Face && n.Confidence < agreeFloor:
		h.Why = Why{Code: WhyUnsure, Pct: pct(n.Confidence)}
		h.Face = 0
		return h
	case h.Face != 0:
		h.Confidence = max(h.Confidence, n.Confidence)
		return h
	case n.Face != 0 && !mustRefuse(h):
		return n
	case n.Face != 0 && elsewhere(h, n):
		return n
	case n.Face != 0 && o.flatEnough(h, n):
		return n
	}
	if h.Why.Code == WhyNone {
		h.Why = n.Why
	}
	if !h.Found {
		return n
	}
	return h
}

// DefaultTrustAlone is the classifier's confidence from which Combined
// takes its reading without asking the hand-tuned reader (which costs
// about four times the classifier's time on the held-out frames). Zero
// asks the hand-tuned reader always.
const DefaultTrustAlone = 0.0

// sure says whether the classifier's reading of d stands alone.
func (c *Combined) sure(d Die) bool {
	return c.TrustAlone > 0 && d.Face != 0 && d.Confidence >= c.TrustAlone
}

// Read reads the blue and the red die: the classifier first; the
// hand-tuned reader too unless the classifier is at least TrustAlone sure
// of both dice.
func (c *Combined) Read(frame gocv.Mat) Roll {
	c.sf.forget()
	n := c.Net.read(frame, &c.sf, c.CloserLook)
	if c.sure(n.Blue) && c.sure(n.Red) {
		return n
	}
	retries := [2]retry{retryFor(n.Blue), retryFor(n.Red)}
	h := c.Hand.read(frame, retries, &c.sf)
	// the hand-tuned reader reads with the learned colours a die the
	// learned reader found by them (its own not finding it, or only a
	// piece of it): the dice the readers' own colours find are read as
	// without them
	if missed := [2]bool{n.Blue.byLearned, n.Red.byLearned}; c.HandLearned != nil && (missed[0] || missed[1]) {
		hl := c.HandLearned.read(frame, retries, &c.sf)
		if missed[0] {
			h.Blue = hl.Blue
		}
		if missed[1] {
			h.Red = hl.Red
		}
	}
	n.Blue = c.check(frame, h.Blue, n.Blue)
	n.Red = c.check(frame, h.Red, n.Red)
	o := c.overrule()
	return Roll{Blue: keepAt(merge(h.Blue, n.Blue, o), n.Blue), Red: keepAt(merge(h.Red, n.Red, o), n.Red)}
}

// keepAt keeps, in d, the merged reading of a die, where the learned
// reader's reading n saw its numeral and how wide it found the die, so
// that LearnFlat learns from it whichever reader's reading stood.
func keepAt(d, n Die) Die {
	if d.Face != 0 {
		d.at, d.hasAt = n.at, n.hasAt
	}
	d.across = n.across
	return d
}

// LearnFlat learns where this camera shows a flat die's numeral from a
// reading of this reader at a rest of the dice (NetReader.LearnFlat).
func (c *Combined) LearnFlat(roll Roll) { c.Net.LearnFlat(roll) }

// View is what the learned reader learned of its camera
// (NetReader.View).
func (c *Combined) View() input.ReaderView { return c.Net.View() }

// check returns the classifier's reading of a die the hand-tuned reader
// read (h) and the learned reader's locator did not find, or found at the
// picture's edge (n: a blob of the die's colour that runs into the edge,
// the die and a wooden tray wall, say): the classifier reads it where the
// hand-tuned reader found it, so that no hand-tuned reading stands
// unchecked (a die the locator missed was read as the hand-tuned reader
// read it, wrong on fonts it was not made for; a die it found at the
// edge too, 2 of 19 such dice of the tuning sets); or found something
// else, away from the die the hand-tuned reader read (sameDie), and
// refused it for what it is (cocked, washed out, blank, not where a flat
// die's numeral lies). Otherwise n, but for one more case: the learned
// reader found something else, away from that die, and is unsure of its
// numeral; where the classifier reads the hand-tuned reader's die itself
// (a face, as sure as it must be), that reading, and n otherwise. Its
// likeliest face of a dark corner of the tray vetoed the hand-tuned
// reading of the die elsewhere (TestCombinedUnsureElsewhere); only
// agreeing with it, under its confidence, it may confirm a hand-tuned
// reading of what is not a die (a square of a checked cloth read as a 1,
// testdata/combined-caught/cocked-00094.jpg). Since the thirtieth stop:
// on the tuning sets, 9 dice more read, none more wrong.
func (c *Combined) check(frame gocv.Mat, h, n Die) Die {
	switch {
	case h.Face == 0 || h.Box.Empty():
		return n
	case !n.Found || n.Why.Code == WhyEdge:
		return c.Net.readAt(frame, h.Box)
	case n.Face != 0 || sameDie(h, n):
		return n
	case netMustRefuse(n):
		// refused for what it is, away from h's die
		return c.Net.readAt(frame, h.Box)
	}
	// unsure of something away from h's die
	if t := c.Net.readAt(frame, h.Box); t.Face != 0 {
		return t
	}
	return n
}

// ReadSingle reads one die of any colour, as Read does.
func (c *Combined) ReadSingle(frame gocv.Mat) Die {
	n := c.Net.ReadSingle(frame)
	if c.sure(n) {
		return n
	}
	h := c.Hand.readSingle(frame, retryFor(n))
	n = c.check(frame, h, n)
	return keepAt(merge(h, n, c.overrule()), n)
}

// ReadCrop reads a crop with the learned reader only (the hand-tuned one
// needs whole frames).
func (c *Combined) ReadCrop(pic gocv.Mat, colour string) Die { return c.Net.ReadCrop(pic, colour) }

// Options returns the learned reader's options.
func (c *Combined) Options() NetOpts { return c.Net.Options() }

// retryFor is the second tries (rescue, reading by hue) the hand-tuned
// reader gives a die its first reading did not read, given the
// classifier's reading n: only those whose answer merge may use. They
// cost the hand-tuned reader most of its time on new fonts.
//
//   - The pose network refused the die as cocked, or its top face is
//     washed out: none (merge keeps that refusal).
//   - The classifier did not find the die, or could not read its crop:
//     all (the hand-tuned reading is the only one).
//   - The classifier is unsure, its likeliest face g at least agreeFloor:
//     as g only (merge refuses any other face; a hand-tuned reading of g
//     stands).
//   - The classifier is unsure, under agreeFloor: none (merge refuses
//     the die whatever the hand-tuned reader reads).
//   - The classifier read the die: none. Their answer could only confirm
//     the reading or veto it. On the sets where Combined is tuned
//     (rendered, rendered-hard, rendered-refuse, rendered-caught,
//     val-frames, rendered-single) they never vetoed a wrong reading and
//     vetoed two right ones (a rendered 8, a val-frames 6, now read);
//     skipped, the held-out frames read in about 17% less time
//     (vision/train/README.md, "sixth stop").
func retryFor(n Die) retry {
	switch {
	case netMustRefuse(n):
		return retryNone // merge refuses the die whatever the hand-tuned reader reads
	case !n.Found || n.Face == 0 && n.Guess == 0:
		return retryAny
	case n.Face != 0 || n.Confidence < agreeFloor:
		return retryNone
	}
	return retry(n.Guess)
}
