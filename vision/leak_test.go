package vision

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// checkLeaks fails t if the test leaves more goroutines running than it
// found, after giving them two seconds to end, or (with -tags matprofile)
// more gocv.Mats open. Call it first in the test.
func checkLeaks(t testing.TB) {
	t.Helper()
	goroutines, mats := runtime.NumGoroutine(), openMats()
	t.Cleanup(func() {
		deadline := time.Now().Add(2 * time.Second)
		for runtime.NumGoroutine() > goroutines && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > goroutines {
			buf := make([]byte, 1<<16)
			buf = buf[:runtime.Stack(buf, true)]
			var keep []string
			for _, g := range strings.Split(string(buf), "\n\n") {
				if !strings.Contains(g, "testing.") {
					keep = append(keep, g)
				}
			}
			t.Errorf("goroutine leak: %d running after the test, %d before\n%s", n, goroutines, strings.Join(keep, "\n\n"))
		}
		if n := openMats(); n > mats {
			t.Errorf("Mat leak: %d gocv.Mats open after the test, %d before\n%s", n, mats, openMatStacks())
		}
	})
}
