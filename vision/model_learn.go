package vision

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"sort"

	"gocv.io/x/gocv"
)

// Sample is one labelled numeral glyph, the input of LearnModel.
type Sample struct {
	Face int
	From string
	g    glyph
	size float64 // numeral length over die radius; 0 unknown
}

// LearnOpts controls LearnModel.
type LearnOpts struct {
	// Rotations is the number of rotations each template is tried at.
	Rotations int
	// Merge is the correlation above which a sample is averaged into an
	// existing template of its face (aligned to it) rather than starting
	// a new one.
	Merge float64
	// PerFace caps the templates kept per face (those with most samples).
	PerFace int
	// Members keeps the samples of each template in the model, for
	// nearest-neighbour reading.
	Members bool
	// Edit drops the samples the others read as another face, and learns
	// again without them.
	Edit bool
	// SizeSlack widens the range of numeral sizes learned for each face.
	SizeSlack float64
}

func glyphByte(v float64) byte {
	return byte(math.Round(255 * math.Min(1, math.Max(0, v))))
}

// DefaultLearnOpts are the options of the built-in model.
var DefaultLearnOpts = LearnOpts{Rotations: 36, Merge: 0.8, PerFace: 8, Members: true, Edit: true, SizeSlack: 0.1}

// LearnModel groups samples into templates: each sample is aligned (best
// rotation) to the templates of its face and averaged into the best one if
// it correlates above o.Merge, or starts a new template. With o.Edit, the
// samples that the others read as another face (a numeral cut badly, a
// wrong object) are then dropped and the rest learned again.
func LearnModel(samples []Sample, o LearnOpts) Model {
	m, index := learnModel(samples, o)
	if !o.Edit || !o.Members {
		return m
	}
	mt := newMatcher(m)
	var kept []Sample
	for si, s := range samples {
		ti, mi := index[si][0], index[si][1]
		if ti < 0 {
			continue // in a template over the cap
		}
		g := bytesGlyph(m.Templates[ti].Members[mi])
		if mt.bestSkip(&g, ti, mi).face == s.Face {
			kept = append(kept, s)
		}
	}
	m, _ = learnModel(kept, o)
	m.Sizes = sizeRanges(kept, o.SizeSlack)
	return m
}

