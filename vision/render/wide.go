package render

import (
	_ "embed"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"

	"comptoir/strictyaml"
)

// The wide distribution: single-die crops and two-dice frames whose every
// parameter a real table varies is drawn from a seed (see Wide and
// WideFrame), split by numeral font and by surface (wide.yaml).

//go:embed wide.yaml
var wideYAML []byte

// Split names the fonts and surfaces of the train and the test split, and
// the validation fonts: in neither, drawn on the train surfaces, to choose
// between models without looking at the test split (dicewide -split
// validation; testdata/val-fonts).
type Split struct {
	TrainFonts, TestFonts       []string
	TrainSurfaces, TestSurfaces []string
	ValidationFonts             []string
}

// ErrSplit is wrapped by the errors of LoadSplit.
var ErrSplit = errors.New("render: bad split")

// DefaultSplit is the split of wide.yaml.
func DefaultSplit() (Split, error) { return LoadSplit("wide.yaml", wideYAML) }

// LoadSplit decodes a split file: fonts and surfaces, each with a train
// and a test list, no name in both, every surface known; fonts may have a
// validation list too, none of its names in train or test.
func LoadSplit(name string, data []byte) (Split, error) {
	f := strictyaml.File{Name: name, Sentinel: ErrSplit}
	root, err := f.Parse(data)
	if err != nil {
		return Split{}, err
	}
	top, err := f.Fields(root, "", []string{"fonts", "surfaces"}, nil)
	if err != nil {
		return Split{}, err
	}
	var s Split
	for _, part := range []struct {
		key          string
		train, test  *[]string
		validation   *[]string // nil: no validation list
		known        func(string) bool
		knownMessage string
	}{
		{"fonts", &s.TrainFonts, &s.TestFonts, &s.ValidationFonts, func(string) bool { return true }, ""},
		{"surfaces", &s.TrainSurfaces, &s.TestSurfaces, nil, func(n string) bool { _, ok := wideSurfaces[n]; return ok }, "see render.WideSurfaces"},
	} {
		var optional []string
		if part.validation != nil {
			optional = []string{"validation"}
		}
		sec, err := f.Fields(top[part.key], part.key, []string{"train", "test"}, optional)
		if err != nil {
			return Split{}, err
		}
		if v := sec["validation"]; v != nil {
			if *part.validation, err = f.Strings(v, part.key+".validation"); err != nil {
				return Split{}, err
			}
		}
		if *part.train, err = f.Strings(sec["train"], part.key+".train"); err != nil {
			return Split{}, err
		}
		if *part.test, err = f.Strings(sec["test"], part.key+".test"); err != nil {
			return Split{}, err
		}
		lists := map[string][]string{"train": *part.train, "test": *part.test}
		if part.validation != nil {
			lists["validation"] = *part.validation
		}
		for _, key := range []string{"train", "test", "validation"} {
			if n, ok := twice(lists[key]); ok {
				return Split{}, f.Errorf(sec[key], part.key+"."+key, "%q is listed twice; list each name once (a name listed twice is drawn twice as often)", n)
			}
		}
		seen := map[string]bool{}
		for _, n := range *part.train {
			seen[n] = true
		}
		for _, n := range *part.test {
			if seen[n] {
				return Split{}, f.Errorf(sec["test"], part.key+".test", "%q is in both splits; a test name must be one training never sees", n)
			}
		}
		if part.validation != nil {
			for _, n := range *part.test {
				seen[n] = true
			}
			for _, n := range *part.validation {
				if seen[n] {
					return Split{}, f.Errorf(sec["validation"], part.key+".validation", "%q is also in train or test; a validation name must be in neither", n)
				}
			}
		}
		for _, n := range append(append([]string{}, *part.train...), *part.test...) {
			if !part.known(n) {
				return Split{}, f.Errorf(sec["train"], part.key, "unknown surface %q (%s)", n, part.knownMessage)
			}
		}
		if len(*part.train) == 0 || len(*part.test) == 0 {
			return Split{}, f.Errorf(top[part.key], part.key, "needs names in both train and test")
		}
	}
	return s, nil
}

// twice returns the first name listed twice in names.
func twice(names []string) (string, bool) {
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		if seen[n] {
			return n, true
		}
		seen[n] = true
	}
	return "", false
}

