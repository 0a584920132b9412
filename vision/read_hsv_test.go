package vision

import "testing"

// hsvDivided is hsv as first written, its saturation and hue divided out:
// the oracle of TestHSVSameAsDivided.
func hsvDivided(b, g, r int) (h, s, v int) {
	v = max(r, g, b)
	if v == 0 {
		return 0, 0, 0
	}
	d := v - min(r, g, b)
	s = (255*d + v/2) / v
	if d == 0 {
		return 0, s, v
	}
	var num, base int
	switch v {
	case r:
		num, base = g-b, 0
	case g:
		num, base = b-r, 60
	default:
		num, base = r-g, 120
	}
	h = base + (60*num+d*sign(num))/(2*d)
	if h < 0 {
		h += 180
	}
	return h % 180, s, v
}

// TestHSVSameAsDivided: hsv, which looks its divisions up, gives every
// 8-bit colour the hue, saturation and brightness the divisions give.
func TestHSVSameAsDivided(t *testing.T) {
	for _, c := range []struct {
		name string
		b0   int
	}{{"blue 0-127", 0}, {"blue 128-255", 128}} {
		t.Run(c.name, func(t *testing.T) {
			bad := 0
			for b := c.b0; b < c.b0+128; b++ {
				for g := 0; g < 256; g++ {
					for r := 0; r < 256; r++ {
						h, s, v := hsv(b, g, r)
						wh, ws, wv := hsvDivided(b, g, r)
						if (h != wh || s != ws || v != wv) && bad < 10 {
							bad++
							t.Errorf("hsv(%d, %d, %d) = %d, %d, %d, want %d, %d, %d", b, g, r, h, s, v, wh, ws, wv)
						}
					}
				}
			}
		})
	}
}
