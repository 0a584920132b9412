package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"

	"comptoir/dashboard"
	"comptoir/engine"
	"comptoir/games"
	"comptoir/games/kit"
	"comptoir/health"
	"comptoir/hw/clock"
	"comptoir/hw/replay"
	"comptoir/hw/tagmap"
	"comptoir/hw/wiring"
	"comptoir/input"
	"comptoir/journal"
	"comptoir/metrics"
	"comptoir/table"
	"comptoir/tableconfig"
)

// tableDaemon is a table's parts, wired by setUp and run by run (run.go).
type tableDaemon struct {
	cfg     *tableconfig.Config
	slogger *slog.Logger
	logger  *log.Logger // slogger's, for the parts that log lines
	clk     clock.Clock

	store *journal.Store
	in    *tableInputs
	sess  *table.Session
	met   *metrics.Metrics
	hc    *health.Checker
	dash  *dashboard.Server
	cafe  *tableCafe // nil without a café
	ln    net.Listener
	srv   *http.Server
}

// setUp wires the table's parts: its game and journal, its inputs and
// session, its health and metrics, its dashboard and café link. The
// caller calls close; on an error, what was opened is closed.
func setUp(cfg *tableconfig.Config, slogger *slog.Logger) (*tableDaemon, error) {
	d := &tableDaemon{cfg: cfg, slogger: slogger, logger: slog.NewLogLogger(slogger.Handler(), slog.LevelInfo), clk: clock.Real()}
	if err := d.wire(); err != nil {
		d.close()
		return nil, err
	}
	return d, nil
}

// wire opens the parts one after the other.
func (d *tableDaemon) wire() error {
	g, err := loadGame(d.cfg)
	if err != nil {
		return err
	}
	if err := d.openSession(g); err != nil {
		return err
	}
	if err := d.openHealth(); err != nil {
		return err
	}
	if err := d.openDashboard(g); err != nil {
		return err
	}
	return d.listen()
}

// close closes what setUp opened, the HTTP listener if it was never
// served: the health checker, then the journal.
func (d *tableDaemon) close() {
	if d.ln != nil && d.srv == nil {
		d.ln.Close()
	}
	if d.hc != nil {
		d.hc.Close()
	}
	if d.store != nil {
		d.store.Close()
	}
}

// openSession opens the journal, the enrolled tags and the inputs, and
// makes the table session over them.
func (d *tableDaemon) openSession(g tableGame) error {
	cfg := d.cfg
	store, game, err := openJournal(cfg, g, d.clk, d.logger)
	if err != nil {
		return err
	}
	d.store = store
	opts := table.DefaultOpts
	opts.Rules, opts.Game, opts.Store, opts.Clock, opts.Kit = g.rules, game, store, d.clk, g.kit
	opts.Logf = d.logger.Printf // the journal's faults, with their raw causes
	if cfg.Tags != "" {
		if opts.Tags, err = loadTags(cfg, d.logger); err != nil {
			return err
		}
	}
	if d.in, err = openInputs(cfg, d.clk, d.logger, &opts); err != nil {
		return err
	}
	d.met = metrics.New(opts.MinConfidence) // the inputs the session reads
	d.sess, err = table.New(opts)
	return err
}

// openHealth makes the health checks of the journal, the session and the
// devices.
func (d *tableDaemon) openHealth() error {
	sess := d.sess
	hc, err := health.New(health.Opts{Journal: d.cfg.Journal, Verify: d.store.Verify,
		Session: func(ctx context.Context) error { _, err := sess.Current(ctx); return err },
		Devices: func() []input.DeviceStatus { return sess.Latest().Devices }})
	d.hc = hc
	return err
}

