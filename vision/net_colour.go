package vision

import (
	"fmt"
	"strings"

	"comptoir/input"

	"gocv.io/x/gocv"
)

// A calibration learns the colours of its dice (NetCalibration.Blue and
// Red). The reader finds a die by its colour: pixels whose hue falls in
// the blue or the red range (NetOpts.Blue, Red), saturated, and apart
// from the tray. A set whose "blue" is violet, or whose "red" is orange,
// lies outside those ranges, or half in them: no die is found, or only a
// piece of it, calibrated or not. So when a calibration is shown a die
// (face by face, or in a confirmed throw) that it does not find, it
// widens that die's hues step by step, up or down the hue circle, until
// the locator finds the die (learnColour), never narrowing them. The
// widened colour stands only when the die it finds is read by the
// classifier, surely, as the face shown: a mat's print or a tray wall of
// some colour is not that die. It widens one way at a time, so that a
// violet die on a green cloth is not merged with the cloth. The two
// colours stay apart (hueGap): a die whose colour runs into the other
// die's is left as it is, and refused as before ("not found").
//
// A calibrated reader looks again with the colours learned, as a second
// look (locator.learnedLook): for a die its own colours do not find, or
// find only a piece of (a blob under pieceOf as wide as the die the
// learned colour finds around it). A die its own colours find whole is
// found, and read, as without the calibration's colours; the hand-tuned
// reader of a Combined reads with the learned colours only the dice the
// learned reader found by them (Combined.HandLearned). Measured in
// vision/train/README.md, twentieth stop.

const (
	// maxHueLearn is how far (hue units of 2 degrees) a calibration
	// widens a die's range at most, on either side: 60 degrees, a
	// violet for a blue, an orange or a pink for a red.
	maxHueLearn = 30
	// hueStep is the step (hue units) it widens by.
	hueStep = 3
	// hueMargin widens the range that found the die a little more, for
	// the shades the light gives it at other places of the tray.
	hueMargin = 4
	// hueGap is how far apart (hue units) the blue and the red ranges
	// stay.
	hueGap = 4
	// colourSure is how sure the classifier must be of the face shown,
	// on the die a widened range finds, for the range to stand: a blob
	// of another thing, of a die's size and shape, is seldom read surely
	// as the face the players confirmed.
	colourSure = 0.9
)

// hueArc is an arc of the hue circle (0-179): from lo to hi going up,
// wrapping past 179 when lo > hi.
type hueArc struct{ lo, hi int }

func modHue(h int) int { return ((h % 180) + 180) % 180 }

// arcOf is the hue arc of an HSV range.
func arcOf(r HSVRange) hueArc { return hueArc{r.HMin, r.HMax} }

// span is the number of hue units the arc covers.
func (a hueArc) span() int { return modHue(a.hi-a.lo) + 1 }

// has says whether hue h lies on the arc.
func (a hueArc) has(h int) bool { return modHue(h-a.lo) <= modHue(a.hi-a.lo) }

// dist is how far h lies from the arc (0 on it).
func (a hueArc) dist(h int) int {
	if a.has(h) {
		return 0
	}
	return min(modHue(a.lo-h), modHue(h-a.hi))
}

// union is the shortest arc covering a and b.
func (a hueArc) union(b hueArc) hueArc {
	best := hueArc{0, 179}
	for _, c := range []hueArc{a, b, {a.lo, b.hi}, {b.lo, a.hi}} {
		if covers(c, a) && covers(c, b) && c.span() < best.span() {
			best = c
		}
	}
	return best
}

// covers says whether arc c holds the whole of arc a.
func covers(c, a hueArc) bool {
	return c.has(a.lo) && modHue(a.lo-c.lo)+a.span() <= c.span()
}

// near says whether the arcs come within gap hue units of each other.
func (a hueArc) near(b hueArc, gap int) bool {
	return a.has(b.lo) || a.has(b.hi) || b.has(a.lo) || b.dist(a.lo) < gap || b.dist(a.hi) < gap
}

