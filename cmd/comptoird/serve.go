package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"

	"comptoir/engine"
	"comptoir/games"
	"comptoir/games/kit"
	"comptoir/hw/clock"
	"comptoir/hw/replay"
	"comptoir/hw/tagmap"
	"comptoir/hw/wiring"
	"comptoir/input"
	"comptoir/journal"
	"comptoir/table"
	"comptoir/tableconfig"
)

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
