package vision

import (
	"image"
	"math"
	"slices"
)

// numeralGrid is the side of the square grid a numeral is normalised to.
const numeralGrid = 20

// glyph is a numeral normalised for position and scale (not rotation): its
// pixels are resampled on a numeralGrid x numeralGrid grid centred on the
// numeral's centroid, the grid spanning glyphSpan times the RMS radius of
// the numeral's pixels.
type glyph [numeralGrid * numeralGrid]float32

const glyphSpan = 4.2

// dieCrop is the region of one die at full resolution.
type dieCrop struct {
	box  image.Rectangle // in frame pixels
	w, h int
	// fw, fh are the frame's size (0 when unknown)
	fw, fh int
	gray   []float32 // w*h luminance, 0-255
	in     []byte    // 1 where the pixel belongs to the die (holes filled)
	num    []byte    // 1 on the numeral's pixels, once found
	// tophat is the white top-hat of gray, once computed
	tophat []float32
	// face is the top face's centre and contrast, once measured
	face *faceMeasure
}

// faceMeasure is what every cut of a die's numeral starts from (see
// measureFace): the silhouette's centroid (sx, sy), the top face's centre
// (dcx, dcy), the die's radius dr, the strongest top-hat values near the
// centre (peak); or why none.
type faceMeasure struct {
	sx, sy       float64
	dcx, dcy, dr float64
	peak         float32
	emptyReason  Why
}

// numeralResult is the numeral found on the top face of a die.
type numeralResult struct {
	mask        []byte // crop-sized, 1 on numeral pixels
	area        int
	cx, cy      float64 // centroid in crop pixels
	rms         float64 // RMS radius of the numeral pixels
	dieRadius   float64 // equivalent radius of the die region
	offCentre   float64 // distance numeral centroid to die centroid / dieRadius
	components  int     // numeral components kept
	contrast    float64 // mean top-hat value of numeral pixels
	length      float64 // extent along the numeral's long axis, sqrt(12 l1)
	emptyReason Why
}

// score ranks candidate dice by their numeral: its contrast, less when it
// is far from the die's centre; 0 without a numeral.
func (n numeralResult) score() float64 {
	if n.mask == nil {
		return 0
	}
	return n.contrast * (1 - n.offCentre)
}

// parallax relates the shift of the top face from the middle of a die's
// silhouette to the die's radius and its distance from the picture's
// centre (see findNumeral).
const parallax = 1.3

// findNumeral finds the light numeral nearest the centre of the die: the
// pixels brighter than their neighbourhood (a top-hat), grouped in
// components, the component nearest the die's centre and the large ones
// close to it kept.
func findNumeral(c *dieCrop, minContrast, frac float32) numeralResult {
	return findNumeralCut(c, minContrast, frac, 0)
}