// openDashboard makes the players' dashboard over the session, with the
// game's data editor (kit.Editor) for the staff page.
func (d *tableDaemon) openDashboard(g tableGame) error {
	cfg := d.cfg
	tableOpts := dashboard.TableOpts{Store: d.store}
	if g.editor != nil {
		sess := d.sess
		g.editor.sess = func() *table.Session { return sess }
		tableOpts.Edit = g.editor.Edit
	}
	staffSecret, err := staffSecret(cfg, d.logger)
	if err != nil {
		return err
	}
	if cfg.Cafe != nil { // before the dashboard: its call-staff button calls through it
		var dice *diceLog
		if d.in.dice != nil {
			dice = d.in.dice.log
		}
		if d.cafe, err = newTableCafe(cfg, d.store, d.sess, dice, d.logger); err != nil {
			return err
		}
	}
	opts := dashboard.Opts{
		StaffPIN: staffSecret, BaseURL: cfg.BaseURL, TokenFile: cfg.Tokens, Location: cmp.Or(cfg.Venue, cfg.Table), TimeZone: cfg.TimeZone,
		Logf: d.logger.Printf, CallStaff: d.cafe.staffCaller(),
	}
	if d.in.dice != nil {
		// The staff page's dice camera: the last throws, and the frames
		// sent for inspection beside the journal.
		opts.Dice, opts.InspectDir = d.in.dice.log, inspectDir(cfg.Journal)
	}
	d.dash, err = dashboard.New(dashboard.FromTable(d.sess, tableOpts), opts)
	return err
}

// listen opens the dashboard's listener and makes its HTTP server, with
// health and metrics beside the dashboard.
func (d *tableDaemon) listen() error {
	ln, err := net.Listen("tcp", d.cfg.Listen)
	if err != nil {
		return fmt.Errorf("dashboard: %w (is another comptoird running? change listen: in %s)", err, d.cfg.File)
	}
	d.ln = dashboard.LimitListener(ln, dashboard.ListenerMaxConns, dashboard.ListenerMaxConnsPerAddr)
	handler := monitored(d.dash.Handler(), d.hc, d.met)
	d.srv = dashboard.NewHTTPServer(handler, d.logger)
	d.logger.Printf("dashboard on http://%s", displayAddr(d.ln.Addr()))
	return nil
}

// tableGame is the game a table's configuration names: its kit, its rules
// (with the table's own board data, for a game with data to edit), the
// editor of that data, and the setup of a new game.
type tableGame struct {
	kit    kit.Game
	rules  engine.Rules
	editor *dataEditor // nil for a game without data to edit
	setup  engine.Setup
}

// loadGame finds the configuration's game, loads its board data, and
// checks that its game can start.
func loadGame(cfg *tableconfig.Config) (tableGame, error) {
	gameKit, err := games.Find(gameList(), cfg.Game)
	if err != nil {
		return tableGame{}, fmt.Errorf("%s: %w", cfg.File, err)
	}
	rules := gameKit.Rules()
	var editor *dataEditor
	if gameKit.Edit != nil {
		if rules, err = loadData(gameKit.Edit, cfg.Board); err != nil {
			return tableGame{}, fmt.Errorf("%s: %w", cfg.Board, err)
		}
		editor = &dataEditor{path: cfg.Board, edit: gameKit.Edit, adapter: gameKit.Adapter, cur: rules}
	} else if cfg.Board != "" {
		return tableGame{}, fmt.Errorf("%s: board: is for tables of a game with a board to edit, this table plays %s", cfg.File, cfg.Game)
	}
	setup := engine.Setup{Game: cfg.Game, Variant: cfg.Variant, Players: cfg.Players, Options: cfg.Options}
	if _, err := rules.Start(setup); err != nil {
		return tableGame{}, fmt.Errorf("%s: the table's game cannot start: %w", cfg.File, err)
	}
	return tableGame{kit: gameKit, rules: rules, editor: editor, setup: setup}, nil
}

