package vision

import (
	"image"
	"image/color"
	"math"
	"sort"

	"gocv.io/x/gocv"
)

// The learned reader's locator and normaliser: a die found by its colour
// at any size from MinAcross to MaxAcross pixels (at 640 wide), then its
// top face cut out, centred on its numeral, turned so that the numeral's
// long axis is upright and scaled to the die's size: a CropSize square of
// grey levels, what the classifier sees.

// CropSize is the side of the classifier's input, in pixels.
const CropSize = 32

// cropSpan is the side of the square cut around the numeral, as a multiple
// of the die's width across.
const cropSpan = 0.7

// numeralDisk is the radius, as a multiple of the die's width, of the disk
// around the die's centre where the numeral of the top face is looked for
// (parallax moves it off the silhouette's centre under a tilted camera).
const numeralDisk = 0.34

// located is one die found in a frame.
type located struct {
	cx, cy float64 // centre of the silhouette, frame pixels
	across float64 // width of the die, frame pixels
	box    image.Rectangle
	edge   bool // touches the frame's border
	// whole is the die grown into its washed-out pixels (grow), when
	// its coloured blob is only part of it; nil otherwise
	whole *located
	// byLearned: found by the colour a calibration learned, the
	// locator's own not finding it, or only a piece of it (learnedLook)
	byLearned bool
}

// locateOpts are the locator's settings.
type locateOpts struct {
	Blue, Red         HSVRange
	MinBackgroundDiff int
	// MinAcross and MaxAcross bound a die's width in pixels of a frame
	// 640 wide (scaled with the frame's width).
	MinAcross, MaxAcross float64
	// Grow extends a die's blob into the pale pixels around it (grow).
	Grow bool
	// KeepWide keeps, as a die's blob, a blob whose rows, filled, make a
	// die more than a fifth wider than MaxAcross (locate leaves such a
	// blob out otherwise: the rim of a tray of the die's colour). The
	// training crops are cut with it (trainingLocator).
	KeepWide bool
	// LearnedBlue and LearnedRed, when set, are the colours a calibration
	// learned (net_colour.go): a die Blue or Red does not find, or finds
	// only a piece of, is looked for again with them (learnedLook); the
	// dice Blue and Red find whole are found as without them.
	LearnedBlue, LearnedRed *HSVRange
}

// locator keeps the scratch buffers of the locator from frame to frame.
type locator struct {
	o      locateOpts
	bm, rm []byte
	labels []int32
	// grow's scratch: its marks, the number of its last call's, its
	// stack
	glab  []int32
	gen   int32
	stack []int32
	// the frame shrunk, when locate is not given it shrunk, and the
	// background's pixels
	sf shrunkFrame
	bg []byte
	// dieLike counts, per colour (blue, red), the dice the last locate
	// found in the masks it read the die from (otherDice): two of one
	// colour and none of the other is a set of two dice of one colour
	// (sameColour)
	dieLike [2]int
	like    []int // scratch: the blobs of a die's size and shape
	// lbm, lrm: scratch, the masks of the colours a calibration learned
	// (learnedLook)
	lbm, lrm []byte
}

