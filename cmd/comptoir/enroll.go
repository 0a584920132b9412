package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"comptoir/games"
	"comptoir/games/genoa/board"
	"comptoir/games/kit"
	"comptoir/hw/hwconfig"
	"comptoir/hw/replay"
	"comptoir/hw/tagmap"
	"comptoir/hw/wiring"
	"comptoir/input"
	strict "comptoir/strictyaml"
)

func init() {
	commands["enroll"] = command{
		summary: "enroll the NFC tags of the board squares and the cards, one tap each",
		run:     runEnroll,
	}
}

const enrollUsage = `usage: comptoir enroll [--config TABLE.yaml | --replay TAPS.jsonl] [--tags TAGS.yaml]
                       [--cards CARDS.yaml [--game GAME]] [--no-squares] [--board BOARD.yaml]

Walks you through tapping, on the table's NFC reader, the sticker of each
board square (row by row: 1-1, 2-1, ... 8-8) and then of each card of the
catalog, and saves each tag in TAGS.yaml as soon as it is tapped. Squares
and cards that already have a tag are passed over, so running it again
goes on where it stopped. A tag that is already enrolled is refused, with
what it is enrolled as; tap another.

--tags defaults to TABLE-tags.yaml beside the table configuration.
--replay reads the taps from a recording instead of the reader.
--cards reads the cards of a game's card catalog, such as
        configs/genoa/cards.yaml, configs/negoce/cards.yaml or
        configs/dschunke/cards.yaml, decoded strictly by the game: a bad
        file is refused with its line and key.
--game  says which game the --cards file is for (genoa, negoce, dschunke);
        by default it is told by the file's top-level keys.
--board names the squares from a Genoa board layout (default: the
        embedded genoa/board.yaml); a bad file is refused.
`

func runEnroll(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("enroll", flag.ContinueOnError)
	fs.SetOutput(stderr)
	config := fs.String("config", "", "table configuration naming the NFC reader")
	replayFile := fs.String("replay", "", "read taps from this recording instead of the reader")
	speed := fs.Float64("speed", math.Inf(1), "pace of --replay: 1 as recorded, default without waiting")
	tagsFile := fs.String("tags", "", "enrolled tag map to write (default: beside --config)")
	cards := fs.String("cards", "", "card catalog whose cards to enroll")
	noSquares := fs.Bool("no-squares", false, "enroll only the cards")
	boardFile := fs.String("board", "", "board layout for the names of the squares")
	game := fs.String("game", "", "game of --cards: genoa, negoce or dschunke (default: told by the file)")
	fs.Usage = func() { fmt.Fprint(stderr, enrollUsage) }
	if err := fs.Parse(args); err != nil || fs.NArg() != 0 {
		if err == nil {
			fs.Usage()
		}
		return errUsage
	}
	if (*config == "") == (*replayFile == "") {
		fmt.Fprintln(stderr, "comptoir enroll: give either --config (the reader) or --replay (a recording)")
		fs.Usage()
		return errUsage
	}
	if *tagsFile == "" {
		if *config == "" {
			fmt.Fprintln(stderr, "comptoir enroll: say where to save the tags: --tags FILE")
			return errUsage
		}
		*tagsFile = strings.TrimSuffix(*config, filepath.Ext(*config)) + "-tags.yaml"
	}

	var targets []tagmap.Target
	if !*noSquares {
		labels, err := squareLabels(*boardFile)
		if err != nil {
			return err
		}
		targets = tagmap.BoardSquares(func(x, y int) string { return labels[fmt.Sprintf("%d-%d", x, y)] })
	}
	if *cards != "" {
		cs, err := catalogCards(*cards, *game)
		if err != nil {
			return err
		}
		targets = append(targets, cs...)
	}
	if len(targets) == 0 {
		return errors.New("nothing to enroll: --no-squares without --cards")
	}
	m, err := tagmap.Load(*tagsFile)
	if err != nil {
		return err
	}
	session := tagmap.NewSession(m, targets)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var taps <-chan input.Event
	var halt func() error
	if *replayFile != "" {
		src, err := replay.Open(*replayFile, replay.Opts{Speed: *speed})
		if err != nil {
			return err
		}
		taps = src.Run(ctx)
	} else {
		devs, err := loadDevices(*config) // refuses a typo in the table keys too
		if err != nil {
			return err
		}
		if devs.NFC == nil {
			return fmt.Errorf("%s has no devices.nfc section: enrollment needs the reader", *config)
		}
		c := devs.NFC
		table, err := wiring.Open(hwconfig.Devices{File: devs.File, NFC: c}, wiring.Opts{})
		if err != nil {
			return err
		}
		taps = table.Run(ctx)
		halt = table.Close
	}
	err = enrollLoop(ctx, session, m, *tagsFile, taps, stdout)
	if halt != nil {
		// Drain the sources so their goroutines end before the devices halt.
		stop()
		for range taps {
		}
		err = errors.Join(err, halt())
	}
	return err
}

