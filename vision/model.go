package vision

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
)

// ErrBadModel is returned for a template file that does not decode or does
// not fit this reader (wrong grid size, faces out of 1-8).
var ErrBadModel = errors.New("bad numeral model")

// Template is one learned or calibrated appearance of a numeral: the
// numeral's pixels normalised for position and scale (see glyph), in any
// rotation, 0 to 255.
type Template struct {
	Face int    `json:"face"`
	N    int    `json:"n"`              // samples averaged into it
	From string `json:"from,omitempty"` // where it was learned
	Pix  []byte `json:"pix"`            // Grid*Grid bytes, row by row
	// Members are the samples averaged into the template, each turned to
	// the template's own rotation; a numeral is read by its nearest
	// member once turned the same way.
	Members [][]byte `json:"members,omitempty"`
}

// Model is a set of numeral templates, the data of the built-in reader or
// of a calibration.
type Model struct {
	Grid      int        `json:"grid"`
	Span      float64    `json:"span"`
	Rotations int        `json:"rotations"`
	Templates []Template `json:"templates"`
	// Sizes is, for each face, the range of the numeral's length over the
	// die's radius; a numeral outside it is not trusted.
	Sizes map[int][2]float64 `json:"sizes,omitempty"`
}

// DecodeModel decodes and checks a JSON model.
func DecodeModel(data []byte) (Model, error) {
	var m Model
	if err := json.Unmarshal(data, &m); err != nil {
		return Model{}, fmt.Errorf("%w: %v", ErrBadModel, err)
	}
	if err := m.check(); err != nil {
		return Model{}, err
	}
	return m, nil
}

func (m Model) check() error {
	if m.Grid != numeralGrid || m.Span != glyphSpan {
		return fmt.Errorf("%w: grid %d span %g, this reader uses grid %d span %g: learn or calibrate again", ErrBadModel, m.Grid, m.Span, numeralGrid, glyphSpan)
	}
	if m.Rotations < 4 || m.Rotations > 360 {
		return fmt.Errorf("%w: %d rotations, want 4 to 360", ErrBadModel, m.Rotations)
	}
	for f, rg := range m.Sizes {
		if f < 1 || f > 8 || !(rg[0] >= 0 && rg[0] <= rg[1]) {
			return fmt.Errorf("%w: size range %v for face %d", ErrBadModel, rg, f)
		}
	}
	if len(m.Templates) == 0 {
		return fmt.Errorf("%w: no templates", ErrBadModel)
	}
	for i, t := range m.Templates {
		if t.Face < 1 || t.Face > 8 {
			return fmt.Errorf("%w: template %d is for face %d, want 1 to 8", ErrBadModel, i, t.Face)
		}
		if len(t.Pix) != numeralGrid*numeralGrid {
			return fmt.Errorf("%w: template %d has %d pixels, want %d", ErrBadModel, i, len(t.Pix), numeralGrid*numeralGrid)
		}
		for j, m := range t.Members {
			if len(m) != numeralGrid*numeralGrid {
				return fmt.Errorf("%w: template %d member %d has %d pixels, want %d", ErrBadModel, i, j, len(m), numeralGrid*numeralGrid)
			}
		}
	}
	return nil
}

// Faces returns the faces the model has templates for, sorted.
func (m Model) Faces() []int {
	seen := map[int]bool{}
	var fs []int
	for _, t := range m.Templates {
		if !seen[t.Face] {
			seen[t.Face] = true
			fs = append(fs, t.Face)
		}
	}
	sort.Ints(fs)
	return fs
}

// matcher holds the templates of a model rotated and normalised for fast
// matching.
type matcher struct {
	rot   int
	faces []int
	// vecs[t][k] is template t rotated by k steps, zero mean, unit norm
	vecs [][]glyph
	face []int // face of template t
	// members[t] are the members of template t, normalised, in its frame
	members [][]glyph
	// hogs[t] are the HOG features of the members of template t
	hogs [][]hogVec
}

// fineMembers is how many of a template's members nearest in pixels are
// compared by the mean of their pixel and HOG correlations.
const fineMembers = 6

func bytesGlyph(p []byte) glyph {
	var g glyph
	for i, v := range p {
		g[i] = float32(v) / 255
	}
	return g
}

func newMatcher(m Model) *matcher {
	mt := &matcher{rot: m.Rotations, faces: m.Faces()}
	for _, t := range m.Templates {
		g := bytesGlyph(t.Pix)
		rs := make([]glyph, m.Rotations)
		for k := range rs {
			rs[k] = normalise(rotateGlyph(&g, 2*math.Pi*float64(k)/float64(m.Rotations)))
		}
		mt.vecs = append(mt.vecs, rs)
		mt.face = append(mt.face, t.Face)
		var ms []glyph
		var hs []hogVec
		for _, p := range t.Members {
			g := bytesGlyph(p)
			ms = append(ms, normalise(g))
			hs = append(hs, hogOf(&g))
		}
		mt.members = append(mt.members, ms)
		mt.hogs = append(mt.hogs, hs)
	}
	return mt
}

