package vision

import "math"

// HOG-like features of a glyph: the gradient orientations (signed, 8
// bins) summed in 5x5 cells of 4x4 pixels, square-rooted and normalised.
// They compare numerals by the direction of their strokes, which depends
// less on the stroke's width than the pixels do.
const (
	hogCell  = 4
	hogCells = numeralGrid / hogCell
	hogBins  = 8
	hogLen   = hogCells * hogCells * hogBins
)

type hogVec [hogLen]float32

func hogOf(g *glyph) hogVec {
	var h hogVec
	const n = numeralGrid
	at := func(x, y int) float32 {
		if x < 0 || y < 0 || x >= n || y >= n {
			return 0
		}
		return g[y*n+x]
	}
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			gx := at(x+1, y) - at(x-1, y)
			gy := at(x, y+1) - at(x, y-1)
			m := float32(math.Sqrt(float64(gx*gx + gy*gy)))
			if m == 0 {
				continue
			}
			b := float64(fastAngle(gx, gy)) * hogBins
			b0 := int(b)
			f := float32(b - float64(b0))
			b0 %= hogBins
			b1 := (b0 + 1) % hogBins
			c := ((y/hogCell)*hogCells + x/hogCell) * hogBins
			h[c+b0] += m * (1 - f)
			h[c+b1] += m * f
		}
	}
	var s float32
	for i, v := range h {
		v = float32(math.Sqrt(float64(v)))
		h[i] = v
		s += v
	}
	var mean = s / hogLen
	var nn float32
	for i := range h {
		h[i] -= mean
		nn += h[i] * h[i]
	}
	if nn > 0 {
		inv := float32(1 / math.Sqrt(float64(nn)))
		for i := range h {
			h[i] *= inv
		}
	}
	return h
}

func hogDot(a, b *hogVec) float32 {
	var s0, s1, s2, s3 float32
	for i := 0; i < hogLen; i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	return s0 + s1 + s2 + s3
}

// fastAngle is the direction of (x, y) as a fraction of a turn, 0 to 1,
// within about 0.001 turn: a polynomial arctangent on the octant.
func fastAngle(x, y float32) float32 {
	ax, ay := x, y
	if ax < 0 {
		ax = -ax
	}
	if ay < 0 {
		ay = -ay
	}
	var a float32 // the angle in the first quadrant, in turns
	if ax >= ay {
		t := ay / ax
		a = t * (0.125 + 0.04345*(1-t)) // atan(t)/(2 pi), within 0.0003
	} else {
		t := ax / ay
		a = 0.25 - t*(0.125+0.04345*(1-t))
	}
	switch {
	case x >= 0 && y >= 0:
		return a
	case x < 0 && y >= 0:
		return 0.5 - a
	case x < 0:
		return 0.5 + a
	default:
		return 1 - a
	}
}