// locate finds the blue and the red die of a frame. px is the frame's
// scale: 1 for a frame 640 pixels wide, or for a crop cut from one at its
// own scale. A colour with no die-like blob gives ok false; edge reports a
// blob of the right size touching the border. sf is the frame shrunk
// (shrunkFrame), or nil: the locator shrinks it itself.
func (l *locator) locate(frame gocv.Mat, px float64, sf *shrunkFrame) (blue, red located, bok, rok bool) {
	l.dieLike = [2]int{}
	im, err := viewBGR(frame)
	if err != nil {
		return
	}
	step := max(1, int(math.Round(float64(im.w)/maskWidth)))
	ratio := 8
	if sf == nil {
		sf = &l.sf
		sf.forget()
	}
	sm, bg, err := shrinkWide(sf, frame, step, ratio, px, l.bg)
	if err != nil {
		return
	}
	l.bg = bg.pix
	minA := 0.45 * sq(l.o.MinAcross*px/float64(step))
	maxA := 1.0 * sq(l.o.MaxAcross*px/float64(step))
	// a blob whose rows, filled, make a die wider than a fifth over
	// MaxAcross is not a die, however few its pixels: the rim of a tray
	// of the die's colour, a mat's print (measure's width is of the
	// filled rows)
	maxFilled := hexFill * sq(1.2*l.o.MaxAcross*px/float64(step))
	find := func(mask, other []byte, k int) (located, bool) {
		blobs, labels := components(mask, sm.w, sm.h, l.labels)
		l.labels = labels
		best := -1
		l.like = l.like[:0]
		for i := range blobs {
			b := &blobs[i]
			if float64(b.area) < minA || float64(b.area) > maxA || !dieShaped(b, labels, sm.w) || !l.o.KeepWide && rowFill(b, labels, sm.w) > maxFilled {
				continue
			}
			l.like = append(l.like, i)
			if best < 0 || b.area > blobs[best].area {
				best = i
			}
		}
		l.dieLike[k] = otherDice(blobs, l.like, best)
		if best < 0 {
			return located{}, false
		}
		d := l.measure(&blobs[best], labels, sm.w, step)
		if l.o.Grow {
			maxSide := int(math.Ceil(l.o.MaxAcross * px / float64(step)))
			if w, ok := l.grow(&blobs[best], labels, other, sm, bg, ratio, step, maxA, maxSide); ok {
				d.whole = &w
			}
		}
		return d, true
	}
	l.bm, l.rm = colourMasks(sm, bg, ratio, l.o.Blue, l.o.Red, l.o.MinBackgroundDiff, l.bm, l.rm)
	blue, bok = find(l.bm, l.rm, 0)
	red, rok = find(l.rm, l.bm, 1)
	if !bok || !rok {
		// a pale plastic under a strong light keeps little of its
		// colour's saturation: look again, less strictly
		pb, pr := l.o.Blue, l.o.Red
		pb.SMin, pr.SMin = pb.SMin*paleSat/10, pr.SMin*paleSat/10
		bm, rm := colourMasks(sm, bg, ratio, pb, pr, l.o.MinBackgroundDiff, nil, nil)
		if !bok {
			blue, bok = find(bm, rm, 0)
		}
		if !rok {
			red, rok = find(rm, bm, 1)
		}
	}
	if l.o.LearnedBlue != nil || l.o.LearnedRed != nil {
		blue, red, bok, rok = l.learnedLook(find, sm, bg, ratio, blue, red, bok, rok)
	}
	return blue, red, bok, rok
}

// pieceOf is how much narrower than the die the learned colour finds a
// blob of the locator's own colour must be, at most, to be taken as a
// piece of that die (a violet die whose bluest side alone is in the blue
// range) rather than the die.
const pieceOf = 0.75

// learnedLook looks again, with the colours a calibration learned
// (LearnedBlue, LearnedRed), for each die that has one: a die the
// locator's own colour did not find is the one the learned colour finds;
// a die it found is, when the learned colour finds a die at least
// 1/pieceOf as wide around its middle, that wider die (the own colour
// found a piece of it). Both with the pale pass locate makes for its own
// colours. find is locate's.
func (l *locator) learnedLook(find func(mask, other []byte, k int) (located, bool), sm, bg bgrImage, ratio int, blue, red located, bok, rok bool) (located, located, bool, bool) {
	lb, lr := l.o.LearnedBlue != nil, l.o.LearnedRed != nil
	b, r := l.o.Blue, l.o.Red
	if lb {
		b = *l.o.LearnedBlue
	}
	if lr {
		r = *l.o.LearnedRed
	}
	var got [2]located
	var ok [2]bool
	for pass := 0; pass < 2; pass++ {
		if pass == 1 {
			if (!lb || ok[0]) && (!lr || ok[1]) {
				break
			}
			b.SMin, r.SMin = b.SMin*paleSat/10, r.SMin*paleSat/10
		}
		bm, rm := colourMasks(sm, bg, ratio, b, r, l.o.MinBackgroundDiff, l.lbm, l.lrm)
		l.lbm, l.lrm = bm, rm
		if lb && !ok[0] {
			got[0], ok[0] = find(bm, rm, 0)
		}
		if lr && !ok[1] {
			got[1], ok[1] = find(rm, bm, 1)
		}
	}
	take := func(own located, found bool, k int) (located, bool) {
		w := got[k]
		switch {
		case !ok[k]:
			return own, found
		case !found:
		case own.across < pieceOf*w.across && image.Pt(int(own.cx), int(own.cy)).In(w.box):
		default:
			return own, found
		}
		w.byLearned = true
		return w, true
	}
	if lb {
		blue, bok = take(blue, bok, 0)
	}
	if lr {
		red, rok = take(red, rok, 1)
	}
	return blue, red, bok, rok
}

