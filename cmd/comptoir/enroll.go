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

	"comptoir/configs"
	"comptoir/engine/dschunke"
	"comptoir/engine/genoa/board"
	"comptoir/engine/genoa/catalog"
	"comptoir/engine/negoce"
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

// cardGames are the games whose card catalogs enroll reads, each through
// the game's own strict decoder, with the top-level keys that tell its
// cards file apart.
var cardGames = []struct {
	name string
	keys []string // top-level keys found only in this game's cards file
	read func(data []byte, path string) ([]tagmap.Target, error)
}{
	{"genoa", []string{"large-orders", "small-orders", "messages", "contracts"}, genoaCards},
	{"negoce", []string{"contraband"}, negoceCards},
	{"dschunke", []string{"special", "restock"}, dschunkeCards},
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
	var names []string
	for _, g := range cardGames {
		names = append(names, g.name)
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
			for _, k := range g.keys {
				if top[k] {
					game = g.name
					break find
				}
			}
		}
		if game == "" {
			return nil, fmt.Errorf("%s: %w: no top-level key of genoa (large-orders, ...), negoce (contraband) or dschunke (special, restock); say which with --game %s", path, errCardsGame, strings.Join(names, "|"))
		}
	}
	for _, g := range cardGames {
		if g.name == game {
			out, err := g.read(data, path)
			if err != nil {
				return nil, err
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

// genoaCards reads a Genoa cards file (configs/genoa/cards.yaml), labelled
// by deck.
func genoaCards(data []byte, path string) ([]tagmap.Target, error) {
	c, err := catalog.DecodeCards(data, path)
	if err != nil {
		return nil, err
	}
	var out []tagmap.Target
	for d := catalog.Deck(0); d < catalog.NumDecks; d++ {
		for _, k := range c.Deck(d) {
			out = append(out, cardTarget(k.ID, d.String()))
		}
	}
	return out, nil
}

// negoceCards reads a Négoce catalog (configs/negoce/cards.yaml), labelled
// by the card's name.
func negoceCards(data []byte, path string) ([]tagmap.Target, error) {
	c, err := negoce.DecodeCatalog(data, path)
	if err != nil {
		return nil, err
	}
	var out []tagmap.Target
	for i, id := range c.IDs() {
		out = append(out, cardTarget(string(id), c.CardName(i, "en")))
	}
	return out, nil
}

// dschunkeCards reads a Dschunke cards file (configs/dschunke/cards.yaml),
// with the embedded board it refers to: market, special and restock
// cards, labelled by their kind or effect.
func dschunkeCards(data []byte, path string) ([]tagmap.Target, error) {
	boardData, err := configs.FS.ReadFile(dschunke.BoardFile)
	if err != nil {
		return nil, fmt.Errorf("embedded %s: %w", dschunke.BoardFile, err)
	}
	d, err := dschunke.Decode(boardData, dschunke.BoardFile, data, path)
	if err != nil {
		return nil, err
	}
	var out []tagmap.Target
	for _, c := range d.Market {
		out = append(out, cardTarget(c.ID, "market"))
	}
	for i, c := range d.Special {
		out = append(out, cardTarget(c.ID, d.CardName(i, "en")))
	}
	for _, c := range d.Restock {
		out = append(out, cardTarget(c.ID, "restock "+d.Colours[c.Colour]))
	}
	return out, nil
}
