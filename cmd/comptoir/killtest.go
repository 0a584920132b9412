package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"time"

	"comptoir/cmd/internal/killtest"
)

func init() {
	commands["killtest"] = command{
		summary: "kill the table daemon with SIGKILL at random moments during play and count the acknowledged steps lost",
		run:     runKilltest,
	}
}

func runKilltest(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("killtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	kills := fs.Int("kills", 1000, "how many times to kill the daemon")
	seed := fs.Int64("seed", 1, "seed of the random moments and commands")
	daemon := fs.String("comptoird", "", "the comptoird `program` (default: beside comptoir, else in PATH)")
	dir := fs.String("dir", "", "the `folder` of the table's journal (default: a new temporary folder, removed at the end)")
	maxPlay := fs.Duration("max-play", 300*time.Millisecond, "the longest play before a kill")
	startup := fs.Float64("startup-kills", 0.1, "the share of kills made while the daemon starts")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: comptoir killtest [--kills 1000] [--seed 1] [--comptoird PROGRAM] [--dir FOLDER]

Runs the table daemon on a Tally table with two phones playing on its
websocket, kills it with SIGKILL at random moments (during play, and at
times while it starts), starts it again on the same journal, and prints
the acknowledged steps lost, changed and duplicated, and how the states
shown before each kill and after each restart compare with the journal.
Build both programs first: go build -o bin/ ./cmd/comptoir ./cmd/comptoird`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil || fs.NArg() != 0 || *kills < 1 {
		if err == nil {
			fs.Usage()
		}
		return errUsage
	}
	prog := *daemon
	if prog == "" {
		var err error
		if prog, err = findComptoird(); err != nil {
			return err
		}
	}
	if *dir == "" {
		d, err := os.MkdirTemp("", "comptoir-killtest-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		*dir = d
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	f, err := killtest.Run(ctx, killtest.Opts{
		Daemon: []string{prog}, Dir: *dir, Kills: *kills, Seed: *seed, MaxPlay: *maxPlay, StartupKills: *startup,
		Logf: func(format string, args ...any) {
			fmt.Fprintf(stderr, "%s  %s\n", time.Since(start).Round(time.Second), fmt.Sprintf(format, args...))
		},
	})
	fmt.Fprintln(stdout, f)
	if err != nil {
		return err
	}
	if !f.OK() {
		return errors.New("the journal lost, changed or duplicated acknowledged steps, or showed a wrong state")
	}
	return nil
}

// findComptoird finds the daemon beside this program, else in PATH.
func findComptoird() (string, error) {
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), "comptoird")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	if p, err := exec.LookPath("comptoird"); err == nil {
		return p, nil
	}
	return "", errors.New("comptoird not found beside comptoir nor in PATH: build it (go build -o bin/ ./cmd/comptoir ./cmd/comptoird) or name it with --comptoird")
}
