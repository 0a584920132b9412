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
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"comptoir/dashboard"
	"comptoir/engine"
	"comptoir/games"
	"comptoir/games/kit"
	"comptoir/games/tally"
	"comptoir/hw/clock"
	"comptoir/hw/replay"
	"comptoir/hw/tagmap"
	"comptoir/hw/wiring"
	"comptoir/input"
	"comptoir/journal"
	"comptoir/table"
	"comptoir/tableconfig"
)

// Timing of the daemon.
const (
	// ShutdownTimeout bounds the HTTP server's shutdown and the wait for
	// the daemon's goroutines.
	ShutdownTimeout = 5 * time.Second
	// readHeaderTimeout bounds a client's request headers.
	readHeaderTimeout = 10 * time.Second
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(2)
		}
		fmt.Fprintln(os.Stderr, "comptoird:", err)
		os.Exit(1)
	}
}

// run runs the daemon until ctx ends (a signal) or a part fails.
func run(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("comptoird", flag.ContinueOnError)
	fs.SetOutput(stderr)
	configPath := fs.String("config", "/etc/comptoir/table.yaml", "the table configuration `file`")
	listen := fs.String("listen", "", "the dashboard's `address`, instead of the configuration's listen:")
	journalPath := fs.String("journal", "", "the journal `file`, instead of the configuration's journal:")
	noReplay := fs.Bool("no-replay", false, "ignore the configuration's replay: section (no inputs but the phones)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	logger := log.New(stderr, "comptoird: ", log.LstdFlags)
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
	return serve(ctx, cfg, logger)
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
func serve(ctx context.Context, cfg *tableconfig.Config, logger *log.Logger) error {
	clk := clock.Real()
	gameKit, err := games.Find(gameList(), cfg.Game)
	if err != nil {
		return fmt.Errorf("%s: %w", cfg.File, err)
	}
	rules := gameKit.Rules()
	var editor *dataEditor
	if gameKit.Edit != nil {
		if rules, err = loadData(gameKit.Edit, cfg.Board); err != nil {
			return fmt.Errorf("%s: %w", cfg.Board, err)
		}
		editor = &dataEditor{path: cfg.Board, edit: gameKit.Edit, adapter: gameKit.Adapter, cur: rules}
	} else if cfg.Board != "" {
		return fmt.Errorf("%s: board: is for tables of a game with a board to edit, this table plays %s", cfg.File, cfg.Game)
	}
	setup := engine.Setup{Game: cfg.Game, Variant: cfg.Variant, Players: cfg.Players, Options: cfg.Options}
	if _, err := rules.Start(setup); err != nil {
		return fmt.Errorf("%s: the table's game cannot start: %w", cfg.File, err)
	}
	store, err := journal.Open(cfg.Journal)
	if err != nil {
		return err
	}
	defer store.Close()
	game, err := store.Resume(rules)
	switch {
	case errors.Is(err, journal.ErrNoGame):
		if game, err = store.Begin(rules, setup, clk.Now()); err != nil {
			return err
		}
		logger.Printf("journal %s: game %d begins: %s %s, %v", cfg.Journal, game.ID(), setup.Game, setup.Variant, setup.Players)
	case err != nil:
		return err
	default:
		logger.Printf("journal %s: game %d resumes at step %d", cfg.Journal, game.ID(), game.Len())
		if g := game.Setup(); g.Variant != setup.Variant || fmt.Sprint(g.Players) != fmt.Sprint(setup.Players) || fmt.Sprint(g.Options) != fmt.Sprint(setup.Options) {
			logger.Printf("the unfinished game is %s with %v; the configuration's %s with %v will be the next game's", g.Variant, g.Players, setup.Variant, setup.Players)
		}
	}

	opts := table.DefaultOpts
	opts.Rules, opts.Game, opts.Store, opts.Clock, opts.Kit = rules, game, store, clk, gameKit
	opts.Logf = logger.Printf // the journal's faults, with their raw causes
	if cfg.Tags != "" {
		if _, err := os.Stat(cfg.Tags); err != nil {
			logger.Printf("no enrolled tags yet (%v): every tap is an unknown tag until `comptoir enroll` writes %s", err, cfg.Tags)
		}
		m, err := tagmap.Load(cfg.Tags)
		if err != nil {
			return err
		}
		opts.Tags = func(uid string) (table.Target, bool) {
			t, ok := m.Lookup(uid)
			return table.Target{Kind: t.Kind, ID: t.ID}, ok
		}
		logger.Printf("%d tags enrolled (%s)", m.Len(), cfg.Tags)
	}

	// The inputs: a recording, or the table box's devices; the dice reader
	// (camera, or pictured rolls) in a child process.
	var sources []func(context.Context) <-chan input.Event
	var halt func() error
	var rec *replay.Source
	var diceHook func(input.DiceRolled) bool
	var dice *diceReader
	if args := diceReaderArgs(cfg); args != nil {
		path, err := findDiceReader(cfg)
		if err != nil {
			return err
		}
		dice = &diceReader{path: path, args: args, opts: DefaultDiceReaderOpts, logf: logger.Printf}
		dice.opts.Clock = clk
	}
	if cfg.Replay != nil {
		rec, err = replay.Open(cfg.Replay.Inputs, replay.Opts{Speed: cfg.Replay.Speed, Clock: clk})
		if err != nil {
			return err
		}
		logger.Printf("inputs: %s (speed %g, loop %v)", rec, cfg.Replay.Speed, cfg.Replay.Loop)
		if dice != nil {
			diceHook = func(e input.DiceRolled) bool {
				if dice.show(e) {
					return true
				}
				logger.Printf("dice: no dice reader running to show blue=%d red=%d; the recorded roll goes through", e.Blue, e.Red)
				return false
			}
			logger.Printf("dice: rolls shown as pictures from %s to the dice reader", cfg.Replay.Frames)
		}
	} else {
		hw, err := wiring.Open(cfg.Devices, wiring.Opts{Clock: clk})
		if err != nil {
			return err
		}
		halt = hw.Close
		sources = append(sources, hw.Run)
		if l := hw.Lights(); l != nil {
			opts.Indicator = l
		}
	}

	sess, err := table.New(opts)
	if err != nil {
		return err
	}
	tableOpts := dashboard.TableOpts{Store: store}
	if editor != nil {
		editor.sess = func() *table.Session { return sess }
		tableOpts.Edit = editor.Edit
	}
	dash, err := dashboard.New(dashboard.FromTable(sess, tableOpts), dashboard.Opts{
		StaffPIN: cfg.StaffPIN, BaseURL: cfg.BaseURL, TokenFile: cfg.Tokens, Location: cfg.Table,
		Logf: logger.Printf,
	})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return fmt.Errorf("dashboard: %w (is another comptoird running? change listen: in %s)", err, cfg.File)
	}
	handler := dash.Handler()
	var tc *tableCafe
	if cfg.Cafe != nil {
		if tc, err = newTableCafe(cfg, store, sess, logger); err != nil {
			return err
		}
		handler = tc.handler(handler)
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: readHeaderTimeout, ErrorLog: logger}
	logger.Printf("dashboard on http://%s", displayAddr(ln.Addr()))

	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error, 5)
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
	goRun("inputs", func() error { return feed(runCtx, inputs, sources) })
	if rec != nil {
		goRun("replay", func() error { return replayLoop(runCtx, sess, rec, cfg.Replay, diceHook, inputs, clk, logger) })
	}
	if dice != nil {
		goRun("dice reader", func() error { return dice.Run(runCtx, inputs) })
	}
	goRun("session", func() error { return sess.Run(runCtx, inputs) })
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
	if halt != nil {
		if err := halt(); err != nil {
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
