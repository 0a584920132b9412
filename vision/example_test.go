package vision_test

import (
	"context"
	"fmt"
	"log"

	"comptoir/input"
	"comptoir/vision"
)

// Settle a recorded throw, read by the real reader: one roll, reported
// three frames after the dice came to rest.
func ExampleWatch() {
	r, err := vision.NewReader(vision.DefaultReaderOpts)
	if err != nil {
		log.Fatal(err)
	}
	src, err := vision.OpenSource(context.Background(), "testdata/sequences-640/roll", vision.DefaultCameraOpts)
	if err != nil {
		log.Fatal(err)
	}
	defer src.Close()
	o := vision.DefaultWatchOpts
	o.FrameRate = 30 // stamp the frames as filmed, not as read
	for e := range vision.Watch(context.Background(), src, r.Read, o) {
		if roll, ok := e.(input.DiceRolled); ok {
			fmt.Printf("blue %d, red %d, correction %v, %v after the dice stopped\n", roll.Blue, roll.Red, roll.Correction, roll.Latency.Round(1e6))
		} else {
			fmt.Println(e)
		}
	}
	// Output:
	// blue 2, red 5, correction false, 100ms after the dice stopped
}
