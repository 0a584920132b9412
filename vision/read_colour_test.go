package vision

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"
)

// colourMasksEveryPixel is colourMasks as first written, the hue,
// saturation and brightness of every pixel that stands out from the
// background worked out: the oracle of TestColourMasksSameAsEveryPixel.
func colourMasksEveryPixel(im, bg bgrImage, ratio int, blue, red HSVRange, minDiff int) ([]byte, []byte) {
	bm, rm := make([]byte, im.w*im.h), make([]byte, im.w*im.h)
	for y := 0; y < im.h; y++ {
		by := min(bg.h-1, y/ratio)
		for x := 0; x < im.w; x++ {
			i := y*im.w + x
			b, g, r := int(im.pix[3*i]), int(im.pix[3*i+1]), int(im.pix[3*i+2])
			bx := min(bg.w-1, x/ratio)
			j := 3 * (by*bg.w + bx)
			if iabs(b-int(bg.pix[j]))+iabs(g-int(bg.pix[j+1]))+iabs(r-int(bg.pix[j+2])) < minDiff {
				continue
			}
			h, s, v := hsvDivided(b, g, r)
			if blue.Contains(h, s, v) {
				bm[i] = 1
			} else if red.Contains(h, s, v) {
				rm[i] = 1
			}
		}
	}
	return bm, rm
}

// TestColourMasksSameAsEveryPixel: colourMasks, which skips a pixel's
// saturation and hue when its brightness or saturation is out of both
// ranges, marks the same pixels as working out every pixel's colour: for
// the readers' ranges, ranges reaching black and grey (VMin and SMin 0),
// a hue range wrapping round red, both ranges the same, and backgrounds
// of any size against the picture's.
func TestColourMasksSameAsEveryPixel(t *testing.T) {
	o := DefaultReaderOpts
	cases := []struct {
		name      string
		blue, red HSVRange
		minDiff   int
	}{
		{"the readers' ranges", o.Blue, o.Red, o.MinBackgroundDiff},
		{"pale retry", HSVRange{95, 130, 24, 255, 25, 255}, HSVRange{168, 10, 32, 255, 30, 255}, o.MinBackgroundDiff},
		{"black and grey allowed", HSVRange{0, 179, 0, 255, 0, 255}, HSVRange{0, 179, 0, 40, 0, 90}, 0},
		{"narrow, wrapping", HSVRange{170, 5, 100, 200, 60, 200}, HSVRange{20, 40, 10, 255, 0, 40}, 10},
		{"one range twice", o.Red, o.Red, 5},
	}
	rng := rand.New(rand.NewPCG(7, 11))
	picture := func(w, h int) bgrImage {
		im := bgrImage{w: w, h: h, pix: make([]byte, 3*w*h)}
		// brightness drawn evenly, then each channel under it
		for i := 0; i < w*h; i++ {
			v := rng.IntN(256)
			for c := range 3 {
				im.pix[3*i+c] = byte(rng.IntN(v + 1))
			}
		}
		// a third of the pixels grey, black or white, where hue and
		// saturation are 0 or undefined
		for i := 0; i < w*h; i += 3 {
			v := []byte{0, 255, byte(rng.IntN(256))}[rng.IntN(3)]
			im.pix[3*i], im.pix[3*i+1], im.pix[3*i+2] = v, v, v
		}
		return im
	}
	for _, c := range cases {
		// the last size's background reaches beyond the picture (8 x 5
		// pixels wide against 30)
		for _, size := range [][5]int{{64, 48, 8, 6, 8}, {37, 23, 3, 2, 12}, {40, 40, 1, 1, 40}, {30, 20, 8, 6, 5}} {
			im, bg := picture(size[0], size[1]), picture(size[2], size[3])
			ratio := size[4]
			wb, wr := colourMasksEveryPixel(im, bg, ratio, c.blue, c.red, c.minDiff)
			gb, gr := colourMasks(im, bg, ratio, c.blue, c.red, c.minDiff, nil, nil)
			marked := 0
			for i := range wb {
				marked += int(wb[i] + wr[i])
				if gb[i] != wb[i] || gr[i] != wr[i] {
					t.Errorf("%s, %dx%d: pixel %d marked blue %d red %d, want %d %d", c.name, im.w, im.h, i, gb[i], gr[i], wb[i], wr[i])
				}
			}
			if marked == 0 {
				t.Errorf("%s, %dx%d: no pixel in either range: the case tests nothing", c.name, im.w, im.h)
			}
		}
	}
}

// BenchmarkColourMasks marks the learned reader's colours on the held-out
// frames shrunk as its locator shrinks them (320x240, the background at
// 40x30): the locator's largest cost outside OpenCV.
func BenchmarkColourMasks(b *testing.B) {
	names, err := filepath.Glob("testdata/wide-frames/*.jpg")
	if err != nil || len(names) == 0 {
		b.Fatalf("no frames in testdata/wide-frames: %v", err)
	}
	type shrunk struct{ sm, bg bgrImage }
	var frames []shrunk
	for _, n := range names {
		m := gocv.IMRead(n, gocv.IMReadColor)
		sm, bg, err := shrinkWide(&shrunkFrame{}, m, 2, 8, 1, nil)
		m.Close()
		if err != nil {
			b.Fatal(err)
		}
		frames = append(frames, shrunk{sm, bg})
	}
	o := DefaultNetOpts
	var bm, rm []byte
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f := frames[i%len(frames)]
		bm, rm = colourMasks(f.sm, f.bg, 8, o.Blue, o.Red, o.MinBackgroundDiff, bm, rm)
	}
}