// otherDice counts the dice among the blobs like (indexes into blobs, of
// a die's size and shape) whose largest is best: best, and each other
// blob at least 0.7 of its area (the dice of a set are alike) with a gap
// of at least a third of its width between their boxes (a second die,
// not a piece of the same one: a pearl body's veins or a glare can split
// a die's colour in two, with a thin gap; two dice touching count as
// one). 0 when best < 0.
func otherDice(blobs []blob, like []int, best int) int {
	if best < 0 {
		return 0
	}
	b := &blobs[best]
	minGap := max(b.box.Dx(), b.box.Dy()) / 3
	n := 1
	for _, i := range like {
		o := &blobs[i]
		if i == best || 10*o.area < 7*b.area {
			continue
		}
		gx := max(b.box.Min.X, o.box.Min.X) - min(b.box.Max.X, o.box.Max.X)
		gy := max(b.box.Min.Y, o.box.Min.Y) - min(b.box.Max.Y, o.box.Max.Y)
		if max(gx, gy) >= max(minGap, 1) {
			n++
		}
	}
	return n
}

// sameColour says whether the last locate found two dice (blobs of a
// die's size and shape) of one colour and none of the other: a set of
// two dice of one colour, which the reader cannot tell apart.
func (l *locator) sameColour() bool {
	return (l.dieLike[0] >= 2 && l.dieLike[1] == 0) || (l.dieLike[1] >= 2 && l.dieLike[0] == 0)
}

// measure returns the die of a blob: the centre and width of its rows
// filled (the numeral and glare are holes in the colour mask).
func (l *locator) measure(b *blob, labels []int32, stride, step int) located {
	var filled, sx, sy float64
	for y := b.box.Min.Y; y < b.box.Max.Y; y++ {
		row := labels[y*stride : (y+1)*stride]
		first, last := -1, -1
		for x := b.box.Min.X; x < b.box.Max.X; x++ {
			if row[x] == b.label {
				if first < 0 {
					first = x
				}
				last = x
			}
		}
		if first >= 0 {
			n := float64(last - first + 1)
			filled += n
			sx += n * (float64(first+last)/2 + 0.5)
			sy += n * (float64(y) + 0.5)
		}
	}
	s := float64(step)
	return located{
		cx: sx / filled * s, cy: sy / filled * s,
		across: math.Sqrt(filled/hexFill) * s,
		box:    image.Rect(b.box.Min.X*step, b.box.Min.Y*step, b.box.Max.X*step, b.box.Max.Y*step),
		edge:   b.edge,
	}
}

