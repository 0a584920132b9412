package vision

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"gocv.io/x/gocv"
)

// The learned reader (NetReader): the dice are located by colour at any
// size, each numeral cut out normalised in position, scale and rotation
// (see net_locate.go), and classified by a small convolutional network
// trained on the wide distribution of package render and the training
// frames of the real photos (vision/train), run by OpenCV's dnn module.

//go:embed model/dicenet.onnx
var dicenetONNX []byte

// DicenetONNX returns the committed classifier, an ONNX file made by
// `make model` (vision/train).
func DicenetONNX() []byte { return dicenetONNX }

// ErrModel is wrapped by the errors of a classifier that cannot be used.
var ErrModel = errors.New("vision: bad dice classifier")

// embedLen is the length of the classifier's embedding (its last hidden
// layer), where calibration prototypes live.
const embedLen = 64

// readONNX reads an ONNX network for OpenCV's dnn module, run on the CPU.
func readONNX(model []byte) (gocv.Net, error) {
	if err := checkONNX(model); err != nil {
		return gocv.Net{}, err
	}
	net, err := gocv.ReadNetFromONNXBytes(model)
	if err != nil {
		return gocv.Net{}, fmt.Errorf("%w: %v", ErrModel, err)
	}
	if net.Empty() {
		net.Close()
		return gocv.Net{}, fmt.Errorf("%w: OpenCV read no network", ErrModel)
	}
	_ = net.SetPreferableBackend(gocv.NetBackendOpenCV)
	_ = net.SetPreferableTarget(gocv.NetTargetCPU)
	return net, nil
}

// checkONNX checks that model is framed as an ONNX file (a protocol
// buffer whose fields start with the ir_version) before OpenCV reads it:
// OpenCV 4.6 throws an exception on bytes it cannot parse, which gocv
// does not catch, and the process would abort.
func checkONNX(model []byte) error {
	if len(model) == 0 {
		return fmt.Errorf("%w: empty model file", ErrModel)
	}
	if model[0] != 0x08 {
		return fmt.Errorf("%w: not an ONNX file (its first byte is %#x, want 0x08, an ONNX model's ir_version): give the file make model wrote", ErrModel, model[0])
	}
	for i := 0; i < len(model); {
		tag, n := binary.Uvarint(model[i:])
		if n <= 0 || tag>>3 == 0 {
			return fmt.Errorf("%w: not an ONNX file (bad field at byte %d): give the file make model wrote", ErrModel, i)
		}
		i += n
		switch tag & 7 {
		case 0: // varint
			_, n = binary.Uvarint(model[i:])
			if n <= 0 {
				return fmt.Errorf("%w: not an ONNX file (bad number at byte %d): give the file make model wrote", ErrModel, i)
			}
			i += n
		case 1: // 64 bits
			i += 8
		case 5: // 32 bits
			i += 4
		case 2: // length-delimited
			l, n := binary.Uvarint(model[i:])
			if n <= 0 || l > uint64(len(model)-i-n) {
				return fmt.Errorf("%w: not an ONNX file, or cut short (a field at byte %d runs past its end): give the whole file make model wrote", ErrModel, i)
			}
			i += n + int(l)
		default:
			return fmt.Errorf("%w: not an ONNX file (field type %d at byte %d): give the file make model wrote", ErrModel, tag&7, i)
		}
		if i > len(model) {
			return fmt.Errorf("%w: not an ONNX file, or cut short: give the whole file make model wrote", ErrModel)
		}
	}
	return nil
}

// classifier runs the network. It is not safe for concurrent use.
type classifier struct {
	net   gocv.Net
	input []byte // scratch: the float32 input blob
}

func newClassifier(model []byte) (*classifier, error) {
	net, err := readONNX(model)
	if err != nil {
		return nil, err
	}
	c := &classifier{net: net}
	// check the outputs on a blank crop
	outs, err := c.run([][]byte{make([]byte, CropSize*CropSize)})
	if err != nil {
		c.Close()
		return nil, err
	}
	if len(outs) != 1 {
		c.Close()
		return nil, fmt.Errorf("%w: %d outputs for one crop", ErrModel, len(outs))
	}
	return c, nil
}

