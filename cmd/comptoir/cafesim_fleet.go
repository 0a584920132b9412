package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"comptoir/cafe"
	"comptoir/cafe/cafesim"
	"comptoir/hub"
)

// A fleet is the paced tables of a cafe-sim: in this process, or spread
// over child processes (cafe-sim --procs), each with its share of the
// tables. Every step is journalled at the wall clock's time, which the
// floor's watcher (another process) compares with its own: one machine,
// one clock.
type fleet interface {
	// play starts the tables playing for duration.
	play(duration time.Duration)
	// wait waits for the play to end and counts what the tables did.
	wait() (fleetCount, error)
	// close stops the publishers and closes the journals.
	close() error
}

// fleetCount is what a fleet's tables did.
type fleetCount struct {
	Paced      int64 // steps played at the pace
	Journalled int64 // steps and ends in the journals
	Finished   int   // plays finished
	// CPU is the CPU time the tables' processes spent from the play's
	// start to its end (every table's step and publisher, and whatever
	// else runs in those processes), for Played steps.
	CPU    time.Duration
	Played int64
}

func (c *fleetCount) add(o fleetCount) {
	c.Paced += o.Paced
	c.Journalled += o.Journalled
	c.Finished += o.Finished
	c.CPU += o.CPU
	c.Played += o.Played
}

// processCPU is this process's CPU time so far, user and system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// tablesPerProc is how many paced tables a cafe-sim process simulates
// when --procs is not given.
const tablesPerProc = 250

// autoProcs is how many processes simulate n tables by default: one per
// tablesPerProc tables, on at most half the machine's cores (the hub
// needs the rest). On 2 cores, one: more processes cost more CPU each
// step there (1,000 tables: 745 us a step on 4 processes, 666 us on one).
func autoProcs(n int) int {
	return max(1, min((n+tablesPerProc-1)/tablesPerProc, runtime.NumCPU()/2))
}

// simGCPercent is the GOGC of the processes simulating tables (the
// GOGC variable overrides it): memory is plenty for a simulator, CPU
// is what the figures lack.
const simGCPercent = 400

// setSimGC sets a table simulator's collector.
func setSimGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(simGCPercent)
	}
}

// simTableName is the name of the paced table number i (from 0).
func simTableName(i int) string { return fmt.Sprintf("table-%04d", i+1) }

// localFleet is tables playing in this process, each on its own
// goroutine, with its publisher.
type localFleet struct {
	tables []*cafesim.Table
	pubs   *publishers
	rate   float64
	ctx    context.Context
	cancel context.CancelFunc
	played sync.WaitGroup
	paced  atomic.Int64
	cpu0   time.Duration // processCPU at the play's start
	err    atomic.Value
}

// openLocalFleet opens the paced tables first..first+count-1 (their
// journals under dir/tables) and starts their publishers to natsURL.
func openLocalFleet(dir, natsURL string, pws map[string]string, first, count int, rate float64) (*localFleet, error) {
	f := &localFleet{rate: rate, pubs: newPublishers(count)}
	f.ctx, f.cancel = context.WithCancel(context.Background())
	for i := first; i < first+count; i++ {
		tb, err := openSimTable(dir, natsURL, simTableName(i), pws, i)
		if err != nil {
			f.close()
			return nil, err
		}
		f.tables = append(f.tables, tb)
		f.pubs.start(i-first, tb)
	}
	return f, nil
}

// openSimTable opens table name, number i, publishing to natsURL.
func openSimTable(dir, natsURL, name string, pws map[string]string, i int) (*cafesim.Table, error) {
	opts := cafe.DefaultOpts
	opts.URL, opts.User, opts.Password = natsURL, name, pws[name]
	opts.Logf = func(format string, args ...any) {} // a thousand tables would drown the figures
	return cafesim.Open(filepath.Join(dir, "tables"), name, cafesim.Setups[i%len(cafesim.Setups)], int64(i+1), opts)
}

func (f *localFleet) play(duration time.Duration) {
	f.cpu0 = processCPU()
	ctx, stop := context.WithTimeout(f.ctx, duration)
	period := time.Duration(float64(time.Second) / f.rate)
	for _, tb := range f.tables {
		f.played.Add(1)
		go func(tb *cafesim.Table, phase time.Duration) {
			defer f.played.Done()
			select {
			case <-time.After(phase):
			case <-ctx.Done():
				return
			}
			t := time.NewTicker(period)
			defer t.Stop()
			for {
				if _, _, _, err := tb.Step(time.Now()); err != nil {
					f.err.Store(err)
					return
				}
				f.paced.Add(1)
				select {
				case <-ctx.Done():
					return
				case <-t.C:
				}
			}
		}(tb, time.Duration(rand.Int63n(int64(period))))
	}
	go func() { f.played.Wait(); stop() }()
}

