package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"comptoir/cmd/internal/diceprog"
	"comptoir/hw/clock"
	"comptoir/hw/replay"
	"comptoir/input"
	"comptoir/tableconfig"
)

// The dice reader runs in its own process, `comptoir-dice dicefeed`, so that
// OpenCV (and the shared libraries it maps: most of a reader's memory)
// stays out of the daemon, and a camera or OpenCV crash never takes the
// game down: the daemon restarts the reader and the table plays on.

// ErrNoDiceReader is returned when the dice reader's program is not found.
var ErrNoDiceReader = errors.New("the dice reader (the comptoir-dice program) is not installed")

// DiceReaderOpts times the dice reader's supervision.
type DiceReaderOpts struct {
	// MinBackoff is the wait before restarting a reader that stopped; it
	// doubles at each quick failure up to MaxBackoff.
	MinBackoff, MaxBackoff time.Duration
	// Healthy is how long a reader must run for the back-off to start
	// again from MinBackoff.
	Healthy time.Duration
	// StopWait is how long a reader has to stop after the end of its stdin
	// and SIGTERM before it is killed.
	StopWait time.Duration
	// Clock times the back-off; nil is the real clock.
	Clock clock.Clock
}

// DefaultDiceReaderOpts restarts after 1 s, 2 s... up to every 30 s.
var DefaultDiceReaderOpts = DiceReaderOpts{MinBackoff: time.Second, MaxBackoff: 30 * time.Second, Healthy: time.Minute, StopWait: 2 * time.Second}

// diceReader supervises the dice reader child: it starts it, feeds its
// rolls to the table, restarts it when it dies and stops it with the
// daemon.
type diceReader struct {
	path string
	args []string
	env  []string // nil: the daemon's
	opts DiceReaderOpts
	logf func(string, ...any)
	// log, when set, takes the reader's verdicts and inspected frames
	// (dicelog.go) and its rolls before the session does.
	log *diceLog
	// calibration, when set, is the table's calibration file: each child
	// starts with it once it exists (the staff page saves it).
	calibration string
	// learned, when set, is the file where each child keeps what it
	// learned of its camera across restarts (dicefeed --learned).
	learned string

	mu    sync.Mutex
	stdin io.WriteCloser // the running child's, nil between children; guarded by mu
	pids  []int          // every child started, for the tests; guarded by mu
}

// findDiceReader returns the program that runs the dice reader (as
// PROGRAM dicefeed ...): the configuration's dice_reader:, else
// comptoir-dice, else comptoir, beside this program or in PATH
// (diceprog.Search).
func findDiceReader(cfg *tableconfig.Config) (string, error) {
	if cfg.DiceReader != "" {
		if _, err := os.Stat(cfg.DiceReader); err != nil {
			return "", fmt.Errorf("%s: dice_reader: %w", cfg.File, err)
		}
		return cfg.DiceReader, nil
	}
	dir := ""
	if exe, err := os.Executable(); err == nil {
		dir = filepath.Dir(exe)
	}
	p, tried, ok := diceprog.Search(dir)
	if ok {
		return p, nil
	}
	return "", fmt.Errorf("%w: tried %s; build it beside comptoird (go build -o bin/ ./cmd/comptoird ./cmd/comptoir-dice, with libopencv-dev installed), or name it with dice_reader: in %s", ErrNoDiceReader, strings.Join(tried, ", "), cfg.File)
}

// diceReaderArgs returns the dicefeed arguments for the table's camera or
// its pictured rolls; nil when the table has neither.
func diceReaderArgs(cfg *tableconfig.Config) []string {
	switch {
	case cfg.Replay != nil && cfg.Replay.Frames != "":
		return []string{"dicefeed", "--readings", "--pictures", cfg.Replay.Frames}
	case cfg.Replay == nil && cfg.Camera != nil:
		return []string{"dicefeed", "--readings", "--camera", cfg.Camera.Device}
	}
	return nil
}

func (d *diceReader) status(ctx context.Context, out chan<- input.Event, ok bool, detail string) {
	select {
	case out <- input.DeviceStatus{At: d.opts.Clock.Now(), Device: "camera", OK: ok, Detail: detail}:
	case <-ctx.Done():
	}
}

// Run runs the dice reader until ctx ends, restarting it when it stops,
// and sends its events to out. It returns nil once ctx has ended and the
// last child has exited.
func (d *diceReader) Run(ctx context.Context, out chan<- input.Event) error {
	if d.opts.Clock == nil {
		d.opts.Clock = clock.Real()
	}
	backoff := d.opts.MinBackoff
	for ctx.Err() == nil {
		started := d.opts.Clock.Now()
		err := d.runOnce(ctx, out)
		if ctx.Err() != nil {
			return nil
		}
		if d.opts.Clock.Now().Sub(started) >= d.opts.Healthy {
			backoff = d.opts.MinBackoff
		}
		d.logf("dice reader: %v; restarting in %v", err, backoff)
		d.status(ctx, out, false, fmt.Sprintf("dice reader stopped (%v); restarting in %v", err, backoff))
		if clock.Sleep(ctx, d.opts.Clock, backoff) != nil {
			return nil
		}
		backoff = min(2*backoff, d.opts.MaxBackoff)
	}
	return nil
}

