package vision

import (
	"errors"
	"fmt"

	"gocv.io/x/gocv"
)

// ErrBadFrame is returned for a frame the reader cannot use: empty, of an
// unknown pixel type, or an image file that does not decode.
var ErrBadFrame = errors.New("bad frame")

// minFrameSide is the smallest width and height of a frame the reader
// takes.
const minFrameSide = 64

// bgrImage is a view of 8-bit BGR pixels (OpenCV's order).
type bgrImage struct {
	w, h int
	pix  []byte // 3 bytes a pixel, rows packed
}

// viewBGR returns the pixels of frame as BGR bytes. Continuous 8UC3 Mats are
// viewed without a copy; grey and BGRA Mats are converted. The returned view
// is valid while frame is open.
func viewBGR(frame gocv.Mat) (bgrImage, error) {
	if frame.Empty() {
		return bgrImage{}, fmt.Errorf("%w: empty image", ErrBadFrame)
	}
	if w, h := frame.Cols(), frame.Rows(); w < minFrameSide || h < minFrameSide {
		return bgrImage{}, fmt.Errorf("%w: %dx%d pixels, want at least %dx%d", ErrBadFrame, w, h, minFrameSide, minFrameSide)
	}
	return viewMat(frame)
}

// viewMat is viewBGR for a Mat of any size.
func viewMat(frame gocv.Mat) (bgrImage, error) {
	w, h := frame.Cols(), frame.Rows()
	var src gocv.Mat
	switch frame.Type() {
	case gocv.MatTypeCV8UC3:
		if frame.IsContinuous() {
			p, err := frame.DataPtrUint8()
			if err != nil {
				return bgrImage{}, fmt.Errorf("%w: %v", ErrBadFrame, err)
			}
			return bgrImage{w: w, h: h, pix: p}, nil
		}
		src = frame.Clone()
	case gocv.MatTypeCV8UC1:
		src = gocv.NewMat()
		gocv.CvtColor(frame, &src, gocv.ColorGrayToBGR)
	case gocv.MatTypeCV8UC4:
		src = gocv.NewMat()
		gocv.CvtColor(frame, &src, gocv.ColorBGRAToBGR)
	default:
		return bgrImage{}, fmt.Errorf("%w: pixel type %v, want 8-bit BGR, BGRA or grey", ErrBadFrame, frame.Type())
	}
	defer src.Close()
	return bgrImage{w: w, h: h, pix: src.ToBytes()}, nil
}

// DecodeImage decodes an image file's bytes (JPEG, PNG...) into a BGR Mat
// the caller closes. A file that does not decode gives ErrBadFrame and no
// Mat (nothing to close).
func DecodeImage(data []byte) (gocv.Mat, error) {
	m, err := decodeBGR(data)
	if err != nil {
		return gocv.Mat{}, fmt.Errorf("%w: %v", ErrBadFrame, err)
	}
	return m, nil
}
