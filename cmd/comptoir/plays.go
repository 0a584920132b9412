package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"comptoir/bgstats"
	"comptoir/dashboard"
	"comptoir/engine"
	"comptoir/games"
	"comptoir/games/kit"
	"comptoir/journal"
	"comptoir/notation"
	"comptoir/tableconfig"
)

func init() {
	commands["plays"] = command{
		summary: "list the games of a table's journal",
		run:     runPlays,
	}
	commands["export"] = command{
		summary: "export a game of a journal: BG Stats file or link, or game record",
		run:     runExport,
	}
}

// journalFlags are the flags that name a table's journal: --journal, or
// --config (the table's configuration: its journal, venue, time zone and
// Genoa board).
type journalFlags struct {
	journal, config, location, zone string
}

func (j *journalFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&j.journal, "journal", "", "the table's journal `file` (SQLite)")
	fs.StringVar(&j.config, "config", "", "the table's configuration `file`: its journal, venue, time zone and board")
	fs.StringVar(&j.location, "location", "", "the venue written in BG Stats `name` (default: the configuration's venue:, else table:, else Comptoir)")
	fs.StringVar(&j.zone, "timezone", "", "the table's time `zone`, like Europe/Paris (default: the configuration's timezone:, else the system's)")
}

// table is what the flags name: the journal open, the export options,
// and the rules of each game.
type table struct {
	store *journal.Store
	opts  bgstats.Opts
	// data is the table's file of the game's fixed data (a Genoa table's
	// board), read by the game's editor (kit.Editor); nil: the default.
	data     []byte
	dataName string
}

// games opens the journal the flags name and lists its games; the caller
// closes t.store. fs's usage error says what is missing.
func (j *journalFlags) games(fs *flag.FlagSet) (t *table, infos []journal.Info, err error) {
	t, err = j.open()
	if errors.Is(err, errUsage) {
		return nil, nil, usageError(fs, "name the journal: --journal FILE or --config FILE")
	}
	if err != nil {
		return nil, nil, err
	}
	if infos, err = t.store.Games(); err != nil {
		t.store.Close()
		return nil, nil, err
	}
	return t, infos, nil
}

// open opens the journal the flags name; a usage error says what is
// missing.
func (j *journalFlags) open() (*table, error) {
	var cfg *tableconfig.Config
	path := j.journal
	if j.config != "" {
		var err error
		if cfg, err = tableconfig.Load(j.config); err != nil {
			return nil, err
		}
		if path == "" {
			path = cfg.Journal
		}
	}
	if path == "" {
		return nil, errUsage
	}
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	t := &table{opts: bgstats.Opts{Location: j.location}}
	if cfg != nil {
		t.opts.Location = cmp.Or(t.opts.Location, cfg.Venue, cfg.Table)
		t.opts.Zone = cfg.TimeZone
		if cfg.Board != "" {
			data, err := os.ReadFile(cfg.Board)
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				return nil, err
			}
			if err == nil {
				t.data, t.dataName = data, filepath.Base(cfg.Board)
			}
		}
	}
	t.opts.Location = cmp.Or(t.opts.Location, dashboard.DefaultOpts.Location)
	if j.zone != "" {
		z, err := time.LoadLocation(j.zone)
		if err != nil {
			return nil, fmt.Errorf("--timezone %q: want a time zone's IANA name, like Europe/Paris or UTC", j.zone)
		}
		t.opts.Zone = z
	}
	if t.opts.Zone == nil {
		t.opts.Zone = time.Local
	}
	st, err := journal.Open(path)
	if err != nil {
		return nil, err
	}
	t.store = st
	return t, nil
}

// game is the named game's kit and its rules, over the table's data file
// when the game has an editor for it (a Genoa table's board).
func (t *table) game(name string) (kit.Game, engine.Rules, error) {
	k, err := games.Lookup(name)
	if err != nil {
		return kit.Game{}, nil, err
	}
	if k.Edit != nil && t.data != nil {
		r, err := k.Edit.Load(t.data, t.dataName)
		if err != nil {
			return kit.Game{}, nil, fmt.Errorf("%s: %w", t.dataName, err)
		}
		return k, r, nil
	}
	return k, k.Rules(), nil
}

