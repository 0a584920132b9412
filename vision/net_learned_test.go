package vision

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"comptoir/input"
)

// TestLearnedCameraRestore: what a reader learned of its camera, written
// to a file and read back by a new reader, makes the new reader know the
// same (its view, its field) and go on as the first would: three dice off
// the field before the restart and three after are the six in a row that
// make it take the camera as moved, as they do for the reader that never
// stopped.
func TestLearnedCameraRestore(t *testing.T) {
	checkLeaks(t)
	newReader := func(c *NetCalibration) *NetReader {
		t.Helper()
		o := DefaultNetOpts
		o.Calibration = c
		r, err := NewNetReader(o)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		return r
	}
	rng := rand.New(rand.NewPCG(9, 10))
	before := [3][2]float64{{0, 0}, {0.08, 0}, {0, 0.08}}
	after := [3][2]float64{{0.12, -0.1}, {-0.05, 0}, {0, 0.1}}
	learn := func(r *NetReader, s flatSample, across float64) {
		r.LearnFlat(Roll{Blue: Die{Found: true, Face: 2, Confidence: 1, Flat: 1, at: s, hasAt: true, across: across}})
	}
	a := newReader(nil)
	for i, s := range fieldSamples(rng, 30, before, 0.01) {
		learn(a, s, 50+float64(i%5))
	}
	moved := fieldSamples(rng, flatMovedRun, after, 0.01)
	for _, s := range moved[:3] {
		learn(a, s, 31)
	}
	data, err := EncodeLearnedCamera(a.LearnedCamera(), time.Date(2026, 12, 6, 17, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	l, err := DecodeLearnedCamera(data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if !l.Equal(a.LearnedCamera()) || l.Dice() != 33 || l.Sizes() != restSizes {
		t.Fatalf("read back %d dice, %d widths, not what was written:\n%s", l.Dice(), l.Sizes(), data)
	}
	b := newReader(nil)
	if err := b.RestoreCamera(l); err != nil {
		t.Fatal(err)
	}
	if cameraView(b.View()) != cameraView(a.View()) || b.View().FlatNeed != 0 || b.View().Across == 0 || b.View().BlankOf != 0 {
		t.Errorf("restored view %+v, want %+v (the field known, the dice's size; the lamp's count afresh)", b.View(), a.View())
	}
	if b.field == nil || a.field == nil || *b.field != *a.field {
		t.Errorf("restored field %v, want %v (fitted before the dice off it)", b.field, a.field)
	}
	for _, s := range moved[3:] {
		learn(a, s, 32)
		learn(b, s, 32)
	}
	if va, vb := a.View(), b.View(); va.Moved != 1 || cameraView(vb) != cameraView(va) || !a.LearnedCamera().Equal(b.LearnedCamera()) {
		t.Errorf("after three more dice off the field: restored %+v, the reader that never stopped %+v; want both to take the camera as moved", vb, va)
	}

	t.Run("another calibration", func(t *testing.T) {
		c := &NetCalibration{flat: fieldSamples(rng, 20, before, 0.01), HandChecked: 16, HandTilted: 1}
		for f := range c.Protos {
			var e [embedLen]float32
			for i := range e {
				e[i] = float32(rng.NormFloat64())
			}
			c.Protos[f] = append(c.Protos[f], unit(e))
		}
		c = c.withField()
		r := newReader(c)
		if err := r.RestoreCamera(l); !errors.Is(err, ErrOtherCalibration) {
			t.Errorf("a reader calibrated restores what one without a calibration learned: %v", err)
		}
		if n, used := r.FlatDice(); n != 20 || !used {
			t.Errorf("after the refusal, FlatDice = %d, %v; want the calibration's 20", n, used)
		}
		// the same calibration read from its file again is the same
		c2 := rewritten(t, c)
		if c2.Sum() != c.Sum() || c.Sum() == "" || (&NetCalibration{flat: c.flat[1:]}).Sum() == c.Sum() {
			t.Errorf("Sum: %s read back as %s; another calibration must differ", c.Sum(), c2.Sum())
		}
		learn(r, moved[0], 40)
		l2, err := DecodeLearnedCamera(mustEncodeLearned(t, r.LearnedCamera()))
		if err != nil {
			t.Fatal(err)
		}
		r2 := newReader(c2)
		if err := r2.RestoreCamera(l2); err != nil || cameraView(r2.View()) != cameraView(r.View()) {
			t.Errorf("the same calibration from its file: %v, view %+v, want %+v", err, r2.View(), r.View())
		}
	})
}

func mustEncodeLearned(t *testing.T, l LearnedCamera) []byte {
	t.Helper()
	data, err := EncodeLearnedCamera(l, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestDecodeLearnedCameraErrors: a damaged or foreign file is refused
// with an error that names what is wrong.
func TestDecodeLearnedCameraErrors(t *testing.T) {
	const head = `{"kind":"comptoir dice reader's camera","made":"2026-12-06T17:00:00Z","calibration_sha256":""`
	for _, tc := range []struct{ name, data, want string }{
		{"not JSON", `{"kind":`, "unexpected EOF"},
		{"a calibration file", `{"kind":"comptoir dice prototypes","model_sha256":"x"}`, "unknown field"},
		{"another kind", `{"kind":"x","made":"","calibration_sha256":"","flat_dice":[],"stray_run":0,"moves":0,"dice_across":[]}`, `kind "x"`},
		{"calibration sum", `{"kind":"comptoir dice reader's camera","calibration_sha256":"abc"}`, "calibration_sha256"},
		{"a flat die of 3", head + `,"flat_dice":[[0,0,0]]}`, "flat_dice[0]: 3 numbers"},
		{"a flat die off the frame", head + `,"flat_dice":[[0,2,0,0]]}`, "flat_dice[0]"},
		{"stray run", head + `,"flat_dice":[[0,0,0,0]],"stray_run":2}`, "stray_run 2"},
		{"moves", head + `,"moves":-1}`, "moves -1"},
		{"a width", head + `,"dice_across":[50,0]}`, "dice_across[1]"},
		{"two objects", head + `}{}`, "more after"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeLearnedCamera([]byte(tc.data))
			if !errors.Is(err, ErrLearnedCamera) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want ErrLearnedCamera naming %q", err, tc.want)
			}
		})
	}
}

// FuzzDecodeLearnedCamera: the file is outside input (a disk, a person
// editing it); any bytes give what a reader learned, which reads back the
// same once written, or an ErrLearnedCamera, never a panic.
func FuzzDecodeLearnedCamera(f *testing.F) {
	var l LearnedCamera
	f.Add(mustEncodeLearnedF(f, l))
	l.Calibration = strings.Repeat("ab", 32)
	for i := range flatFieldMinDice {
		l.flat = append(l.flat, flatSample{X: float64(i%4)/8 - 0.2, Y: float64(i/4)/8 - 0.2, OX: 0.01 * float64(i%3), OY: -0.02})
		l.sizes = append(l.sizes, 40+float64(i))
	}
	l.strayRun, l.moves = 2, 1
	f.Add(mustEncodeLearnedF(f, l))
	f.Add([]byte(`{"kind":"comptoir dice reader's camera"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := DecodeLearnedCamera(data)
		if err != nil {
			if !errors.Is(err, ErrLearnedCamera) {
				t.Fatalf("error %v is not ErrLearnedCamera", err)
			}
			return
		}
		again, err := EncodeLearnedCamera(l, time.Unix(0, 0))
		if err != nil {
			t.Fatal(err)
		}
		l2, err := DecodeLearnedCamera(again)
		if err != nil || !l2.Equal(l) {
			t.Fatalf("written and read back: %v, equal %v", err, l2.Equal(l))
		}
	})
}

func mustEncodeLearnedF(f *testing.F, l LearnedCamera) []byte {
	data, err := EncodeLearnedCamera(l, time.Unix(0, 0))
	if err != nil {
		f.Fatal(err)
	}
	return data
}

// TestForgetCamera: told the camera was moved, the reader forgets where
// it showed a flat die's numeral (its calibration's flat dice too) and
// how large it showed the dice, and learns them again.
func TestForgetCamera(t *testing.T) {
	checkLeaks(t)
	rng := rand.New(rand.NewPCG(13, 14))
	lean := [3][2]float64{{0, 0}, {0.08, 0}, {0, 0.08}}
	o := DefaultNetOpts
	o.Calibration = (&NetCalibration{flat: fieldSamples(rng, 20, lean, 0.01)}).withField()
	r, err := NewNetReader(o)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, s := range fieldSamples(rng, 6, lean, 0.01) {
		r.LearnFlat(Roll{Blue: Die{Found: true, Face: 4, Confidence: 1, Flat: 1, at: s, hasAt: true, across: 33}})
	}
	if v := r.View(); v.FlatNeed != 0 || !v.Small {
		t.Fatalf("before: %+v, want the field known and small dice", v)
	}
	r.ForgetCamera()
	if v := r.View(); v.Flat != 0 || v.FlatNeed != flatFieldMinDice || v.Across != 0 || v.Small || v.Moved != 0 {
		t.Errorf("after ForgetCamera: %+v, want nothing of the camera known", v)
	}
	if l := r.LearnedCamera(); l.Dice() != 0 || l.Sizes() != 0 || l.Calibration != o.Calibration.Sum() {
		t.Errorf("after ForgetCamera the reader would keep %d flat dice, %d widths, calibration %q", l.Dice(), l.Sizes(), l.Calibration)
	}
}

// cameraView is what a reader restores of its camera over a restart: v
// without the count of dice the lamp washed out (ReaderView.Blank), which
// starts afresh from the next rests.
func cameraView(v input.ReaderView) input.ReaderView {
	v.Blank, v.BlankOf, v.Glare = 0, 0, false
	return v
}
