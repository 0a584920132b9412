package render

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
)

// ThrowOpts controls Throw.
type ThrowOpts struct {
	Width, Height int
	// RejectRate is the probability that a throw ends in a hard rest,
	// one of Rests (equally likely; DefaultRests when nil): the two dice
	// touching, both flat (read: a die lying flat shows its roll
	// whatever it touches), or one the reader must refuse (Die.Reject): a
	// die cocked against a wall, a die partly out of the picture, a die
	// leaning on the other.
	RejectRate float64
	Rests      []string
	// BlurRate and NoiseRate are the probabilities of a slightly blurred
	// picture (a box blur of radius 1) and of a noisy one (sensor noise of
	// 4 to 7 levels instead of 0 to 3).
	BlurRate, NoiseRate float64
}

// DefaultThrowOpts are the rates of vision/testdata/rendered: 1% of the
// throws must be refused, 5% of the pictures are a little blurred and 5%
// noisy.
var DefaultThrowOpts = ThrowOpts{Width: 640, Height: 480, RejectRate: 0.01, BlurRate: 0.05, NoiseRate: 0.05}

// The hard rests of a throw (ThrowOpts.Rests), in Scene.Hard: the two
// dice touching, both lying flat (read), or a reason a die must be
// refused, in Die.Reject too.
const (
	Touching         = "touching"
	RejectCocked     = "cocked"
	RejectOutOfFrame = "out-of-frame"
	RejectLeaning    = "leaning"
)

// DefaultRests are the hard rests of a throw when ThrowOpts.Rests is nil
// (those of every committed set of throws: no die leaning on the other).
var DefaultRests = []string{Touching, RejectCocked, RejectOutOfFrame}

// throwFelts are the tray felts of the accuracy set: no felt of a die's
// colour (navy and burgundy felts are in the hard set).
var throwFelts = feltsWithout("burgundy", "navy")

// feltsWithout is feltColors, in the same order, without the named ones.
func feltsWithout(names ...string) []feltColor {
	var out []feltColor
	for _, f := range feltColors {
		if !slices.Contains(names, f.name) {
			out = append(out, f)
		}
	}
	return out
}

// throwCloths are the colours of patterned cloths: none blue or red.
var throwCloths = []Vec{{0.7, 0.68, 0.6}, {0.4, 0.35, 0.2}, {0.03, 0.2, 0.07}, {0.18, 0.18, 0.18}, {0.5, 0.4, 0.27}, {0.025, 0.025, 0.025}, {0.35, 0.22, 0.12}}

// throwSurface returns a tray floor or table of an ordinary kind, in
// colours that are neither the blue nor the red of the dice.
func throwSurface(r *rand.Rand, kinds ...string) Surface {
	switch kind := pick(r, kinds...); kind {
	case "felt":
		f := pick(r, throwFelts...)
		c := jitter(r, f.c, 0.15)
		return Surface{kind, f.name + " felt", fmt.Sprintf(
			"pigment { granite color_map { [0 %s] [1 %s] } scale %.2f } normal { granite %.2f scale %.2f } finish { diffuse 0.8 specular 0 }",
			rgb(c), rgb(c.Scale(uniform(r, 0.75, 0.9))), uniform(r, 0.5, 2), uniform(r, 0.1, 0.4), uniform(r, 0.3, 1))}
	case "cloth":
		a := jitter(r, pick(r, throwCloths...), 0.15)
		b := jitter(r, pick(r, throwCloths...), 0.15)
		var pig string
		if pat := pick(r, "checker", "gradient x", "gradient z"); pat == "checker" {
			pig = fmt.Sprintf("checker %s, %s scale %.1f rotate <0,%.0f,0>", rgb(a), rgb(b), uniform(r, 8, 25), uniform(r, 0, 90))
		} else {
			pig = fmt.Sprintf("%s color_map { [0 %s] [0.5 %s] [0.5 %s] [1 %s] } scale %.1f rotate <0,%.0f,0>", pat, rgb(a), rgb(a), rgb(b), rgb(b), uniform(r, 6, 30), uniform(r, 0, 90))
		}
		return Surface{kind, "cloth", fmt.Sprintf("pigment { %s } normal { bumps 0.2 scale 0.6 } finish { diffuse 0.8 }", pig)}
	default:
		return randomSurface(r, kind) // wood, paper, plastic: no blue or red
	}
}

