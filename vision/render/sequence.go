package render

import (
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// Sequence is a recorded throw, or several: frames of a fixed camera over
// the tray with their truth, and the rolls a settler must report.
type Sequence struct {
	Name   string
	Frames []Frame
	// Want are the rolls to report, in order.
	Want []WantRoll
}

// State is what happens in the tray in one frame.
type State string

// The states of a frame.
const (
	Empty  State = "empty"  // no dice in the tray
	Moving State = "moving" // a die is moving
	Rest   State = "rest"   // the dice lie still
	Handed State = "hand"   // a hand is over the tray
)

// Frame is one frame of a sequence.
type Frame struct {
	Scene Scene
	State State
}

// WantRoll is a roll a settler must report: the frame where the dice came
// to rest and what they show.
type WantRoll struct {
	Frame      int // first frame of the rest
	Blue, Red  int
	Correction bool
	// Unreadable is true when the rest cannot be read for sure (a die
	// cocked against a wall): the settler must say so, once.
	Unreadable bool
}

// Sequences returns the recorded sequences of the settling tests, drawn
// from seed, with w x h frames:
//
//   - roll: an empty tray, two dice thrown in, tumbling, rocking, at rest;
//   - hand: a roll, then a hand passing over the tray and hovering still
//     over a die before leaving (no new roll);
//   - knock-change: a roll, then the red die knocked onto another face
//     (a correction);
//   - knock-same: a roll, then the blue die nudged, staying on its face
//     (no new roll);
//   - two-throws: a roll, a hand picking the dice up, an empty tray, and a
//     second throw that happens to give the same numbers (a new roll, not a
//     correction);
//   - cocked: a throw where the red die comes to rest cocked against a
//     tray wall (unreadable), then falls flat (a roll).
func Sequences(seed uint64, w, h int) []Sequence {
	var out []Sequence
	for i, name := range []string{"roll", "hand", "knock-change", "knock-same", "two-throws", "cocked"} {
		r := rand.New(rand.NewPCG(seed, uint64(1000+i)))
		b := newSeqBuilder(r, name, w, h)
		switch name {
		case "roll":
			b.empty(4)
			b.throw(9)
			b.rest(16)
		case "hand":
			b.empty(3)
			b.throw(8)
			b.rest(10)
			b.hand(14, false)
			b.rest(10)
		case "knock-change":
			b.empty(3)
			b.throw(8)
			b.rest(10)
			b.knock(1, true)
			b.rest(10)
		case "knock-same":
			b.empty(3)
			b.throw(8)
			b.rest(10)
			b.knock(0, false)
			b.rest(10)
		case "two-throws":
			b.empty(3)
			b.throw(8)
			b.rest(10)
			b.hand(12, true)
			b.empty(5)
			b.throwSame(8)
			b.rest(10)
		case "cocked":
			b.empty(3)
			b.throwCocked(8)
			b.rest(10)
			b.fallFlat(1)
			b.rest(10)
		}
		out = append(out, b.seq)
	}
	return out
}

// seqBuilder appends frames to a sequence.
type seqBuilder struct {
	r    *rand.Rand
	seq  Sequence
	base Scene // camera, surfaces and lights, dice at their current rest
	dice []Die // dice now in the tray (nil when empty)
	// reported are the faces last reported, to tell a correction.
	reported []int
	pending  *WantRoll // roll to report at the next rest
}

func newSeqBuilder(r *rand.Rand, name string, w, h int) *seqBuilder {
	o := DefaultRandomOpts
	o.Width, o.Height, o.HardRate = w, h, 0
	base := Random(r, o)
	for base.Tray == nil { // sequences are filmed over a tray
		base = Random(r, o)
	}
	base.Noise = 2 // sensor noise, different in every frame
	base.Blur = 0
	base.Hard = nil
	return &seqBuilder{r: r, seq: Sequence{Name: name}, base: base}
}

func (b *seqBuilder) add(dice []Die, hand *Hand, st State) {
	s := b.base
	s.Dice = append([]Die(nil), dice...)
	s.Hand = hand
	b.seq.Frames = append(b.seq.Frames, Frame{Scene: s, State: st})
}

func (b *seqBuilder) empty(n int) {
	b.dice = nil
	for i := 0; i < n; i++ {
		b.add(nil, nil, Empty)
	}
}

// rest adds n frames of the dice lying still, and the pending roll starts at
// the first of them.
func (b *seqBuilder) rest(n int) {
	if b.pending != nil {
		b.pending.Frame = len(b.seq.Frames)
		b.seq.Want = append(b.seq.Want, *b.pending)
		b.pending = nil
	}
	for i := 0; i < n; i++ {
		b.add(b.dice, nil, Rest)
	}
}

// newRest places the dice at new random rest positions in the picture.
func (b *seqBuilder) newRest(faces []int) []Die {
	for {
		o := b.base
		var dice []Die
		ok := true
		for i, name := range []string{"blue", "red"} {
			face := 1 + b.r.IntN(8)
			if faces != nil {
				face = faces[i]
			}
			t := b.base.Tray
			x := uniform(b.r, t.Min.X+15, t.Max.X-15)
			z := uniform(b.r, t.Min.Z+15, t.Max.Z-15)
			d := NewDie(b.r, name, face, uniform(b.r, 0, 360), x, z)
			if i == 1 {
				d.Size, d.Font, d.Ink = dice[0].Size, dice[0].Font, dice[0].Ink
				d.Pos.Y = restHeight(d.Size)
				if math.Hypot(d.Pos.X-dice[0].Pos.X, d.Pos.Z-dice[0].Pos.Z) < 3*d.Size {
					ok = false
				}
			}
			if !o.inPicture(d.Pos, d.Size, 40) {
				ok = false
			}
			dice = append(dice, d)
		}
		if ok {
			return dice
		}
	}
}

// throw adds n frames of both dice flying in from outside the picture,
// bouncing and tumbling, then two frames of them rocking, and sets up the
// roll to report.
func (b *seqBuilder) throw(n int) { b.throwFaces(n, nil) }

// throwSame throws again and lands on the faces of the last roll.
func (b *seqBuilder) throwSame(n int) { b.throwFaces(n, b.reported) }

func (b *seqBuilder) throwFaces(n int, faces []int) {
	b.throwTo(n, b.newRest(faces))
	b.setPending(false)
}

// throwCocked throws the dice so that the red one ends cocked against a
// tray wall, leaning 25 degrees towards it, and sets up an unreadable
// rest. When no wall is in the picture, the die leans against nothing.
func (b *seqBuilder) throwCocked(n int) {
	t := b.base.Tray
	for try := 0; ; try++ {
		final := b.newRest(nil)
		red := &final[1]
		// Towards one of the walls: +x, -x, +z or -z.
		wall := []Vec{{1, 0, 0}, {-1, 0, 0}, {0, 0, 1}, {0, 0, -1}}[b.r.IntN(4)]
		if try < 2000 {
			switch {
			case wall.X > 0:
				red.Pos.X = t.Max.X - red.Size*1.05
			case wall.X < 0:
				red.Pos.X = t.Min.X + red.Size*1.05
			case wall.Z > 0:
				red.Pos.Z = t.Max.Z - red.Size*1.05
			default:
				red.Pos.Z = t.Min.Z + red.Size*1.05
			}
		}
		red.Pos.Y += red.Size * 0.3
		// Turning about the axis up x wall takes the top towards the wall.
		red.Rot = axisAngle(Vec{0, 1, 0}.Cross(wall), 25).Mul(red.Rot)
		blue := final[0]
		if b.base.inPicture(red.Pos, red.Size, 30) && math.Hypot(blue.Pos.X-red.Pos.X, blue.Pos.Z-red.Pos.Z) > 3*red.Size {
			b.throwTo(n, final)
			b.pending = &WantRoll{Unreadable: true}
			return
		}
	}
}

// fallFlat adds frames of die i, cocked, falling flat onto the face that
// was most nearly up, away from the wall, and sets up the roll it gives:
// a new roll, since the cocked one was never read.
func (b *seqBuilder) fallFlat(i int) {
	d := b.dice[i]
	face, _ := d.Face()
	end := d
	end.Pos.Y = restHeight(d.Size)
	// The top face's normal leans away from the vertical; turning it back
	// about (normal x up) lays the die flat.
	var normal Vec
	for j, sgn := range faceSigns {
		if faceNumeral[j] == face {
			normal = d.Rot.Apply(sgn.Unit())
		}
	}
	axis := normal.Cross(Vec{0, 1, 0})
	tilt := math.Acos(min(normal.Y, 1)) * 180 / math.Pi
	away := Vec{normal.X, 0, normal.Z}.Unit().Scale(-d.Size * 0.5)
	end.Pos = end.Pos.Add(away)
	for k := 1; k <= 3; k++ {
		t := float64(k) / 4
		m := d
		m.Pos = d.Pos.lerp(end.Pos, t)
		m.Rot = axisAngle(axis, tilt*t).Mul(d.Rot)
		dice := append([]Die(nil), b.dice...)
		dice[i] = m
		b.add(dice, nil, Moving)
	}
	end.Rot = axisAngle(axis, tilt).Mul(d.Rot)
	if f, flat := end.Face(); !flat || f != face {
		panic(fmt.Sprintf("render: die falling flat shows %d (flat %v), want %d", f, flat, face))
	}
	b.dice = append([]Die(nil), b.dice...)
	b.dice[i] = end
	b.setPending(false)
}

// throwTo adds n frames of both dice flying in from outside the picture,
// bouncing and tumbling, then two frames of them rocking, to land as final.
func (b *seqBuilder) throwTo(n int, final []Die) {
	from := b.r.Float64() * 2 * math.Pi
	type path struct {
		start Vec
		axis  Vec
		spin  float64
	}
	paths := make([]path, len(final))
	for i, d := range final {
		dir := from + uniform(b.r, -0.3, 0.3)
		paths[i] = path{
			start: Vec{d.Pos.X + 260*math.Cos(dir), 70, d.Pos.Z + 260*math.Sin(dir)},
			axis:  Vec{uniform(b.r, -1, 1), uniform(b.r, -1, 1), uniform(b.r, -1, 1)},
			spin:  uniform(b.r, 35, 70),
		}
	}
	for k := 0; k < n; k++ {
		t := float64(k+1) / float64(n+1)
		var dice []Die
		for i, d := range final {
			p := paths[i]
			pos := p.start.lerp(d.Pos, 1-(1-t)*(1-t))
			pos.Y = d.Pos.Y + (p.start.Y-d.Pos.Y)*(1-t)*math.Abs(math.Cos(3*math.Pi*t)) + d.Size*0.3
			d.Pos = pos
			d.Rot = axisAngle(p.axis, p.spin*float64(n+2-k)).Mul(d.Rot)
			dice = append(dice, d)
		}
		b.add(dice, nil, Moving)
	}
	// Rocking on an edge before lying flat.
	for _, tilt := range []float64{9, 4} {
		var dice []Die
		for _, d := range final {
			axis := RotY(uniform(b.r, 0, 360)).Apply(Vec{1, 0, 0})
			d.Rot = axisAngle(axis, tilt).Mul(d.Rot)
			d.Pos.Y += d.Size * math.Sin(tilt*math.Pi/180) * 0.8
			d.Pos.X += uniform(b.r, -1, 1)
			dice = append(dice, d)
		}
		b.add(dice, nil, Moving)
	}
	b.dice = final
}

// setPending records the roll the dice now show, as a new roll or a
// correction of the last one.
func (b *seqBuilder) setPending(correction bool) {
	blue, _ := b.dice[0].Face()
	red, _ := b.dice[1].Face()
	b.pending = &WantRoll{Blue: blue, Red: red, Correction: correction}
	b.reported = []int{blue, red}
}

// knock adds frames of die i being knocked: it slides and turns, and, when
// change is true, rolls over onto another face.
func (b *seqBuilder) knock(i int, change bool) {
	d := b.dice[i]
	face, _ := d.Face()
	dir := uniform(b.r, 0, 2*math.Pi)
	dist := uniform(b.r, 12, 20)
	end := d
	end.Pos.X += dist * math.Cos(dir)
	end.Pos.Z += dist * math.Sin(dir)
	yaw := uniform(b.r, 20, 50)
	if change {
		nf := face
		for nf == face || nf == 9-face {
			nf = 1 + b.r.IntN(8)
		}
		end.Rot = FaceUp(nf, uniform(b.r, 0, 360))
	} else {
		end.Rot = RotY(yaw).Mul(d.Rot)
	}
	axis := Vec{math.Sin(dir), 0, -math.Cos(dir)}
	steps := 4
	for k := 1; k <= steps; k++ {
		t := float64(k) / float64(steps+1)
		m := d
		m.Pos = d.Pos.lerp(end.Pos, t)
		if change {
			m.Rot = axisAngle(axis, 110*t).Mul(d.Rot)
			m.Pos.Y += d.Size * 0.35 * math.Sin(math.Pi*t)
		} else {
			m.Rot = RotY(yaw * t).Mul(d.Rot)
		}
		dice := append([]Die(nil), b.dice...)
		dice[i] = m
		b.add(dice, nil, Moving)
	}
	b.dice = append([]Die(nil), b.dice...)
	b.dice[i] = end
	if change {
		b.setPending(true)
	}
}

// hand adds n frames of a hand coming in over the tray, hovering still over
// the blue die for a few frames, and leaving. When pick is true, the dice
// are gone when it leaves.
func (b *seqBuilder) hand(n int, pickUp bool) {
	target := b.dice[0].Pos
	if pickUp {
		target = b.dice[0].Pos.lerp(b.dice[1].Pos, 0.5)
	}
	from := uniform(b.r, 0, 360)
	dir := RotY(from).Apply(Vec{1, 0, 0})
	outside := target.Sub(dir.Scale(330))
	skin := jitter(b.r, pick(b.r, Vec{0.75, 0.5, 0.38}, Vec{0.55, 0.35, 0.22}, Vec{0.35, 0.2, 0.12}), 0.08)
	height := uniform(b.r, 35, 60)
	in, hover := n*2/5, n/5
	out := n - in - hover
	for k := 0; k < n; k++ {
		var t float64
		switch {
		case k < in:
			t = float64(k+1) / float64(in)
		case k < in+hover:
			t = 1
		default:
			t = 1 - float64(k-in-hover+1)/float64(out)
		}
		pos := outside.lerp(target, t)
		pos.Y = height
		h := &Hand{Pos: pos, Yaw: -from, Skin: skin}
		if pickUp && k >= in+hover/2 {
			b.dice = nil
		}
		b.add(b.dice, h, Handed)
	}
	if pickUp {
		b.dice = nil
	}
}

// WriteFiles writes frames.csv (the truth of every frame: state, faces
// and boxes) and expected.csv (the rolls to report) into dir.
func (s Sequence) WriteFiles(dir string) error {
	frames := [][]string{{"frame", "file", "state", "blue", "red", "blue_box", "red_box"}}
	for i, f := range s.Frames {
		row := []string{strconv.Itoa(i), fmt.Sprintf("%03d.jpg", i), string(f.State), "0", "0", "", ""}
		for j, d := range f.Scene.Dice {
			face, flat := d.Face()
			if !flat {
				face = 0
			}
			b := f.Scene.DieBox(j)
			row[3+j] = strconv.Itoa(face)
			row[5+j] = fmt.Sprintf("%d %d %d %d", b.X0, b.Y0, b.X1, b.Y1)
		}
		frames = append(frames, row)
	}
	want := [][]string{{"frame", "blue", "red", "correction", "unreadable"}}
	for _, w := range s.Want {
		want = append(want, []string{strconv.Itoa(w.Frame), strconv.Itoa(w.Blue), strconv.Itoa(w.Red), strconv.FormatBool(w.Correction), strconv.FormatBool(w.Unreadable)})
	}
	for name, rows := range map[string][][]string{"frames.csv": frames, "expected.csv": want} {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		w := csv.NewWriter(f)
		if err := w.WriteAll(rows); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	return nil
}