// findNumeralCut is findNumeral with the labelling chosen: dilate 0 lets
// the die's size choose (see dilateBelow), 1 labels the mask dilated, -1
// labels it as it is.
func findNumeralCut(c *dieCrop, minContrast, frac float32, dilate int) numeralResult {
	var res numeralResult
	if c.face == nil {
		c.face = measureFace(c)
	}
	f := c.face
	res.dieRadius = f.dr
	if f.emptyReason.Code != WhyNone {
		res.emptyReason = f.emptyReason
		return res
	}
	if f.peak < minContrast {
		res.emptyReason = Why{Code: WhyNoNumeral}
		return res
	}
	dcx, dcy, dr, peak := f.dcx, f.dcy, f.dr, f.peak
	bl := c.tophat
	lim := (0.75 * dr) * (0.75 * dr)
	thr := max(peak*frac, minContrast/2)
	mask := make([]byte, c.w*c.h)
	for y := 0; y < c.h; y++ {
		for x := 0; x < c.w; x++ {
			i := y*c.w + x
			if c.in[i] == 0 {
				continue
			}
			dx, dy := float64(x)-dcx, float64(y)-dcy
			if dx*dx+dy*dy > lim {
				continue
			}
			if bl[i] > thr {
				mask[i] = 1
			}
		}
	}
	// on a small die, label on the mask dilated by one pixel, so that
	// strokes a pixel or two wide and broken stay one numeral; on a large
	// one that would join the numeral to the lit edges around it
	dil := mask
	if dilate > 0 || dilate == 0 && dr < dilateBelow {
		dil = dilate3(mask, c.w, c.h)
	}
	blobs, labels := components(dil, c.w, c.h, nil)
	// pick the best: large and central
	best, bestScore := -1, 0.0
	for i := range blobs {
		b := &blobs[i]
		bx, by := b.centroid()
		d := math.Hypot(bx-dcx, by-dcy) / dr
		s := float64(b.area) * math.Exp(-d*d/0.18)
		if s > bestScore {
			best, bestScore = i, s
		}
	}
	if best < 0 {
		res.emptyReason = Why{Code: WhyNoNumeral}
		return res
	}
	keep := make([]bool, len(blobs)+1)
	keep[blobs[best].label] = true
	res.components = 1
	var m, mx, my, con float64
	for i, l := range labels {
		if l != 0 && keep[l] && mask[i] != 0 {
			mask[i] = 1
			x, y := i%c.w, i/c.w
			m++
			mx += float64(x)
			my += float64(y)
			con += float64(bl[i])
		} else {
			mask[i] = 0
		}
	}
	res.mask = mask
	res.area = int(m)
	res.cx, res.cy = mx/m+0.5, my/m+0.5
	res.contrast = con / m
	var sxx, syy, sxy float64
	for i, v := range mask {
		if v != 0 {
			dx, dy := float64(i%c.w)+0.5-res.cx, float64(i/c.w)+0.5-res.cy
			sxx += dx * dx
			syy += dy * dy
			sxy += dx * dy
		}
	}
	res.rms = math.Sqrt((sxx + syy) / m)
	sxx, syy, sxy = sxx/m, syy/m, sxy/m
	l1 := (sxx+syy)/2 + math.Sqrt((sxx-syy)*(sxx-syy)/4+sxy*sxy)
	res.length = math.Sqrt(12 * l1)
	res.offCentre = math.Hypot(res.cx-dcx, res.cy-dcy) / dr
	return res
}

// sampleMaskEdge is the bilinear sample of mask at (x0+fx, y0+fy) at the
// mask's edge, where a neighbour may be outside (0); glyphSlanted samples
// inside the mask itself.
func sampleMaskEdge(mask []byte, w, h, x0, y0 int, fx, fy float64) float64 {
	get := func(x, y int) float64 {
		if x < 0 || y < 0 || x >= w || y >= h {
			return 0
		}
		return float64(mask[y*w+x])
	}
	return get(x0, y0)*(1-fx)*(1-fy) + get(x0+1, y0)*fx*(1-fy) + get(x0, y0+1)*(1-fx)*fy + get(x0+1, y0+1)*fx*fy
}

// floor is math.Floor as an int, for the coordinates of a picture: much
// quicker where math.Floor is not a machine instruction.
func floor(x float64) int {
	i := int(x)
	if x < float64(i) {
		i--
	}
	return i
}

// measureFace measures the crop c for findNumeralCut: the die's centroid
// and radius, the top face's centre (the centroid shifted for parallax),
// the white top-hat of its grey (into c.tophat) and the strongest top-hat
// values near that centre (the 97th percentile).
func measureFace(c *dieCrop) *faceMeasure {
	res := &faceMeasure{}
	// die centroid and size
	var n, sx, sy float64
	for y := 0; y < c.h; y++ {
		for x := 0; x < c.w; x++ {
			if c.in[y*c.w+x] != 0 {
				n++
				sx += float64(x)
				sy += float64(y)
			}
		}
	}
	if n == 0 {
		res.emptyReason = Why{Code: WhyTooSmall}
		return res
	}
	dcx, dcy := sx/n, sy/n
	dr := math.Sqrt(n / math.Pi)
	res.sx, res.sy, res.dr = dcx, dcy, dr
	if c.fw > 0 {
		// parallax: the top face is higher than the middle of the die, so
		// it shows further from the picture's centre than the middle of
		// the silhouette, by about the distance to the centre times the
		// face's height over the camera's (the die's radius in pixels over
		// the focal length, about the picture's width)
		k := parallax * dr / float64(c.fw)
		dcx += k * (float64(c.box.Min.X) + dcx - float64(c.fw)/2)
		dcy += k * (float64(c.box.Min.Y) + dcy - float64(c.fh)/2)
	}
	// white top-hat: the grey minus its opening by a square wider than a
	// numeral's stroke; large bright areas (a lit face) vanish, thin bright
	// strokes stay. Computed once per crop.
	if c.tophat == nil {
		k := max(2, int(dr/8+0.5))
		sm := smooth3(c.gray, c.w, c.h)
		c.tophat = opening(sm, c.w, c.h, k)
		for i := range c.tophat {
			c.tophat[i] = sm[i] - c.tophat[i]
		}
	}
	bl := c.tophat
	// the threshold adapts to the numeral's contrast: a fraction of the
	// strongest top-hat values near the centre of the die
	lim := (0.75 * dr) * (0.75 * dr)
	var vals []float32
	for y := 0; y < c.h; y++ {
		for x := 0; x < c.w; x++ {
			i := y*c.w + x
			dx, dy := float64(x)-dcx, float64(y)-dcy
			if c.in[i] != 0 && dx*dx+dy*dy <= lim {
				vals = append(vals, bl[i])
			}
		}
	}
	if len(vals) == 0 {
		res.emptyReason = Why{Code: WhyTooSmall}
		return res
	}
	slices.Sort(vals)
	res.dcx, res.dcy, res.peak = dcx, dcy, vals[len(vals)*97/100]
	return res
}

