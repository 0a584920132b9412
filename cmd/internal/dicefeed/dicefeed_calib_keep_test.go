package dicefeed

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"comptoir/hw/replay"
	"comptoir/input"
	"comptoir/vision"
)

// calibFeed asks the demo feed for learn, calibrate and reset requests.
type calibFeed struct {
	*demoFeed
	w  *replay.Writer
	id int64
}

func newCalibFeed(f *demoFeed) *calibFeed { return &calibFeed{demoFeed: f, w: replay.NewWriter(f.in)} }

// ask sends a request of type typ with the fields of req and returns the
// reply of type want.
func (f *calibFeed) ask(typ, want string, req map[string]any) input.DiceCalibReply {
	f.t.Helper()
	f.id++
	if req == nil {
		req = map[string]any{}
	}
	req["type"], req["id"] = typ, f.id
	b, _ := json.Marshal(req)
	fmt.Fprintln(f.in, string(b))
	var r input.DiceCalibReply
	if err := json.Unmarshal([]byte(f.next(want, 20*time.Second)), &r); err != nil {
		f.t.Fatal(err)
	}
	if r.ID != f.id {
		f.t.Fatalf("%s: reply %+v, want id %d", typ, r, f.id)
	}
	return r
}

// learn shows roll and learns it.
func (f *calibFeed) learn(roll [2]int) input.DiceCalibReply {
	f.t.Helper()
	f.w.Write(input.DiceRolled{At: time.Now(), Blue: input.Face(roll[0]), Red: input.Face(roll[1]), Confidence: 1})
	var v readingLine
	json.Unmarshal([]byte(f.next("reading", 20*time.Second)), &v)
	if int(v.Blue.Face) != roll[0] || int(v.Red.Face) != roll[1] {
		f.t.Fatalf("reading %+v, want %v", v, roll)
	}
	r := f.ask("learn", "learned", map[string]any{"blue": roll[0], "red": roll[1]})
	if r.Error != "" {
		f.t.Fatalf("learn %v: %+v", roll, r)
	}
	return r
}

// protosOf reads a calibration file: its prototypes per face (1-8).
func protosOf(t *testing.T, file string) map[int]int {
	t.Helper()
	c, err := vision.LoadNetCalibration(file)
	if err != nil {
		t.Fatalf("the file saved: %v", err)
	}
	out := map[int]int{}
	for f, ps := range c.Protos {
		if len(ps) > 0 {
			out[f+1] = len(ps)
		}
	}
	return out
}

// facesOf counts the faces of rolls, as prototypes per face.
func facesOf(rolls ...[2]int) map[int]int {
	out := map[int]int{}
	for _, r := range rolls {
		out[r[0]]++
		out[r[1]]++
	}
	return out
}

