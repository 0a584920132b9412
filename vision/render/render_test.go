package render

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func TestFaces(t *testing.T) {
	seen := map[int]bool{}
	for i, s := range faceSigns {
		n := faceNumeral[i]
		seen[n] = true
		for j, o := range faceSigns {
			if o == s.Scale(-1) && faceNumeral[j]+n != 9 {
				t.Errorf("faces %d and %d are opposite, want a sum of 9", n, faceNumeral[j])
			}
		}
	}
	if len(seen) != 8 {
		t.Errorf("numerals %v, want 1 to 8 once each", faceNumeral)
	}
}

func TestFaceUp(t *testing.T) {
	for face := 1; face <= 8; face++ {
		for _, yaw := range []float64{0, 33, 90, 271} {
			m := FaceUp(face, yaw)
			if d := m.Det(); math.Abs(d-1) > 1e-9 {
				t.Errorf("FaceUp(%d, %v) has determinant %v, want 1", face, yaw, d)
			}
			got, cos := TopFace(m)
			if got != face || math.Abs(cos-1) > 1e-9 {
				t.Errorf("TopFace(FaceUp(%d, %v)) = %d, %v; want %d, 1", face, yaw, got, cos, face)
			}
			// The face opposite lies on the floor.
			if down := m.Apply(FaceNormal(9 - face)); math.Abs(down.Y+1) > 1e-9 {
				t.Errorf("FaceUp(%d, %v): face %d points %v, want straight down", face, yaw, 9-face, down)
			}
			d := Die{Rot: m}
			if f, flat := d.Face(); f != face || !flat {
				t.Errorf("Die.Face() = %d, %v; want %d, true", f, flat, face)
			}
		}
	}
	d := Die{Rot: axisAngle(Vec{1, 0, 0}, 20).Mul(FaceUp(3, 0))}
	if _, flat := d.Face(); flat {
		t.Errorf("a die tilted by 20 degrees lies flat")
	}
}

func TestProject(t *testing.T) {
	c := Camera{Loc: Vec{0, 200, 0}, LookAt: Vec{}, Sky: Vec{0, 0, 1}, FOV: 60}
	tests := []struct {
		p      Vec
		x, y   float64
		inView bool
	}{
		{Vec{}, 320, 240, true},
		// Half the field of view to the right, at the floor.
		{Vec{200 * math.Tan(math.Pi/6), 0, 0}, 640, 240, true},
		// Sky is +z: +z is up in the picture.
		{Vec{0, 0, 200 * math.Tan(math.Pi/6) * 240 / 320}, 320, 0, true},
		{Vec{0, 300, 0}, 0, 0, false},
	}
	for _, tt := range tests {
		x, y, ok := c.Project(tt.p, 640, 480)
		if ok != tt.inView || (ok && (math.Abs(x-tt.x) > 1e-6 || math.Abs(y-tt.y) > 1e-6)) {
			t.Errorf("Project(%v) = %.2f, %.2f, %v; want %.2f, %.2f, %v", tt.p, x, y, ok, tt.x, tt.y, tt.inView)
		}
	}
}

func TestRandom(t *testing.T) {
	var prev string
	for seed := uint64(0); seed < 200; seed++ {
		s := Random(rand.New(rand.NewPCG(seed, 0)), DefaultRandomOpts)
		var a, b bytes.Buffer
		s.WritePOV(&a)
		Random(rand.New(rand.NewPCG(seed, 0)), DefaultRandomOpts).WritePOV(&b)
		if a.String() != b.String() {
			t.Fatalf("seed %d: two scenes differ", seed)
		}
		if a.String() == prev {
			t.Fatalf("seed %d: same scene as seed %d", seed, seed-1)
		}
		prev = a.String()
		if len(s.Dice) != 2 || s.Dice[0].Name != "blue" || s.Dice[1].Name != "red" {
			t.Fatalf("seed %d: dice %v, want blue and red", seed, s.Dice)
		}
		for i, d := range s.Dice {
			if _, flat := d.Face(); !flat {
				t.Errorf("seed %d: %s die not lying flat", seed, d.Name)
			}
			if d.Pos.Y != restHeight(d.Size) {
				t.Errorf("seed %d: %s die at height %v, want %v", seed, d.Name, d.Pos.Y, restHeight(d.Size))
			}
			b := s.DieBox(i)
			if b.X0 < 0 || b.Y0 < 0 || b.X1 > s.Width || b.Y1 > s.Height {
				t.Errorf("seed %d: %s die box %v outside the picture", seed, d.Name, b)
			}
		}
		if dist := math.Hypot(s.Dice[0].Pos.X-s.Dice[1].Pos.X, s.Dice[0].Pos.Z-s.Dice[1].Pos.Z); dist < 1.75*s.Dice[0].Size {
			t.Errorf("seed %d: dice %v mm apart: they overlap", seed, dist)
		}
		if len(s.Hard) > 3 {
			t.Errorf("seed %d: %d hard cases, want at most 3", seed, len(s.Hard))
		}
	}
}

