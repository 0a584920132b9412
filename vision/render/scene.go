package render

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Camera is a pinhole camera as POV-Ray models it.
type Camera struct {
	Loc, LookAt Vec
	// Sky is the direction that points up in the image (before the camera
	// is aimed); it sets the camera's roll.
	Sky Vec
	// FOV is the horizontal field of view in degrees.
	FOV float64
}

// basis returns the camera's right, up and forward unit vectors, computed as
// POV-Ray does for a camera given by location, look_at and sky.
func (c Camera) basis() (right, up, fwd Vec) {
	fwd = c.LookAt.Sub(c.Loc).Unit()
	right = c.Sky.Cross(fwd).Unit()
	up = fwd.Cross(right)
	return right, up, fwd
}

// Project returns the pixel coordinates of p in a w x h image (x to the
// right, y down, origin at the top-left corner of the image) and whether p
// is in front of the camera.
func (c Camera) Project(p Vec, w, h int) (x, y float64, ok bool) {
	right, up, fwd := c.basis()
	v := p.Sub(c.Loc)
	z := v.Dot(fwd)
	if z <= 0 {
		return 0, 0, false
	}
	f := float64(w) / 2 / math.Tan(c.FOV*math.Pi/360)
	x = float64(w)/2 + f*v.Dot(right)/z
	y = float64(h)/2 - f*v.Dot(up)/z
	return x, y, true
}

// Surface is a texture for the table, the tray floor or the tray walls.
type Surface struct {
	Kind string // "felt", "wood", "cloth", "paper", "plastic"
	Name string // a short description, e.g. "green felt"
	POV  string // the POV-Ray texture body
}

// Tray is a rectangular dice tray: a floor at y=0 and four walls.
type Tray struct {
	Min, Max   Vec // floor corners (x and z; y ignored)
	WallHeight float64
	Floor      Surface
	Wall       Surface
}

// Light is a light source, an area light when Size > 0 (soft shadows).
type Light struct {
	Pos   Vec
	Color Vec // linear RGB, 1 is a normal intensity
	Size  float64
}

// Die is one d8 in the scene.
type Die struct {
	Name string // "blue" or "red"
	Body Vec    // linear RGB of the plastic
	Ink  Vec    // linear RGB of the numerals
	Font string // a TrueType font shipped with POV-Ray
	// Size is the distance from the centre to a vertex, in mm (half the
	// tip-to-tip length).
	Size float64
	Pos  Vec // centre
	Rot  Mat // orientation: die frame to scene
	// Reject, when set, says why a reader must refuse to read this die
	// (RejectCocked, RejectOutOfFrame, RejectLeaning); its label is "?".
	Reject string
	// The wide distribution's variations (see Wide); their zero values
	// draw the dice of the other sets: opaque plastic, raised numerals
	// 0.52 of Size high, tips rounded by a sphere of radius 0.9.
	Finish        string  // "", "opaque", "pearl" or "translucent"
	Engraved      bool    // numerals sunk into the face, ink at the bottom
	Round         float64 // radius of the rounding sphere (1 or more: sharp)
	NumeralHeight float64 // numeral height as a fraction of Size
	TopOnly       bool    // numerals only on the faces turned up (faster)
}

// Face returns the numeral on top and whether the die lies flat on a face
// (top face within 3 degrees of horizontal).
func (d Die) Face() (int, bool) {
	f, c := TopFace(d.Rot)
	return f, c > math.Cos(3*math.Pi/180)
}

// Hand is a hand over the tray: a palm, four fingers and a thumb and a
// forearm leaving the picture.
type Hand struct {
	Pos  Vec     // centre of the palm
	Yaw  float64 // direction of the fingers, degrees about the vertical
	Skin Vec
}

// Scene is everything one picture needs. It is plain data, so a scene can
// be printed, compared and rendered again.
type Scene struct {
	Width, Height int
	Camera        Camera
	Table         Surface
	Tray          *Tray // nil: the dice lie on the table
	Lights        []Light
	Ambient       float64
	Dice          []Die
	Walls         []WallBox // loose tray walls (the wide distribution)
	Hand          *Hand
	// Post-processing applied to the rendered picture.
	Blur  int     // box blur radius in pixels, 0 for none
	Noise float64 // standard deviation of added noise, in 8-bit levels
	// Hard lists what makes the picture hard to read, for the labels.
	Hard []string
}

// restHeight is the height of a die's centre when it lies on a face on the
// floor at y=0.
func restHeight(size float64) float64 { return size * inradius }

func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

func uniform(r *rand.Rand, lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }

func jitter(r *rand.Rand, c Vec, k float64) Vec {
	return Vec{
		clamp01(c.X * uniform(r, 1-k, 1+k)),
		clamp01(c.Y * uniform(r, 1-k, 1+k)),
		clamp01(c.Z * uniform(r, 1-k, 1+k)),
	}
}

