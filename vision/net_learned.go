package vision

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"
)

// What a reader learned of its camera during play, kept across restarts.
//
// A NetReader learns at each rest of the dice (LearnFlat) where its
// camera shows a flat die's numeral and how wide the dice look. A table's
// reader restarts (a crash, an update, the Pi switched off for the
// night) far more often than its camera moves: without this file it
// would start each time from its calibration alone, and a table with no
// calibration would again let a die cocked against the tray's wall
// through until twelve flat dice had taught it. A camera moved while the
// reader was stopped is found as during play (flatMovedRun flat dice in
// a row off the field), and learned afresh.

// LearnedCamera is what a NetReader learned of its camera (LearnedCamera,
// RestoreCamera): the flat dice that say where it shows a flat die's
// numeral, the run of the last of them off the field, how many times it
// took the camera as moved, the widths of the dice at the last rests.
type LearnedCamera struct {
	// Calibration is the Sum of the calibration the reader read with
	// ("" without one): what it learned started from that calibration's
	// flat dice, and belongs to no other.
	Calibration string
	flat        []flatSample
	strayRun    int
	moves       int
	sizes       []float64
}

// Dice is how many flat dice it holds, and Sizes how many widths.
func (l LearnedCamera) Dice() int  { return len(l.flat) }
func (l LearnedCamera) Sizes() int { return len(l.sizes) }

// Equal says whether l and o hold the same (a file need not be written
// again).
func (l LearnedCamera) Equal(o LearnedCamera) bool {
	return l.Calibration == o.Calibration && l.strayRun == o.strayRun && l.moves == o.moves &&
		slices.Equal(l.flat, o.flat) && slices.Equal(l.sizes, o.sizes)
}

// LearnedCamera is what the reader learned of its camera so far (its
// calibration's flat dice included).
func (r *NetReader) LearnedCamera() LearnedCamera {
	return LearnedCamera{
		Calibration: r.opts.Calibration.Sum(),
		flat:        append([]flatSample(nil), r.flat...),
		strayRun:    r.strayRun,
		moves:       r.moves,
		sizes:       append([]float64(nil), r.sizes...),
	}
}

// ErrOtherCalibration is RestoreCamera's refusal of what a reader learned
// with another calibration than this reader's.
var ErrOtherCalibration = errors.New("learned with another calibration")

// RestoreCamera makes the reader know what l says of its camera, in
// place of what it knows (its calibration's flat dice, and what it
// learned since it was made), as if it had learned it itself: l must
// have been learned with the same calibration (ErrOtherCalibration, and
// the reader is unchanged).
func (r *NetReader) RestoreCamera(l LearnedCamera) error {
	if want := r.opts.Calibration.Sum(); l.Calibration != want {
		return fmt.Errorf("%w (%s, this reader's is %s)", ErrOtherCalibration, calibName(l.Calibration), calibName(want))
	}
	r.flat = append([]flatSample(nil), l.flat...)
	r.strayRun, r.moves = l.strayRun, l.moves
	r.sizes = append([]float64(nil), l.sizes...)
	// The field stays as it was fitted before the run of dice off it
	// began (LearnFlat).
	r.fitFields(r.flat[:len(r.flat)-r.strayRun])
	return nil
}

// ForgetCamera forgets what the reader knows of its camera, its
// calibration's flat dice included: where the camera shows a flat die's
// numeral, and how large it shows the dice. The staff say so when they
// moved the camera (brought it lower, as the staff page asks of dice too
// small); the reader learns the new camera from the next throws. What it
// learned of the dice (the calibration's prototypes) stays.
func (r *NetReader) ForgetCamera() {
	r.flat, r.field, r.playField, r.strayRun, r.sizes = nil, nil, nil, 0, nil
}

func calibName(sum string) string {
	if sum == "" {
		return "none"
	}
	return fmt.Sprintf("%.12s", sum)
}