// TestThrow checks the realistic throws: the same seed gives the same
// scene; dice lie flat, wholly in the picture and apart, except in the
// hard rests, which are what they say and come at about their rate: two
// dice touching (both flat, read), a die cocked against a wall, partly
// out of the picture, or leaning on the other die (refused).
func TestThrow(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    ThrowOpts
		n    int
	}{
		{"default", DefaultThrowOpts, 2000},
		{"every rest", ThrowOpts{Width: 640, Height: 480, RejectRate: 0.5, Rests: []string{Touching, RejectCocked, RejectOutOfFrame, RejectLeaning}}, 200},
		{"leaning only", ThrowOpts{Width: 640, Height: 480, RejectRate: 1, Rests: []string{RejectLeaning}}, 40},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rests := map[string]int{}
			for i := uint64(0); i < uint64(tc.n); i++ {
				s := Throw(rand.New(rand.NewPCG(7, i)), tc.o)
				var a, b bytes.Buffer
				s.WritePOV(&a)
				Throw(rand.New(rand.NewPCG(7, i)), tc.o).WritePOV(&b)
				if a.String() != b.String() {
					t.Fatalf("scene %d: two scenes differ", i)
				}
				checkThrow(t, i, s, rests)
			}
			rs := tc.o.Rests
			if rs == nil {
				rs = DefaultRests
			}
			hard := 0
			for _, rest := range rs {
				hard += rests[rest]
				if rests[rest] == 0 {
					t.Errorf("no throw ends %s in %d", rest, tc.n)
				}
			}
			if rate := float64(hard) / float64(tc.n); math.Abs(rate-tc.o.RejectRate) > 0.006+2*math.Sqrt(tc.o.RejectRate*(1-tc.o.RejectRate)/float64(tc.n)) {
				t.Errorf("%.1f%% of the throws end in a hard rest (%v), want about %.1f%%", 100*rate, rests, 100*tc.o.RejectRate)
			}
		})
	}
}

