package vision

import (
	_ "embed"
	"fmt"
	"image"
	"image/color"
	"math"

	"gocv.io/x/gocv"
)

// The pose network: is a die lying flat, or cocked (leaning on a tray's
// wall, its top face turned away, showing no roll)? The numeral
// classifier cannot tell: it sees the numeral alone, and under the
// cameras of the wide distribution a face turned 20 to 30 degrees is
// foreshortened to 0.87 to 0.94 only (vision/train/README.md, "seventh
// stop"). The pose network sees the whole die in colour, its side faces
// and its shading, and says how likely it is cocked. It is trained by
// vision/train/posenet.py on dice rendered cocked and flat
// (render.WideCockedFrame), exported to ONNX, run by OpenCV's dnn module.

//go:embed model/posenet.onnx
var posenetONNX []byte

// PosenetONNX returns the committed pose network, an ONNX file made by
// `make model-pose` (vision/train).
func PosenetONNX() []byte { return posenetONNX }

// PoseSize is the side of the pose network's input, in pixels: a colour
// square poseSpan die widths a side around the die's silhouette.
const PoseSize = 32

// MinPoseSize and MaxPoseSize bound the pose crop a pose network of
// another size (NetOpts.PoseSize, cropexport -pose-size) may ask for.
const MinPoseSize, MaxPoseSize = 8, 160

// poseSpan is the pose crop's side in die widths: the die, the table
// around it and some of its shadow.
const poseSpan = 1.5

// defaultMaxCocked is DefaultNetOpts.MaxCocked.
const defaultMaxCocked = 0.6

// defaultPoseSecondLook is DefaultNetOpts.PoseSecondLook, chosen on the
// tuning sets (vision/train/README.md, "twenty-third stop").
const defaultPoseSecondLook = 0.1

// poseViews returns the eight views of the square pose crop c (BGR)
// under the square's symmetries: c itself first, then turned by one to
// three quarter turns, then mirrored left to right and turned so
// (view t reads pixel (x, y) from c's pixel (x, y) mirrored when t&4,
// then turned t&3 quarter turns).
// The views are written into bufs when it holds eight crops of c's size.
func poseViews(c []byte, bufs [][]byte) [][]byte {
	n := int(math.Round(math.Sqrt(float64(len(c) / 3)))) // its side
	if len(bufs) != 8 {
		bufs = make([][]byte, 8)
	}
	for t := range bufs {
		if len(bufs[t]) != len(c) {
			bufs[t] = make([]byte, len(c))
		}
		out := bufs[t]
		for y := 0; y < n; y++ {
			for x := 0; x < n; x++ {
				// the source of (x, y)
				sx, sy := x, y
				if t&4 != 0 {
					sx = n - 1 - sx
				}
				for q := 0; q < t&3; q++ {
					sx, sy = sy, n-1-sx
				}
				copy(out[3*(y*n+x):3*(y*n+x)+3], c[3*(sy*n+sx):3*(sy*n+sx)+3])
			}
		}
	}
	return bufs
}

// poseCrop cuts the pose network's input for die d out of frame: a
// square poseSpan widths a side centred on the silhouette, upright,
// resized to size x size BGR pixels (3 bytes each; PoseSize for the
// committed network) into out. The pixels outside the frame repeat its
// border. It returns false when the die is too small to cut.
func poseCrop(frame gocv.Mat, d located, out []byte, size int) bool {
	span := poseSpan * d.across
	if span < 2 || frame.Channels() != 3 {
		return false
	}
	// only the square the crop samples (and 2 pixels around it) is
	// blurred and warped: the blur of a region reads the frame's pixels
	// around it, so the crop is as if the whole frame were blurred
	roi := image.Rect(int(math.Floor(d.cx-span/2))-2, int(math.Floor(d.cy-span/2))-2,
		int(math.Ceil(d.cx+span/2))+2, int(math.Ceil(d.cy+span/2))+2).Intersect(image.Rect(0, 0, frame.Cols(), frame.Rows()))
	if roi.Empty() {
		return false
	}
	region := frame.Region(roi)
	defer region.Close()
	s := span / float64(size)
	h := float64(size) / 2
	m := gocv.NewMatWithSize(2, 3, gocv.MatTypeCV64F)
	defer m.Close()
	m.SetDoubleAt(0, 0, s)
	m.SetDoubleAt(0, 2, d.cx-s*h-float64(roi.Min.X))
	m.SetDoubleAt(1, 1, s)
	m.SetDoubleAt(1, 2, d.cy-s*h-float64(roi.Min.Y))
	col := gocv.NewMat()
	defer col.Close()
	// the crop is smaller than the die by a factor of up to 7: an area
	// mean, as INTER_AREA would, by blurring first
	src := region
	if s > 1.5 {
		k := int(s) | 1
		bl := gocv.NewMat()
		defer bl.Close()
		gocv.Blur(region, &bl, image.Pt(k, k))
		src = bl
	}
	gocv.WarpAffineWithParams(src, &col, m, image.Pt(size, size), gocv.InterpolationLinear|gocv.WarpInverseMap, gocv.BorderReplicate, color.RGBA{})
	copy(out, col.ToBytes())
	return true
}