// Throw returns a realistic throw of a blue and a red die into a dice tray
// under a camera fixed above it, drawn from r: an ordinary tray floor
// (felt, wood, a neutral cloth, a plain colour) on an ordinary table, a
// camera 180 to 260 mm above the floor tilted by at most 4 degrees, warm,
// neutral or cool light from one or two soft lights at mildly different
// exposures, the dice lying flat anywhere in the tray at any turn, and,
// at the rates of o, a slight blur, noise, or a rest that must be refused
// (Die.Reject says which die and why). The same r gives the same scene.
func Throw(r *rand.Rand, o ThrowOpts) Scene {
	s := Scene{Width: o.Width, Height: o.Height}
	s.Table = throwSurface(r, "wood", "paper", "plastic", "cloth")

	// The camera, fixed above the tray, frames it: the tray fills 85% to
	// 110% of the picture (a little of it may be out of view).
	h := uniform(r, 180, 260)
	fov := uniform(r, 50, 64)
	tilt := uniform(r, 0, 4)
	dir := uniform(r, 0, 360)
	off := h * math.Tan(tilt*math.Pi/180)
	ds, dc := math.Sincos(dir * math.Pi / 180)
	look := Vec{uniform(r, -8, 8), 0, uniform(r, -8, 8)}
	roll := uniform(r, -5, 5) + pick(r, 0.0, 180)
	s.Camera = Camera{Loc: look.Add(Vec{off * dc, h, off * ds}), LookAt: look, Sky: RotY(roll).Apply(Vec{0, 0, 1}), FOV: fov}
	viewW := 2 * h * math.Tan(fov*math.Pi/360)
	viewD := viewW * float64(o.Height) / float64(o.Width)

	reject := ""
	if r.Float64() < o.RejectRate {
		rests := o.Rests
		if rests == nil {
			rests = DefaultRests
		}
		reject = pick(r, rests...)
	}
	scale := uniform(r, 0.85, 1.1)
	switch reject {
	case RejectOutOfFrame:
		scale = uniform(r, 1.2, 1.35) // the tray runs out of the picture
	case RejectCocked:
		scale = uniform(r, 0.85, 0.97) // the walls are in the picture
	}
	// the camera's roll is near 0 or 180 degrees: the picture's width runs
	// along x
	w, d := viewW*scale, viewD*scale
	t := &Tray{Min: Vec{-w / 2, 0, -d / 2}, Max: Vec{w / 2, 0, d / 2}, WallHeight: uniform(r, 12, 30),
		Floor: throwSurface(r, "felt", "felt", "felt", "wood", "cloth", "paper", "plastic"), Wall: randomSurface(r, "wood", "plastic")}
	s.Tray = t

	// Light: a main soft light, sometimes a second, at a mildly different
	// exposure from picture to picture.
	tint := pick(r, Vec{1, 0.85, 0.68}, Vec{1, 1, 1}, Vec{0.85, 0.92, 1}, Vec{1, 0.93, 0.82})
	power := uniform(r, 0.75, 1.25)
	s.Lights = []Light{{Pos: Vec{uniform(r, -400, 400), uniform(r, 500, 1000), uniform(r, -400, 400)}, Color: tint.Scale(power), Size: uniform(r, 40, 250)}}
	if r.Float64() < 0.4 {
		s.Lights = append(s.Lights, Light{Pos: Vec{uniform(r, -800, 800), uniform(r, 400, 900), uniform(r, -800, 800)},
			Color: pick(r, Vec{1, 0.85, 0.68}, Vec{0.85, 0.92, 1}).Scale(power * uniform(r, 0.2, 0.5)), Size: uniform(r, 50, 300)})
	}
	s.Ambient = uniform(r, 0.06, 0.2)

	for tries := 0; ; tries++ {
		if tries > 20000 {
			panic("render: no throw fits the tray") // cannot happen with the sizes above
		}
		if s.placeDice(r, reject) {
			break
		}
	}
	if reject != "" {
		s.Hard = append(s.Hard, reject)
	}
	if r.Float64() < o.BlurRate {
		s.Blur = 1
		s.Hard = append(s.Hard, "blur")
	}
	s.Noise = uniform(r, 0, 3)
	if r.Float64() < o.NoiseRate {
		s.Noise = uniform(r, 4, 7)
		s.Hard = append(s.Hard, "noise")
	}
	return s
}

