//go:build linux

package libpages

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func TestReadOnlyFileMappings(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []fileMapping
		err  string
	}{
		{"a library's code and constants", "" +
			"7f2a10000000-7f2a10200000 r--p 00000000 fe:00 123 /usr/lib/x86_64-linux-gnu/libgdal.so.32\n" +
			"7f2a10200000-7f2a10900000 r-xp 00200000 fe:00 123 /usr/lib/x86_64-linux-gnu/libgdal.so.32\n",
			[]fileMapping{{0x7f2a10000000, 0x7f2a10200000, "/usr/lib/x86_64-linux-gnu/libgdal.so.32"}, {0x7f2a10200000, 0x7f2a10900000, "/usr/lib/x86_64-linux-gnu/libgdal.so.32"}}, ""},
		{"writable data, the heap, anonymous memory and the vdso are kept", "" +
			"7f2a10900000-7f2a10a00000 rw-p 00900000 fe:00 123 /usr/lib/x86_64-linux-gnu/libgdal.so.32\n" +
			"01e8f000-02500000 rw-p 00000000 00:00 0 [heap]\n" +
			"7f2a20000000-7f2a24000000 rw-p 00000000 00:00 0 \n" +
			"7ffd1000-7ffd3000 r-xp 00000000 00:00 0 [vdso]\n", nil, ""},
		{"a path with a space", "00400000-0040b000 r--p 00000000 fe:00 9 /opt/my apps/comptoir-dice\n",
			[]fileMapping{{0x400000, 0x40b000, "/opt/my apps/comptoir-dice"}}, ""},
		{"no range", "00400000 r--p 00000000 fe:00 9 /bin/x\n", nil, "want start-end"},
		{"not hexadecimal", "0040z000-0040b000 r--p 00000000 fe:00 9 /bin/x\n", nil, "hexadecimal"},
		{"empty range", "0040b000-00400000 r--p 00000000 fe:00 9 /bin/x\n", nil, "hexadecimal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readOnlyFileMappings(strings.NewReader(tt.in))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("= %v, %v; want an error with %q", got, err, tt.err)
				}
				return
			}
			if err != nil || fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("= %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

// TestDrop maps a file read-only, reads every page of it (resident), and
// checks that Drop gives them back: the mapping's resident size in
// /proc/self/smaps falls from the file's size to almost nothing.
func TestDrop(t *testing.T) {
	const size = 4 << 20
	dir := diskDir(t)
	path := filepath.Join(dir, "lib.so")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	data := make([]byte, size)
	for i := range data {
		data[i] = byte(i)
	}
	if _, err := f.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil { // clean pages, as a library's are
		t.Fatal(err)
	}
	m, err := unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ, unix.MAP_PRIVATE)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(m)
	sum := 0
	for i := 0; i < size; i += 4096 {
		sum += int(m[i])
	}
	abs, _ := filepath.Abs(path)
	before := residentKB(t, abs)
	if before < size/1024*3/4 {
		t.Fatalf("the mapping holds %d kB resident after reading it all (sum %d), want about %d", before, sum, size/1024)
	}
	n, err := Drop()
	if errors.Is(err, unix.EINVAL) {
		t.Skipf("this kernel has no MADV_PAGEOUT: %v", err)
	}
	if err != nil || n == 0 {
		t.Fatalf("Drop = %d, %v", n, err)
	}
	after := residentKB(t, abs)
	t.Logf("the mapping of %d kB held %d kB resident before Drop, %d after", size/1024, before, after)
	if after > before/4 {
		t.Errorf("the mapping holds %d kB resident after Drop, %d before: want most given back", after, before)
	}
	// What the process uses comes back, unchanged.
	if last, mid := size-1, 12345; m[last] != byte(last) || m[mid] != byte(mid) {
		t.Errorf("the file's bytes changed after Drop")
	}
}

// diskDir makes a folder for the test's file on a file system backed by
// a disk, beside the test or in the temporary folder: a page of tmpfs has
// no file to be read back from, and the kernel keeps it.
func diskDir(t *testing.T) string {
	t.Helper()
	for _, parent := range []string{".", os.TempDir()} {
		var st unix.Statfs_t
		if err := unix.Statfs(parent, &st); err != nil || st.Type == unix.TMPFS_MAGIC || st.Type == unix.RAMFS_MAGIC {
			continue
		}
		dir, err := os.MkdirTemp(parent, "libpages-test-")
		if err != nil {
			continue
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		return dir
	}
	t.Skip("neither the test's folder nor the temporary folder is on a disk: pages of tmpfs cannot be given back")
	return ""
}

// residentKB is the resident size of this process's mapping of path, from
// /proc/self/smaps.
func residentKB(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	in, total := false, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		// a mapping's first line: start-end perms offset dev inode [path]
		if fields := strings.Fields(line); len(fields) >= 5 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			in = len(fields) >= 6 && strings.Join(fields[5:], " ") == path
			continue
		}
		if v, ok := strings.CutPrefix(line, "Rss:"); in && ok {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			if err != nil {
				t.Fatalf("smaps: %q: %v", line, err)
			}
			total += n
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return total
}