// keys lists a count's faces, in order.
func keys(m map[int]int) []int {
	var out []int
	for f := range m {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

// TestDicefeedCalibrateKeeps: a second calibration keeps the first's
// learning. The real reader learns two throws and saves; started again
// with that file, it tells the calibration in use at once, learns one
// more throw and saves: the file has the prototypes of the three throws,
// and the replies list the first file's faces as Earlier. After a reset
// ("start again"), nothing is kept: a save needs enough new dice, and
// the file then has the new throws' prototypes only.
func TestDicefeedCalibrateKeeps(t *testing.T) {
	file := filepath.Join(t.TempDir(), "calibration.json")
	first := newCalibFeed(startDemoFeed(t))
	rolls := first.rolls
	time.Sleep(time.Second) // the settler learns the tray
	first.learn(rolls[0])
	first.learn(rolls[1])
	if r := first.ask("calibrate", "calibrated", map[string]any{"file": file}); r.Error != "" || r.Dice != 4 {
		t.Fatalf("first save: %+v", r)
	}
	firstFaces := facesOf(rolls[0], rolls[1])
	if got := protosOf(t, file); !maps(got, firstFaces) {
		t.Fatalf("first file: prototypes %v, want %v", got, firstFaces)
	}
	first.stop()

	second := newCalibFeed(startDemoFeed(t, func(o *feedOpts) { o.Calibration = file }))
	var inUse input.DiceCalibReply
	if err := json.Unmarshal([]byte(second.next("calibration", 20*time.Second)), &inUse); err != nil {
		t.Fatal(err)
	}
	if inUse.ID != 0 || inUse.Dice != 4 || !slices.Equal(inUse.Earlier, keys(firstFaces)) || !slices.Equal(inUse.Faces, keys(firstFaces)) || len(inUse.Blue)+len(inUse.Red) != 0 {
		t.Errorf("the calibration in use at the start: %+v, want 4 dice of faces %v, none learned by die", inUse, keys(firstFaces))
	}
	time.Sleep(time.Second)
	t.Run("kept", func(t *testing.T) {
		r := second.learn(rolls[2])
		if r.Dice != 6 || r.Need != 0 || !slices.Equal(r.Earlier, keys(firstFaces)) || !slices.Equal(r.Blue, []int{rolls[2][0]}) || !slices.Equal(r.Red, []int{rolls[2][1]}) {
			t.Errorf("learn after the restart: %+v, want 6 dice, the first file's faces earlier, this throw's by die", r)
		}
		r = second.ask("calibrate", "calibrated", map[string]any{"file": file})
		want := facesOf(rolls[0], rolls[1], rolls[2])
		if r.Error != "" || !slices.Equal(r.Faces, keys(want)) {
			t.Errorf("second save: %+v, want faces %v", r, keys(want))
		}
		if got := protosOf(t, file); !maps(got, want) {
			t.Errorf("second file: prototypes %v, want both sessions' %v", got, want)
		}
	})
	t.Run("start again", func(t *testing.T) {
		before := protosOf(t, file)
		r := second.ask("reset", "reset", nil)
		if r.Error != "" || r.Dice != 0 || r.Need != minCalibDice || len(r.Earlier)+len(r.Blue)+len(r.Red) != 0 {
			t.Errorf("reset: %+v, want nothing learned", r)
		}
		if r := second.ask("calibrate", "calibrated", map[string]any{"file": file}); r.Code != "too-few" {
			t.Errorf("save after the reset: %+v, want too few", r)
		}
		if got := protosOf(t, file); !maps(got, before) {
			t.Errorf("the reset changed the file: %v, was %v", got, before)
		}
		second.learn(rolls[4])
		r = second.learn(rolls[5])
		if r.Dice != 4 || len(r.Earlier) != 0 {
			t.Errorf("learn after the reset: %+v, want 4 dice, none earlier", r)
		}
		r = second.ask("calibrate", "calibrated", map[string]any{"file": file})
		want := facesOf(rolls[4], rolls[5])
		if r.Error != "" || !slices.Equal(r.Faces, keys(want)) {
			t.Errorf("save after the reset: %+v, want faces %v", r, keys(want))
		}
		if got := protosOf(t, file); !maps(got, want) {
			t.Errorf("file after the reset: prototypes %v, want the new throws' only %v", got, want)
		}
	})
	second.stop()
}

func maps(a, b map[int]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestCalibStateColours: the staff page is told the colours the
// calibration in use learned (a violet "blue" die), and so are the
// replies once the reader learns more throws on top of it (Seed keeps
// them).
func TestCalibStateColours(t *testing.T) {
	violet := vision.HSVRange{HMin: 95, HMax: 150, SMin: 50, SMax: 255, VMin: 20, VMax: 255}
	var cal vision.NetCalibration
	cal.Protos[4] = append(cal.Protos[4], [len(cal.Protos[4][0])]float32{1})
	cal.Blue = &violet
	r, err := vision.NewCombined(&cal)
	if err != nil {
		t.Fatal(err)
	}
	c := &calibrator{reader: &swapReader{r: r}, seed: &cal, now: time.Now}
	defer c.reader.Close()
	defer c.close()
	want := []input.DieColour{{Die: "blue", From: 190, To: 300, OwnFrom: 2 * vision.DefaultNetOpts.Blue.HMin, OwnTo: 2 * vision.DefaultNetOpts.Blue.HMax}}
	var inUse input.DiceCalibReply
	c.state(&inUse)
	if !slices.Equal(inUse.Colours, want) {
		t.Errorf("the calibration in use: colours %+v, want %+v", inUse.Colours, want)
	}
	if err := c.calibrator(); err != nil {
		t.Fatal(err)
	}
	var learning input.DiceCalibReply
	c.state(&learning)
	if !slices.Equal(learning.Colours, want) {
		t.Errorf("learning on top of it: colours %+v, want %+v", learning.Colours, want)
	}
	c.reset(calibRequest{ID: 1})
	var reset input.DiceCalibReply
	c.state(&reset)
	if len(reset.Colours) != 0 {
		t.Errorf("after a reset: colours %+v, want none", reset.Colours)
	}
}
