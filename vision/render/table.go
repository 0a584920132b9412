package render

import (
	"math"
	"math/rand/v2"
)

// Table is one table of the wide distribution as a café sets it up for a
// whole game: one dice set, one surface, one lamp and one camera, its
// height, lean and lens fixed. The frames a Table draws (Alone, Throw)
// differ only by where the dice lie, their faces, and the camera's
// exposure and noise from frame to frame: what a calibration at that
// table sees, then the game's throws. (WideFrame draws all of these anew
// for every frame, so that no two frames share a table.)
type Table struct {
	Set     DiceSet
	Surface string
	Info    WideInfo // what the table's frames share: font, ink, body, surface, light, size, tilt
	table   Surface
	lights  []Light
	ambient float64
	camera  Camera
	dist    float64
	fov     float64
	defects Defects
}

// DrawTable draws a table with a dice set of the given font, one of the
// surfaces, and a camera 20 to 70 cm from the table's middle, tilted by
// up to 20 degrees, whose lens makes a die there minPx to maxPx across
// (drawn evenly on a log scale), as WideFrame's camera.
func DrawTable(r *rand.Rand, font string, surfaces []string, minPx, maxPx float64) Table {
	t := Table{Set: DrawSet(r, font)}
	px := minPx * math.Pow(maxPx/minPx, r.Float64())
	t.dist = uniform(r, 200, 700)
	f := px * t.dist / (dieAcross * t.Set.Size)
	t.fov = 2 * math.Atan(320/f) * 180 / math.Pi
	tilt := 20 * math.Sqrt(r.Float64())
	dir := uniform(r, 0, 2*math.Pi)
	a := tilt * math.Pi / 180
	t.camera = Camera{Loc: Vec{t.dist * math.Sin(a) * math.Cos(dir), t.dist * math.Cos(a), t.dist * math.Sin(a) * math.Sin(dir)}, LookAt: Vec{},
		Sky: RotY(uniform(r, 0, 360)).Apply(Vec{0, 0, 1}), FOV: t.fov}
	t.Surface = pick(r, surfaces...)
	t.table = wideSurfaces[t.Surface](r)
	var light string
	t.lights, t.ambient, light = wideLights(r, Vec{})
	t.defects = DrawDefects(r, 1)
	t.defects.Blur = 0
	_, t.Info = t.Set.die("blue", 1, 0)
	t.Info.Face, t.Info.Colour = 0, ""
	t.Info.Surface, t.Info.Light, t.Info.SizePx, t.Info.Tilt = t.Surface, light, px, tilt
	return t
}

// WithHarshLight is t under a harsh lamp (one small bright light: hard
// shadows, glare, top faces washed out), drawn from r as DrawTable draws
// its light, of any tint.
func (t Table) WithHarshLight(r *rand.Rand) Table {
	var light string
	t.lights, t.ambient, light = lightsOf(r, Vec{}, "harsh")
	t.Info.Light = light
	return t
}

// Defects draws the camera defects of one of the table's frames: the
// table camera's noise and JPEG quality, its exposure shifted by up to
// 15% either way (auto-exposure), a motion blur for one frame in ten.
func (t Table) Defects(r *rand.Rand) Defects {
	d := t.defects
	d.Exposure *= math.Exp(uniform(r, -0.15, 0.15))
	if r.Float64() < 0.1 {
		d.Blur, d.BlurDir = uniform(r, 1, 3), uniform(r, 0, math.Pi)
	}
	return d
}

// scene is the table with no dice yet.
func (t Table) scene() Scene {
	s := Scene{Width: 640, Height: 480, Table: t.table, Camera: t.camera, Ambient: t.ambient}
	s.Lights = append([]Light(nil), t.lights...)
	return s
}

// info is the WideInfo of the table's die of colour showing face.
func (t Table) info(colour string, face int) WideInfo {
	in := t.Info
	in.Colour, in.Face = colour, face
	return in
}

// Alone draws a frame of the die of the given colour lying alone with
// face up, turned at random, somewhere in the middle 70% of the picture:
// what the calibration asks for, one face of one die at a time.
func (t Table) Alone(r *rand.Rand, colour string, face int) (Scene, WideInfo) {
	s := t.scene()
	d, _ := t.Set.die(colour, face, uniform(r, 0, 360))
	hw := t.dist * math.Tan(t.fov*math.Pi/360) * 0.6
	for tries := 0; ; tries++ {
		d.Pos.X, d.Pos.Z = uniform(r, -hw, hw), uniform(r, -hw*0.7, hw*0.7)
		if s.inPicture(d.Pos, d.Size*1.3, 12) || tries > 200 {
			break
		}
	}
	s.Dice = []Die{d}
	s.sink()
	return s, t.info(colour, face)
}

// Throw draws a frame of a throw at the table: the blue and the red die
// on faces drawn at random, turned at random, in the middle 70% of the
// picture; a fifth of the throws end with the dice touching, a fifth
// with a die beside a tray wall, and cocked of them (0 to 1) with a die
// cocked against a wall beside it (labelled 0: no roll; WideCockedFrame).
func (t Table) Throw(r *rand.Rand, cocked float64) (Scene, []WideInfo) {
	s := t.scene()
	bf, rf := 1+r.IntN(8), 1+r.IntN(8)
	blue, _ := t.Set.die("blue", bf, uniform(r, 0, 360))
	red, _ := t.Set.die("red", rf, uniform(r, 0, 360))
	bi, ri := t.info("blue", bf), t.info("red", rf)
	touching, wall, cock := r.Float64() < 0.2, r.Float64() < 0.2, r.Float64() < cocked
	s.placePair(r, blue, red, t.dist, t.fov, touching)
	if wall && !cock {
		s.wallNear(r)
	}
	bi.Neighbor, ri.Neighbor = touching, touching
	bi.Wall, ri.Wall = wall && !cock, wall && !cock
	s.sink()
	infos := []WideInfo{bi, ri}
	if cock {
		return againstWall(r, s, infos, true)
	}
	return s, infos
}