// checkThrow checks the throw s (number i) is what its hard rest says,
// and counts that rest in rests.
func checkThrow(t *testing.T, i uint64, s Scene, rests map[string]int) {
	t.Helper()
	if len(s.Dice) != 2 || s.Dice[0].Name != "blue" || s.Dice[1].Name != "red" || s.Tray == nil {
		t.Fatalf("scene %d: dice %v, tray %v; want blue and red in a tray", i, s.Dice, s.Tray)
	}
	rest := ""
	for _, h := range []string{Touching, RejectCocked, RejectOutOfFrame, RejectLeaning} {
		if slices.Contains(s.Hard, h) {
			if rest != "" {
				t.Errorf("scene %d: hard rests %q and %q", i, rest, h)
			}
			rest = h
		}
	}
	rests[rest]++
	blue, red := s.Dice[0], s.Dice[1]
	refused := 0
	for k, d := range s.Dice {
		_, flat := d.Face()
		if flat == (d.Reject == RejectCocked || d.Reject == RejectLeaning) {
			t.Errorf("scene %d: %s die flat %v, refused as %q", i, d.Name, flat, d.Reject)
		}
		b := s.DieBox(k)
		in := b.X0 >= 0 && b.Y0 >= 0 && b.X1 <= s.Width && b.Y1 <= s.Height
		if in == (d.Reject == RejectOutOfFrame) {
			t.Errorf("scene %d: %s die box %v, refused as %q", i, d.Name, b, d.Reject)
		}
		if d.Reject != "" {
			refused++
			if d.Reject != rest {
				t.Errorf("scene %d: %s die refused as %q in a throw ending %q", i, d.Name, d.Reject, rest)
			}
		}
	}
	if rest != "" && rest != Touching && refused != 1 {
		t.Errorf("scene %d: %d dice refused in a throw ending %q, want 1", i, refused, rest)
	}
	dist := math.Hypot(blue.Pos.X-red.Pos.X, blue.Pos.Z-red.Pos.Z)
	contact := func(a, b Die) float64 { return contactDistance(a, b, math.Atan2(b.Pos.Z-a.Pos.Z, b.Pos.X-a.Pos.X)) }
	switch rest {
	case Touching:
		if math.Abs(dist-contact(blue, red)) > 0.01 {
			t.Errorf("scene %d: touching dice %.2f mm apart, not at contact", i, dist)
		}
	case RejectLeaning:
		// the leaning die rests on the floor and touches the other:
		// their solids are apart 0.2 mm further off, not 0.2 mm nearer
		base, odd := blue, red
		if blue.Reject != "" {
			base, odd = red, blue
		}
		low := math.Inf(1)
		for _, p := range body(odd) {
			low = math.Min(low, p.Y)
		}
		if math.Abs(low) > 1e-9 {
			t.Errorf("scene %d: leaning die's lowest point %.3f mm off the floor", i, low)
		}
		u := Vec{odd.Pos.X - base.Pos.X, 0, odd.Pos.Z - base.Pos.Z}.Unit()
		at := func(d float64) Die {
			o := odd
			o.Pos.X, o.Pos.Z = base.Pos.X+d*u.X, base.Pos.Z+d*u.Z
			return o
		}
		if far := at(dist + 0.2); separation(body(base), body(far), Vec{}) <= 0 {
			t.Errorf("scene %d: leaning die %.2f mm from the other: 0.2 mm further off, no gap found between them", i, dist)
		}
		if solidsApart(base, at(dist-0.2)) {
			t.Errorf("scene %d: leaning die %.2f mm from the other: apart 0.2 mm nearer", i, dist)
		}
	default:
		if dist < 2.2*blue.Size {
			t.Errorf("scene %d: dice %.1f mm apart, too close for dice not touching", i, dist)
		}
	}
}

// solidsApart says whether some direction separates the solids of a and
// b (their body points), tried over 4000 directions.
func solidsApart(a, b Die) bool {
	pa, pb := body(a), body(b)
	for _, n := range sphereDirections(4000) {
		if gapAlong(pa, pb, Vec{}, n) > 0 {
			return true
		}
	}
	return false
}

// TestContactDistance checks two dice at their contact distance touch:
// a little closer, their outlines overlap.
func TestContactDistance(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for k := 0; k < 50; k++ {
		a := NewDie(r, "blue", 1+r.IntN(8), uniform(r, 0, 360), 0, 0)
		b := NewDie(r, "red", 1+r.IntN(8), uniform(r, 0, 360), 0, 0)
		ang := uniform(r, 0, 2*math.Pi)
		d := contactDistance(a, b, ang)
		// the outlines' inradius and circumradius bound it
		lo, hi := (a.Size+b.Size)*math.Sqrt(0.5), (a.Size+b.Size)*math.Sqrt(2.0/3)+0.2
		if d < lo || d > hi {
			t.Errorf("die %d: contact distance %.2f mm, want in [%.2f, %.2f]", k, d, lo, hi)
		}
	}
}

// TestWritePOVGolden keeps the scene text of one seed; run with -update
// after a deliberate change of the generator.
func TestWritePOVGolden(t *testing.T) {
	var b bytes.Buffer
	s := Random(rand.New(rand.NewPCG(1, 0)), DefaultRandomOpts)
	s.Hand = &Hand{Pos: Vec{10, 50, 0}, Yaw: 30, Skin: Vec{0.7, 0.5, 0.4}}
	if err := s.WritePOV(&b); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "scene.pov")
	if *update {
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("WritePOV differs from %s (run go test -update after a deliberate change)", golden)
	}
}