// widened is r's hues widened by n hue units at its upper end (side
// +1) or its lower end (side -1).
func widened(r HSVRange, side, n int) HSVRange {
	if side > 0 {
		r.HMax = modHue(r.HMax + n)
	} else {
		r.HMin = modHue(r.HMin - n)
	}
	return r
}

// withHue is r with its hues widened to those of wide (nil: r).
func withHue(r HSVRange, wide *HSVRange) HSVRange {
	if wide == nil {
		return r
	}
	a := arcOf(r).union(arcOf(*wide))
	r.HMin, r.HMax = a.lo, a.hi
	return r
}

// HandReaderOpts are the hand-tuned reader's options for the dice whose
// colours c learned: DefaultReaderOpts, their hue ranges widened to
// those colours (nil: the defaults).
func HandReaderOpts(c *NetCalibration) ReaderOpts {
	o := DefaultReaderOpts
	if c != nil {
		o.Blue, o.Red = withHue(o.Blue, c.Blue), withHue(o.Red, c.Red)
	}
	return o
}

// LearnedHand is the hand-tuned reader that finds the dice by the
// colours c learned (HandReaderOpts), for Combined.HandLearned; nil when
// c learned none.
func LearnedHand(c *NetCalibration) (*Reader, error) {
	if c == nil || c.Blue == nil && c.Red == nil {
		return nil, nil
	}
	return NewReader(HandReaderOpts(c))
}

// widening is a colour learnColour tries: a die's colour widened at its
// upper end (side +1) or its lower end (-1).
type widening struct {
	HSVRange
	side int
}

// widenings lists the colours learnColour tries for a die, in order:
// own (the colour learned so far, or the reader's own, base) widened by
// hueStep, up then down, then by twice hueStep, and so on; none that
// reaches, with what own reaches already, more than maxHueLearn past
// base on its side, nor within hueGap of the other die's colour.
func widenings(own, base, other HSVRange) []widening {
	reach := map[int]int{1: modHue(own.HMax - base.HMax), -1: modHue(base.HMin - own.HMin)}
	var out []widening
	for n := hueStep; n <= maxHueLearn; n += hueStep {
		for _, side := range []int{1, -1} {
			r := widened(own, side, n)
			if reach[side]+n > maxHueLearn || arcOf(r).near(arcOf(other), hueGap) {
				continue
			}
			out = append(out, widening{r, side})
		}
	}
	return out
}

// setColours keeps in the calibration the colours learned, blue and red
// (nil: none), and makes the calibrator find with them the dice its own
// ranges do not find, as a calibrated reader does.
func (k *NetCalibrator) setColours(blue, red *HSVRange) {
	k.c.Blue, k.c.Red = blue, red
	k.r.loc.o.LearnedBlue, k.r.loc.o.LearnedRed = blue, red
	if hand, err := NewReader(HandReaderOpts(&k.c)); err == nil {
		k.hand = hand // (DefaultReaderOpts widened are valid)
	}
}

// learnColour widens the colour of die ("blue" or "red") when the
// calibrator does not find that die in frame, by its own range nor by
// the colour learned so far: by hueStep at a time, up or down the hue
// circle, up to maxHueLearn, until the locator finds the die; the least
// widening that finds it stands, hueMargin wider (for the shades the
// light gives the die elsewhere in the tray), when the die it finds is
// read by the classifier as face, at least colourSure, and the colour
// stays hueGap apart from the other die's, within maxHueLearn of the
// reader's own.
func (k *NetCalibrator) learnColour(frame gocv.Mat, die string, face int, px float64) error {
	o := k.r.loc.o
	base, other, learned := o.Blue, o.Red, o.LearnedBlue
	if die == "red" {
		base, other, learned = o.Red, o.Blue, o.LearnedRed
	}
	own := base
	if learned != nil {
		own = *learned
	}
	if die == "red" {
		other = withHue(other, o.LearnedBlue)
	} else {
		other = withHue(other, o.LearnedRed)
	}
	// find locates the die with the colour r learned for it
	find := func(r *HSVRange) (located, bool) {
		try := locator{o: o}
		if die == "red" {
			try.o.LearnedRed = r
			_, d, _, ok := try.locate(frame, px, nil)
			return d, ok && !d.edge
		}
		try.o.LearnedBlue = r
		d, _, ok, _ := try.locate(frame, px, nil)
		return d, ok && !d.edge
	}
	if _, ok := find(learned); ok {
		return nil
	}
	var w HSVRange
	var d located
	found := false
	for _, r := range widenings(own, base, other) {
		if d, found = find(&r.HSVRange); found {
			w = r.HSVRange
			if m := widened(w, r.side, hueMargin); !arcOf(m).near(arcOf(other), hueGap) {
				w = m
			}
			break
		}
	}
	if !found {
		return nil
	}
	crop := make([]byte, CropSize*CropSize)
	if !normaliseCrop(frame, d, crop) {
		return nil
	}
	outs, err := k.r.infer([][]byte{crop})
	if err != nil {
		return err
	}
	if got, p, _ := outs[0].best(); got != face || p < colourSure {
		return nil
	}
	if die == "red" {
		k.setColours(k.c.Blue, &w)
	} else {
		k.setColours(&w, k.c.Red)
	}
	return nil
}

