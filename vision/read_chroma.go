package vision

import (
	"math"
	"slices"
)

// minBodyChroma is how colourful (in 8-bit levels of chroma) a die's body
// must be for its numerals to be looked for by hue as well as brightness.
const minBodyChroma = 25

// chromaCrop returns a copy of c whose grey is the contrast of each pixel's
// hue with the die's body: the pixel's chroma projected on the direction
// opposite to the body's median chroma. A numeral that differs from the
// face by its hue rather than its brightness (gold on a blue die swirled
// with white, where the white swirls are brighter than the gold) stands
// out there: the white swirls have no chroma, the blue face a negative
// one, the gold a strongly positive one. ok is false when the body is too
// grey for a hue to tell (black, white, pearl dice).
func chromaCrop(im bgrImage, c *dieCrop) (out dieCrop, ok bool) {
	var bs, gs, rs []int
	for y := 0; y < c.h; y++ {
		for x := 0; x < c.w; x++ {
			if c.in[y*c.w+x] == 0 {
				continue
			}
			i := 3 * ((c.box.Min.Y+y)*im.w + c.box.Min.X + x)
			bs, gs, rs = append(bs, int(im.pix[i])), append(gs, int(im.pix[i+1])), append(rs, int(im.pix[i+2]))
		}
	}
	if len(bs) == 0 {
		return out, false
	}
	med := func(v []int) float64 { slices.Sort(v); return float64(v[len(v)/2]) }
	mb, mg, mr := med(bs), med(gs), med(rs)
	m := (mb + mg + mr) / 3
	db, dg, dr := mb-m, mg-m, mr-m
	n := math.Sqrt(db*db + dg*dg + dr*dr)
	if n < minBodyChroma {
		return out, false
	}
	db, dg, dr = -db/n, -dg/n, -dr/n
	out = dieCrop{box: c.box, w: c.w, h: c.h, fw: c.fw, fh: c.fh, in: c.in, gray: make([]float32, c.w*c.h)}
	for y := 0; y < c.h; y++ {
		for x := 0; x < c.w; x++ {
			i := 3 * ((c.box.Min.Y+y)*im.w + c.box.Min.X + x)
			b, g, r := float64(im.pix[i]), float64(im.pix[i+1]), float64(im.pix[i+2])
			k := (b + g + r) / 3
			// scaled so that gold on blue has about the contrast of a
			// white numeral on a coloured die in the grey
			out.gray[y*c.w+x] = float32(chromaGain * ((b-k)*db + (g-k)*dg + (r-k)*dr))
		}
	}
	return out, true
}

// chromaGain scales the hue contrast to about the brightness contrast of
// a white numeral on a coloured die.
const chromaGain = 1.5