func runPlays(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("plays", flag.ContinueOnError)
	var j journalFlags
	j.add(fs)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: comptoir plays --journal FILE | --config FILE\n\nLists the games of a table's journal: number, game, players, start (local time), length, outcome.\nExport one with: comptoir export --journal FILE --game N.")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usageError(fs, "unexpected arguments %q", fs.Args())
	}
	t, infos, err := j.games(fs)
	if err != nil {
		return err
	}
	defer t.store.Close()
	if len(infos) == 0 {
		fmt.Fprintf(stdout, "%s: no game yet\n", t.store.Path())
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "GAME\tPLAYS\tPLAYERS\tSTARTED\tMINUTES\tOUTCOME")
	for _, in := range infos {
		minutes, outcome := "-", cmp.Or(in.Outcome, "playing")
		if !in.Finished.IsZero() {
			minutes = fmt.Sprint(int(in.Finished.Sub(in.Started).Round(time.Minute) / time.Minute))
		}
		name := in.Setup.Game
		if in.Setup.Variant != "" {
			name += " " + in.Setup.Variant
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", in.ID, name, strings.Join(in.Setup.Players, ", "),
			in.Started.In(t.opts.Zone).Format("2006-01-02 15:04"), minutes, outcome)
	}
	return tw.Flush()
}

// Export formats.
const (
	formatBGSPlay = "bgsplay" // the .bgsplay file
	formatBGStats = "bgstats" // the import link's JSON
	formatLink    = "link"    // the import link
	formatRecord  = "record"  // the game record
)

func runExport(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	var j journalFlags
	j.add(fs)
	id := fs.Int64("game", 0, "the game's `number` in the journal (comptoir plays lists them; default: the latest finished game)")
	format := fs.String("format", formatBGSPlay, "what to write: bgsplay (the BG Stats file), bgstats (the play's JSON as BG Stats' import link takes it), link (the import link) or record (the game record)")
	out := fs.String("o", "", "write to `file` instead of the standard output")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: comptoir export --journal FILE | --config FILE [--game N] [--format bgsplay|bgstats|link|record] [-o FILE]\n\nExports a game of a table's journal, any game, not only the latest:\nfor BG Stats (a finished game) or as the game record (any game).")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usageError(fs, "unexpected arguments %q", fs.Args())
	}
	switch *format {
	case formatBGSPlay, formatBGStats, formatLink, formatRecord:
	default:
		return usageError(fs, "--format %q: want bgsplay, bgstats, link or record", *format)
	}
	t, infos, err := j.games(fs)
	if err != nil {
		return err
	}
	defer t.store.Close()
	var info *journal.Info
	for i := range infos {
		if (*id == 0 && (infos[i].Outcome == "over" || *format == formatRecord)) || infos[i].ID == *id {
			info = &infos[i]
		}
	}
	if info == nil {
		if *id == 0 {
			return fmt.Errorf("%s: no finished game to export", t.store.Path())
		}
		return fmt.Errorf("%s: no game %d (comptoir plays lists them)", t.store.Path(), *id)
	}
	k, rules, err := t.game(info.Setup.Game)
	if err != nil {
		return err
	}
	var data []byte
	if *format == formatRecord {
		g, err := t.store.Load(rules, info.ID)
		if err != nil {
			return err
		}
		var b strings.Builder
		if err := notation.Write(&b, g.Record()); err != nil {
			return err
		}
		data = []byte(b.String())
	} else {
		p, err := bgstats.Read(t.store, rules, info.ID, dashboard.BGStatsGame(k))
		if err != nil {
			return err
		}
		switch *format {
		case formatBGSPlay:
			data, err = p.File(t.opts)
		case formatBGStats:
			data, err = json.MarshalIndent(p.LinkData(t.opts), "", "  ")
		case formatLink:
			var link string
			link, err = p.Link(t.opts)
			data = []byte(link)
		}
		if err != nil {
			return err
		}
		data = append(data, '\n')
	}
	if *out == "" {
		_, err = stdout.Write(data)
		return err
	}
	return os.WriteFile(*out, data, 0o644)
}