func clamp01(x float64) float64 { return math.Max(0, math.Min(1, x)) }

func rgb(c Vec) string { return fmt.Sprintf("rgb <%.3f,%.3f,%.3f>", c.X, c.Y, c.Z) }

// feltColor is a named colour of felt.
type feltColor struct {
	name string
	c    Vec
}

// feltColors are the usual colours of tray felt and table cloth.
var feltColors = []feltColor{
	{"green", Vec{0.03, 0.2, 0.07}},
	{"dark green", Vec{0.02, 0.1, 0.04}},
	{"burgundy", Vec{0.22, 0.02, 0.04}},
	{"navy", Vec{0.02, 0.03, 0.12}},
	{"grey", Vec{0.18, 0.18, 0.18}},
	{"black", Vec{0.025, 0.025, 0.025}},
	{"beige", Vec{0.5, 0.4, 0.27}},
	{"white", Vec{0.7, 0.7, 0.68}},
	{"purple", Vec{0.12, 0.04, 0.16}},
	{"tan", Vec{0.35, 0.22, 0.12}},
}

// randomSurface returns a random texture of the given kinds.
func randomSurface(r *rand.Rand, kinds ...string) Surface {
	switch kind := pick(r, kinds...); kind {
	case "felt":
		f := pick(r, feltColors...)
		c := jitter(r, f.c, 0.15)
		return Surface{kind, f.name + " felt", fmt.Sprintf(
			"pigment { granite color_map { [0 %s] [1 %s] } scale %.2f } normal { granite %.2f scale %.2f } finish { diffuse 0.8 specular 0 }",
			rgb(c), rgb(c.Scale(uniform(r, 0.75, 0.9))), uniform(r, 0.5, 2), uniform(r, 0.1, 0.4), uniform(r, 0.3, 1))}
	case "wood":
		light := jitter(r, pick(r, Vec{0.45, 0.25, 0.1}, Vec{0.6, 0.42, 0.22}, Vec{0.3, 0.15, 0.07}, Vec{0.7, 0.55, 0.35}), 0.1)
		dark := light.Scale(uniform(r, 0.45, 0.7))
		return Surface{kind, "wood", fmt.Sprintf(
			"pigment { wood turbulence %.2f color_map { [0 %s] [0.6 %s] [1 %s] } scale <%.1f,%.1f,%.1f> rotate <90,%.0f,0> } finish { diffuse 0.75 specular %.2f roughness 0.02 }",
			uniform(r, 0.05, 0.2), rgb(light), rgb(light.lerp(dark, 0.5)), rgb(dark),
			uniform(r, 3, 8), uniform(r, 3, 8), uniform(r, 30, 90), uniform(r, 0, 180), uniform(r, 0, 0.3))}
	case "cloth":
		a := jitter(r, pick(r, feltColors...).c, 0.2)
		b := jitter(r, pick(r, Vec{0.7, 0.68, 0.6}, Vec{0.3, 0.05, 0.04}, Vec{0.05, 0.1, 0.25}, Vec{0.4, 0.35, 0.2}), 0.2)
		pat := pick(r, "checker", "gradient x", "gradient z")
		var pig string
		if pat == "checker" {
			pig = fmt.Sprintf("checker %s, %s scale %.1f rotate <0,%.0f,0>", rgb(a), rgb(b), uniform(r, 8, 25), uniform(r, 0, 90))
		} else {
			pig = fmt.Sprintf("%s color_map { [0 %s] [0.5 %s] [0.5 %s] [1 %s] } scale %.1f rotate <0,%.0f,0>", pat, rgb(a), rgb(a), rgb(b), rgb(b), uniform(r, 6, 30), uniform(r, 0, 90))
		}
		return Surface{kind, "cloth", fmt.Sprintf("pigment { %s } normal { bumps 0.2 scale 0.6 } finish { diffuse 0.8 }", pig)}
	case "paper":
		c := jitter(r, Vec{0.8, 0.78, 0.72}, 0.08)
		return Surface{kind, "white table", fmt.Sprintf("pigment { %s } normal { granite 0.05 scale 2 } finish { diffuse 0.8 specular 0.05 }", rgb(c))}
	default: // plastic
		c := jitter(r, pick(r, Vec{0.02, 0.02, 0.02}, Vec{0.15, 0.15, 0.16}, Vec{0.5, 0.5, 0.5}), 0.2)
		return Surface{"plastic", "plastic", fmt.Sprintf("pigment { %s } finish { diffuse 0.7 specular 0.3 roughness 0.01 }", rgb(c))}
	}
}

// RandomOpts controls Random.
type RandomOpts struct {
	Width, Height int
	// Dice are the dice to place: "blue", "red", or both.
	Dice []string
	// HardRate is the probability of each hard case (low light, tilt,
	// dice against a wall or touching, noise, blur...).
	HardRate float64
}

