// Package leakcheck checks, in tests, that the goroutines a test started
// have all ended.
package leakcheck

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// Check records the goroutines running now and registers a cleanup that
// fails t if more are running at the end of the test, after giving them up
// to two seconds to finish. Call it first in a test, before the test starts
// anything.
func Check(t testing.TB) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		deadline := time.Now().Add(2 * time.Second)
		for {
			n := runtime.NumGoroutine()
			if n <= before {
				return
			}
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<16)
				buf = buf[:runtime.Stack(buf, true)]
				t.Errorf("goroutine leak: %d running after the test, %d before\n%s", n, before, trim(string(buf)))
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	})
}

// trim keeps the stacks that are not the testing machinery's.
func trim(s string) string {
	var keep []string
	for _, g := range strings.Split(s, "\n\n") {
		if strings.Contains(g, "testing.(*T).Run") || strings.Contains(g, "testing.tRunner") || strings.Contains(g, "testing.(*M)") {
			continue
		}
		keep = append(keep, g)
	}
	return strings.Join(keep, "\n\n")
}