// FontDirs are where the fonts of a split are looked up, in order.
var FontDirs = []string{
	"/usr/share/povray-3.7/include",
	"/usr/share/fonts/truetype/dejavu",
	"/usr/share/fonts/truetype/liberation",
	"/usr/share/fonts/truetype/freefont",
	"/usr/share/fonts/truetype/noto",
}

// FontPath finds a font file of the split in FontDirs.
func FontPath(name string) (string, error) {
	for _, d := range FontDirs {
		p := filepath.Join(d, name)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("render: font %s not found in %v (install fonts-dejavu-core fonts-dejavu-extra fonts-liberation fonts-freefont-ttf fonts-noto-core povray)", name, FontDirs)
}

// WideSurfaces lists the surfaces a split may name, sorted.
func WideSurfaces() []string {
	var out []string
	for n := range wideSurfaces {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// wideSurfaces draws a texture of each named surface.
var wideSurfaces = map[string]func(r *rand.Rand) Surface{
	"green felt":      felt("green", Vec{0.03, 0.2, 0.07}),
	"dark green felt": felt("dark green", Vec{0.02, 0.1, 0.04}),
	"grey felt":       felt("grey", Vec{0.18, 0.18, 0.18}),
	"black felt":      felt("black", Vec{0.025, 0.025, 0.025}),
	"beige felt":      felt("beige", Vec{0.5, 0.4, 0.27}),
	"white felt":      felt("white", Vec{0.7, 0.7, 0.68}),
	"purple felt":     felt("purple", Vec{0.12, 0.04, 0.16}),
	"tan felt":        felt("tan", Vec{0.35, 0.22, 0.12}),
	"light oak":       wood("light oak", Vec{0.7, 0.55, 0.35}),
	"walnut":          wood("walnut", Vec{0.3, 0.15, 0.07}),
	"pine":            wood("pine", Vec{0.75, 0.6, 0.38}),
	"cherry wood":     wood("cherry wood", Vec{0.5, 0.22, 0.1}),
	"checked cloth":   cloth("checked cloth", "checker"),
	"striped cloth":   cloth("striped cloth", "gradient x"),
	"linen":           cloth("linen", "linen"),
	"gingham cloth":   cloth("gingham cloth", "gingham"),
	"map mat":         mat("map mat", "bozo"),
	"hex mat":         mat("hex mat", "hexagon"),
	"black plastic":   plastic("black plastic", Vec{0.02, 0.02, 0.02}),
	"grey plastic":    plastic("grey plastic", Vec{0.3, 0.3, 0.31}),
}

func felt(name string, c Vec) func(r *rand.Rand) Surface {
	return func(r *rand.Rand) Surface {
		c := jitter(r, c, 0.15)
		return Surface{"felt", name + " felt", fmt.Sprintf(
			"pigment { granite color_map { [0 %s] [1 %s] } scale %.2f } normal { granite %.2f scale %.2f } finish { diffuse 0.8 specular 0 }",
			rgb(c), rgb(c.Scale(uniform(r, 0.75, 0.9))), uniform(r, 0.5, 2), uniform(r, 0.1, 0.4), uniform(r, 0.3, 1))}
	}
}

func wood(name string, c Vec) func(r *rand.Rand) Surface {
	return func(r *rand.Rand) Surface {
		light := jitter(r, c, 0.1)
		dark := light.Scale(uniform(r, 0.45, 0.7))
		return Surface{"wood", name, fmt.Sprintf(
			"pigment { wood turbulence %.2f color_map { [0 %s] [0.6 %s] [1 %s] } scale <%.1f,%.1f,%.1f> rotate <90,%.0f,0> } finish { diffuse 0.75 specular %.2f roughness 0.02 }",
			uniform(r, 0.05, 0.2), rgb(light), rgb(light.lerp(dark, 0.5)), rgb(dark),
			uniform(r, 3, 8), uniform(r, 3, 8), uniform(r, 30, 90), uniform(r, 0, 180), uniform(r, 0, 0.3))}
	}
}

var clothColours = []Vec{{0.7, 0.68, 0.6}, {0.4, 0.35, 0.2}, {0.03, 0.2, 0.07}, {0.18, 0.18, 0.18}, {0.5, 0.4, 0.27}, {0.05, 0.05, 0.05}}

func cloth(name, pattern string) func(r *rand.Rand) Surface {
	return func(r *rand.Rand) Surface {
		a := jitter(r, pick(r, clothColours...), 0.2)
		b := jitter(r, pick(r, clothColours...), 0.2)
		var pig string
		switch pattern {
		case "checker":
			pig = fmt.Sprintf("checker %s, %s scale %.1f rotate <0,%.0f,0>", rgb(a), rgb(b), uniform(r, 8, 25), uniform(r, 0, 90))
		case "linen":
			pig = fmt.Sprintf("gradient x color_map { [0 %s] [1 %s] } warp { turbulence 0.3 } scale %.2f", rgb(a), rgb(a.Scale(0.85)), uniform(r, 0.4, 1.2))
		case "gingham":
			pig = fmt.Sprintf("average pigment_map { [1 gradient x color_map { [0 %s] [0.5 %s] [0.5 %s] [1 %s] }] [1 gradient z color_map { [0 %s] [0.5 %s] [0.5 %s] [1 %s] }] } scale %.1f rotate <0,%.0f,0>",
				rgb(a), rgb(a), rgb(b), rgb(b), rgb(a), rgb(a), rgb(b), rgb(b), uniform(r, 6, 18), uniform(r, 0, 90))
		default:
			pig = fmt.Sprintf("%s color_map { [0 %s] [0.5 %s] [0.5 %s] [1 %s] } scale %.1f rotate <0,%.0f,0>", pattern, rgb(a), rgb(a), rgb(b), rgb(b), uniform(r, 6, 30), uniform(r, 0, 90))
		}
		return Surface{"cloth", name, fmt.Sprintf("pigment { %s } normal { bumps 0.2 scale 0.6 } finish { diffuse 0.8 }", pig)}
	}
}

// mat is a printed game mat: patches of several muted colours.
func mat(name, pattern string) func(r *rand.Rand) Surface {
	return func(r *rand.Rand) Surface {
		cs := make([]Vec, 4)
		for i := range cs {
			cs[i] = Vec{uniform(r, 0.1, 0.7), uniform(r, 0.1, 0.65), uniform(r, 0.05, 0.5)}
		}
		var pig string
		if pattern == "hexagon" {
			pig = fmt.Sprintf("hexagon %s, %s, %s scale %.1f rotate <0,%.0f,0>", rgb(cs[0]), rgb(cs[1]), rgb(cs[2]), uniform(r, 6, 20), uniform(r, 0, 60))
		} else {
			pig = fmt.Sprintf("bozo color_map { [0 %s] [0.33 %s] [0.66 %s] [1 %s] } scale %.1f", rgb(cs[0]), rgb(cs[1]), rgb(cs[2]), rgb(cs[3]), uniform(r, 10, 40))
		}
		return Surface{"mat", name, fmt.Sprintf("pigment { %s } finish { diffuse 0.8 specular 0.1 }", pig)}
	}
}

func plastic(name string, c Vec) func(r *rand.Rand) Surface {
	return func(r *rand.Rand) Surface {
		return Surface{"plastic", name, fmt.Sprintf("pigment { %s } finish { diffuse 0.7 specular 0.3 roughness 0.01 }", rgb(jitter(r, c, 0.2)))}
	}
}

// WideInk are the numeral inks of the wide distribution.
var WideInk = map[string]Vec{
	"white":  {0.92, 0.92, 0.9},
	"cream":  {0.95, 0.88, 0.7},
	"gold":   {0.8, 0.6, 0.2},
	"silver": {0.72, 0.72, 0.76},
	"black":  {0.03, 0.03, 0.03},
}

var wideInks = []string{"white", "cream", "gold", "silver", "black"}

// Wide die bodies: shades of blue and red.
var (
	wideBlue = []Vec{{0.02, 0.08, 0.45}, {0.03, 0.15, 0.6}, {0.01, 0.04, 0.25}, {0.06, 0.25, 0.7}, {0.1, 0.3, 0.75}, {0.02, 0.05, 0.3}}
	wideRed  = []Vec{{0.55, 0.02, 0.02}, {0.7, 0.05, 0.03}, {0.35, 0.01, 0.02}, {0.75, 0.12, 0.05}, {0.6, 0.03, 0.08}, {0.8, 0.1, 0.12}}
)

// WideInfo describes what was drawn for one die of the wide distribution,
// for the labels.
type WideInfo struct {
	Face     int
	Colour   string // blue or red
	Font     string
	Ink      string
	Body     string // opaque, pearl or translucent
	Numeral  string // engraved or printed
	Edges    string // rounded or sharp
	Surface  string
	Light    string // warm, cool or neutral, and dim, normal or harsh
	SizePx   float64
	Tilt     float64 // degrees between the camera's axis and the vertical
	Neighbor bool    // another die next to it
	Wall     bool    // a tray wall next to it
	Cocked   bool    // cocked against that wall (WideCockedFrame): no roll, Face 0
}

// wideDie draws a die of the wide distribution, lying on a random face.
func wideDie(r *rand.Rand, colour, font string) (Die, WideInfo) {
	body := pick(r, wideBlue...)
	if colour == "red" {
		body = pick(r, wideRed...)
	}
	ink := pick(r, wideInks...)
	if ink == "black" && r.IntN(2) == 0 {
		ink = "white" // black ink on a dark body is rare
	}
	d := Die{Name: colour, Body: jitter(r, body, 0.12), Ink: WideInk[ink], Font: filepath.Base(font), Size: uniform(r, 7, 11), TopOnly: true}
	info := WideInfo{Colour: colour, Font: filepath.Base(font), Ink: ink}
	d.Finish = pick(r, "opaque", "opaque", "pearl", "translucent")
	info.Body = d.Finish
	d.Engraved = r.IntN(2) == 0
	info.Numeral = map[bool]string{true: "engraved", false: "printed"}[d.Engraved]
	d.Round = uniform(r, 0.86, 0.94)
	info.Edges = "rounded"
	if r.IntN(3) == 0 {
		d.Round, info.Edges = 1.2, "sharp"
	}
	d.NumeralHeight = uniform(r, 0.42, 0.6)
	face := 1 + r.IntN(8)
	d.Rot = FaceUp(face, uniform(r, 0, 360))
	d.Pos = Vec{0, restHeight(d.Size), 0}
	info.Face = face
	return d, info
}

// wideLights draws the light of a wide scene: warm, cool or neutral;
// dim, normal or harsh (one small bright light: hard shadows, glare).
func wideLights(r *rand.Rand, at Vec) ([]Light, float64, string) {
	return lightsOf(r, at, "")
}

// lightsOf is wideLights with the level given (dim, normal or harsh), or
// drawn when level is "" (the same draws either way).
func lightsOf(r *rand.Rand, at Vec, level string) ([]Light, float64, string) {
	tints := map[string]Vec{"warm": {1, 0.82, 0.62}, "neutral": {1, 1, 1}, "cool": {0.82, 0.9, 1}}
	tint := pick(r, "warm", "neutral", "cool")
	drawn := pick(r, "dim", "normal", "normal", "harsh")
	if level == "" {
		level = drawn
	}
	power, size := uniform(r, 0.8, 1.2), uniform(r, 40, 200)
	switch level {
	case "dim":
		power = uniform(r, 0.3, 0.5)
	case "harsh":
		power, size = uniform(r, 1.2, 1.7), uniform(r, 2, 15)
	}
	if r.Float64() < 0.7 {
		size = 0 // a point light: sharp shadows, and four times faster to render
	}
	main := Light{Pos: at.Add(Vec{uniform(r, -500, 500), uniform(r, 300, 900), uniform(r, -500, 500)}), Color: tints[tint].Scale(power), Size: size}
	ls := []Light{main}
	if r.Float64() < 0.4 {
		ls = append(ls, Light{Pos: at.Add(Vec{uniform(r, -800, 800), uniform(r, 400, 900), uniform(r, -800, 800)}),
			Color: tints[pick(r, "warm", "cool")].Scale(power * uniform(r, 0.2, 0.5))})
	}
	return ls, uniform(r, 0.04, 0.22), tint + " " + level
}

// WideCropSize and WideCropDie are the size of a rendered crop and the
// size of its die across, in pixels; a crop is then resized to its drawn
// die size (WideInfo.SizePx).
const (
	WideCropSize = 128
	WideCropDie  = 56
)

// dieAcross is a die's width in a picture taken from straight above, as
// a multiple of its Size (centre to vertex): the width of the hexagon
// its silhouette makes.
const dieAcross = 1.63

// Wide draws one crop of the wide distribution: a die in the middle of a
// WideCropSize square picture, WideCropDie pixels across, seen by a
// camera tilted by up to 20 degrees, sometimes next to a die of the other
// colour (touching or not) or a tray wall. Its font and surface come from
// the given lists; SizePx, the size the crop is to be shrunk or enlarged
// to (25 to 160 pixels, drawn evenly on a log scale), is in the info.
func Wide(r *rand.Rand, fonts, surfaces []string) (Scene, WideInfo) {
	colour := pick(r, "blue", "red")
	d, info := wideDie(r, colour, pick(r, fonts...))
	info.SizePx = 25 * math.Pow(160.0/25, r.Float64())
	s := Scene{Width: WideCropSize, Height: WideCropSize}
	sname := pick(r, surfaces...)
	info.Surface = sname
	s.Table = wideSurfaces[sname](r)
	s.Dice = []Die{d}
	// the camera: distance and tilt; the view is a crop of a wider
	// camera's frame, so the die keeps its size in pixels
	info.Tilt = 20 * math.Sqrt(r.Float64())
	dist := uniform(r, 200, 700)
	dir := uniform(r, 0, 2*math.Pi)
	t := info.Tilt * math.Pi / 180
	top := Vec{0, 2 * restHeight(d.Size), 0}
	loc := top.Add(Vec{dist * math.Sin(t) * math.Cos(dir), dist * math.Cos(t), dist * math.Sin(t) * math.Sin(dir)})
	span := dieAcross * d.Size * WideCropSize / WideCropDie
	fov := 2 * math.Atan(span/2/dist) * 180 / math.Pi
	s.Camera = Camera{Loc: loc, LookAt: top, Sky: RotY(uniform(r, 0, 360)).Apply(Vec{0, 0, 1}), FOV: fov}
	s.Lights, s.Ambient, info.Light = wideLights(r, Vec{})
	if r.Float64() < 0.3 {
		other := "red"
		if colour == "red" {
			other = "blue"
		}
		n, _ := wideDie(r, other, d.Font)
		n.Size, n.Engraved, n.Finish, n.Ink, n.Round, n.NumeralHeight = d.Size, d.Engraved, d.Finish, d.Ink, d.Round, d.NumeralHeight
		a := uniform(r, 0, 2*math.Pi)
		dd := d.Size * uniform(r, 1.75, 2.6)
		n.Pos = Vec{dd * math.Cos(a), restHeight(n.Size), dd * math.Sin(a)}
		s.Dice = append(s.Dice, n)
		info.Neighbor = true
	}
	if r.Float64() < 0.2 {
		// a tray wall beside the die
		a := uniform(r, 0, 2*math.Pi)
		dd := d.Size * uniform(r, 1.0, 1.8)
		wall := wideSurfaces[pick(r, "walnut", "light oak", "black plastic")](r)
		s.Walls = append(s.Walls, WallBox{At: Vec{dd * math.Cos(a), 0, dd * math.Sin(a)}, Angle: a * 180 / math.Pi, Height: uniform(r, 12, 30), Texture: wall})
		info.Wall = true
	}
	s.sink()
	return s, info
}

// OddBlue and OddRed are dice bodies of other shades than the wide
// distribution's (wideBlue, wideRed), whose hues lie outside the dice
// reader's colour ranges or at their edge (blue 190-264 degrees, red
// 332-24): violets and teals for the blue die, oranges and pinks for the
// red one. A calibration must learn their colours (vision/net_colour.go).
var (
	OddBlue = []Vec{{0.4, 0.05, 0.55}, {0.3, 0.02, 0.45}, {0.25, 0.05, 0.6}, {0.03, 0.5, 0.45}, {0.02, 0.45, 0.5}, {0.05, 0.35, 0.35}}
	OddRed  = []Vec{{0.8, 0.4, 0.02}, {0.75, 0.35, 0.03}, {0.85, 0.3, 0.05}, {0.65, 0.05, 0.45}, {0.6, 0.04, 0.5}, {0.8, 0.1, 0.4}}
)

// WithOddShades is s with its dice's bodies drawn from OddBlue and OddRed
// instead.
func WithOddShades(r *rand.Rand, s DiceSet) DiceSet {
	s.Blue, s.Red = jitter(r, pick(r, OddBlue...), 0.12), jitter(r, pick(r, OddRed...), 0.12)
	return s
}

// DiceSet is what one box's dice share: font, ink, plastic, numeral style,
// edges, numeral height and size.
type DiceSet struct {
	Font, Ink     string
	Blue, Red     Vec
	Finish        string
	Engraved      bool
	Round         float64
	NumeralHeight float64
	Size          float64
}

// DrawSet draws a dice set of the wide distribution with the given font.
// (Wide and WideFrame draw their dice as before sets existed, so that
// their seeds keep giving the same pictures.)
func DrawSet(r *rand.Rand, font string) DiceSet {
	s := DiceSet{Font: filepath.Base(font), Blue: jitter(r, pick(r, wideBlue...), 0.12), Red: jitter(r, pick(r, wideRed...), 0.12)}
	s.Ink = pick(r, wideInks...)
	if s.Ink == "black" && r.IntN(2) == 0 {
		s.Ink = "white"
	}
	s.Size = uniform(r, 7, 11)
	s.Finish = pick(r, "opaque", "opaque", "pearl", "translucent")
	s.Engraved = r.IntN(2) == 0
	s.Round = uniform(r, 0.86, 0.94)
	if r.IntN(3) == 0 {
		s.Round = 1.2
	}
	s.NumeralHeight = uniform(r, 0.42, 0.6)
	return s
}

// die returns the set's die of the given colour lying with face up,
// turned by yaw degrees, at the origin.
func (s DiceSet) die(colour string, face int, yaw float64) (Die, WideInfo) {
	body := s.Blue
	if colour == "red" {
		body = s.Red
	}
	d := Die{Name: colour, Body: body, Ink: WideInk[s.Ink], Font: s.Font, Size: s.Size, TopOnly: true,
		Finish: s.Finish, Engraved: s.Engraved, Round: s.Round, NumeralHeight: s.NumeralHeight,
		Rot: FaceUp(face, yaw), Pos: Vec{0, restHeight(s.Size), 0}}
	info := WideInfo{Face: face, Colour: colour, Font: s.Font, Ink: s.Ink, Body: s.Finish, Edges: "rounded"}
	info.Numeral = map[bool]string{true: "engraved", false: "printed"}[s.Engraved]
	if s.Round >= 1 {
		info.Edges = "sharp"
	}
	return d, info
}

// WideOf draws a crop as Wide does, of a die of the given set, colour and
// face, at a die width drawn from minPx to maxPx (evenly on a log scale).
func WideOf(r *rand.Rand, set DiceSet, colour string, face int, surfaces []string, minPx, maxPx float64) (Scene, WideInfo) {
	d, info := set.die(colour, face, uniform(r, 0, 360))
	info.SizePx = minPx * math.Pow(maxPx/minPx, r.Float64())
	s := Scene{Width: WideCropSize, Height: WideCropSize}
	sname := pick(r, surfaces...)
	info.Surface = sname
	s.Table = wideSurfaces[sname](r)
	s.Dice = []Die{d}
	info.Tilt = 20 * math.Sqrt(r.Float64())
	dist := uniform(r, 200, 700)
	dir := uniform(r, 0, 2*math.Pi)
	t := info.Tilt * math.Pi / 180
	top := Vec{0, 2 * restHeight(d.Size), 0}
	loc := top.Add(Vec{dist * math.Sin(t) * math.Cos(dir), dist * math.Cos(t), dist * math.Sin(t) * math.Sin(dir)})
	span := dieAcross * d.Size * WideCropSize / WideCropDie
	fov := 2 * math.Atan(span/2/dist) * 180 / math.Pi
	s.Camera = Camera{Loc: loc, LookAt: top, Sky: RotY(uniform(r, 0, 360)).Apply(Vec{0, 0, 1}), FOV: fov}
	s.Lights, s.Ambient, info.Light = wideLights(r, Vec{})
	if r.Float64() < 0.3 {
		other := "red"
		if colour == "red" {
			other = "blue"
		}
		n, _ := set.die(other, 1+r.IntN(8), uniform(r, 0, 360))
		a := uniform(r, 0, 2*math.Pi)
		dd := d.Size * uniform(r, 1.75, 2.6)
		n.Pos = Vec{dd * math.Cos(a), restHeight(n.Size), dd * math.Sin(a)}
		s.Dice = append(s.Dice, n)
		info.Neighbor = true
	}
	if r.Float64() < 0.2 {
		a := uniform(r, 0, 2*math.Pi)
		dd := d.Size * uniform(r, 1.0, 1.8)
		wall := wideSurfaces[pick(r, "walnut", "light oak", "black plastic")](r)
		s.Walls = append(s.Walls, WallBox{At: Vec{dd * math.Cos(a), 0, dd * math.Sin(a)}, Angle: a * 180 / math.Pi, Height: uniform(r, 12, 30), Texture: wall})
		info.Wall = true
	}
	s.sink()
	return s, info
}

// WideFrame draws a 640x480 frame of the wide distribution: a blue and a
// red die of one set (font, ink, body, numeral style, edges) on a surface
// of the given lists, the camera 20 to 70 cm away with a field of view
// that makes them minPx to maxPx across, tilted by up to 20 degrees; a quarter of the frames have
// the dice touching, a fifth a die against a wall.
func WideFrame(r *rand.Rand, fonts, surfaces []string, minPx, maxPx float64) (Scene, []WideInfo) {
	s := Scene{Width: 640, Height: 480}
	font := pick(r, fonts...)
	blue, bi := wideDie(r, "blue", font)
	red, ri := wideDie(r, "red", font)
	red.Size, red.Engraved, red.Finish, red.Ink, red.Round, red.NumeralHeight = blue.Size, blue.Engraved, blue.Finish, blue.Ink, blue.Round, blue.NumeralHeight
	ri.Ink, ri.Body, ri.Numeral, ri.Edges = bi.Ink, bi.Body, bi.Numeral, bi.Edges
	red.Pos.Y = restHeight(red.Size)
	// the camera 20 to 70 cm above the table, its field of view (a wide
	// lens high up, a narrow one low down) making the dice px across
	px := minPx * math.Pow(maxPx/minPx, r.Float64())
	dist := uniform(r, 200, 700)
	f := px * dist / (dieAcross * blue.Size)
	fov := 2 * math.Atan(320/f) * 180 / math.Pi
	tilt := 20 * math.Sqrt(r.Float64())
	dir := uniform(r, 0, 2*math.Pi)
	t := tilt * math.Pi / 180
	sname := pick(r, surfaces...)
	s.Table = wideSurfaces[sname](r)
	s.Camera = Camera{Loc: Vec{dist * math.Sin(t) * math.Cos(dir), dist * math.Cos(t), dist * math.Sin(t) * math.Sin(dir)}, LookAt: Vec{},
		Sky: RotY(uniform(r, 0, 360)).Apply(Vec{0, 0, 1}), FOV: fov}
	s.Lights, s.Ambient, bi.Light = wideLights(r, Vec{})
	ri.Light = bi.Light
	touching, wall := r.Float64() < 0.25, r.Float64() < 0.2
	s.placePair(r, blue, red, dist, fov, touching)
	if wall {
		s.wallNear(r)
	}
	bi.SizePx, ri.SizePx = px, px
	bi.Tilt, ri.Tilt = tilt, tilt
	bi.Surface, ri.Surface = sname, sname
	bi.Neighbor, ri.Neighbor = touching, touching
	bi.Wall, ri.Wall = wall, wall
	s.sink()
	return s, []WideInfo{bi, ri}
}

// placePair puts blue and red in the middle 70% of the picture of a
// camera dist away with the field of view fov (degrees), apart or
// touching, and makes them the scene's dice.
func (s *Scene) placePair(r *rand.Rand, blue, red Die, dist, fov float64, touching bool) {
	for tries := 0; ; tries++ {
		hw := dist * math.Tan(fov*math.Pi/360) * 0.6
		blue.Pos.X, blue.Pos.Z = uniform(r, -hw, hw), uniform(r, -hw*0.7, hw*0.7)
		a := uniform(r, 0, 2*math.Pi)
		dd := blue.Size * uniform(r, 3, 8)
		if touching {
			dd = blue.Size * uniform(r, 1.75, 1.95)
		}
		red.Pos.X, red.Pos.Z = blue.Pos.X+dd*math.Cos(a), blue.Pos.Z+dd*math.Sin(a)
		s.Dice = []Die{blue, red}
		if (s.inPicture(blue.Pos, blue.Size*1.3, 12) && s.inPicture(red.Pos, red.Size*1.3, 12)) || tries > 200 {
			return
		}
	}
}

// wallNear stands a tray wall 1 to 1.3 die sizes from one of the
// scene's two dice, drawn at random.
func (s *Scene) wallNear(r *rand.Rand) {
	d := s.Dice[r.IntN(2)]
	a := uniform(r, 0, 2*math.Pi)
	dd := d.Size * uniform(r, 1.0, 1.3)
	s.Walls = append(s.Walls, WallBox{At: d.Pos.Add(Vec{dd * math.Cos(a), 0, dd * math.Sin(a)}).Sub(Vec{0, d.Pos.Y, 0}), Angle: a * 180 / math.Pi,
		Height: uniform(r, 12, 30), Texture: wideSurfaces[pick(r, "walnut", "light oak", "black plastic")](r)})
}

// sink lowers everything by 6 mm, onto the table (WritePOV's table plane
// lies 6 mm under a tray's floor; the wide scenes have no tray).
func (s *Scene) sink() {
	down := Vec{0, -6, 0}
	for i := range s.Dice {
		s.Dice[i].Pos = s.Dice[i].Pos.Add(down)
	}
	for i := range s.Walls {
		s.Walls[i].At = s.Walls[i].At.Add(down)
	}
	s.Camera.Loc, s.Camera.LookAt = s.Camera.Loc.Add(down), s.Camera.LookAt.Add(down)
	for i := range s.Lights {
		s.Lights[i].Pos = s.Lights[i].Pos.Add(down)
	}
}

// WallBox is a tray wall standing on the floor: its inner face passes
// through At, facing the direction Angle (degrees about the vertical,
// 0 along x) back towards the origin side.
type WallBox struct {
	At      Vec
	Angle   float64
	Height  float64
	Texture Surface
}

// WideCockedFrame draws a frame as WideFrame does (the same r gives the
// same frame), then cocks one of its dice against a tray wall beside it:
// the die is tilted 20 to 30 degrees towards the wall, rests on the table
// on an edge or a tip, and touches the wall's face (a wall 12 to 30 mm
// high, 300 mm long, on the die's side of which the other die lies). The
// cocked die shows no roll: its WideInfo.Face is 0 (labelled ?), and
// WideInfo.Cocked says which it is.
func WideCockedFrame(r *rand.Rand, fonts, surfaces []string, minPx, maxPx float64) (Scene, []WideInfo) {
	return wideAgainstWall(r, fonts, surfaces, minPx, maxPx, true)
}

// WideWalledFrame draws a frame as WideCockedFrame does, but the die
// beside the new wall stays flat, 0 to 3 mm from the wall's face, and
// shows its roll: what a die at a tray's wall looks like when it can be
// read (the pose network learns the difference from the wall's mere
// presence).
func WideWalledFrame(r *rand.Rand, fonts, surfaces []string, minPx, maxPx float64) (Scene, []WideInfo) {
	return wideAgainstWall(r, fonts, surfaces, minPx, maxPx, false)
}

// wideAgainstWall puts a die of WideFrame's frame against a new wall,
// cocked or flat.
func wideAgainstWall(r *rand.Rand, fonts, surfaces []string, minPx, maxPx float64, cock bool) (Scene, []WideInfo) {
	s, infos := WideFrame(r, fonts, surfaces, minPx, maxPx)
	return againstWall(r, s, infos, cock)
}

// againstWall puts one of s's two dice against a new wall, cocked or
// flat (see WideCockedFrame).
func againstWall(r *rand.Rand, s Scene, infos []WideInfo, cock bool) (Scene, []WideInfo) {
	for tries := 0; tries < 100; tries++ {
		k := r.IntN(2)
		d, other := s.Dice[k], s.Dice[1-k]
		floor := d.Pos.Y - restHeight(d.Size)
		a := uniform(r, 0, 2*math.Pi)
		u := Vec{math.Cos(a), 0, math.Sin(a)} // towards the wall
		deg := uniform(r, 20, 30)
		gap := 0.0
		if cock {
			tiltOnto(&d, u, deg, floor)
		} else {
			gap = uniform(r, 0, 3)
		}
		reach := math.Inf(-1)
		for _, p := range body(Die{Rot: d.Rot, Size: d.Size, Round: d.Round}) {
			reach = math.Max(reach, p.Dot(u))
		}
		at := d.Pos.Add(u.Scale(reach + gap))
		at.Y = floor
		// the other die wholly on this side of the wall
		far := math.Inf(-1)
		for _, p := range body(other) {
			far = math.Max(far, p.Sub(at).Dot(u))
		}
		if far > -2 {
			continue
		}
		s.Dice[k] = d
		s.Walls = append(s.Walls, WallBox{At: at, Angle: a * 180 / math.Pi, Height: uniform(r, 12, 30),
			Texture: wideSurfaces[pick(r, "walnut", "light oak", "black plastic")](r)})
		infos[k].Wall = true
		if cock {
			infos[k].Face, infos[k].Cocked = 0, true
		}
		return s, infos
	}
	return s, infos // no wall fits beside either die
}