// DefaultRandomOpts renders a blue and a red die at 640x480, with a quarter
// of the hard cases turned on.
var DefaultRandomOpts = RandomOpts{Width: 640, Height: 480, Dice: []string{"blue", "red"}, HardRate: 0.25}

// Bodies of the dice: several plastics of each colour.
var (
	blueBodies = []Vec{{0.02, 0.08, 0.45}, {0.03, 0.15, 0.6}, {0.01, 0.04, 0.25}, {0.06, 0.25, 0.7}, {0.05, 0.12, 0.5}}
	redBodies  = []Vec{{0.55, 0.02, 0.02}, {0.7, 0.05, 0.03}, {0.35, 0.01, 0.02}, {0.75, 0.12, 0.05}, {0.6, 0.03, 0.08}}
	inks       = []Vec{{0.92, 0.92, 0.9}, {0.95, 0.93, 0.85}, {0.8, 0.65, 0.25}}
	fonts      = []string{"timrom.ttf", "cyrvetic.ttf"}
)

// NewDie returns a die of the named colour ("blue" or "red") with a random
// plastic, ink, font and size, lying on face with the given yaw at (x, z)
// on the floor.
func NewDie(r *rand.Rand, name string, face int, yaw, x, z float64) Die {
	body := pick(r, blueBodies...)
	if name == "red" {
		body = pick(r, redBodies...)
	}
	ink := pick(r, inks...)
	if r.IntN(3) > 0 {
		ink = inks[0]
	}
	size := uniform(r, 8, 10)
	return Die{Name: name, Body: jitter(r, body, 0.1), Ink: ink, Font: pick(r, fonts...), Size: size,
		Pos: Vec{x, restHeight(size), z}, Rot: FaceUp(face, yaw)}
}