func (c *classifier) Close() error { return c.net.Close() }

// netOut is the network's answer for one crop.
type netOut struct {
	prob  [8]float64 // probability of faces 1 to 8
	embed [embedLen]float32
}

// best returns the likeliest face, its probability and the next best's.
func (o *netOut) best() (face int, p, second float64) {
	for i, q := range o.prob {
		if face == 0 || q > p {
			face, p, second = i+1, q, max(second, p)
		} else if q > second {
			second = q
		}
	}
	return face, p, second
}

// standardise turns a crop's grey levels into the network's input: zero
// mean, unit standard deviation (at least 0.02 of the range), as in
// vision/train/dicenet.py.
func standardise(g []byte, out []float32) {
	mean, std := meanStd(g)
	for i, v := range g {
		out[i] = float32((float64(v)/255 - mean) / std)
	}
}

// meanStd is the mean and the standard deviation of b's values over 255,
// the deviation at least 0.02: how both networks' inputs are
// standardised.
func meanStd(b []byte) (mean, std float64) {
	var s, ss float64
	for _, v := range b {
		x := float64(v) / 255
		s += x
		ss += x * x
	}
	n := float64(len(b))
	mean = s / n
	return mean, max(math.Sqrt(max(ss/n-mean*mean, 0)), 0.02)
}

// putFloats writes f into b from byte offset off, little-endian float32s,
// as OpenCV's blob of a network's input holds them.
func putFloats(b []byte, off int, f []float32) {
	for i, v := range f {
		binary.LittleEndian.PutUint32(b[off+4*i:], math.Float32bits(v))
	}
}

// run classifies crops of CropSize x CropSize grey levels in one pass.
func (c *classifier) run(crops [][]byte) ([]netOut, error) {
	if len(crops) == 0 {
		return nil, nil
	}
	const px = CropSize * CropSize
	need := len(crops) * px * 4
	if cap(c.input) < need {
		c.input = make([]byte, need)
	}
	c.input = c.input[:need]
	f := make([]float32, px)
	for k, g := range crops {
		standardise(g, f)
		putFloats(c.input, 4*k*px, f)
	}
	blob, err := gocv.NewMatWithSizesFromBytes([]int{len(crops), 1, CropSize, CropSize}, gocv.MatTypeCV32F, c.input)
	if err != nil {
		return nil, fmt.Errorf("%w: input: %v", ErrModel, err)
	}
	defer blob.Close()
	c.net.SetInput(blob, "input")
	outs := c.net.ForwardLayers([]string{"logits", "embed"})
	defer func() {
		for _, m := range outs {
			m.Close()
		}
	}()
	if len(outs) != 2 {
		return nil, fmt.Errorf("%w: %d outputs, want logits and embed", ErrModel, len(outs))
	}
	logits, err := outs[0].DataPtrFloat32()
	if err != nil {
		return nil, fmt.Errorf("%w: logits: %v", ErrModel, err)
	}
	emb, err := outs[1].DataPtrFloat32()
	if err != nil {
		return nil, fmt.Errorf("%w: embed: %v", ErrModel, err)
	}
	if len(logits) != 8*len(crops) || len(emb) != embedLen*len(crops) {
		return nil, fmt.Errorf("%w: %d logits and %d embedding values for %d crops, want 8 and %d each", ErrModel, len(logits), len(emb), len(crops), embedLen)
	}
	res := make([]netOut, len(crops))
	for k := range crops {
		l := logits[8*k : 8*k+8]
		top := float64(l[0])
		for _, v := range l {
			top = max(top, float64(v))
		}
		var sum float64
		for i, v := range l {
			res[k].prob[i] = math.Exp(float64(v) - top)
			sum += res[k].prob[i]
		}
		for i := range res[k].prob {
			res[k].prob[i] /= sum
		}
		copy(res[k].embed[:], emb[embedLen*k:embedLen*k+embedLen])
	}
	return res, nil
}