// openJournal opens the journal and resumes its unfinished game, or
// begins one with the configuration's setup. The caller closes the store.
func openJournal(cfg *tableconfig.Config, g tableGame, clk clock.Clock, logger *log.Logger) (*journal.Store, *journal.Game, error) {
	store, err := journal.Open(cfg.Journal)
	if err != nil {
		return nil, nil, err
	}
	setup := g.setup
	game, err := store.Resume(g.rules)
	switch {
	case errors.Is(err, journal.ErrNoGame):
		if game, err = store.Begin(g.rules, setup, clk.Now()); err != nil {
			store.Close()
			return nil, nil, err
		}
		logger.Printf("journal %s: game %d begins: %s %s, %v", cfg.Journal, game.ID(), setup.Game, setup.Variant, setup.Players)
	case err != nil:
		store.Close()
		return nil, nil, err
	default:
		logger.Printf("journal %s: game %d resumes at step %d", cfg.Journal, game.ID(), game.Len())
		if g := game.Setup(); g.Variant != setup.Variant || fmt.Sprint(g.Players) != fmt.Sprint(setup.Players) || fmt.Sprint(g.Options) != fmt.Sprint(setup.Options) {
			logger.Printf("the unfinished game is %s with %v; the configuration's %s with %v will be the next game's", g.Variant, g.Players, setup.Variant, setup.Players)
		}
	}
	return store, game, nil
}

// loadTags loads the enrolled tags: what each tag's UID stands for.
func loadTags(cfg *tableconfig.Config, logger *log.Logger) (func(uid string) (table.Target, bool), error) {
	if _, err := os.Stat(cfg.Tags); err != nil {
		logger.Printf("no enrolled tags yet (%v): every tap is an unknown tag until `comptoir enroll` writes %s", err, cfg.Tags)
	}
	m, err := tagmap.Load(cfg.Tags)
	if err != nil {
		return nil, err
	}
	logger.Printf("%d tags enrolled (%s)", m.Len(), cfg.Tags)
	return func(uid string) (table.Target, bool) {
		t, ok := m.Lookup(uid)
		return table.Target{Kind: t.Kind, ID: t.ID}, ok
	}, nil
}

// tableInputs are the table's sources of events: a recording, or the table
// box's devices; and the dice reader (camera, or pictured rolls) in a
// child process.
type tableInputs struct {
	sources  []func(context.Context) <-chan input.Event
	halt     func() error // halts the devices; nil with a recording
	rec      *replay.Source
	diceHook func(input.DiceRolled) bool
	dice     *diceReader
}

// openInputs opens the configuration's inputs; with the devices, their
// lights become the session's indicator (opts.Indicator).
func openInputs(cfg *tableconfig.Config, clk clock.Clock, logger *log.Logger, opts *table.Opts) (*tableInputs, error) {
	in := &tableInputs{}
	if args := diceReaderArgs(cfg); args != nil {
		path, err := findDiceReader(cfg)
		if err != nil {
			return nil, err
		}
		in.dice = &diceReader{path: path, args: args, opts: DefaultDiceReaderOpts, logf: logger.Printf}
		in.dice.opts.Clock = clk
		in.dice.log = newDiceLog(in.dice)
		if err := adoptSharedCalibration(cfg.Journal, logger.Printf); err != nil {
			logger.Printf("dice: %v", err)
		}
		in.dice.calibration = calibrationFile(cfg.Journal)
		in.dice.learned = cameraLearnedFile(cfg.Journal)
		in.dice.log.calibFile = in.dice.calibration
		opts.DiceNote = in.dice.log.note
	}
	if cfg.Replay != nil {
		rec, err := replay.Open(cfg.Replay.Inputs, replay.Opts{Speed: cfg.Replay.Speed, Clock: clk})
		if err != nil {
			return nil, err
		}
		in.rec = rec
		logger.Printf("inputs: %s (speed %g, loop %v)", rec, cfg.Replay.Speed, cfg.Replay.Loop)
		if dice := in.dice; dice != nil {
			in.diceHook = func(e input.DiceRolled) bool {
				if dice.show(e) {
					return true
				}
				logger.Printf("dice: no dice reader running to show blue=%d red=%d; the recorded roll goes through", e.Blue, e.Red)
				return false
			}
			logger.Printf("dice: rolls shown as pictures from %s to the dice reader", cfg.Replay.Frames)
		}
		return in, nil
	}
	hw, err := wiring.Open(cfg.Devices, wiring.Opts{Clock: clk})
	if err != nil {
		return nil, err
	}
	in.halt = hw.Close
	in.sources = append(in.sources, hw.Run)
	if l := hw.Lights(); l != nil {
		opts.Indicator = l
	}
	return in, nil
}
