package vision

import (
	"image"
	"sort"
)

// convexFill returns the mask of the convex hull of the set pixels of mask
// (w x h): a die is convex, so a top face that glare pushed out of the
// colour range is still inside the hull of its side faces.
func convexFill(mask []byte, w, h int) []byte {
	// the extreme pixels of each row are enough for the hull
	var pts []image.Point
	for y := 0; y < h; y++ {
		first, last := -1, -1
		for x := 0; x < w; x++ {
			if mask[y*w+x] != 0 {
				if first < 0 {
					first = x
				}
				last = x
			}
		}
		if first >= 0 {
			pts = append(pts, image.Pt(first, y), image.Pt(last+1, y), image.Pt(first, y+1), image.Pt(last+1, y+1))
		}
	}
	out := make([]byte, w*h)
	hull := convexHull(pts)
	if len(hull) < 3 {
		copy(out, mask)
		return out
	}
	// scanline fill at pixel centres
	for y := 0; y < h; y++ {
		yc := float64(y) + 0.5
		lo, hi := float64(w), -1.0
		n := len(hull)
		for i := 0; i < n; i++ {
			a, b := hull[i], hull[(i+1)%n]
			ay, by := float64(a.Y), float64(b.Y)
			if (ay <= yc && by > yc) || (by <= yc && ay > yc) {
				x := float64(a.X) + (yc-ay)*float64(b.X-a.X)/(by-ay)
				lo = min(lo, x)
				hi = max(hi, x)
			}
		}
		for x := max(0, int(lo+0.5)); x < w && float64(x)+0.5 < hi; x++ {
			out[y*w+x] = 1
		}
	}
	return out
}

// convexHull returns the convex hull of pts, counter-clockwise (Andrew's
// monotone chain).
func convexHull(pts []image.Point) []image.Point {
	if len(pts) < 3 {
		return pts
	}
	sort.Slice(pts, func(i, j int) bool {
		if pts[i].X != pts[j].X {
			return pts[i].X < pts[j].X
		}
		return pts[i].Y < pts[j].Y
	})
	cross := func(o, a, b image.Point) int {
		return (a.X-o.X)*(b.Y-o.Y) - (a.Y-o.Y)*(b.X-o.X)
	}
	hull := make([]image.Point, 0, 2*len(pts))
	for _, p := range pts {
		for len(hull) >= 2 && cross(hull[len(hull)-2], hull[len(hull)-1], p) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, p)
	}
	lower := len(hull) + 1
	for i := len(pts) - 2; i >= 0; i-- {
		p := pts[i]
		for len(hull) >= lower && cross(hull[len(hull)-2], hull[len(hull)-1], p) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, p)
	}
	return hull[:len(hull)-1]
}