// runOnce runs one child until it exits; it stops it when ctx ends.
func (d *diceReader) runOnce(ctx context.Context, out chan<- input.Event) error {
	cmd, stdout, stderr, err := d.start()
	if err != nil {
		return err
	}
	d.logf("dice reader: started %s %s (pid %d)", d.path, strings.Join(d.args, " "), cmd.Process.Pid)
	d.status(ctx, out, true, "dice reader started")

	exited := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // its stderr, in the daemon's log
		defer wg.Done()
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			d.logf("dice reader: %s", sc.Text())
		}
	}()
	go func() { // stopped with the daemon
		defer wg.Done()
		d.stopWith(ctx, cmd, exited)
	}()
	d.readEvents(ctx, stdout, out)
	// Its stdout has ended: it is exiting (or a broken child closed it;
	// then it is stopped).
	werr := d.reap(cmd)
	close(exited)
	wg.Wait()
	if werr == nil {
		werr = errors.New("it exited")
	}
	return werr
}

// start starts a child with its pipes, and keeps its stdin (show) and pid.
func (d *diceReader) start() (cmd *exec.Cmd, stdout, stderr io.Reader, err error) {
	args := d.args
	if d.learned != "" {
		args = append(slices.Clip(args), "--learned", d.learned)
	}
	if d.calibration != "" {
		if _, err := os.Stat(d.calibration); err == nil {
			args = append(slices.Clip(args), "--calibration", d.calibration)
		}
	}
	if d.log != nil {
		d.log.restarted()
	}
	cmd = exec.Command(d.path, args...)
	cmd.Env = d.env
	// The child dies with the daemon, even with a kill -9 (its stdin
	// ending stops it too).
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, nil, err
	}
	if stdout, err = cmd.StdoutPipe(); err != nil {
		return nil, nil, nil, err
	}
	if stderr, err = cmd.StderrPipe(); err != nil {
		return nil, nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, nil, fmt.Errorf("cannot start %s: %w", d.path, err)
	}
	d.mu.Lock()
	d.stdin = stdin
	d.pids = append(d.pids, cmd.Process.Pid)
	d.mu.Unlock()
	return cmd, stdout, stderr, nil
}

// stopWith stops the child when ctx ends before it has exited: its stdin
// closed and SIGTERM, then SIGKILL after StopWait.
func (d *diceReader) stopWith(ctx context.Context, cmd *exec.Cmd, exited <-chan struct{}) {
	select {
	case <-exited:
		return
	case <-ctx.Done():
	}
	d.closeStdin()
	cmd.Process.Signal(syscall.SIGTERM)
	t := time.NewTimer(d.opts.StopWait)
	defer t.Stop()
	select {
	case <-exited:
	case <-t.C:
		d.logf("dice reader: still running %v after SIGTERM; killed", d.opts.StopWait)
		cmd.Process.Kill()
	}
}

// readEvents sends the events of the child's recording lines to out
// until its stdout ends; a line it cannot decode is logged and skipped.
func (d *diceReader) readEvents(ctx context.Context, stdout io.Reader, out chan<- input.Event) {
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for n := 1; sc.Scan(); n++ {
		if d.log != nil && d.log.line(sc.Text()) {
			continue
		}
		evs, err := replay.Decode(strings.NewReader(sc.Text()), fmt.Sprintf("dice reader's line %d", n))
		if err != nil {
			d.logf("dice reader: %v", err)
			continue
		}
		for _, e := range evs {
			if d.log != nil {
				d.log.event(e)
			}
			select {
			case out <- e:
			case <-ctx.Done():
			}
		}
	}
}

// reap waits for the child whose stdout has ended, killing it after
// StopWait, and returns how it exited.
func (d *diceReader) reap(cmd *exec.Cmd) error {
	d.closeStdin()
	waitErr := make(chan error, 1)
	go func() { waitErr <- cmd.Wait() }()
	select {
	case err := <-waitErr:
		return err
	case <-time.After(d.opts.StopWait):
		cmd.Process.Kill()
		return <-waitErr
	}
}

func (d *diceReader) closeStdin() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.stdin != nil {
		d.stdin.Close()
		d.stdin = nil
	}
}

// show asks the running reader to show a picture of a recorded roll
// (dicefeed --pictures); false when no reader runs to take it.
func (d *diceReader) show(e input.DiceRolled) bool {
	b, err := replay.Encode(e)
	if err != nil {
		return false
	}
	return d.send(b)
}

// send writes a line to the running reader's stdin; false when no reader
// runs to take it.
func (d *diceReader) send(b []byte) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.stdin == nil {
		return false
	}
	_, err := d.stdin.Write(append(b, '\n'))
	return err == nil
}

// started returns the pids of the children started so far.
func (d *diceReader) started() []int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]int(nil), d.pids...)
}