// sizeRanges is, for each face with at least 20 samples of known size, the
// 2nd to 98th percentile of their sizes widened by slack; with fewer
// samples, their range widened by 2*slack.
func sizeRanges(samples []Sample, slack float64) map[int][2]float64 {
	by := map[int][]float64{}
	for _, s := range samples {
		if s.size > 0 {
			by[s.Face] = append(by[s.Face], s.size)
		}
	}
	out := map[int][2]float64{}
	for f, v := range by {
		sort.Float64s(v)
		lo, hi := v[0], v[len(v)-1]
		sl := 2 * slack
		if len(v) >= 20 {
			lo, hi = v[len(v)*2/100], v[len(v)*98/100]
			sl = slack
		}
		out[f] = [2]float64{lo * (1 - sl), hi * (1 + sl)}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// learnModel is LearnModel without the editing; it also returns, for each
// sample, its template and member index in the model (-1 when dropped).
func learnModel(samples []Sample, o LearnOpts) (Model, [][2]int) {
	type acc struct {
		face int
		from string
		sum  [numeralGrid * numeralGrid]float64
		n    int
		// members, aligned to the template
		members []glyph
		// samples[i] is the index of member i's sample
		samples []int
		// rotated normalised versions of the current mean
		rots []glyph
	}
	var accs []*acc
	refresh := func(a *acc) {
		var g glyph
		for i, v := range a.sum {
			g[i] = float32(v / float64(a.n))
		}
		a.rots = a.rots[:0]
		for k := 0; k < o.Rotations; k++ {
			a.rots = append(a.rots, normalise(rotateGlyph(&g, 2*math.Pi*float64(k)/float64(o.Rotations))))
		}
	}
	for si, s := range samples {
		q := normalise(s.g)
		var best *acc
		bestK, bestS := 0, -2.0
		for _, a := range accs {
			if a.face != s.Face {
				continue
			}
			for k := range a.rots {
				if v := float64(dot(&q, &a.rots[k])); v > bestS {
					best, bestK, bestS = a, k, v
				}
			}
		}
		if best == nil || bestS < o.Merge {
			a := &acc{face: s.Face, from: s.From}
			for i, v := range s.g {
				a.sum[i] = float64(v)
			}
			a.n = 1
			a.members = append(a.members, s.g)
			a.samples = append(a.samples, si)
			refresh(a)
			accs = append(accs, a)
			continue
		}
		// the template rotated by k matches the sample: rotate the
		// sample back by k to align it with the template
		al := rotateGlyph(&s.g, -2*math.Pi*float64(bestK)/float64(o.Rotations))
		for i, v := range al {
			best.sum[i] += float64(v)
		}
		best.n++
		best.members = append(best.members, al)
		best.samples = append(best.samples, si)
		if best.from != s.From {
			best.from = "mixed"
		}
		refresh(best)
	}
	sort.SliceStable(accs, func(i, j int) bool {
		if accs[i].face != accs[j].face {
			return accs[i].face < accs[j].face
		}
		return accs[i].n > accs[j].n
	})
	m := Model{Grid: numeralGrid, Span: glyphSpan, Rotations: o.Rotations}
	index := make([][2]int, len(samples))
	for i := range index {
		index[i] = [2]int{-1, -1}
	}
	count := map[int]int{}
	for _, a := range accs {
		if count[a.face] >= o.PerFace {
			continue
		}
		count[a.face]++
		for i, si := range a.samples {
			index[si] = [2]int{len(m.Templates), i}
		}
		t := Template{Face: a.face, N: a.n, From: a.from, Pix: make([]byte, len(a.sum))}
		for i, v := range a.sum {
			t.Pix[i] = glyphByte(v / float64(a.n))
		}
		if o.Members {
			for _, g := range a.members {
				p := make([]byte, len(g))
				for i, v := range g {
					p[i] = glyphByte(float64(v))
				}
				t.Members = append(t.Members, p)
			}
		}
		m.Templates = append(m.Templates, t)
	}
	return m, index
}

// HersheySamples draws the numerals 1 to 8 in OpenCV's Hershey fonts, at
// a few stroke weights, as samples that need no photograph.
func HersheySamples() []Sample {
	fonts := []struct {
		f    gocv.HersheyFont
		name string
	}{
		{gocv.FontHersheySimplex, "simplex"},
		{gocv.FontHersheyDuplex, "duplex"},
		{gocv.FontHersheyComplex, "complex"},
		{gocv.FontHersheyTriplex, "triplex"},
	}
	var out []Sample
	for _, f := range fonts {
		for _, th := range []int{4, 7, 10} {
			for face := 1; face <= 8; face++ {
				out = append(out, Sample{Face: face, From: "hershey-" + f.name, g: drawnGlyph(fmt.Sprint(face), f.f, th)})
			}
		}
	}
	return out
}

func drawnGlyph(text string, font gocv.HersheyFont, thickness int) glyph {
	const size = 160
	m := gocv.NewMatWithSize(size, size, gocv.MatTypeCV8UC1)
	defer m.Close()
	sz := gocv.GetTextSize(text, font, 3, thickness)
	org := image.Pt((size-sz.X)/2, (size+sz.Y)/2)
	gocv.PutText(&m, text, org, font, 3, color.RGBA{255, 255, 255, 255}, thickness)
	data := m.ToBytes()
	mask := make([]byte, len(data))
	for i, v := range data {
		if v > 127 {
			mask[i] = 1
		}
	}
	return glyphOfMask(mask, size, size)
}

// glyphOfMask is the glyph of all the set pixels of mask.
func glyphOfMask(mask []byte, w, h int) glyph {
	var n, sx, sy float64
	for i, v := range mask {
		if v != 0 {
			n++
			sx += float64(i % w)
			sy += float64(i / w)
		}
	}
	if n == 0 {
		return glyph{}
	}
	cx, cy := sx/n+0.5, sy/n+0.5
	var rr float64
	for i, v := range mask {
		if v != 0 {
			dx, dy := float64(i%w)+0.5-cx, float64(i/w)+0.5-cy
			rr += dx*dx + dy*dy
		}
	}
	return glyphOf(mask, w, h, cx, cy, math.Sqrt(rr/n))
}

// LabelledImage is an image file with the faces of its dice: Faces maps
// "blue", "red" or "die" (a single die) to the face up.
type LabelledImage struct {
	Path  string
	Faces map[string]int
}

// SamplesFrom reads each image with r (Read, or ReadSingle for images
// labelled "die") and returns the numeral glyphs found, labelled. Images
// whose dice are not found give no sample, nor do dice r refuses as
// touching the other (the numeral found may be the other's).
func SamplesFrom(r *Reader, images []LabelledImage, from string) ([]Sample, error) {
	var out []Sample
	got := map[string]Sample{}
	r.onGlyph = func(die string, g glyph, size float64) { got[die] = Sample{g: g, size: size} }
	defer func() { r.onGlyph = nil }()
	for _, li := range images {
		clear(got)
		m, err := readPicture(li.Path)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrBadFrame, err)
		}
		if _, single := li.Faces["die"]; single {
			r.ReadSingle(m)
		} else {
			roll := r.Read(m)
			for die, d := range map[string]Die{"blue": roll.Blue, "red": roll.Red} {
				if d.Why.Code == WhyTouching {
					delete(got, die)
				}
			}
		}
		m.Close()
		dice := make([]string, 0, len(li.Faces))
		for die := range li.Faces {
			dice = append(dice, die)
		}
		sort.Strings(dice)
		for _, die := range dice {
			face := li.Faces[die]
			if s, ok := got[die]; ok && face >= 1 && face <= 8 {
				out = append(out, Sample{Face: face, From: from, g: s.g, size: s.size})
			}
		}
	}
	return out, nil
}
