package vision

import (
	"image"
	"testing"
)

// chromaCrop makes, of a die's crop, the crop of its hue contrast: the
// same box, silhouette and frame size (which the reader's parallax and
// tilt test need), and a grey where a gold numeral stands out of a blue
// face even though white swirls are brighter than the gold.
func TestChromaCrop(t *testing.T) {
	const fw, fh = 64, 48
	im := bgrImage{w: fw, h: fh, pix: make([]byte, 3*fw*fh)}
	set := func(x, y int, b, g, r byte) { i := 3 * (y*fw + x); im.pix[i], im.pix[i+1], im.pix[i+2] = b, g, r }
	box := image.Rect(40, 20, 60, 40)
	c := dieCrop{box: box, w: box.Dx(), h: box.Dy(), fw: fw, fh: fh, in: make([]byte, box.Dx()*box.Dy())}
	for y := box.Min.Y; y < box.Max.Y; y++ {
		for x := box.Min.X; x < box.Max.X; x++ {
			set(x, y, 160, 60, 30) // blue face
			c.in[(y-box.Min.Y)*c.w+x-box.Min.X] = 1
		}
	}
	set(45, 25, 40, 170, 210)  // gold numeral
	set(50, 30, 240, 240, 240) // white swirl
	out, ok := chromaCrop(im, &c)
	if !ok {
		t.Fatal("chromaCrop: a blue die's body found too grey")
	}
	if out.box != c.box || out.w != c.w || out.h != c.h || out.fw != fw || out.fh != fh || &out.in[0] != &c.in[0] {
		t.Errorf("chromaCrop: box %v %dx%d in a %dx%d frame; want the crop's %v %dx%d in %dx%d, its silhouette", out.box, out.w, out.h, out.fw, out.fh, c.box, c.w, c.h, fw, fh)
	}
	gold, swirl, face := out.gray[5*c.w+5], out.gray[10*c.w+10], out.gray[0]
	if !(gold > swirl && gold > face) {
		t.Errorf("hue contrast: gold %.0f, white swirl %.0f, blue face %.0f; want gold the highest", gold, swirl, face)
	}
}