// placeDice tries once to lay the blue and the red die in the tray, apart
// and wholly in the picture, or in the rest reject says; it says whether
// it succeeded.
func (s *Scene) placeDice(r *rand.Rand, reject string) bool {
	t := s.Tray
	blue := NewDie(r, "blue", 1+r.IntN(8), uniform(r, 0, 360), 0, 0)
	red := NewDie(r, "red", 1+r.IntN(8), uniform(r, 0, 360), 0, 0)
	if r.Float64() < 0.9 {
		red.Ink, red.Font, red.Size = blue.Ink, blue.Font, blue.Size // usually a matching pair
		red.Pos.Y = restHeight(red.Size)
	}
	dice := []*Die{&blue, &red}
	for _, d := range dice {
		keep := d.Size * 1.1
		d.Pos.X, d.Pos.Z = uniform(r, t.Min.X+keep, t.Max.X-keep), uniform(r, t.Min.Z+keep, t.Max.Z-keep)
	}
	odd := dice[r.IntN(2)] // the die of a refused rest
	switch reject {
	case Touching:
		a := uniform(r, 0, 2*math.Pi)
		dist := contactDistance(blue, red, a)
		red.Pos.X, red.Pos.Z = blue.Pos.X+dist*math.Cos(a), blue.Pos.Z+dist*math.Sin(a)
		keep := red.Size * 1.1
		if red.Pos.X < t.Min.X+keep || red.Pos.X > t.Max.X-keep || red.Pos.Z < t.Min.Z+keep || red.Pos.Z > t.Max.Z-keep {
			return false
		}
	case RejectLeaning:
		// odd rests on the floor on an edge or a tip, tilted 20 to 35
		// degrees towards the other die, and touches it
		base := &blue
		if odd == &blue {
			base = &red
		}
		a := uniform(r, 0, 2*math.Pi)
		u := Vec{math.Cos(a), 0, math.Sin(a)} // from base towards odd
		tiltOnto(odd, u.Scale(-1), uniform(r, 20, 35), 0)
		dist := touchDistance(*base, *odd, u)
		odd.Pos.X, odd.Pos.Z = base.Pos.X+dist*u.X, base.Pos.Z+dist*u.Z
		keep := odd.Size * 1.1
		if odd.Pos.X < t.Min.X+keep || odd.Pos.X > t.Max.X-keep || odd.Pos.Z < t.Min.Z+keep || odd.Pos.Z > t.Max.Z-keep {
			return false
		}
		odd.Reject = RejectLeaning
	case RejectCocked:
		wall := []Vec{{1, 0, 0}, {-1, 0, 0}, {0, 0, 1}, {0, 0, -1}}[r.IntN(4)]
		switch {
		case wall.X > 0:
			odd.Pos.X = t.Max.X - odd.Size*1.05
		case wall.X < 0:
			odd.Pos.X = t.Min.X + odd.Size*1.05
		case wall.Z > 0:
			odd.Pos.Z = t.Max.Z - odd.Size*1.05
		default:
			odd.Pos.Z = t.Min.Z + odd.Size*1.05
		}
		odd.Pos.Y += odd.Size * 0.3
		odd.Rot = axisAngle(Vec{0, 1, 0}.Cross(wall), uniform(r, 20, 30)).Mul(odd.Rot)
		odd.Reject = RejectCocked
	case RejectOutOfFrame:
		// the die's centre in the picture, a part of it out
		if !s.inPicture(Vec{odd.Pos.X, odd.Pos.Y, odd.Pos.Z}, 0, 0) || s.inPicture(odd.Pos, odd.Size*0.6, 0) {
			return false
		}
		odd.Reject = RejectOutOfFrame
	}
	for _, d := range dice {
		if d.Reject == RejectOutOfFrame {
			continue
		}
		if !s.inPicture(d.Pos, d.Size, 6) {
			return false
		}
	}
	gap := math.Hypot(blue.Pos.X-red.Pos.X, blue.Pos.Z-red.Pos.Z)
	if reject != Touching && reject != RejectLeaning && gap < 2.2*blue.Size {
		return false
	}
	s.Dice = []Die{blue, red}
	return true
}

