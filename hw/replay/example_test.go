package replay_test

import (
	"context"
	"fmt"
	"math"

	"comptoir/hw/replay"
	"comptoir/hw/tagmap"
)

// Play the demo turn without waiting, resolving its tags with the demo's
// tag map, as the daemon's demo mode does.
func ExampleOpen() {
	src, err := replay.Open("../testdata/table-demo.jsonl", replay.Opts{Speed: math.Inf(1), KeepTimes: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	tags, err := tagmap.Load("../testdata/tags.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for e := range tagmap.NewResolver(tags).Run(ctx, src.Run(ctx)) {
		fmt.Println(e.When().Format("15:04:05.000"), e)
	}
	// Output:
	// 20:00:00.000 nfc ok MFRC522 v2
	// 20:00:02.410 dice blue=3 red=2 conf=0.98
	// 20:00:05.120 tag 04A20000000202 = square 2-2
	// 20:00:06.300 sensed [2-2 3-2]
	// 20:00:06.480 tag 04A20000000302 = square 3-2 (Street 3-2)
	// 20:00:07.900 sensed [2-2 3-2 3-3]
	// 20:00:08.050 tag 04A20000000303 = square 3-3
	// 20:00:09.700 button confirm
	// 20:00:12.000 tag 04C00000000101 = card L01
	// 20:00:13.500 unknown tag 04FFFFFFFFFF01
	// 20:00:14.000 button undo
	// 20:00:15.000 nfc fault: nfc: the reader does not answer: MFRC522: version register reads 0x00
	// 20:00:17.250 nfc ok reader answers again
	// 20:00:18.000 dice unreadable: red die cocked against the tray wall
	// 20:00:20.000 dice blue=5 red=6 conf=0.95 (correction)
}