// Random returns a random scene of dice at rest on a tray or a table, seen
// from above, drawn from r.
func Random(r *rand.Rand, o RandomOpts) Scene {
	s := Scene{Width: o.Width, Height: o.Height}
	hard := func(name string) bool {
		if len(s.Hard) < 3 && r.Float64() < o.HardRate {
			s.Hard = append(s.Hard, name)
			return true
		}
		return false
	}

	s.Table = randomSurface(r, "wood", "cloth", "paper", "felt", "plastic")
	var minX, maxX, minZ, maxZ float64
	if r.Float64() < 0.75 {
		w, d := uniform(r, 180, 260), uniform(r, 130, 190)
		t := &Tray{Min: Vec{-w / 2, 0, -d / 2}, Max: Vec{w / 2, 0, d / 2}, WallHeight: uniform(r, 12, 30),
			Floor: randomSurface(r, "felt", "felt", "felt", "cloth", "wood"), Wall: randomSurface(r, "wood", "plastic")}
		s.Tray = t
		minX, maxX, minZ, maxZ = t.Min.X, t.Max.X, t.Min.Z, t.Max.Z
	} else {
		minX, maxX, minZ, maxZ = -140, 140, -100, 100
	}

	// Camera: straight above the tray centre, or tilted a little.
	h := uniform(r, 160, 270)
	fov := uniform(r, 50, 64)
	tilt := uniform(r, 0, 3)
	if hard("tilt") {
		tilt = uniform(r, 6, 12)
	}
	dir := uniform(r, 0, 360)
	off := h * math.Tan(tilt*math.Pi/180)
	ds, dc := math.Sincos(dir * math.Pi / 180)
	look := Vec{uniform(r, -15, 15), 0, uniform(r, -15, 15)}
	roll := uniform(r, -15, 15)
	if r.Float64() < 0.25 {
		roll = uniform(r, -180, 180)
	}
	s.Camera = Camera{Loc: look.Add(Vec{off * dc, h, off * ds}), LookAt: look, Sky: RotY(roll).Apply(Vec{0, 0, 1}), FOV: fov}

	// Lights: a main light, sometimes a second one, warm, neutral or cool.
	tint := pick(r, Vec{1, 0.85, 0.68}, Vec{1, 1, 1}, Vec{0.85, 0.92, 1}, Vec{1, 0.93, 0.82})
	power := uniform(r, 0.8, 1.25)
	if hard("low-light") {
		power = uniform(r, 0.35, 0.55)
	}
	main := Light{Pos: Vec{uniform(r, -400, 400), uniform(r, 500, 1000), uniform(r, -400, 400)}, Color: tint.Scale(power), Size: uniform(r, 20, 200)}
	s.Lights = []Light{main}
	if r.Float64() < 0.4 {
		s.Lights = append(s.Lights, Light{Pos: Vec{uniform(r, -800, 800), uniform(r, 400, 900), uniform(r, -800, 800)},
			Color: pick(r, Vec{1, 0.85, 0.68}, Vec{0.85, 0.92, 1}).Scale(power * uniform(r, 0.2, 0.5)), Size: uniform(r, 50, 300)})
	}
	if hard("glare") {
		s.Lights[0].Pos = Vec{look.X + uniform(r, -40, 40), uniform(r, 350, 500), look.Z + uniform(r, -40, 40)}
		s.Lights[0].Size = uniform(r, 5, 20)
	}
	s.Ambient = uniform(r, 0.05, 0.2)

	// Dice: on random faces and positions, in the picture and apart.
	wall := hard("near-wall") && s.Tray != nil
	touching := hard("touching")
	margin := 40.0
	if hard("edge") {
		margin = 22
	}
	for tries := 0; len(s.Dice) < len(o.Dice); tries++ {
		if tries > 5000 {
			// Nothing fits: start again with no special placement.
			s.Dice, wall, touching, tries = nil, false, false, 0
		}
		d := NewDie(r, o.Dice[len(s.Dice)], 1+r.IntN(8), uniform(r, 0, 360), 0, 0)
		if len(s.Dice) > 0 && (r.Float64() < 0.1 || s.Dice[0].Ink != d.Ink) {
			d.Ink = s.Dice[0].Ink // usually a matching pair
		}
		if len(s.Dice) > 0 {
			d.Size = s.Dice[0].Size
			d.Pos.Y = restHeight(d.Size)
			d.Font = s.Dice[0].Font
		}
		keep := d.Size * 1.25
		d.Pos.X, d.Pos.Z = uniform(r, minX+keep, maxX-keep), uniform(r, minZ+keep, maxZ-keep)
		if wall && len(s.Dice) == 0 {
			// Against one of the walls.
			switch r.IntN(4) {
			case 0:
				d.Pos.X = minX + keep
			case 1:
				d.Pos.X = maxX - keep
			case 2:
				d.Pos.Z = minZ + keep
			default:
				d.Pos.Z = maxZ - keep
			}
		}
		if touching && len(s.Dice) == 1 {
			a := uniform(r, 0, 2*math.Pi)
			dist := d.Size * uniform(r, 1.75, 2.1)
			d.Pos.X, d.Pos.Z = s.Dice[0].Pos.X+dist*math.Cos(a), s.Dice[0].Pos.Z+dist*math.Sin(a)
			if d.Pos.X < minX+keep || d.Pos.X > maxX-keep || d.Pos.Z < minZ+keep || d.Pos.Z > maxZ-keep {
				continue
			}
		}
		if !s.inPicture(d.Pos, d.Size, margin) {
			continue
		}
		ok := true
		for _, e := range s.Dice {
			if math.Hypot(e.Pos.X-d.Pos.X, e.Pos.Z-d.Pos.Z) < 1.75*d.Size {
				ok = false
			}
			if !touching && math.Hypot(e.Pos.X-d.Pos.X, e.Pos.Z-d.Pos.Z) < 3*d.Size {
				ok = false
			}
		}
		if ok {
			s.Dice = append(s.Dice, d)
		}
	}

	if hard("blur") {
		s.Blur = 1
	}
	s.Noise = uniform(r, 0, 3)
	if hard("noise") {
		s.Noise = uniform(r, 5, 10)
	}
	return s
}

// inPicture says whether a die at p of the given size is wholly in the
// picture, margin pixels (at 640 wide) away from its borders.
func (s Scene) inPicture(p Vec, size, margin float64) bool {
	m := margin * float64(s.Width) / 640
	for _, q := range []Vec{p, p.Add(Vec{size, 0, 0}), p.Add(Vec{-size, 0, 0}), p.Add(Vec{0, 0, size}), p.Add(Vec{0, 0, -size})} {
		x, y, ok := s.Camera.Project(q, s.Width, s.Height)
		if !ok || x < m || y < m || x > float64(s.Width)-m || y > float64(s.Height)-m {
			return false
		}
	}
	return true
}

// Box is a die's bounding box in the picture, in pixels.
type Box struct{ X0, Y0, X1, Y1 int }

// DieBox is the bounding box of die i in the picture: the projections of
// its six vertices.
func (s Scene) DieBox(i int) Box {
	d := s.Dice[i]
	b := Box{math.MaxInt, math.MaxInt, math.MinInt, math.MinInt}
	for _, a := range []Vec{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}} {
		p := d.Pos.Add(d.Rot.Apply(a.Scale(d.Size)))
		x, y, _ := s.Camera.Project(p, s.Width, s.Height)
		b.X0, b.Y0 = min(b.X0, int(math.Floor(x))), min(b.Y0, int(math.Floor(y)))
		b.X1, b.Y1 = max(b.X1, int(math.Ceil(x))), max(b.Y1, int(math.Ceil(y)))
	}
	return b
}
