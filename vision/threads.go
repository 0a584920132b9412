package vision

/*
#cgo !windows pkg-config: opencv4
#cgo CXXFLAGS: --std=c++11
#include "threads.h"
*/
import "C"

// SetThreads sets how many threads OpenCV's own loops (resizing, the
// network's layers) may use in this process and returns the number it
// uses now. OpenCV's default, one worker per core, costs more CPU than
// it saves on the small work of a dice frame: the workers spin between
// the many short parallel loops. The dice reader's process runs on one
// (about 1.3 ms of CPU a frame saved with the learned reader, 0.5 ms
// more of wall time; BenchmarkRead640 measures it that way). n below 1
// changes nothing.
func SetThreads(n int) int {
	if n < 1 {
		n = -1
	}
	return int(C.comptoir_set_threads(C.int(n)))
}