// PoseCrop returns the pose network's input for the die of the given
// colour ("blue", "red", or "any") in a picture at scale px (as
// NumeralCrop), and whether one was found: for training and inspection.
// The die is found as the committed models' training crops found it
// (trainingLocator).
func PoseCrop(pic gocv.Mat, colour string, px float64, o NetOpts) ([]byte, bool) {
	return PoseCropSized(pic, colour, px, o, PoseSize)
}

// PoseCropSized is PoseCrop at size x size pixels: crops for a pose
// network of another input size (cropexport -pose-size). A size out of
// MinPoseSize to MaxPoseSize gives none.
func PoseCropSized(pic gocv.Mat, colour string, px float64, o NetOpts, size int) ([]byte, bool) {
	if size < MinPoseSize || size > MaxPoseSize {
		return nil, false
	}
	l := trainingLocator(o)
	out := make([]byte, size*size*3)
	ok := l.find(pic, colour, px, func(pic gocv.Mat, d located) bool { return poseCrop(pic, d, out, size) })
	if !ok {
		return nil, false
	}
	return out, true
}

// dieCut is a die cut out of a picture by cropUnlessCocked.
type dieCut struct {
	crop   []byte     // its numeral crop; nil when cocked is set
	cocked Why        // set when the pose network finds it cocked
	flat   float64    // the pose network's probability that it lies flat (0: it did not run)
	at     flatSample // its place and its numeral's offset
	across float64    // its width, in pixels of a picture 640 wide
	blank  bool       // its top face shows no numeral (numeralCut.blank)
}

// cropUnlessCocked finds the die of the given colour in pic (as
// locator.find) and cuts it (dieCut): its numeral crop, or, when the
// pose network finds it cocked, why; ok is false when no die is found
// or its crop cannot be cut.
func (r *NetReader) cropUnlessCocked(pic gocv.Mat, colour string, px float64) (c dieCut, ok bool) {
	ok = r.loc.find(pic, colour, px, func(pic gocv.Mat, d located) bool {
		ws, fl := r.cocked(pic, []located{d}, []bool{true})
		if ws[0].Code != WhyNone {
			c = dieCut{cocked: ws[0]}
			return true
		}
		c = dieCut{flat: fl[0], crop: make([]byte, CropSize*CropSize), across: d.across / px}
		nc, cut := cutNumeral(pic, d, c.crop)
		c.at, c.blank = flatSampleOf(pic.Cols(), pic.Rows(), d, nc.fx, nc.fy), nc.blank()
		return cut
	})
	return c, ok
}

// poser runs the pose network. It is not safe for concurrent use.
type poser struct {
	size  int // the input's side
	net   gocv.Net
	input []byte    // scratch: the float32 input blob
	plane []float32 // scratch: one crop standardised
}

// newPoser reads a pose network whose input is size x size pixels.
func newPoser(model []byte, size int) (*poser, error) {
	net, err := readONNX(model)
	if err != nil {
		return nil, fmt.Errorf("pose network: %w", err)
	}
	p := &poser{size: size, net: net, plane: make([]float32, 3*size*size)}
	if _, err := p.cocked([][]byte{make([]byte, 3*size*size)}); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

func (p *poser) Close() error { return p.net.Close() }

// standardisePose turns a pose crop (BGR bytes, pixel after pixel) into
// the network's input: three planes (B, G, R), zero mean and unit
// standard deviation over the whole crop (at least 0.02 of the range),
// as vision/train/posenet.py does.
func standardisePose(c []byte, out []float32) {
	mean, std := meanStd(c)
	px := len(c) / 3
	for i := 0; i < px; i++ {
		for ch := 0; ch < 3; ch++ {
			out[ch*px+i] = float32((float64(c[3*i+ch])/255 - mean) / std)
		}
	}
}

// cocked returns, for each pose crop, the network's probability that
// the die is cocked.
func (p *poser) cocked(crops [][]byte) ([]float64, error) {
	if len(crops) == 0 {
		return nil, nil
	}
	per := 3 * p.size * p.size
	need := len(crops) * per * 4
	if cap(p.input) < need {
		p.input = make([]byte, need)
	}
	p.input = p.input[:need]
	for k, c := range crops {
		if len(c) != per {
			return nil, fmt.Errorf("%w: pose crop of %d bytes, want %d", ErrModel, len(c), per)
		}
		standardisePose(c, p.plane)
		putFloats(p.input, 4*k*per, p.plane)
	}
	blob, err := gocv.NewMatWithSizesFromBytes([]int{len(crops), 3, p.size, p.size}, gocv.MatTypeCV32F, p.input)
	if err != nil {
		return nil, fmt.Errorf("%w: pose input: %v", ErrModel, err)
	}
	defer blob.Close()
	p.net.SetInput(blob, "input")
	out := p.net.Forward("logits")
	defer out.Close()
	l, err := out.DataPtrFloat32()
	if err != nil {
		return nil, fmt.Errorf("%w: pose logits: %v", ErrModel, err)
	}
	if len(l) != 2*len(crops) {
		return nil, fmt.Errorf("%w: %d pose logits for %d crops, want 2 each", ErrModel, len(l), len(crops))
	}
	res := make([]float64, len(crops))
	for k := range crops {
		// softmax of (flat, cocked)
		res[k] = 1 / (1 + math.Exp(float64(l[2*k])-float64(l[2*k+1])))
	}
	return res, nil
}