// body is points of the die d whose convex hull is its solid, in the
// scene: the octahedron's edges, their tips cut by the rounding sphere,
// and points of the sphere's caps.
func body(d Die) []Vec {
	round := d.Round
	if round == 0 {
		round = 0.9
	}
	axes := []Vec{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}}
	var pts []Vec
	for i, a := range axes {
		for _, b := range axes[i+1:] {
			if a.Add(b).Len() < 1e-9 {
				continue // opposite tips: no edge
			}
			for k := 0; k <= 16; k++ {
				if p := a.Scale(1 - float64(k)/16).Add(b.Scale(float64(k) / 16)); p.Len() <= round {
					pts = append(pts, p)
				}
			}
		}
		// the cap the sphere cuts at this tip: the octahedron's points
		// at the sphere's radius
		f1, f2 := axes[(i/2*2+2)%6], axes[(i/2*2+4)%6]
		for x := -6; x <= 6; x++ {
			for y := -6; y <= 6; y++ {
				q := a.Add(f1.Scale(float64(x) / 12)).Add(f2.Scale(float64(y) / 12)).Unit().Scale(round)
				if math.Abs(q.X)+math.Abs(q.Y)+math.Abs(q.Z) <= 1 {
					pts = append(pts, q)
				}
			}
		}
	}
	for i, p := range pts {
		pts[i] = d.Pos.Add(d.Rot.Apply(p.Scale(d.Size)))
	}
	return pts
}

