package dicefeed

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"comptoir/input"
	"comptoir/vision"
)

// TestDicefeedKeepsLearnedCamera: dicefeed --learned FILE keeps what the
// reader learned of its camera across a restart. A first dicefeed plays
// table 3's first fourteen throws (val-tables) and learns where its
// camera shows a flat die's numeral; a second, started afresh with the
// same file, is shown 00138.jpg alone, whose red die is cocked against
// the tray's wall showing an 8 and a 2: it refuses the die (WhyNotFlatHere)
// at once, where a reader started without the file reads it as a 2, a
// wrong roll. A file that is not one is kept aside as FILE.bad, said in
// the log, and written again from what the reader learns.
func TestDicefeedKeepsLearnedCamera(t *testing.T) {
	throws, _, frames := table3Throws(t)
	played, cocked := frames(throws[:14]), frames(throws[14:])
	notFlat := "red die: " + vision.Why{Code: vision.WhyNotFlatHere}.EN()
	run := func(t *testing.T, dir, learned string) (last input.Event, stderr string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		// paced faster than a camera: the settler counts frames
		fr := startFeed(t, ctx, feedOpts{Frames: dir, FPS: 300, KeepOnEOF: true, Learned: learned})
		fr.stdin.Close()
		for e := range fr.events {
			switch e.(type) {
			case input.DiceRolled, input.DiceUnreadable:
				last = e
			}
		}
		if err := <-fr.done; err != nil {
			t.Fatalf("dicefeed: %v\n%s", err, fr.stderr)
		}
		return last, fr.stderr.String()
	}

	path := filepath.Join(t.TempDir(), "camera-learned.json")
	if _, errs := run(t, played, path); strings.Contains(errs, "learned:") {
		t.Errorf("a first start with no file yet logs:\n%s", errs)
	}
	l := readLearned(t, path)
	if l.Dice() < vision.MinFlatDice || l.Sizes() < 4 || l.Calibration != "" {
		t.Fatalf("after 14 throws the file holds %d flat dice, %d widths, calibration %q; want at least %d flat dice and 4 widths, no calibration", l.Dice(), l.Sizes(), l.Calibration, vision.MinFlatDice)
	}

	t.Run("restarted with the file", func(t *testing.T) {
		last, errs := run(t, cocked, path)
		if u, ok := last.(input.DiceUnreadable); !ok || !strings.Contains(u.Reason, notFlat) {
			t.Errorf("00138.jpg after the restart: %v, want %s", last, notFlat)
		}
		if !strings.Contains(errs, "the reader knows") || !strings.Contains(errs, path) {
			t.Errorf("the log does not say what was read back from %s:\n%s", path, errs)
		}
	})
	t.Run("restarted without it", func(t *testing.T) {
		// what the file spares: a reader that learned nothing is wrong
		last, _ := run(t, cocked, "")
		if r, ok := last.(input.DiceRolled); !ok || r.Red != 2 {
			t.Errorf("00138.jpg, no file: %v, want the red die read as the 2 it shows", last)
		}
	})
	t.Run("a file that cannot be written", func(t *testing.T) {
		// a folder gone (a disk unmounted, a full one errs the same
		// way): said once in the log, the dice read all the same
		gone := filepath.Join(t.TempDir(), "gone", "camera-learned.json")
		last, errs := run(t, played, gone)
		if n := strings.Count(errs, "is not kept (it still reads)"); n != 1 || !strings.Contains(errs, gone) {
			t.Errorf("the log says %d times that the file is not kept, want once, naming it:\n%s", n, errs)
		}
		if last == nil {
			t.Errorf("no throw read")
		}
	})
	t.Run("a damaged file", func(t *testing.T) {
		bad := filepath.Join(t.TempDir(), "camera-learned.json")
		junk := []byte(`{"kind":"comptoir dice reader's camera","flat_dice":[[0,0,0]]}`)
		if err := os.WriteFile(bad, junk, 0o644); err != nil {
			t.Fatal(err)
		}
		last, errs := run(t, cocked, bad)
		if !strings.Contains(errs, "flat_dice[0]: 3 numbers") || !strings.Contains(errs, "kept as "+bad+".bad") {
			t.Errorf("the log does not say what is wrong and where the file went:\n%s", errs)
		}
		if kept, err := os.ReadFile(bad + ".bad"); err != nil || string(kept) != string(junk) {
			t.Errorf("the damaged file is not kept as it was: %q, %v", kept, err)
		}
		if _, ok := last.(input.DiceRolled); !ok {
			t.Errorf("00138.jpg, the file damaged: %v, want read as by a reader that learned nothing", last)
		}
		if l := readLearned(t, bad); l.Dice() == 0 {
			t.Errorf("the file is not written again from the rest learned")
		}
	})
}

// readLearned reads a file of what the reader learned of its camera
// (dicefeed --learned).
func readLearned(t *testing.T, path string) vision.LearnedCamera {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	l, err := vision.DecodeLearnedCamera(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return l
}
