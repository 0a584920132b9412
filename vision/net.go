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

// classifier runs the network. It is not safe for concurrent use.
type classifier struct {
	net   gocv.Net
	input []byte // scratch: the float32 input blob
}

func newClassifier(model []byte) (*classifier, error) {
	if len(model) == 0 {
		return nil, fmt.Errorf("%w: empty model", ErrModel)
	}
	net, err := gocv.ReadNetFromONNXBytes(model)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrModel, err)
	}
	if net.Empty() {
		net.Close()
		return nil, fmt.Errorf("%w: OpenCV read no network", ErrModel)
	}
	_ = net.SetPreferableBackend(gocv.NetBackendOpenCV)
	_ = net.SetPreferableTarget(gocv.NetTargetCPU)
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
	var s, ss float64
	for _, v := range g {
		x := float64(v) / 255
		s += x
		ss += x * x
	}
	n := float64(len(g))
	mean := s / n
	std := math.Sqrt(max(ss/n-mean*mean, 0))
	std = max(std, 0.02)
	for i, v := range g {
		out[i] = float32((float64(v)/255 - mean) / std)
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
		for i, v := range f {
			binary.LittleEndian.PutUint32(c.input[4*(k*px+i):], math.Float32bits(v))
		}
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
