//go:build !linux

package libpages

import "errors"

// Drop gives pages back on Linux only (madvise MADV_PAGEOUT); elsewhere
// it says so and the pages stay until the kernel needs them.
func Drop() (mappings int, err error) {
	return 0, errors.New("giving a program's pages back needs Linux (madvise MADV_PAGEOUT)")
}
