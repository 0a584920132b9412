// Command comptoird is the table daemon: it reads the table configuration,
// opens the table's journal and resumes its game (or begins one), starts
// the inputs (the NFC reader, the buttons and the board sensors, or a
// recording of them, and the dice reader), runs the table session, serves
// the players' dashboard, and shuts down cleanly on SIGINT or SIGTERM.
//
// Usage:
//
//	comptoird --config /etc/comptoir/table.yaml [--listen ADDR] [--journal FILE]
//
// The demo (no hardware, recorded inputs, looping; dashboard on
// http://localhost:8080):
//
//	go build -o bin/ ./cmd/comptoir ./cmd/comptoird ./cmd/comptoir-dice
//	bin/comptoird --config configs/tables/demo.yaml
//
// # The dice reader
//
// comptoird does not link OpenCV: the dice reader runs in a child process,
// `comptoir-dice dicefeed` (the program named by dice_reader:, else
// comptoir-dice beside comptoird or in PATH, else comptoir, whose
// dicefeed command is the same reader in a bigger program), started when
// the table has a camera: (or, in a recording, frames: of pictured
// rolls). Its stdout is read as recording lines (package
// comptoir/hw/replay) into the table's inputs,
// its stderr goes to the daemon's log. When it dies it is restarted with
// back-off, reported on the dashboard as the camera's status; the game
// goes on meanwhile. It is stopped with the daemon (end of its stdin,
// SIGTERM, then SIGKILL after DiceReaderOpts.StopWait) and dies with it
// even on a kill -9 (parent-death signal). So OpenCV's memory (the shared
// libraries it maps) is not the daemon's, and a camera crash never takes
// the game down.
//
// # Shutdown
//
// On SIGINT or SIGTERM the daemon stops taking requests, lets the HTTP
// server finish within ShutdownTimeout, stops the session and the inputs,
// then halts the devices and closes the journal. Every accepted step is
// already on disk: a kill -9 or a power cut loses nothing, the next start
// resumes the game from the journal.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"comptoir/games"
	"comptoir/games/kit"
	"comptoir/games/tally"
	"comptoir/input"
	"comptoir/tableconfig"
)

// Timing of the daemon.
const (
	// ShutdownTimeout bounds the HTTP server's shutdown and the wait for
	// the daemon's goroutines.
	ShutdownTimeout = 5 * time.Second
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(exitCode(run(ctx, os.Args[1:], os.Stdout, os.Stderr), os.Stderr))
}

// run runs the daemon until ctx ends (a signal) or a part fails; help
// and version print on stdout.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("comptoird", flag.ContinueOnError)
	fs.SetOutput(stderr)
	configPath := fs.String("config", "/etc/comptoir/table.yaml", "the table configuration `file`")
	listen := fs.String("listen", "", "the dashboard's `address`, instead of the configuration's listen:")
	journalPath := fs.String("journal", "", "the journal `file`, instead of the configuration's journal:")
	noReplay := fs.Bool("no-replay", false, "ignore the configuration's replay: section (no inputs but the phones)")
	if done, err := commandLine(fs, args, stdout, stderr); done || err != nil {
		return err
	}
	cfg, err := tableconfig.Load(*configPath)
	if err != nil {
		return err
	}
	if *listen != "" {
		cfg.Listen = *listen
	}
	if *journalPath != "" {
		cfg.SetJournal(*journalPath)
	}
	if *noReplay {
		cfg.Replay = nil
	}
	slogger, _ := newLogger(cfg.Log, stderr)
	if err := checkAtStart(cfg, slogger); err != nil {
		return err
	}
	return serve(ctx, cfg, slogger)
}

// testGamesEnv, set to 1 in the daemon's environment, lets a table play
// Tally, the test game, beside the production list (games.All): the kill
// test (comptoir killtest) and the daemon's own tests drive the daemon
// through it. Without it a tally table is refused at start-up.
const testGamesEnv = "COMPTOIRD_TEST_GAMES"

// gameList is the list of games a table may play.
func gameList() []kit.Game {
	if os.Getenv(testGamesEnv) == "1" {
		return append(games.All(), tally.Game())
	}
	return games.All()
}

// serve wires the parts of the table (setUp, serve.go) and runs them
// (tableDaemon.run, run.go) until ctx ends or a part fails.
func serve(ctx context.Context, cfg *tableconfig.Config, slogger *slog.Logger) error {
	d, err := setUp(cfg, slogger)
	if err != nil {
		return err
	}
	defer d.close()
	return d.run(ctx)
}

// displayAddr is the address a person types: localhost for a wildcard.
func displayAddr(a net.Addr) string {
	t, ok := a.(*net.TCPAddr)
	if !ok || !t.IP.IsUnspecified() {
		return a.String()
	}
	return fmt.Sprintf("localhost:%d", t.Port)
}

// feed merges the sources into out until ctx ends.
func feed(ctx context.Context, out chan<- input.Event, sources []func(context.Context) <-chan input.Event) error {
	var wg sync.WaitGroup
	for _, src := range sources {
		ch := src(ctx)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for e := range ch {
				select {
				case out <- e:
				case <-ctx.Done():
				}
			}
		}()
	}
	wg.Wait()
	return nil
}