// dilate3 dilates a 0/1 mask with a 3x3 square.
func dilate3(mask []byte, w, h int) []byte {
	out := make([]byte, len(mask))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if mask[y*w+x] == 0 {
				continue
			}
			for yy := max(0, y-1); yy <= min(h-1, y+1); yy++ {
				for xx := max(0, x-1); xx <= min(w-1, x+1); xx++ {
					out[yy*w+xx] = 1
				}
			}
		}
	}
	return out
}

// glyphOf samples the numeral of nr on the normalised grid: each cell the
// mean of 3x3 sub-samples, then a 3x3 blur, so that small shifts and
// rotations change the glyph little.
func glyphOf(mask []byte, w, h int, cx, cy, rms float64) glyph {
	return glyphSlanted(mask, w, h, cx, cy, rms, square)
}

// slant is a numeral's foreshortening: shrunk by c along the unit
// direction (dx, dy), as a face turned away from the camera shows it.
type slant struct{ dx, dy, c float64 }

// square is no foreshortening: a face seen square on.
var square = slant{1, 0, 1}

// glyphSlanted is glyphOf of the numeral with the slant s undone: the
// glyph the numeral would give seen square on. rms is the numeral's RMS
// radius with the slant undone (see slantedRMS).
func glyphSlanted(mask []byte, w, h int, cx, cy, rms float64, sl slant) glyph {
	// the slant as a matrix: (u, v) to (a u + b v, b u + d v)
	k := 1 - sl.c
	a, b, d := 1-k*sl.dx*sl.dx, -k*sl.dx*sl.dy, 1-k*sl.dy*sl.dy
	// the offsets of the sub-samples from the numeral's centre, on either
	// axis: three to a cell
	var offs [3 * numeralGrid]float64
	scale := glyphSpan * rms / numeralGrid
	for i := range offs {
		offs[i] = (float64(i/3) + (float64(i%3)+0.5)/3 - numeralGrid/2) * scale
	}
	var g glyph
	for gy := 0; gy < numeralGrid; gy++ {
		for gx := 0; gx < numeralGrid; gx++ {
			var s float64
			for _, v := range offs[3*gy : 3*gy+3] {
				for _, u := range offs[3*gx : 3*gx+3] {
					// sampleMask, its usual case inlined
					x, y := cx+(a*u+b*v)-0.5, cy+(b*u+d*v)-0.5
					x0, y0 := floor(x), floor(y)
					fx, fy := x-float64(x0), y-float64(y0)
					if x0 < 0 || y0 < 0 || x0+1 >= w || y0+1 >= h {
						s += sampleMaskEdge(mask, w, h, x0, y0, fx, fy)
						continue
					}
					i := y0*w + x0
					s += float64(mask[i])*(1-fx)*(1-fy) + float64(mask[i+1])*fx*(1-fy) + float64(mask[i+w])*(1-fx)*fy + float64(mask[i+w+1])*fx*fy
				}
			}
			g[gy*numeralGrid+gx] = float32(s / 9)
		}
	}
	if !glyphBlur {
		return g
	}
	return blurGlyph(&g)
}