func (f *localFleet) wait() (fleetCount, error) {
	f.played.Wait()
	if err, ok := f.err.Load().(error); ok {
		return fleetCount{}, err
	}
	cpu := processCPU() - f.cpu0
	c, err := countJournals(f.tables)
	c.Paced, c.CPU, c.Played = f.paced.Load(), cpu, f.paced.Load()
	return c, err
}

func (f *localFleet) close() error {
	f.cancel()
	f.played.Wait()
	f.pubs.stopAll()
	for _, tb := range f.tables {
		tb.Close()
	}
	return nil
}

// countJournals counts the steps and ends the tables' journals hold, and
// the plays finished.
func countJournals(tables []*cafesim.Table) (fleetCount, error) {
	var c fleetCount
	for _, tb := range tables {
		infos, err := tb.Store.Games()
		if err != nil {
			return c, err
		}
		for _, in := range infos {
			steps, err := tb.Store.StepsAfter(tb.Game().Rules(), in.ID, 0)
			if err != nil {
				return c, err
			}
			c.Journalled += int64(len(steps))
			if !in.Finished.IsZero() {
				c.Journalled++
				c.Finished++
			}
		}
	}
	return c, nil
}

// publishers runs tables' publishers, each until stopped.
type publishers struct {
	stop []context.CancelFunc
	done []chan struct{}
}

func newPublishers(n int) *publishers {
	return &publishers{stop: make([]context.CancelFunc, n), done: make([]chan struct{}, n)}
}

func (p *publishers) start(i int, tb *cafesim.Table) {
	ctx, cancel := context.WithCancel(context.Background())
	p.stop[i], p.done[i] = cancel, make(chan struct{})
	go func() { defer close(p.done[i]); tb.Pub.Run(ctx) }()
}

func (p *publishers) stopAll() {
	for i, stop := range p.stop {
		if stop != nil {
			stop()
			<-p.done[i]
			p.stop[i] = nil
		}
	}
}

// procFleet is the paced tables spread over child processes, each a
// `comptoir cafe-sim --child` with its share. A child says "ready" once
// its tables publish, plays at "play DURATION", says "played" with its
// counts once its play ended, and closes its tables at the end of its
// input.
type procFleet struct {
	children []*simChild
}

type simChild struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  chan string
	exited chan error
}

// childEnv marks a cafe-sim child's environment: a test binary standing
// in for comptoir runs the command line it is given (see TestMain).
const childEnv = "COMPTOIR_CAFESIM_CHILD=1"

// startProcFleet starts procs children sharing the paced tables 0..n-1
// and waits until every child's tables publish to natsURL. The children
// run at niceness more than this process and the hub (through nice(1),
// when it is there): in a café the tables are other computers, and
// simulated on the hub's they must not starve it.
func startProcFleet(dir, natsURL string, n, procs int, rate float64, niceness int, profile string, stderr io.Writer) (*procFleet, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	f := &procFleet{}
	first := 0
	for k := 0; k < procs; k++ {
		count := n / procs
		if k < n%procs {
			count++
		}
		args := []string{"cafe-sim", "--child", "--dir", dir, "--nats", natsURL, "--first", fmt.Sprint(first), "--tables", fmt.Sprint(count), "--rate", fmt.Sprint(rate)}
		if profile != "" {
			args = append(args, "--profile", filepath.Join(profile, fmt.Sprintf("sim-cpu-%d.pprof", k+1)))
		}
		first += count
		c := &simChild{cmd: exec.Command(exe, args...), lines: make(chan string, 4), exited: make(chan error, 1)}
		if nice, err := exec.LookPath("nice"); err == nil && niceness > 0 {
			c.cmd = exec.Command(nice, append([]string{"-n", fmt.Sprint(niceness), exe}, args...)...)
		}
		c.cmd.Env = append(os.Environ(), childEnv)
		c.cmd.Stderr = stderr
		if c.in, err = c.cmd.StdinPipe(); err != nil {
			f.close()
			return nil, err
		}
		out, err := c.cmd.StdoutPipe()
		if err != nil {
			f.close()
			return nil, err
		}
		if err := c.cmd.Start(); err != nil {
			f.close()
			return nil, err
		}
		go func() {
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				c.lines <- sc.Text()
			}
			close(c.lines)
			c.exited <- c.cmd.Wait()
		}()
		f.children = append(f.children, c)
	}
	for k, c := range f.children {
		if _, err := c.expect("ready", 2*time.Minute); err != nil {
			f.close()
			return nil, fmt.Errorf("cafe-sim child %d: %w", k+1, err)
		}
	}
	return f, nil
}