// enrollLoop prompts for each target and enrolls the taps until every
// target has a tag, the taps end or ctx is done.
func enrollLoop(ctx context.Context, s *tagmap.Session, m *tagmap.Map, path string, taps <-chan input.Event, stdout io.Writer) error {
	prompt := func() bool {
		t, ok := s.Next()
		if !ok {
			return false
		}
		done, total := s.Progress()
		fmt.Fprintf(stdout, "tap %s  [%d/%d]\n", t, done+1, total)
		return true
	}
	if !prompt() {
		fmt.Fprintf(stdout, "every target already has a tag in %s\n", path)
		return nil
	}
	for {
		select {
		case <-ctx.Done():
			done, total := s.Progress()
			fmt.Fprintf(stdout, "stopped with %d of %d enrolled; run enroll again to go on\n", done, total)
			return nil
		case e, ok := <-taps:
			if !ok {
				done, total := s.Progress()
				fmt.Fprintf(stdout, "no more taps: %d of %d enrolled in %s; run enroll again to go on\n", done, total, path)
				return nil
			}
			switch e := e.(type) {
			case input.TagTapped:
				t, err := s.Tap(e.UID)
				if errors.Is(err, tagmap.ErrEnrolled) {
					fmt.Fprintf(stdout, "  refused: %v\n", err)
					prompt()
					continue
				}
				if err != nil {
					return err
				}
				if err := m.Save(path); err != nil {
					return err
				}
				fmt.Fprintf(stdout, "  %s = %s%s\n", e.UID, t.Kind, " "+t.ID)
				if !prompt() {
					fmt.Fprintf(stdout, "all %d enrolled; saved in %s\n", m.Len(), path)
					return nil
				}
			case input.DeviceStatus:
				fmt.Fprintf(stdout, "  %v\n", e)
			}
		}
	}
}

// squareLabels names the cells from a board layout file, decoded strictly
// by the board package (the embedded genoa/board.yaml when path is
// empty): the English name of each building, Street and Market. A bad
// file is refused with its line and key.
func squareLabels(path string) (map[string]string, error) {
	b := board.Default()
	if path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		if b, err = board.Decode(data, path); err != nil {
			return nil, err
		}
	}
	labels := make(map[string]string, board.Size*board.Size)
	for _, sq := range b.Squares() {
		name := sq.NameEN
		switch sq.Kind {
		case board.Street:
			name = "Street"
		case board.Market:
			name = "Market"
		}
		for _, c := range sq.Cells {
			labels[fmt.Sprintf("%d-%d", c.X, c.Y)] = name
		}
	}
	return labels, nil
}

// errCardsGame is returned when the game of a cards file is not known.
var errCardsGame = errors.New("cannot tell which game's cards file this is")

// catalogCards lists the cards of a catalog file, in catalog order,
// decoded by the game's own decoder: game names it ("genoa", "negoce",
// "dschunke"), or "" to tell it by the file's top-level keys. Errors name
// the file, the line and the key.
func catalogCards(path, game string) ([]tagmap.Target, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var cardGames []kit.Game
	var names []string
	for _, g := range games.All() {
		if g.Cards != nil {
			cardGames = append(cardGames, g)
			names = append(names, g.Name)
		}
	}
	if game == "" {
		// Only the top-level keys are looked at here; the game's decoder
		// checks the whole file.
		f := strict.File{Name: path}
		root, err := f.Parse(data)
		if err != nil {
			return nil, err
		}
		top := map[string]bool{}
		for i := 0; i+1 < len(root.Content); i += 2 {
			top[root.Content[i].Value] = true
		}
	find:
		for _, g := range cardGames {
			for _, k := range g.Cards.Keys {
				if top[k] {
					game = g.Name
					break find
				}
			}
		}
		if game == "" {
			var keys []string
			for _, g := range cardGames {
				keys = append(keys, fmt.Sprintf("%s (%s)", g.Name, strings.Join(g.Cards.Keys, ", ")))
			}
			return nil, fmt.Errorf("%s: %w: no top-level key of %s; say which with --game %s", path, errCardsGame, strings.Join(keys, ", "), strings.Join(names, "|"))
		}
	}
	for _, g := range cardGames {
		if g.Name == game {
			cards, err := g.Cards.Decode(data, path)
			if err != nil {
				return nil, err
			}
			var out []tagmap.Target
			for _, c := range cards {
				out = append(out, cardTarget(c.ID, c.Label))
			}
			if len(out) == 0 {
				return nil, fmt.Errorf("%s: no card to enroll in this %s cards file", path, game)
			}
			return out, nil
		}
	}
	return nil, fmt.Errorf("%w: --game %q; give one of %s", errCardsGame, game, strings.Join(names, ", "))
}

func cardTarget(id, label string) tagmap.Target {
	return tagmap.Target{Kind: tagmap.KindCard, ID: id, Label: label}
}