// slantedRMS is the RMS radius about (cx, cy) of the numeral's pixels
// with the slant s undone (stretched by 1/c along its direction).
func slantedRMS(mask []byte, w int, cx, cy float64, s slant) float64 {
	k := 1/s.c - 1
	var n, rr float64
	for i, v := range mask {
		if v != 0 {
			qx, qy := float64(i%w)+0.5-cx, float64(i/w)+0.5-cy
			d := k * (qx*s.dx + qy*s.dy)
			px, py := qx+d*s.dx, qy+d*s.dy
			rr += px*px + py*py
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return math.Sqrt(rr / n)
}

// blurGlyph blurs g with a [1 2 1] x [1 2 1] kernel.
func blurGlyph(g *glyph) glyph {
	var tmp, out glyph
	const n = numeralGrid
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			v := 2 * g[y*n+x]
			if x > 0 {
				v += g[y*n+x-1]
			}
			if x < n-1 {
				v += g[y*n+x+1]
			}
			tmp[y*n+x] = v / 4
		}
	}
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			v := 2 * tmp[y*n+x]
			if y > 0 {
				v += tmp[(y-1)*n+x]
			}
			if y < n-1 {
				v += tmp[(y+1)*n+x]
			}
			out[y*n+x] = v / 4
		}
	}
	return out
}

// dilateBelow is the die radius, in pixels, under which numerals are
// labelled dilated.
const dilateBelow = 40

// opening returns the grey-level opening of src (w x h) by a square of side
// 2k+1: a min filter then a max filter, each separable.
func opening(src []float32, w, h, k int) []float32 {
	tmp := make([]float32, len(src))
	out := make([]float32, len(src))
	filter1(src, tmp, w, h, k, true, true)
	filter1(tmp, out, w, h, k, false, true)
	filter1(out, tmp, w, h, k, true, false)
	filter1(tmp, out, w, h, k, false, false)
	return out
}

// filter1 is a 1-D min (isMin) or max filter of radius k along rows
// (horizontal) or columns, the window cut at the picture's border. Each
// line keeps a queue of the positions that may still be its window's
// extreme (each value worse than a later one is dropped), so a pixel
// costs about the same whatever k.
func filter1(src, dst []float32, w, h, k int, horizontal, isMin bool) {
	n, m, stride, step := h, w, w, 1
	if !horizontal {
		n, m, stride, step = w, h, 1, w
	}
	q := make([]int, m) // the queue's positions along the line
	line := make([]float32, m)
	out := make([]float32, m)
	// a max filter is the min filter of the values negated (exact)
	sign := float32(1)
	if !isMin {
		sign = -1
	}
	for l := 0; l < n; l++ {
		base := l * stride
		for i := range line {
			line[i] = sign * src[base+i*step]
		}
		slideMin(line, out, q, k)
		for i, v := range out {
			dst[base+i*step] = sign * v
		}
	}
}

// slideMin sets out[i] to the least of line[i-k:i+k+1] (cut at the
// ends); q is scratch as long as line.
func slideMin(line, out []float32, q []int, k int) {
	head, tail, next := 0, 0, 0
	for i := range out {
		for ; next <= min(len(line)-1, i+k); next++ {
			x := line[next]
			for tail > head && line[q[tail-1]] >= x {
				tail--
			}
			q[tail] = next
			tail++
		}
		for q[head] < i-k {
			head++
		}
		out[i] = line[q[head]]
	}
}

// numeralFrac is the threshold of a numeral's pixels, as a fraction of the
// strongest top-hat values; checkFrac is a lower one the reading must
// agree with (a numeral blurred or half lost to glare reads differently
// at the two thresholds); highCheckFrac is a higher one a large die's
// numeral must agree with too.
const (
	numeralFrac   = 0.45
	checkFrac     = 0.35
	highCheckFrac = 0.6
)

// smooth3 blurs src with a [1 2 1] x [1 2 1] kernel, clamped at the
// borders.
func smooth3(src []float32, w, h int) []float32 {
	tmp := make([]float32, len(src))
	out := make([]float32, len(src))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := y*w + x
			l, r := src[y*w+max(0, x-1)], src[y*w+min(w-1, x+1)]
			tmp[i] = (l + 2*src[i] + r) / 4
		}
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := y*w + x
			u, d := tmp[max(0, y-1)*w+x], tmp[min(h-1, y+1)*w+x]
			out[i] = (u + 2*tmp[i] + d) / 4
		}
	}
	return out
}

var glyphBlur = true