// expect waits for the child's line starting with word, and returns the
// rest of it.
func (c *simChild) expect(word string, within time.Duration) (string, error) {
	timeout := time.After(within)
	for {
		select {
		case l, ok := <-c.lines:
			if !ok {
				return "", fmt.Errorf("stopped before %q: %v", word, <-c.exited)
			}
			if w, rest, _ := strings.Cut(l, " "); w == word {
				return rest, nil
			}
		case <-timeout:
			return "", fmt.Errorf("no %q within %v", word, within)
		}
	}
}

func (f *procFleet) play(duration time.Duration) {
	for _, c := range f.children {
		fmt.Fprintf(c.in, "play %d\n", duration)
	}
}

func (f *procFleet) wait() (fleetCount, error) {
	var total fleetCount
	for k, c := range f.children {
		rest, err := c.expect("played", 10*time.Minute)
		if err != nil {
			return total, fmt.Errorf("cafe-sim child %d: %w", k+1, err)
		}
		var cc fleetCount
		var cpu int64
		if _, err := fmt.Sscan(rest, &cc.Paced, &cc.Journalled, &cc.Finished, &cpu, &cc.Played); err != nil {
			return total, fmt.Errorf("cafe-sim child %d: %q: %w", k+1, rest, err)
		}
		cc.CPU = time.Duration(cpu)
		total.add(cc)
	}
	return total, nil
}

func (f *procFleet) close() error {
	var errs []error
	for _, c := range f.children {
		c.in.Close()
	}
	for k, c := range f.children {
		select {
		case <-c.lines:
			for range c.lines {
			}
			if err := <-c.exited; err != nil {
				errs = append(errs, fmt.Errorf("cafe-sim child %d: %w", k+1, err))
			}
		case <-time.After(30 * time.Second):
			c.cmd.Process.Kill()
			errs = append(errs, fmt.Errorf("cafe-sim child %d did not stop within 30s", k+1))
		}
	}
	return errors.Join(errs...)
}

// runChild is a cafe-sim child (cafe-sim --child): it opens its share of
// the paced tables, publishing to the hub's NATS server, and follows its
// parent's orders on in (see procFleet).
func runChild(args []string, in io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("cafe-sim --child", flag.ContinueOnError)
	dir := fs.String("dir", "", "")
	natsURL := fs.String("nats", "", "")
	first := fs.Int("first", 0, "")
	count := fs.Int("tables", 0, "")
	rate := fs.Float64("rate", 1, "")
	profile := fs.String("profile", "", "")
	if err := fs.Parse(args); err != nil {
		return err
	}
	setSimGC()
	// The tables' passwords, from the file the hub (started with its
	// state in dir/hub, its own secret made there already) reads.
	creds, err := hub.LoadCredentials(filepath.Join(*dir, "tables.yaml"), filepath.Join(*dir, "hub"))
	if err != nil {
		return err
	}
	f, err := openLocalFleet(*dir, *natsURL, creds.Tables, *first, *count, *rate)
	if err != nil {
		return err
	}
	defer f.close()
	fmt.Fprintln(stdout, "ready")
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		word, arg, _ := strings.Cut(sc.Text(), " ")
		if word != "play" {
			continue
		}
		var d time.Duration
		fmt.Sscan(arg, &d)
		f.play(d)
		if *profile != "" {
			go profileSelf(f.ctx, *profile, d)
		}
		c, err := f.wait()
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "played %d %d %d %d %d\n", c.Paced, c.Journalled, c.Finished, int64(c.CPU), c.Played)
	}
	return sc.Err()
}

// profileSelf profiles this process over the middle half of a play of
// duration, into file.
func profileSelf(ctx context.Context, file string, duration time.Duration) {
	select {
	case <-ctx.Done():
		return
	case <-time.After(duration / 4):
	}
	out, err := os.Create(file)
	if err != nil {
		return
	}
	defer out.Close()
	if pprof.StartCPUProfile(out) != nil {
		return
	}
	select {
	case <-ctx.Done():
	case <-time.After(duration / 2):
	}
	pprof.StopCPUProfile()
}

// syncWriter is a writer for several goroutines (the children's output
// copied beside cafe-sim's own log).
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer // guarded by mu
}

func (l *syncWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
