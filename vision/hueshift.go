package vision

import (
	"fmt"
	"strconv"
	"strings"

	"gocv.io/x/gocv"
)

// HueShift turns the colour of the dice of a picture round the hue
// circle, to try the reader on dice of shades the pictures do not have
// (a violet "blue", an orange "red"): each pixel whose colour lies in the
// reader's blue range (DefaultNetOpts.Blue, down to shiftSat of
// saturation) has its hue moved by Blue hue units (2 degrees each), and
// each in the red range by Red. Brightness and saturation are kept, and
// so is every other pixel: the numerals, the tray, the table (unless
// they are of the dice's colours: a blue felt turns too).
type HueShift struct{ Blue, Red int }

// shiftSat is the saturation from which a pixel of a die's hue turns:
// lower than the reader's ranges, so that a die's pale shades turn with
// it.
const shiftSat = 25

// ParseHueShift reads "blue=N,red=M" (either may be left out; N and M in
// hue units of 2 degrees, -90 to 90).
func ParseHueShift(s string) (HueShift, error) {
	var h HueShift
	if strings.TrimSpace(s) == "" {
		return h, nil
	}
	for _, part := range strings.Split(s, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		n, err := strconv.Atoi(strings.TrimPrefix(val, "+"))
		if !ok || err != nil || n < -90 || n > 90 {
			return h, fmt.Errorf("hue shift %q: want blue=N,red=M, N and M hue units (2 degrees each) from -90 to 90", part)
		}
		switch name {
		case "blue":
			h.Blue = n
		case "red":
			h.Red = n
		default:
			return h, fmt.Errorf("hue shift %q: the dice are blue and red", part)
		}
	}
	return h, nil
}

// String is the shift as ParseHueShift reads it.
func (s HueShift) String() string { return fmt.Sprintf("blue=%+d,red=%+d", s.Blue, s.Red) }

// Apply turns the dice's hues of frame (8-bit BGR), in place.
func (s HueShift) Apply(frame gocv.Mat) error {
	if s == (HueShift{}) {
		return nil
	}
	if frame.Empty() || frame.Type() != gocv.MatTypeCV8UC3 {
		return fmt.Errorf("%w: hue shift: want an 8-bit colour picture", ErrBadFrame)
	}
	hsvM := gocv.NewMat()
	defer hsvM.Close()
	gocv.CvtColor(frame, &hsvM, gocv.ColorBGRToHSV)
	hp, err := hsvM.DataPtrUint8()
	if err != nil {
		return fmt.Errorf("%w: %v", ErrBadFrame, err)
	}
	blue, red := DefaultNetOpts.Blue, DefaultNetOpts.Red
	blue.SMin, red.SMin = shiftSat, shiftSat
	changed := make([]bool, len(hp)/3)
	for i := range changed {
		h, sat, v := int(hp[3*i]), int(hp[3*i+1]), int(hp[3*i+2])
		d := 0
		switch {
		case blue.Contains(h, sat, v):
			d = s.Blue
		case red.Contains(h, sat, v):
			d = s.Red
		}
		if d != 0 {
			hp[3*i] = byte(modHue(h + d))
			changed[i] = true
		}
	}
	back := gocv.NewMat()
	defer back.Close()
	gocv.CvtColor(hsvM, &back, gocv.ColorHSVToBGR)
	bp, err := back.DataPtrUint8()
	if err != nil {
		return fmt.Errorf("%w: %v", ErrBadFrame, err)
	}
	fp, err := frame.DataPtrUint8()
	if err != nil || !frame.IsContinuous() {
		return fmt.Errorf("%w: hue shift: the picture's pixels are not one block", ErrBadFrame)
	}
	for i, c := range changed {
		if c {
			copy(fp[3*i:3*i+3], bp[3*i:3*i+3])
		}
	}
	return nil
}

// Picture returns the picture data (JPEG, PNG...) with its dice's hues
// turned (Apply), as PNG: a folder of pictures of dice of other shades,
// for trying the calibration on them.
func (s HueShift) Picture(data []byte) ([]byte, error) {
	m, err := DecodeImage(data)
	if err != nil {
		return nil, err
	}
	defer m.Close()
	if err := s.Apply(m); err != nil {
		return nil, err
	}
	buf, err := gocv.IMEncode(gocv.PNGFileExt, m)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadFrame, err)
	}
	defer buf.Close()
	return append([]byte(nil), buf.GetBytes()...), nil
}