// rotateGlyph rotates g by angle about the grid centre, bilinearly.
func rotateGlyph(g *glyph, angle float64) glyph {
	var out glyph
	cs, sn := math.Cos(angle), math.Sin(angle)
	c := float64(numeralGrid) / 2
	for y := 0; y < numeralGrid; y++ {
		for x := 0; x < numeralGrid; x++ {
			u, v := float64(x)+0.5-c, float64(y)+0.5-c
			sx := c + u*cs - v*sn - 0.5
			sy := c + u*sn + v*cs - 0.5
			x0, y0 := floor(sx), floor(sy)
			fx, fy := sx-float64(x0), sy-float64(y0)
			if x0 >= 0 && y0 >= 0 && x0+1 < numeralGrid && y0+1 < numeralGrid {
				// inside: no bounds to check (the same sums as below)
				i := y0*numeralGrid + x0
				out[y*numeralGrid+x] = float32(float64(g[i])*(1-fx)*(1-fy) + float64(g[i+1])*fx*(1-fy) + float64(g[i+numeralGrid])*(1-fx)*fy + float64(g[i+numeralGrid+1])*fx*fy)
				continue
			}
			get := func(x, y int) float64 {
				if x < 0 || y < 0 || x >= numeralGrid || y >= numeralGrid {
					return 0
				}
				return float64(g[y*numeralGrid+x])
			}
			out[y*numeralGrid+x] = float32(get(x0, y0)*(1-fx)*(1-fy) + get(x0+1, y0)*fx*(1-fy) + get(x0, y0+1)*(1-fx)*fy + get(x0+1, y0+1)*fx*fy)
		}
	}
	return out
}

// normalise returns g with zero mean and unit norm.
func normalise(g glyph) glyph {
	var s float32
	for _, v := range g {
		s += v
	}
	mean := s / float32(len(g))
	var n float32
	for i := range g {
		g[i] -= mean
		n += g[i] * g[i]
	}
	if n > 0 {
		inv := float32(1 / math.Sqrt(float64(n)))
		for i := range g {
			g[i] *= inv
		}
	}
	return g
}

func dot(a, b *glyph) float32 {
	var s0, s1, s2, s3 float32
	for i := 0; i < len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	return s0 + s1 + s2 + s3
}

// match is the outcome of matching a glyph against a model.
type match struct {
	face     int     // best face
	score    float64 // its correlation, -1 to 1
	second   int     // best other face
	score2   float64 // its correlation
	template int     // index of the best template
	rotation int     // rotation step of the best template
}

// best returns the best face for the glyph g and the best other face.
// Each template is tried at every rotation; the glyph is then turned to the
// template's best rotation (and half a step either side) and compared with
// the template's members: a face's score is its nearest member's
// correlation (the template's own when it has no members).
func (mt *matcher) best(g *glyph) match { return mt.bestOf(g, -1, -1, 0) }

// bestSkip is best without member i of template t (leave-one-out).
func (mt *matcher) bestSkip(g *glyph, skipT, skipI int) match {
	return mt.bestOf(g, skipT, skipI, 0)
}

// faceMatch is how well g matches face alone: the score best would give
// it, its templates' rivals left out, with the template and rotation that
// gave it.
func (mt *matcher) faceMatch(g *glyph, face int) match {
	return mt.bestOf(g, -1, -1, face)
}

