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
//	go build -o bin/ ./cmd/comptoir ./cmd/comptoird
//	bin/comptoird --config configs/tables/demo.yaml
//
// # The dice reader
//
// comptoird does not link OpenCV: the dice reader runs in a child process,
// `comptoir dicefeed` (the comptoir program named by dice_reader:, else
// beside comptoird, else in PATH), started when the table has a camera:
// (or, in a recording, frames: of pictured rolls). Its stdout is read as
// recording lines (package comptoir/hw/replay) into the table's inputs,
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
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"comptoir/dashboard"
	"comptoir/games"
	"comptoir/games/kit"
	"comptoir/games/tally"
	"comptoir/health"
	"comptoir/hw/clock"
	"comptoir/input"
	"comptoir/metrics"
	"comptoir/sdnotify"
	"comptoir/table"
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

// serve wires the parts of the table and runs them.
func serve(ctx context.Context, cfg *tableconfig.Config, slogger *slog.Logger) error {
	logger := slog.NewLogLogger(slogger.Handler(), slog.LevelInfo)
	clk := clock.Real()
	g, err := loadGame(cfg)
	if err != nil {
		return err
	}
	store, game, err := openJournal(cfg, g, clk, logger)
	if err != nil {
		return err
	}
	defer store.Close()

	opts := table.DefaultOpts
	opts.Rules, opts.Game, opts.Store, opts.Clock, opts.Kit = g.rules, game, store, clk, g.kit
	opts.Logf = logger.Printf // the journal's faults, with their raw causes
	if cfg.Tags != "" {
		if opts.Tags, err = loadTags(cfg, logger); err != nil {
			return err
		}
	}
	in, err := openInputs(cfg, clk, logger, &opts)
	if err != nil {
		return err
	}

	sess, err := table.New(opts)
	if err != nil {
		return err
	}
	met := metrics.New(opts.MinConfidence)
	hc, err := health.New(health.Opts{Journal: cfg.Journal, Verify: store.Verify,
		Session: func(ctx context.Context) error { _, err := sess.Current(ctx); return err },
		Devices: func() []input.DeviceStatus { return sess.Latest().Devices }})
	if err != nil {
		return err
	}
	defer hc.Close()
	tableOpts := dashboard.TableOpts{Store: store}
	if g.editor != nil {
		g.editor.sess = func() *table.Session { return sess }
		tableOpts.Edit = g.editor.Edit
	}
	staffSecret, err := staffSecret(cfg, logger)
	if err != nil {
		return err
	}
	var tc *tableCafe
	if cfg.Cafe != nil {
		if tc, err = newTableCafe(cfg, store, sess, logger); err != nil {
			return err
		}
	}
	dash, err := dashboard.New(dashboard.FromTable(sess, tableOpts), dashboard.Opts{
		StaffPIN: staffSecret, BaseURL: cfg.BaseURL, TokenFile: cfg.Tokens, Location: cmp.Or(cfg.Venue, cfg.Table), TimeZone: cfg.TimeZone,
		Logf: logger.Printf, CallStaff: tc.staffCaller(),
	})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return fmt.Errorf("dashboard: %w (is another comptoird running? change listen: in %s)", err, cfg.File)
	}
	ln = dashboard.LimitListener(ln, dashboard.ListenerMaxConns, dashboard.ListenerMaxConnsPerAddr)
	handler := monitored(dash.Handler(), hc, met)
	srv := dashboard.NewHTTPServer(handler, logger)
	logger.Printf("dashboard on http://%s", displayAddr(ln.Addr()))

	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error, 16) // one for each goroutine below, so none blocks on its error
	var wg sync.WaitGroup
	goRun := func(name string, f func() error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := f(); err != nil {
				errc <- fmt.Errorf("%s: %w", name, err)
			}
		}()
	}
	inputs := make(chan input.Event)
	goRun("inputs", func() error { return feed(runCtx, inputs, in.sources) })
	if in.rec != nil {
		goRun("replay", func() error { return replayLoop(runCtx, sess, in.rec, cfg.Replay, in.diceHook, inputs, clk, logger) })
	}
	if in.dice != nil {
		goRun("dice reader", func() error { return in.dice.Run(runCtx, inputs) })
	}
	goRun("session", func() error { return sess.Run(runCtx, countInputs(runCtx, inputs, met)) })
	goRun("observe", func() error { return observe(runCtx, sess, met, slogger) })
	goRun("dashboard", func() error { return dash.Run(runCtx) })
	if tc != nil {
		goRun("café", func() error { return tc.run(runCtx) })
	}
	goRun("http", func() error {
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	})
	goRun("systemd", func() error { return notifySystemd(runCtx, sdnotify.FromEnv(), sess, logger) })

	var failure error
	select {
	case <-ctx.Done():
		logger.Printf("stopping")
	case failure = <-errc:
		logger.Printf("stopping: %v", failure)
	}
	shutCtx, shutCancel := context.WithTimeout(context.Background(), ShutdownTimeout)
	defer shutCancel()
	if err := srv.Shutdown(shutCtx); err != nil {
		logger.Printf("http shutdown: %v", err)
		srv.Close()
	}
	cancel()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-shutCtx.Done():
		logger.Printf("some parts did not stop within %v", ShutdownTimeout)
	}
	if in.halt != nil {
		if err := in.halt(); err != nil {
			logger.Printf("halting the devices: %v", err)
		}
	}
	return failure
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