// grow returns the die of blob b (labelled in labels) extended into the
// pale pixels around it: a die whose top face a light washes out (a pearl
// or translucent body lit white or grey) keeps its colour only on its
// darker side faces, and its blob is then a part of the die, whose
// centre and width put the numeral crop on a side face (a 4 read as the
// 7 beside it). A pale pixel differs from the background by at least
// MinBackgroundDiff, is not of the other die's colour, and is not a
// shadow or the table (pale). The grown blob is the 8-connected
// component of b and the pale pixels within maxSide of b; it stands (ok)
// when it is at least growMin times as wide as b, of a die's area (at
// most maxA) and shape, inside the picture and away from the window's
// border.
func (l *locator) grow(b *blob, labels []int32, other []byte, sm, bg bgrImage, ratio, step int, maxA float64, maxSide int) (located, bool) {
	w, h := sm.w, sm.h
	win := b.box.Inset(-maxSide).Intersect(image.Rect(0, 0, w, h))
	// a flood from the blob through the pale pixels; l.glab marks the
	// pixels seen with a number of this call's own (seen), the grown
	// blob's with the next (in), so that it needs no clearing
	if len(l.glab) != w*h || l.gen > math.MaxInt32-2 {
		l.glab, l.gen = make([]int32, w*h), 0
	}
	l.gen += 2
	seen, in := l.gen-1, l.gen
	g := blob{label: in, box: b.box, area: b.area}
	for y := b.box.Min.Y; y < b.box.Max.Y; y++ {
		for x := b.box.Min.X; x < b.box.Max.X; x++ {
			if i := y*w + x; labels[i] == b.label {
				l.glab[i] = in
			}
		}
	}
	// the flood starts from the blob's pixels with a neighbour outside it
	stack := l.stack[:0]
	for y := b.box.Min.Y; y < b.box.Max.Y; y++ {
		for x := b.box.Min.X; x < b.box.Max.X; x++ {
			i := y*w + x
			if l.glab[i] != in {
				continue
			}
			if x == win.Min.X || y == win.Min.Y || x == win.Max.X-1 || y == win.Max.Y-1 ||
				l.glab[i-1] != in || l.glab[i+1] != in || l.glab[i-w] != in || l.glab[i+w] != in ||
				l.glab[i-w-1] != in || l.glab[i-w+1] != in || l.glab[i+w-1] != in || l.glab[i+w+1] != in {
				stack = append(stack, int32(i))
			}
		}
	}
	cut := false
	for len(stack) > 0 && float64(g.area) <= maxA {
		p := int(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
		py, px := p/w, p%w
		for y := max(py-1, win.Min.Y); y <= min(py+1, win.Max.Y-1); y++ {
			for x := max(px-1, win.Min.X); x <= min(px+1, win.Max.X-1); x++ {
				i := y*w + x
				if l.glab[i] == seen || l.glab[i] == in {
					continue
				}
				l.glab[i] = seen
				j := 3 * (min(bg.h-1, y/ratio)*bg.w + min(bg.w-1, x/ratio))
				if other[i] != 0 || !pale(sm.pix[3*i:3*i+3], bg.pix[j:j+3], l.o.MinBackgroundDiff) {
					continue
				}
				l.glab[i] = in
				g.area++
				g.box.Min.X, g.box.Min.Y = min(g.box.Min.X, x), min(g.box.Min.Y, y)
				g.box.Max.X, g.box.Max.Y = max(g.box.Max.X, x+1), max(g.box.Max.Y, y+1)
				g.edge = g.edge || x == 0 || y == 0 || x == w-1 || y == h-1
				cut = cut || x == win.Min.X || y == win.Min.Y || x == win.Max.X-1 || y == win.Max.Y-1
				stack = append(stack, int32(i))
			}
		}
	}
	l.stack = stack
	if float64(g.area) < growMin*growMin*float64(b.area) || float64(g.area) > maxA || g.edge || cut {
		return located{}, false
	}
	gw, gh := float64(g.box.Dx()), float64(g.box.Dy())
	if max(gw, gh) > growAspect*min(gw, gh) || rowFill(&g, l.glab, w) < growFill*gw*gh {
		return located{}, false
	}
	return l.measure(&g, l.glab, w, step), true
}

// growMin is how many times as wide as its coloured blob a die must be
// for the grown blob to stand (a rim of a pixel or two, the edges'
// antialiasing, leaves the die as it was found); growAspect and growFill
// are the shape it must have: its box at most growAspect times as long
// as wide, filled at least growFill (rows' holes filled). Looser (1.3
// times as wide, the locator's own shape test), blobs grew into wood
// grain and tray walls (vision/train/README.md, "tenth stop").
const (
	growMin    = 1.6
	growAspect = 1.4
	growFill   = 0.6
)

// shadowChroma is the chromaticity distance (the L1 distance of the
// colours' shares of their sums) under which a pixel darker than the
// background is its shadow.
const shadowChroma = 0.08

// pale says whether the BGR pixel p may be a die's washed-out face
// against the background colour q: it differs by at least minDiff and is
// not of q's colour (the table shaded or lit), unless q is grey and p
// brighter.
func pale(p, q []byte, minDiff int) bool {
	b, g, r := int(p[0]), int(p[1]), int(p[2])
	qb, qg, qr := int(q[0]), int(q[1]), int(q[2])
	if iabs(b-qb)+iabs(g-qg)+iabs(r-qr) < minDiff {
		return false
	}
	s, t := b+g+r, qb+qg+qr
	if s == 0 || t == 0 {
		return false
	}
	if float64(iabs(b*t-qb*s)+iabs(g*t-qg*s)+iabs(r*t-qr*s)) >= shadowChroma*float64(s)*float64(t) {
		return true // not the table's colour
	}
	// of the table's colour: the table lit or shaded, unless the table
	// is grey and the pixel brighter (a white face on a grey table)
	return s > t && max(qb, qg, qr)-min(qb, qg, qr) < greyTable
}

// greyTable is the spread of a background's channels under which it is
// grey: its chromaticity says nothing of a pale face on it.
const greyTable = 24

// hexFill is the area of a d8's silhouette seen from above over the
// square of its width.
const hexFill = 0.7

func sq(x float64) float64 { return x * x }

// shrinkWide is shrink with a background median window of about 320
// pixels at 640 wide (twice the largest die), so that a large die is
// still less than half of any window.
func shrinkWide(sf *shrunkFrame, frame gocv.Mat, step, ratio int, px float64, bgBuf []byte) (sm, bg bgrImage, err error) {
	if err := sf.shrink(frame, step, ratio); err != nil {
		return sm, bg, err
	}
	tiny := sf.tiny
	k := int(320*px/float64(step*ratio)) | 1
	if k >= min(tiny.w, tiny.h) {
		// the window covers the whole picture: its median
		return sf.sm, medianColour(tiny), nil
	}
	bg, err = median(tiny, max(3, k), bgBuf)
	return sf.sm, bg, err
}

// medianColour is a 1x1 picture of the per-channel median of im.
func medianColour(im bgrImage) bgrImage {
	out := bgrImage{w: 1, h: 1, pix: []byte{0, 0, 0}}
	if im.w*im.h == 0 {
		return out
	}
	ch := make([]byte, im.w*im.h)
	for c := 0; c < 3; c++ {
		for i := range ch {
			ch[i] = im.pix[3*i+c]
		}
		sort.Slice(ch, func(i, j int) bool { return ch[i] < ch[j] })
		out.pix[c] = ch[len(ch)/2]
	}
	return out
}

// locateSingle finds the one die of a picture whatever its colour: the
// largest object that differs from the picture's border.
func locateSingle(frame gocv.Mat) (located, bool) {
	im, err := viewBGR(frame)
	if err != nil {
		return located{}, false
	}
	step := max(1, max(im.w, im.h)/240)
	sm := downsample(im, step)
	b0, g0, r0 := borderMedian(sm)
	cls := differsFrom(b0, g0, r0, 55, 35)
	mask := classMask(sm, cls, nil)
	blobs, labels := components(mask, sm.w, sm.h, nil)
	best := -1
	for i := range blobs {
		if best < 0 || blobs[i].area > blobs[best].area {
			best = i
		}
	}
	if best < 0 || blobs[best].area < 30 {
		return located{}, false
	}
	var l locator
	return l.measure(&blobs[best], labels, sm.w, step), true
}

// normaliseCrop cuts the numeral of die d out of frame: grey levels, centred
// on the numeral, its long axis upright, scaled to the die's width; into
// out (CropSize x CropSize bytes). It returns false when the crop cannot
// be made (a die too close to the border to centre on).
func normaliseCrop(frame gocv.Mat, d located, out []byte) bool {
	_, _, ok := normaliseCropAt(frame, d, out)
	return ok
}

// normaliseCropAt is normaliseCrop, and says where in frame the
// numeral's middle is, the crop's centre (fx, fy).
func normaliseCropAt(frame gocv.Mat, d located, out []byte) (fx, fy float64, ok bool) {
	c, ok := cutNumeral(frame, d, out)
	return c.fx, c.fy, ok
}

// numeralCut is what cutting a die's numeral found: the numeral's middle
// in the frame (fx, fy); the top face's grey level (face: the median of
// the disk the numeral is looked for in); and ink, the share of that
// disk whose grey level differs from the face's by more than inkDiff: 0
// for a face that shows nothing, a numeral of the face's own grey or
// none (blank).
type numeralCut struct{ fx, fy, face, ink float64 }

// cutNumeral is normaliseCropAt, and says how much ink it saw.
func cutNumeral(frame gocv.Mat, d located, out []byte) (c numeralCut, ok bool) {
	gray := gocv.NewMat()
	defer gray.Close()
	// a first cut, upright, around the silhouette's centre: where is the
	// numeral, and which way does it point?
	const n = CropSize
	span := cropSpan * d.across
	first := warpGray(frame, &gray, d.cx, d.cy, 0, span*1.5/cropSpan*numeralDisk, n)
	if first == nil {
		return numeralCut{}, false
	}
	// the first cut spans 2*1.5*numeralDisk widths; the disk is its
	// inner circle shrunk by 1.5
	cx, cy, angle, face, ink, ok := numeralAxis(first, n, float64(n)/2/1.5)
	if !ok {
		cx, cy, angle = float64(n)/2, float64(n)/2, 0
	}
	k := span * 1.5 / cropSpan * numeralDisk / float64(n)
	c = numeralCut{fx: d.cx + (cx-float64(n)/2)*k, fy: d.cy + (cy-float64(n)/2)*k, face: face, ink: ink}
	final := warpGray(frame, &gray, c.fx, c.fy, angle, span, n)
	if final == nil {
		return numeralCut{}, false
	}
	copy(out, final)
	return c, true
}

// inkDiff is how many grey levels from the top face's a pixel of it
// must be to count as ink (numeralCut.ink); blankInk the share of such
// pixels under which a face at least paleFace grey shows no numeral: a
// lamp washes out the face and its white numeral alike, and what the
// classifier then reads is an edge of the face or a side face's numeral
// (WhyBlankFace). A blue or red face is far darker than paleFace unless
// washed out; on a darker face a black numeral may differ from it by
// less than inkDiff and still be read (vision/train/README.md,
// twenty-first stop).
const (
	inkDiff  = 16
	blankInk = 0.01
	paleFace = 200
)

// blank says whether the cut face is washed out and shows no numeral.
func (c numeralCut) blank() bool { return c.face >= paleFace && c.ink < blankInk }

// warpGray cuts a square of side span (frame pixels) centred on (cx, cy),
// turned by angle (radians, the cut's up direction in the frame), resized
// to n x n grey levels; the pixels outside the frame repeat its border.
func warpGray(frame gocv.Mat, gray *gocv.Mat, cx, cy, angle, span float64, n int) []byte {
	if span < 2 {
		return nil
	}
	s := span / float64(n) // frame pixels per crop pixel
	cos, sin := math.Cos(angle)*s, math.Sin(angle)*s
	// crop (u, v) -> frame: centre + R (u - n/2, v - n/2)
	h := float64(n) / 2
	m := gocv.NewMatWithSize(2, 3, gocv.MatTypeCV64F)
	defer m.Close()
	m.SetDoubleAt(0, 0, cos)
	m.SetDoubleAt(0, 1, -sin)
	m.SetDoubleAt(0, 2, cx-cos*h+sin*h)
	m.SetDoubleAt(1, 0, sin)
	m.SetDoubleAt(1, 1, cos)
	m.SetDoubleAt(1, 2, cy-sin*h-cos*h)
	col := gocv.NewMat()
	defer col.Close()
	gocv.WarpAffineWithParams(frame, &col, m, image.Pt(n, n), gocv.InterpolationLinear|gocv.WarpInverseMap, gocv.BorderReplicate, color.RGBA{})
	gocv.CvtColor(col, gray, gocv.ColorBGRToGray)
	return gray.ToBytes()
}

// numeralAxis finds the numeral in the disk of the given radius at the
// middle of an n x n grey crop: the centroid and the long axis of the
// pixels that differ from the disk's median (bright or dark ink), weighted
// by how much. angle turns the crop so that the axis is upright. face is
// the disk's median grey level, ink the share of its pixels more than
// inkDiff grey levels from it.
func numeralAxis(g []byte, n int, radius float64) (cx, cy, angle, face, ink float64, ok bool) {
	c := float64(n) / 2
	var vals []int
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			if sq(float64(x)+0.5-c)+sq(float64(y)+0.5-c) <= radius*radius {
				vals = append(vals, int(g[y*n+x]))
			}
		}
	}
	if len(vals) == 0 {
		return 0, 0, 0, 0, 0, false
	}
	sort.Ints(vals)
	med := vals[len(vals)/2]
	face = float64(med)
	// weights: the part of the difference above its typical level, so
	// that the face's texture and noise weigh little
	var diffs []int
	for _, v := range vals {
		diffs = append(diffs, iabs(v-med))
	}
	sort.Ints(diffs)
	ink = float64(len(diffs)-sort.SearchInts(diffs, inkDiff+1)) / float64(len(diffs))
	floor := float64(diffs[len(diffs)*6/10])
	var sw, sx, sy float64
	w := make([]float64, n*n)
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			dx, dy := float64(x)+0.5-c, float64(y)+0.5-c
			if dx*dx+dy*dy > radius*radius {
				continue
			}
			v := float64(iabs(int(g[y*n+x])-med)) - floor
			if v <= 0 {
				continue
			}
			w[y*n+x] = v
			sw += v
			sx += v * (float64(x) + 0.5)
			sy += v * (float64(y) + 0.5)
		}
	}
	if sw == 0 {
		return 0, 0, 0, face, ink, false
	}
	cx, cy = sx/sw, sy/sw
	var mxx, myy, mxy float64
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			v := w[y*n+x]
			if v == 0 {
				continue
			}
			dx, dy := float64(x)+0.5-cx, float64(y)+0.5-cy
			mxx += v * dx * dx
			myy += v * dy * dy
			mxy += v * dx * dy
		}
	}
	// the long axis' angle from the x axis; turn it to the y axis
	theta := 0.5 * math.Atan2(2*mxy, mxx-myy)
	return cx, cy, theta - math.Pi/2, face, ink, true
}