// bestOf is bestSkip among the templates of face only (any face when 0).
func (mt *matcher) bestOf(g *glyph, skipT, skipI, face int) match {
	q := normalise(*g)
	var perFace [9]float64
	for i := range perFace {
		perFace[i] = -2
	}
	m := match{score: -2, score2: -2}
	// coarse: each template's best rotation
	type coarse struct {
		k int
		s float64
	}
	cs := make([]coarse, len(mt.vecs))
	top := -2.0
	for t, rs := range mt.vecs {
		if face != 0 && mt.face[t] != face {
			cs[t] = coarse{0, -2}
			continue
		}
		bk, bs := 0, -2.0
		for k := range rs {
			if s := float64(dot(&q, &rs[k])); s > bs {
				bk, bs = k, s
			}
		}
		cs[t] = coarse{bk, bs}
		top = max(top, bs)
	}
	// only the fineMax best templates are compared member by member
	cut := top - coarsePrune
	if len(cs) > fineMax {
		ss := make([]float64, len(cs))
		for i, c := range cs {
			ss[i] = c.s
		}
		sort.Float64s(ss)
		cut = max(cut, ss[len(ss)-fineMax])
	}
	// fine: the members of the templates that came close, the glyph
	// turned to each template's rotation (one HOG per rotation)
	tr := mt.turner(g)
	var near []scored
	fine := func(t int) float64 {
		if len(mt.members[t]) == 0 {
			return cs[t].s
		}
		var bs float64
		bs, near = mt.membersScore(t, cs[t].k, tr, skipT, skipI, near)
		return bs
	}
	// pruned: the templates not compared member by member
	pruned := func(t int) bool { return len(mt.members[t]) > 0 && cs[t].s < cut }
	for t := range mt.vecs {
		if pruned(t) || face != 0 && mt.face[t] != face {
			continue
		}
		f, bs := mt.face[t], fine(t)
		if bs > perFace[f] {
			perFace[f] = bs
		}
		if bs > m.score {
			m.score, m.face, m.template, m.rotation = bs, f, t, cs[t].k
		}
	}
	// the best other face is always compared member by member, even when
	// its template fell far behind: the margin over it is the confidence
	other := -1
	for t := range mt.vecs {
		if face == 0 && mt.face[t] != m.face && (other < 0 || cs[t].s > cs[other].s) {
			other = t
		}
	}
	if other >= 0 && pruned(other) {
		if bs := fine(other); bs > perFace[mt.face[other]] {
			perFace[mt.face[other]] = bs
		}
	}
	for f, s := range perFace {
		if f != m.face && s > m.score2 {
			m.second, m.score2 = f, s
		}
	}
	return m
}

// turned is a glyph turned, normalised, with its HOG.
type turned struct {
	g glyph
	h hogVec
}

// turner turns a glyph back by half steps of a rotation step, each turn
// made once.
type turner struct {
	g     *glyph
	step  float64
	cache map[int]*turned
}

// turner is a turner of g by the matcher's rotation steps.
func (mt *matcher) turner(g *glyph) *turner {
	return &turner{g: g, step: 2 * math.Pi / float64(mt.rot), cache: map[int]*turned{}}
}

// turn is the glyph turned back by half half-steps.
func (tr *turner) turn(half int) *turned {
	if tu, ok := tr.cache[half]; ok {
		return tu
	}
	raw := rotateGlyph(tr.g, -float64(half)/2*tr.step)
	tu := &turned{g: normalise(raw), h: hogOf(&raw)}
	tr.cache[half] = tu
	return tu
}

// scored is a template's member and its pixel correlation.
type scored struct {
	i int
	s float32
}

// membersScore is the score of template t for a glyph turned (by tr) to
// its rotation step k and half a step either side: its nearest
// member's mean of the pixel and HOG correlations, member skipI of
// template skipT left out. near is scratch space, returned for reuse.
func (mt *matcher) membersScore(t, k int, tr *turner, skipT, skipI int, near []scored) (float64, []scored) {
	bs := -2.0
	for _, d := range fineTurns {
		tu := tr.turn(2*k + d)
		// the members nearest in pixels, then their mean of the pixel and
		// HOG correlations
		near = nearest(near[:0], mt.members[t], &tu.g, t == skipT, skipI)
		for _, n := range near {
			s := (float64(n.s) + float64(hogDot(&tu.h, &mt.hogs[t][n.i]))) / 2
			if s > bs {
				bs = s
			}
		}
	}
	return bs, near
}

// nearest puts in near (empty, its array reused) the fineMembers
// members most correlated in pixels with g, most correlated first,
// member skipI left out when skip: kept sorted as the members are
// scored, the rest never sorted. Members of equal correlation are
// interchangeable (equal pixels, equal HOG).
func nearest(near []scored, members []glyph, g *glyph, skip bool, skipI int) []scored {
	for i := range members {
		if skip && i == skipI {
			continue
		}
		s := dot(g, &members[i])
		if len(near) == fineMembers && s <= near[len(near)-1].s {
			continue
		}
		if len(near) < fineMembers {
			near = append(near, scored{})
		}
		k := len(near) - 1
		for k > 0 && near[k-1].s < s {
			near[k] = near[k-1]
			k--
		}
		near[k] = scored{i, s}
	}
	return near
}

// scoreAt is how well g matches template t at its rotation step k: what
// best would score it, the rotation not searched again (see membersScore;
// the template's own correlation at k when it has no members).
func (mt *matcher) scoreAt(g *glyph, t, k int) float64 {
	if len(mt.members[t]) == 0 {
		q := normalise(*g)
		return float64(dot(&q, &mt.vecs[t][k]))
	}
	s, _ := mt.membersScore(t, k, mt.turner(g), -1, -1, nil)
	return s
}

// coarsePrune: templates whose best rotation correlates this much less
// than the best template's are not compared member by member.
const coarsePrune = 0.12

// fineMax is the most templates compared member by member.
var fineMax = 12

// fineTurns are the half rotation steps about a template's best rotation at
// which the glyph is compared with its members.
var fineTurns = []int{-1, 0, 1}
