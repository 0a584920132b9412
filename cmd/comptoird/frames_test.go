//go:build !novision

package main

import (
	"context"
	"testing"
	"time"

	"comptoir/hw/clock"
	"comptoir/input"
)

// TestPictureDice shows rolls as rendered pictures to the real dice reader
// and settler, and checks that they report those rolls.
func TestPictureDice(t *testing.T) {
	run, hook, closePictures, err := openPictureDice("../../vision/testdata/rendered", clock.Real(), t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer closePictures()
	ctx, cancel := context.WithCancel(context.Background())
	events := run(ctx)
	defer func() {
		cancel()
		for range events {
		}
	}()
	// The settler first learns the tray's look from the first picture.
	time.Sleep(time.Second)
	for _, roll := range [][2]int{{7, 5}, {5, 7}, {2, 6}} {
		if !hook(input.DiceRolled{Blue: input.Face(roll[0]), Red: input.Face(roll[1]), Confidence: 1}) {
			t.Fatalf("no picture of %v reads right", roll)
		}
		timeout := time.After(10 * time.Second)
	wait:
		for {
			select {
			case e := <-events:
				d, ok := e.(input.DiceRolled)
				if !ok {
					t.Logf("event %v", e)
					continue
				}
				if int(d.Blue) != roll[0] || int(d.Red) != roll[1] || d.Correction {
					t.Fatalf("the reader reports %v, want the roll %v", d, roll)
				}
				break wait
			case <-timeout:
				t.Fatalf("no roll reported for the picture of %v", roll)
			}
		}
	}
	if hook(input.DiceRolled{Blue: 9, Red: 1}) {
		t.Errorf("a picture of blue 9 was shown")
	}
}