// checkColours says what is wrong with a calibration's learned colours:
// a hue outside 0-179, a saturation or brightness outside 0-255 or upside
// down, or the two ranges within hueGap of each other.
func checkColours(blue, red *HSVRange) error {
	for _, c := range []struct {
		name string
		r    *HSVRange
	}{{"blue", blue}, {"red", red}} {
		if c.r == nil {
			continue
		}
		r := *c.r
		if r.HMin < 0 || r.HMin > 179 || r.HMax < 0 || r.HMax > 179 {
			return fmt.Errorf("colours.%s.hue: %d to %d, want 0 to 179", c.name, r.HMin, r.HMax)
		}
		if r.SMin < 0 || r.SMax > 255 || r.SMin > r.SMax {
			return fmt.Errorf("colours.%s.saturation: %d to %d, want 0 <= min <= max <= 255", c.name, r.SMin, r.SMax)
		}
		if r.VMin < 0 || r.VMax > 255 || r.VMin > r.VMax {
			return fmt.Errorf("colours.%s.value: %d to %d, want 0 <= min <= max <= 255", c.name, r.VMin, r.VMax)
		}
	}
	b, r := DefaultNetOpts.Blue, DefaultNetOpts.Red
	if blue != nil {
		b = *blue
	}
	if red != nil {
		r = *red
	}
	if arcOf(b).near(arcOf(r), hueGap) {
		return fmt.Errorf("colours: the blue hues %d to %d and the red %d to %d come within %d of each other: the reader could not tell the dice apart", b.HMin, b.HMax, r.HMin, r.HMax, hueGap)
	}
	return nil
}

// DieColours are the colours c learned (nil: none), in degrees, with
// the reader's own (DefaultNetOpts), for the staff page.
func (c *NetCalibration) DieColours() []input.DieColour {
	if c == nil {
		return nil
	}
	var out []input.DieColour
	for _, d := range []struct {
		name string
		r    *HSVRange
		own  HSVRange
	}{{"blue", c.Blue, DefaultNetOpts.Blue}, {"red", c.Red, DefaultNetOpts.Red}} {
		if d.r != nil {
			out = append(out, input.DieColour{Die: d.name, From: 2 * d.r.HMin, To: 2 * d.r.HMax, OwnFrom: 2 * d.own.HMin, OwnTo: 2 * d.own.HMax})
		}
	}
	return out
}

// DieColours are the colours learned so far (NetCalibration.DieColours).
func (k *NetCalibrator) DieColours() []input.DieColour { return k.c.DieColours() }

// ColourWords says the colours c learned, in English: "blue die 190-302
// degrees" for each die whose range was widened; "" when none.
func (c *NetCalibration) ColourWords() string {
	var out []string
	for _, d := range c.DieColours() {
		out = append(out, fmt.Sprintf("%s die %d-%d degrees", d.Die, d.From, d.To))
	}
	return strings.Join(out, ", ")
}

// widest is the union of two learned colours (nil: not learned).
func widest(a, b *HSVRange) *HSVRange {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	w := withHue(*a, b)
	return &w
}
