package backoff_test

import (
	"errors"
	"fmt"
	"time"

	"comptoir/hw/backoff"
)

func Example() {
	h := backoff.New(backoff.Opts{Min: 250 * time.Millisecond, Max: time.Second, Device: "sensors"})
	now := time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC)
	for i := 0; i < 4; i++ {
		st, report, wait := h.Failed(now, errors.New("no ack at 0x20"))
		fmt.Println(report, st.Detail, wait)
	}
	st, report := h.Answered(now)
	fmt.Println(report, st.OK, st.Detail)
	// Output:
	// true no ack at 0x20 250ms
	// false  500ms
	// false  1s
	// false  1s
	// true true ready
}