func TestSequences(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		// Every seed gives every sequence (no script is stuck).
		if n := len(Sequences(seed, 640, 480)); n != 6 {
			t.Fatalf("seed %d: %d sequences, want 6", seed, n)
		}
	}
	seqs := Sequences(1, 320, 240)
	again := Sequences(1, 320, 240)
	for si, seq := range seqs {
		t.Run(seq.Name, func(t *testing.T) {
			if len(seq.Want) == 0 {
				t.Fatalf("no roll wanted")
			}
			cocked := map[int]bool{} // frames of unreadable rests
			for _, w := range seq.Want {
				f := seq.Frames[w.Frame]
				if f.State != Rest || (w.Frame > 0 && seq.Frames[w.Frame-1].State == Rest) {
					t.Errorf("wanted roll at frame %d: state %s after %s, want the first frame of a rest", w.Frame, f.State, seq.Frames[w.Frame-1].State)
				}
				blue, blueFlat := f.Scene.Dice[0].Face()
				red, redFlat := f.Scene.Dice[1].Face()
				if w.Unreadable {
					if blueFlat && redFlat {
						t.Errorf("wanted an unreadable rest at frame %d, both dice lie flat", w.Frame)
					}
					for i := w.Frame; i < len(seq.Frames) && seq.Frames[i].State == Rest; i++ {
						cocked[i] = true
					}
					continue
				}
				if blue != w.Blue || red != w.Red {
					t.Errorf("wanted roll %+v, frame shows blue=%d red=%d", w, blue, red)
				}
			}
			for i, f := range seq.Frames {
				var a, b bytes.Buffer
				f.Scene.WritePOV(&a)
				again[si].Frames[i].Scene.WritePOV(&b)
				if a.String() != b.String() {
					t.Fatalf("frame %d differs between two runs with the same seed", i)
				}
				if f.State == Rest && !cocked[i] {
					for _, d := range f.Scene.Dice {
						if _, flat := d.Face(); !flat {
							t.Errorf("frame %d: %s die at rest but not flat", i, d.Name)
						}
					}
				}
				if (f.State == Handed) != (f.Scene.Hand != nil) {
					t.Errorf("frame %d: state %s with hand %v", i, f.State, f.Scene.Hand)
				}
			}
		})
	}
}

// TestRenderPovray renders a small scene with povray, when it is
// installed, and checks the dice are where Project says: the projection
// used for the labels is POV-Ray's.
func TestRenderPovray(t *testing.T) {
	s := Random(rand.New(rand.NewPCG(7, 0)), DefaultRandomOpts)
	s.Width, s.Height = 160, 120
	s.Noise, s.Blur = 0, 0
	o := DefaultOpts
	o.Antialias = 0
	img, err := Render(context.Background(), s, 1, o)
	if errors.Is(err, ErrNoPovray) {
		t.Skip("povray not installed")
	}
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range s.Dice {
		b := s.DieBox(i)
		var sum [3]float64
		n := 0.0
		for y := b.Y0 + (b.Y1-b.Y0)/4; y < b.Y1-(b.Y1-b.Y0)/4; y++ {
			for x := b.X0 + (b.X1-b.X0)/4; x < b.X1-(b.X1-b.X0)/4; x++ {
				c := img.RGBAAt(x, y)
				sum[0] += float64(c.R)
				sum[1] += float64(c.G)
				sum[2] += float64(c.B)
				n++
			}
		}
		r, g, bl := sum[0]/n, sum[1]/n, sum[2]/n
		if (d.Name == "blue" && !(bl > r+20 && bl > g)) || (d.Name == "red" && !(r > bl+20 && r > g+20)) {
			t.Errorf("%s die: mean colour in its box %v is r=%.0f g=%.0f b=%.0f", d.Name, b, r, g, bl)
		}
	}
}