// Sum is a SHA-256 of what the calibration reads with (its prototypes,
// its hand-tuned reader's counts, its flat dice), in hex; "" for none. Two
// files of the same calibration made at other times have the same Sum.
func (c *NetCalibration) Sum() string {
	if c == nil {
		return ""
	}
	h := sha256.New()
	put := func(v any) { _ = binary.Write(h, binary.LittleEndian, v) }
	for face, ps := range c.Protos {
		put(int32(face))
		put(int32(len(ps)))
		for _, p := range ps {
			put(p)
		}
	}
	put(int64(c.HandChecked))
	put(int64(c.HandTilted))
	put(int32(len(c.flat)))
	for _, p := range c.flat {
		put([4]float64{p.X, p.Y, p.OX, p.OY})
	}
	// (the colours only when learned: a calibration of before has the
	// same sum)
	for _, r := range []*HSVRange{c.Blue, c.Red} {
		switch {
		case r != nil:
			put([6]int32{int32(r.HMin), int32(r.HMax), int32(r.SMin), int32(r.SMax), int32(r.VMin), int32(r.VMax)})
		case c.Blue != nil || c.Red != nil:
			put(int32(-1))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// learnedCameraFile is a LearnedCamera as a JSON file.
type learnedCameraFile struct {
	Kind        string      `json:"kind"`
	Made        string      `json:"made"`
	Calibration string      `json:"calibration_sha256"`
	Flat        [][]float64 `json:"flat_dice"`
	StrayRun    int         `json:"stray_run"`
	Moves       int         `json:"moves"`
	Across      []float64   `json:"dice_across"`
}

const learnedCameraKind = "comptoir dice reader's camera"

// ErrLearnedCamera is returned for a file that is not what a reader
// learned of its camera (EncodeLearnedCamera).
var ErrLearnedCamera = errors.New("not a file of what the dice reader learned of its camera")

// EncodeLearnedCamera is l as a JSON file.
func EncodeLearnedCamera(l LearnedCamera, made time.Time) ([]byte, error) {
	f := learnedCameraFile{Kind: learnedCameraKind, Made: made.UTC().Format(time.RFC3339), Calibration: l.Calibration,
		Flat: [][]float64{}, StrayRun: l.strayRun, Moves: l.moves, Across: append([]float64{}, l.sizes...)}
	for _, p := range l.flat {
		f.Flat = append(f.Flat, []float64{p.X, p.Y, p.OX, p.OY})
	}
	return json.MarshalIndent(f, "", " ")
}

// DecodeLearnedCamera reads a file made by EncodeLearnedCamera; its
// errors (ErrLearnedCamera) name the key that is wrong.
func DecodeLearnedCamera(data []byte) (LearnedCamera, error) {
	var f learnedCameraFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return LearnedCamera{}, fmt.Errorf("%w: %v", ErrLearnedCamera, err)
	}
	if dec.More() {
		return LearnedCamera{}, fmt.Errorf("%w: more after the JSON object", ErrLearnedCamera)
	}
	bad := func(format string, a ...any) (LearnedCamera, error) {
		return LearnedCamera{}, fmt.Errorf("%w: %s", ErrLearnedCamera, fmt.Sprintf(format, a...))
	}
	if f.Kind != learnedCameraKind {
		return bad("kind %q, want %q", f.Kind, learnedCameraKind)
	}
	if f.Calibration != "" {
		if b, err := hex.DecodeString(f.Calibration); err != nil || len(b) != sha256.Size {
			return bad("calibration_sha256 %q, want 64 hex digits or empty", f.Calibration)
		}
	}
	if len(f.Flat) > flatFieldMaxDice {
		return bad("flat_dice: %d dice, want at most %d", len(f.Flat), flatFieldMaxDice)
	}
	l := LearnedCamera{Calibration: f.Calibration, strayRun: f.StrayRun, moves: f.Moves}
	for i, v := range f.Flat {
		if len(v) != 4 {
			return bad("flat_dice[%d]: %d numbers, want 4 (x, y, ox, oy)", i, len(v))
		}
		p := flatSample{X: v[0], Y: v[1], OX: v[2], OY: v[3]}
		if err := checkSample(p); err != nil {
			return bad("flat_dice[%d]: %v", i, err)
		}
		l.flat = append(l.flat, p)
	}
	if f.StrayRun < 0 || f.StrayRun >= flatMovedRun || f.StrayRun > len(f.Flat) {
		return bad("stray_run %d, want 0 to %d and at most the flat dice (%d)", f.StrayRun, flatMovedRun-1, len(f.Flat))
	}
	if f.Moves < 0 {
		return bad("moves %d, want 0 or more", f.Moves)
	}
	if len(f.Across) > restSizes {
		return bad("dice_across: %d widths, want at most %d", len(f.Across), restSizes)
	}
	for i, a := range f.Across {
		if math.IsNaN(a) || a <= 0 || a > 640 {
			return bad("dice_across[%d]: %g, want a width of 0 to 640 pixels", i, a)
		}
		l.sizes = append(l.sizes, a)
	}
	return l, nil
}
