package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"comptoir/cmd/internal/libpages"
)

func init() {
	commands["memory"] = command{
		summary: "measure a process's resident memory, and with its children (the daemon and its dice reader during the demo)",
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

// descendants returns the processes started by pid, their children and
// so on, from the parent field of every /proc/N/stat.
func descendants(pid int) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	kids := map[int][]int{}
	for _, e := range ents {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", n))
		if err != nil {
			continue // gone meanwhile
		}
		if ppid, ok := parentOf(string(data)); ok {
			kids[ppid] = append(kids[ppid], n)
		}
	}
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		out = append(out, kids[p]...)
		queue = append(queue, kids[p]...)
	}
	return out
}

// parentOf reads the parent's pid from a /proc/PID/stat line: the fourth
// field, after the command name in parentheses (which may hold spaces
// and parentheses itself).
func parentOf(stat string) (int, bool) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(stat[i+1:])
	if len(f) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(f[1])
	return ppid, err == nil
}

// processName is the command name of pid (/proc/PID/comm), or "?".
func processName(pid int) string {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(string(data))
}

// peaks says the peaks of children by name: "comptoir-dice 56.3 MB".
func peaks(byName map[string]int64) string {
	if len(byName) == 0 {
		return "none seen"
	}
	names := make([]string, 0, len(byName))
	for k := range byName {
		names = append(names, k)
	}
	sort.Strings(names)
	for i, k := range names {
		names[i] = fmt.Sprintf("%s %s", k, mb(byName[k]))
	}
	return strings.Join(names, ", ")
}

// runMemory samples the resident memory of a process: one it starts (the
// arguments after --), stopped with SIGTERM at the end, or one running
// (--pid); and of the process with its children (comptoird with its dice
// reader, comptoir-dice). It prints both peaks and fails when either is
// over its budget.
func runMemory(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("memory", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dur := fs.Duration("for", time.Minute, "how long to sample")
	every := fs.Duration("every", 500*time.Millisecond, "the time between two samples")
	pid := fs.Int("pid", 0, "sample this running process instead of starting one")
	budget := fs.Float64("budget", 40, "the process's budget in MB (1 MB = 1024 kB); a peak above it is an error (the daemon's while a game runs: 40)")
	settle := fs.Duration("settle", 10*time.Second, "also print the peaks after this long, when the processes have started (the dice reader drops its libraries' pages once its reader is made)")
	together := fs.Float64("together-budget", 150, "the budget in MB of the process and its children together, their resident memories added (the daemon and its dice reader: 150)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: comptoir memory [--for 1m] [--every 500ms] [--budget 40] [--together-budget 150] (--pid PID | -- COMMAND [ARG...])")
		fmt.Fprintln(stderr, "for example, the daemon and its dice reader during the demo:")
		fmt.Fprintln(stderr, "  go build -o bin/ ./cmd/comptoir ./cmd/comptoird ./cmd/comptoir-dice")
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
	// This program maps OpenCV's libraries too (comptoir dice): their
	// pages it holds would stay resident in the dice reader it measures,
	// whose own are given back once its reader is made (libpages).
	if _, err := libpages.Drop(); err != nil {
		fmt.Fprintf(stderr, "comptoir memory: %v: the dice reader's figures may count pages this program holds\n", err)
	}
	var cmd *exec.Cmd
	if *pid == 0 {
		cmd = exec.Command(fs.Arg(0), fs.Args()[1:]...)
		// Stdout and Stderr stay nil, /dev/null: no pipe that a child left
		// behind would hold open after the process ends.
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
	var peakAll, settledAll, settledOwn int64
	kidPeak := map[string]int64{}    // a child's peak, by command name
	kidSettled := map[string]int64{} // a child's peak after settle
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
		settled := time.Since(start) >= *settle
		all := r.Total
		for _, k := range descendants(*pid) {
			kr, err := readRSS(k)
			if err != nil {
				continue // ended between the listing and now
			}
			all += kr.Total
			name := processName(k)
			kidPeak[name] = max(kidPeak[name], kr.Total)
			if settled {
				kidSettled[name] = max(kidSettled[name], kr.Total)
			}
		}
		peakAll = max(peakAll, all)
		if settled {
			settledAll = max(settledAll, all)
			settledOwn = max(settledOwn, r.Total)
		}
	}
	fmt.Fprintf(stdout, "resident memory of process %d (%s) over %v (%d samples): peak %s (anon %s, file %s), last %s; budget %.0f MB\n",
		*pid, processName(*pid), dur.Round(time.Second), n, mb(peak.Total), mb(peak.Anon), mb(peak.File), mb(last.Total), *budget)
	fmt.Fprintf(stdout, "with its children (peaks: %s): peak together %s (resident memories added, so pages they share count twice); budget %.0f MB\n",
		peaks(kidPeak), mb(peakAll), *together)
	if *settle < *dur {
		fmt.Fprintf(stdout, "after the first %v: peak %s, with its children (peaks: %s) %s\n",
			settle.Round(time.Second), mb(settledOwn), peaks(kidSettled), mb(settledAll))
	}
	var errs []error
	if float64(peak.Total)/1024 > *budget {
		errs = append(errs, fmt.Errorf("peak %s is over the %.0f MB budget", mb(peak.Total), *budget))
	}
	if float64(peakAll)/1024 > *together {
		errs = append(errs, fmt.Errorf("peak together with its children %s is over the %.0f MB budget", mb(peakAll), *together))
	}
	return errors.Join(errs...)
}
