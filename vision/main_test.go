package vision

import (
	"fmt"
	"os"
	"testing"
)

// TestMain runs the tests and, when they are built with -tags matprofile,
// fails if any gocv.Mat is left open at the end.
func TestMain(m *testing.M) {
	code := m.Run()
	if n := openMats(); n > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: %d gocv.Mat left open:\n%s\n", n, openMatStacks())
		code = 1
	}
	os.Exit(code)
}
