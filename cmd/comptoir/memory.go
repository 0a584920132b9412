package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func init() {
	commands["memory"] = command{
		summary: "measure a process's resident memory (the daemon during the demo)",
		run:     runMemory,
	}
}

// rss is one reading of a process's resident memory, in kB.
type rss struct {
	Total, Anon, File int64
}

// readRSS reads the resident memory of process pid from /proc.
func readRSS(pid int) (rss, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return rss{}, err
	}
	defer f.Close()
	return parseStatus(f)
}

// parseStatus reads VmRSS, RssAnon and RssFile from a /proc/PID/status.
func parseStatus(r io.Reader) (rss, error) {
	var out rss
	found := false
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		var dst *int64
		switch key {
		case "VmRSS":
			dst, found = &out.Total, true
		case "RssAnon":
			dst = &out.Anon
		case "RssFile":
			dst = &out.File
		default:
			continue
		}
		f := strings.Fields(val)
		if len(f) != 2 || f[1] != "kB" {
			return rss{}, fmt.Errorf("%s: %q: want a size in kB", key, strings.TrimSpace(val))
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return rss{}, fmt.Errorf("%s: %q: %w", key, f[0], err)
		}
		*dst = n
	}
	if err := sc.Err(); err != nil {
		return rss{}, err
	}
	if !found {
		return rss{}, errors.New("no VmRSS line: not a /proc/PID/status of a running process")
	}
	return out, nil
}

func mb(kb int64) string { return fmt.Sprintf("%.1f MB", float64(kb)/1024) }

// runMemory samples the resident memory of a process: one it starts (the
// arguments after --), stopped with SIGTERM at the end, or one running
// (--pid). It prints the peak and fails when the peak is over the budget.
func runMemory(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("memory", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dur := fs.Duration("for", time.Minute, "how long to sample")
	every := fs.Duration("every", 500*time.Millisecond, "the time between two samples")
	pid := fs.Int("pid", 0, "sample this running process instead of starting one")
	budget := fs.Float64("budget", 80, "the budget in MB (1 MB = 1024 kB); a peak above it is an error")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: comptoir memory [--for 1m] [--every 500ms] [--budget 80] (--pid PID | -- COMMAND [ARG...])")
		fmt.Fprintln(stderr, "for example, the daemon during the demo:")
		fmt.Fprintln(stderr, "  go build -o bin/ ./cmd/comptoir ./cmd/comptoird")
		fmt.Fprintln(stderr, "  bin/comptoir memory --for 2m -- bin/comptoird --config configs/tables/demo.yaml --journal /tmp/mem.db --listen 127.0.0.1:18090")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if *every <= 0 || *dur < *every || (*pid == 0) == (fs.NArg() == 0) {
		fs.Usage()
		return errUsage
	}
	var cmd *exec.Cmd
	if *pid == 0 {
		cmd = exec.Command(fs.Arg(0), fs.Args()[1:]...)
		cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
		if err := cmd.Start(); err != nil {
			return err
		}
		*pid = cmd.Process.Pid
		defer func() {
			cmd.Process.Signal(syscall.SIGTERM)
			cmd.Wait()
		}()
	}
	var peak, last rss
	n := 0
	start := time.Now()
	for time.Since(start) < *dur {
		time.Sleep(*every)
		r, err := readRSS(*pid)
		if err != nil {
			if n == 0 {
				return fmt.Errorf("process %d: %w", *pid, err)
			}
			return fmt.Errorf("process %d ended after %d samples: %w", *pid, n, err)
		}
		n++
		last = r
		if r.Total > peak.Total {
			peak = r
		}
	}
	fmt.Fprintf(stdout, "resident memory of process %d over %v (%d samples): peak %s (anon %s, file %s), last %s; budget %.0f MB\n",
		*pid, dur.Round(time.Second), n, mb(peak.Total), mb(peak.Anon), mb(peak.File), mb(last.Total), *budget)
	if float64(peak.Total)/1024 > *budget {
		return fmt.Errorf("peak %s is over the %.0f MB budget", mb(peak.Total), *budget)
	}
	return nil
}