// touchDistance is how far from a's centre, along the horizontal unit
// line u, b's centre lies when their solids just touch (to about 0.1 mm):
// b slid along u at its height, by bisection on their separation.
func touchDistance(a, b Die, u Vec) float64 {
	pa := body(a)
	b.Pos.X, b.Pos.Z = a.Pos.X, a.Pos.Z
	pb := body(b)
	lo, hi := 0.0, 2.5*(a.Size+b.Size)
	for i := 0; i < 30; i++ {
		mid := (lo + hi) / 2
		if separation(pa, pb, u.Scale(mid)) > 0 {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// separation is the widest gap between the convex hulls of the points pa
// and of the points pb moved by off, over the directions tried (a
// lattice of 300, then a local search about the best): positive when
// they are apart.
func separation(pa, pb []Vec, off Vec) float64 {
	gap := func(n Vec) float64 { return gapAlong(pa, pb, off, n) }
	// the lattice's directions, best first; a local search about each of
	// the eight best (the gap has more than one local maximum)
	dirs := sphereDirections(300)
	gaps := make([]float64, len(dirs))
	for i, n := range dirs {
		gaps[i] = gap(n)
	}
	order := make([]int, len(dirs))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(i, j int) bool { return gaps[order[i]] > gaps[order[j]] })
	best := math.Inf(-1)
	for _, start := range order[:8] {
		g, bn := gaps[start], dirs[start]
		for step := 0.2; step > 1e-4; step /= 2 {
			for moved := true; moved; {
				moved = false
				t1 := bn.Cross(Vec{0, 1, 0})
				if t1.Len() < 0.1 {
					t1 = bn.Cross(Vec{1, 0, 0})
				}
				t1 = t1.Unit()
				t2 := bn.Cross(t1)
				for _, d := range []Vec{t1, t1.Scale(-1), t2, t2.Scale(-1)} {
					n := bn.Add(d.Scale(step)).Unit()
					if gn := gap(n); gn > g {
						g, bn, moved = gn, n, true
					}
				}
			}
		}
		best = math.Max(best, g)
		if best > 0 {
			break
		}
	}
	return best
}

// gapAlong is how far beyond the points pa, along the unit line n, the
// points pb moved by off begin (negative when they overlap along n).
func gapAlong(pa, pb []Vec, off, n Vec) float64 {
	amax, bmin := math.Inf(-1), math.Inf(1)
	for _, p := range pa {
		amax = math.Max(amax, p.Dot(n))
	}
	for _, p := range pb {
		bmin = math.Min(bmin, p.Add(off).Dot(n))
	}
	return bmin - amax
}

// tiltOnto tilts the die d by deg degrees, its top towards the horizontal
// unit line w, and rests it on the floor at height floor (its lowest
// point there), keeping its place across the floor.
func tiltOnto(d *Die, w Vec, deg, floor float64) {
	d.Rot = axisAngle(Vec{0, 1, 0}.Cross(w), deg).Mul(d.Rot)
	low := math.Inf(1)
	for _, p := range body(Die{Rot: d.Rot, Size: d.Size, Round: d.Round}) {
		low = math.Min(low, p.Y)
	}
	d.Pos.Y = floor - low
}

// sphereDirections is n unit vectors spread evenly over the sphere (a
// Fibonacci lattice).
func sphereDirections(n int) []Vec {
	out := make([]Vec, n)
	g := math.Pi * (3 - math.Sqrt(5))
	for i := range out {
		y := 1 - 2*(float64(i)+0.5)/float64(n)
		r := math.Sqrt(1 - y*y)
		s, c := math.Sincos(g * float64(i))
		out[i] = Vec{r * c, y, r * s}
	}
	return out
}

// footprint is the outline of a die seen from above: its six vertices on
// the floor plane (x, z), relative to its centre.
func footprint(d Die) [][2]float64 {
	var out [][2]float64
	for _, a := range []Vec{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}} {
		p := d.Rot.Apply(a.Scale(d.Size))
		out = append(out, [2]float64{p.X, p.Z})
	}
	return out
}

// contactDistance is the distance between the centres of a and b, b lying
// in direction angle (radians, in the floor plane) from a, at which their
// outlines seen from above just touch: the largest distance at which the
// outlines' extents along some direction still overlap, found by
// bisection over the support functions of the two octahedra.
func contactDistance(a, b Die, angle float64) float64 {
	pa, pb := footprint(a), footprint(b)
	ux, uz := math.Cos(angle), math.Sin(angle)
	separated := func(dist float64) bool {
		// the outlines (convex: the hull of the points) are apart when
		// some direction separates them; test 180 directions
		for k := 0; k < 180; k++ {
			t := float64(k) * math.Pi / 180
			nx, nz := math.Cos(t), math.Sin(t)
			amin, amax := math.Inf(1), math.Inf(-1)
			for _, p := range pa {
				v := p[0]*nx + p[1]*nz
				amin, amax = math.Min(amin, v), math.Max(amax, v)
			}
			bmin, bmax := math.Inf(1), math.Inf(-1)
			off := dist * (ux*nx + uz*nz)
			for _, p := range pb {
				v := p[0]*nx + p[1]*nz + off
				bmin, bmax = math.Min(bmin, v), math.Max(bmax, v)
			}
			if bmin > amax || amin > bmax {
				return true
			}
		}
		return false
	}
	lo, hi := 0.0, 2.5*(a.Size+b.Size)
	for i := 0; i < 40; i++ {
		mid := (lo + hi) / 2
		if separated(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi + 0.1 // a tenth of a millimetre apart: touching
}
