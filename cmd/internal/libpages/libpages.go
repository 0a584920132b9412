//go:build linux

// Package libpages gives back to the kernel the pages of the files a
// process maps read-only: its program's and its shared libraries' code and
// constants, touched at start by the dynamic loader and the runtime and
// never again for most of them.
//
// The dice reader needs it most: Debian's OpenCV maps about 260 shared
// libraries (GDAL, Qt, FFmpeg, GStreamer, poppler, through its imgcodecs,
// highgui and videoio modules) and the loader touches tens of MB of their
// pages at start, which then count as the reader's resident memory for as
// long as the table runs, though the reader never runs that code again.
// Those pages are clean copies of files, which the kernel could drop under
// pressure anyway; dropped at once, only what the process uses comes back,
// at its next use, from the page cache or the disk.
//
// The kernel leaves alone a page that another process maps too: libc,
// shared with comptoird, stays; and a process that measures the reader's
// memory (comptoir memory, which maps OpenCV as well) must drop its own
// pages first, or it keeps the reader's resident.
package libpages

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// fileMapping is one read-only mapping of a file in /proc/self/maps.
type fileMapping struct {
	Start, End uintptr
	Path       string
}

// readOnlyFileMappings reads the mappings of files that the process cannot
// write (code and constants of the program and its shared libraries) from
// a /proc/PID/maps.
func readOnlyFileMappings(r io.Reader) ([]fileMapping, error) {
	var out []fileMapping
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		// start-end perms offset dev inode path
		f := strings.Fields(sc.Text())
		if len(f) < 6 || !strings.HasPrefix(f[5], "/") || f[4] == "0" || strings.Contains(f[1], "w") {
			continue
		}
		lo, hi, ok := strings.Cut(f[0], "-")
		if !ok {
			return nil, fmt.Errorf("maps: %q: want start-end", f[0])
		}
		start, err1 := strconv.ParseUint(lo, 16, 64)
		end, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 != nil || err2 != nil || end <= start {
			return nil, fmt.Errorf("maps: %q: want start-end in hexadecimal", f[0])
		}
		out = append(out, fileMapping{uintptr(start), uintptr(end), strings.Join(f[5:], " ")})
	}
	return out, sc.Err()
}

// Drop asks the kernel to take back the pages of the files this process
// maps read-only (madvise MADV_PAGEOUT, Linux 5.4 and later), and returns
// how many mappings it asked for. An older kernel refuses with EINVAL: the
// pages then stay until the kernel needs them, as before.
func Drop() (mappings int, err error) {
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return 0, err
	}
	maps, err := readOnlyFileMappings(f)
	f.Close()
	if err != nil {
		return 0, err
	}
	for _, m := range maps {
		if _, _, e := unix.Syscall(unix.SYS_MADVISE, m.Start, m.End-m.Start, unix.MADV_PAGEOUT); e != 0 {
			return mappings, fmt.Errorf("madvise(MADV_PAGEOUT) %s: %w", m.Path, e)
		}
		mappings++
	}
	return mappings, nil
}
