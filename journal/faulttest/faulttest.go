// Package faulttest makes real file system faults for the journal's
// tests: files made immutable with chattr(1), and a full disk (a small
// tmpfs mounted for the test). Where the test may not make the fault (not
// root, no chattr, a file system without attributes), it skips the test
// and says why.
package faulttest

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

// NeedChattr skips t unless chattr +i works in dir (root, chattr
// installed, a file system with attributes such as ext4).
func NeedChattr(t testing.TB, dir string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("chattr +i needs root: run the test as root on ext4 (or another file system with attributes) to make the file immutable")
	}
	if _, err := exec.LookPath("chattr"); err != nil {
		t.Skip("chattr not found (Debian package e2fsprogs): cannot make a file immutable")
	}
	probe := filepath.Join(dir, ".chattr-probe")
	if err := os.WriteFile(probe, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(probe)
	if out, err := exec.Command("chattr", "+i", probe).CombinedOutput(); err != nil {
		t.Skipf("the file system of %s does not take chattr +i (%v: %s): skipping the immutable-file fault", dir, err, bytes.TrimSpace(out))
	}
	exec.Command("chattr", "-i", probe).Run()
}

// Immutable makes files immutable (chattr +i), creating those missing as
// empty files, and makes them mutable again when the test ends. It
// returns a function that makes them mutable at once.
func Immutable(t testing.TB, files ...string) (undo func()) {
	t.Helper()
	for _, f := range files {
		if _, err := os.Stat(f); errors.Is(err, os.ErrNotExist) {
			if err := os.WriteFile(f, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	args := append([]string{"+i"}, files...)
	if out, err := exec.Command("chattr", args...).CombinedOutput(); err != nil {
		t.Fatalf("chattr +i %v: %v: %s", files, err, out)
	}
	done := false
	undo = func() {
		if done {
			return
		}
		done = true
		args := append([]string{"-i"}, files...)
		if out, err := exec.Command("chattr", args...).CombinedOutput(); err != nil {
			t.Errorf("chattr -i %v: %v: %s", files, err, out)
		}
	}
	t.Cleanup(undo)
	return undo
}

// SmallDisk mounts a tmpfs of size bytes on a new folder and returns the
// folder; it is unmounted when the test ends. It skips t where it may not
// mount (not root, no mount(2) allowed).
func SmallDisk(t testing.TB, size int) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("a full disk needs a small tmpfs, which only root may mount: skipping the disk-full fault")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+strconv.Itoa(size)); err != nil {
		t.Skipf("cannot mount a tmpfs on %s (%v): skipping the disk-full fault", dir, err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir
}

// Fill writes zeros into file until the disk is full and returns how
// much it wrote.
func Fill(t testing.TB, file string) int64 {
	t.Helper()
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n, err := io.Copy(f, zeros{})
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("filling %s: wrote %d bytes, then %v; want ENOSPC", file, n, err)
	}
	return n
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
