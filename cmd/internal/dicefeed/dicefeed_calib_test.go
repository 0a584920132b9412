package dicefeed

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"comptoir/hw/replay"
	"comptoir/input"
	"comptoir/vision"
)

// TestDicefeedCalibrate runs the real reader on the demo's pictured rolls
// and calibrates it from them through stdin, as the daemon does for the
// staff page: bad requests are refused and change nothing; a throw is
// learned die by die; a face the classifier surely reads otherwise is
// refused in both languages; saving before enough dice says how many
// more; the saved file is a calibration vision loads, and the reader
// reads on with it.
func TestDicefeedCalibrate(t *testing.T) {
	learnedPath := filepath.Join(t.TempDir(), "camera-learned.json")
	feed := startDemoFeed(t, func(o *feedOpts) { o.Learned = learnedPath })
	rolls, inW := feed.rolls, feed.in
	next := func(typ string) string { t.Helper(); return feed.next(typ, 20*time.Second) }
	ask := func(req, typ string) input.DiceCalibReply {
		t.Helper()
		fmt.Fprintln(inW, req)
		var r input.DiceCalibReply
		if err := json.Unmarshal([]byte(next(typ)), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	w := replay.NewWriter(inW)
	show := func(roll [2]int) {
		t.Helper()
		w.Write(input.DiceRolled{At: time.Now(), Blue: input.Face(roll[0]), Red: input.Face(roll[1]), Confidence: 1})
		var v readingLine
		json.Unmarshal([]byte(next("reading")), &v)
		if int(v.Blue.Face) != roll[0] || int(v.Red.Face) != roll[1] {
			t.Fatalf("reading %+v, want %v", v, roll)
		}
	}
	time.Sleep(time.Second) // the settler learns the tray
	file := filepath.Join(t.TempDir(), "calibration.json")

	show(rolls[0])
	t.Run("bad requests", func(t *testing.T) {
		for _, tc := range []struct{ req, typ, words string }{
			{`{"type":"learn","id":1,"blue":9,"red":2}`, "learned", "1 to 8"},
			{`{"type":"learn","id":2}`, "learned", "1 to 8"},
			{`{"type":"learn",`, "error", "not JSON"},
			{`{"type":"calibrate","id":3,"file":"calibration.json"}`, "calibrated", "absolute"},
		} {
			r := ask(tc.req, tc.typ)
			if r.Code != "bad-request" || !strings.Contains(r.Error, tc.words) || r.ErrorFR == "" || r.Dice != 0 {
				t.Errorf("%s: %+v, want a bad request saying %q in both languages, nothing learned", tc.req, r, tc.words)
			}
		}
	})
	t.Run("learn", func(t *testing.T) {
		r := ask(fmt.Sprintf(`{"type":"learn","id":4,"blue":%d,"red":%d}`, rolls[0][0], rolls[0][1]), "learned")
		if r.ID != 4 || r.Error != "" || r.Dice != 2 || r.Need != minCalibDice-2 || !slices.Equal(r.Blue, []int{rolls[0][0]}) || !slices.Equal(r.Red, []int{rolls[0][1]}) {
			t.Errorf("learn %v: %+v, want both dice learned", rolls[0], r)
		}
		r = ask(`{"type":"calibrate","id":5,"file":"`+file+`"}`, "calibrated")
		if r.Code != "too-few" || !strings.Contains(r.Error, fmt.Sprintf("%d more", minCalibDice-2)) || r.ErrorFR == "" {
			t.Errorf("save after one throw: %+v, want too few, saying how many more", r)
		}
		if _, err := os.Stat(file); err == nil {
			t.Error("a refused save wrote the file")
		}
		// The blue die told as another face: the classifier is sure.
		wrong := rolls[0][0]%8 + 1
		r = ask(fmt.Sprintf(`{"type":"learn","id":6,"blue":%d,"red":%d}`, wrong, rolls[0][1]), "learned")
		if r.Code != "refused" || !strings.Contains(r.Error, fmt.Sprintf("blue die, face %d", wrong)) || !strings.Contains(r.ErrorFR, "dé bleu") ||
			!slices.Equal(r.Learned, []string{"red"}) || slices.Contains(r.Blue, wrong) || r.Dice != 3 {
			t.Errorf("learn a mistyped blue %d: %+v, want the blue refused in both languages, the red learned", wrong, r)
		}
		show(rolls[1])
		r = ask(fmt.Sprintf(`{"type":"learn","id":7,"blue":%d,"red":%d}`, rolls[1][0], rolls[1][1]), "learned")
		if r.Error != "" || r.Dice != 5 || r.Need != 0 || !slices.Contains(r.Blue, rolls[1][0]) || !slices.Contains(r.Red, rolls[1][1]) {
			t.Errorf("learn %v: %+v, want both learned and enough to save", rolls[1], r)
		}
		// every die learned was shown to the hand-tuned reader's "tilted"
		// test; the staff page says the camera leans when they say so
		if r.Shown != 5 || r.Tilted > r.Shown || r.Leans != vision.TiltMisleads(r.Tilted, r.Shown) {
			t.Errorf("learn %v: %d of %d dice tilted, leans %v, want of 5 and leans as vision says", rolls[1], r.Tilted, r.Shown, r.Leans)
		}
		// and where this camera shows a flat die's numeral: 5 flat dice,
		// too few to refuse a die cocked against a wall
		if r.Flat != 5 || r.FlatNeed != vision.MinFlatDice-5 {
			t.Errorf("learn %v: %d flat dice, %d more needed; want 5 and %d", rolls[1], r.Flat, r.FlatNeed, vision.MinFlatDice-5)
		}
		// and how large the dice look: the demo's camera is not too far
		if r.Across < vision.SmallDieAcross || r.Across > 160 || r.Small || r.SmallUnder != vision.SmallDieAcross {
			t.Errorf("learn %v: dice %d pixels across, small %v (under %d); want 40 to 160, not small", rolls[1], r.Across, r.Small, r.SmallUnder)
		}
	})
	t.Run("calibrate", func(t *testing.T) {
		r := ask(`{"type":"calibrate","id":8,"file":"`+file+`"}`, "calibrated")
		if r.ID != 8 || r.Error != "" || r.File != file {
			t.Fatalf("save: %+v", r)
		}
		c, err := vision.LoadNetCalibration(file)
		if err != nil {
			t.Fatalf("the file saved: %v", err)
		}
		for _, f := range []int{rolls[0][0], rolls[0][1], rolls[1][0], rolls[1][1]} {
			if !slices.Contains(c.Faces(), f) || !slices.Contains(r.Faces, f) {
				t.Errorf("calibration faces %v (reply %v), want face %d learned", c.Faces(), r.Faces, f)
			}
		}
		// the 5 dice learned were shown to the hand-tuned reader's
		// "tilted" test too (vision.NetCalibration.TiltMisleads)
		if c.HandChecked != 5 || c.HandTilted > c.HandChecked {
			t.Errorf("calibration: %d of %d dice tilted to the hand-tuned reader, want of 5", c.HandTilted, c.HandChecked)
		}
		if left, _ := filepath.Glob(filepath.Join(filepath.Dir(file), ".*tmp")); len(left) != 0 {
			t.Errorf("temporary files left: %v", left)
		}
		// the calibrated reader reads on
		show(rolls[2])
		show(rolls[3])
	})
	// The staff moved the camera: the reader forgets where it showed a
	// flat die's numeral (the calibration's flat dice too) and how large
	// it showed the dice, writes its --learned file at once, and reads on
	// with the calibration's prototypes.
	t.Run("forget the camera", func(t *testing.T) {
		if l := readLearned(t, learnedPath); l.Dice() == 0 || l.Sizes() == 0 {
			t.Fatalf("before: the file holds %d flat dice, %d widths; want some", l.Dice(), l.Sizes())
		}
		r := ask(`{"type":"forget-camera","id":9}`, "camera-forgotten")
		if r.ID != 9 || r.Error != "" || r.View == nil || r.View.Flat != 0 || r.View.FlatNeed != vision.MinFlatDice || r.View.Across != 0 {
			t.Errorf("forget-camera: %+v (view %+v), want nothing of the camera known", r, r.View)
		}
		if r.Faces == nil && r.Dice == 0 && len(r.Earlier) == 0 {
			t.Errorf("forget-camera: %+v, want the calibration in use kept", r)
		}
		if l := readLearned(t, learnedPath); l.Dice() != 0 || l.Sizes() != 0 {
			t.Errorf("after: the file holds %d flat dice, %d widths; want none", l.Dice(), l.Sizes())
		}
		show(rolls[4])
	})
	feed.stop()
}
