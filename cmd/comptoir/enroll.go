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

	"gopkg.in/yaml.v3"

	"comptoir/configs"
	"comptoir/hw/hwconfig"
	"comptoir/hw/replay"
	"comptoir/hw/tagmap"
	"comptoir/hw/wiring"
	"comptoir/input"
)

func init() {
	commands["enroll"] = command{
		summary: "enroll the NFC tags of the board squares and the cards, one tap each",
		run:     runEnroll,
	}
}

const enrollUsage = `usage: comptoir enroll [--config TABLE.yaml | --replay TAPS.jsonl] [--tags TAGS.yaml]
                       [--cards CARDS.yaml] [--no-squares] [--board BOARD.yaml]

Walks you through tapping, on the table's NFC reader, the sticker of each
board square (row by row: 1-1, 2-1, ... 8-8) and then of each card of the
catalog, and saves each tag in TAGS.yaml as soon as it is tapped. Squares
and cards that already have a tag are passed over, so running it again
goes on where it stopped. A tag that is already enrolled is refused, with
what it is enrolled as; tap another.

--tags defaults to TABLE-tags.yaml beside the table configuration.
--replay reads the taps from a recording instead of the reader.
--cards reads card ids (every "id:" of the file) from a card catalog, such
        as configs/genoa/cards.yaml.
--board names the squares from a board layout (default: the embedded
        genoa/board.yaml).
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
		cs, err := catalogCards(*cards)
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
		devs, err := hwconfig.LoadFile(*config)
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

// squareLabels names the cells from a board layout file (the embedded
// genoa/board.yaml when path is empty). It reads the file loosely, without
// the board package: market: and streets: list cells, buildings: entries
// have en: (or key:) and cells:. A file it cannot read gives no labels,
// not an error: the squares are then named by their cells only.
func squareLabels(path string) (map[string]string, error) {
	var data []byte
	var err error
	if path == "" {
		data, err = configs.FS.ReadFile("genoa/board.yaml")
		if err != nil {
			return map[string]string{}, nil
		}
	} else if data, err = os.ReadFile(path); err != nil {
		return nil, err
	}
	labels := map[string]string{}
	var doc struct {
		Market    []string `yaml:"market"`
		Streets   []string `yaml:"streets"`
		Buildings []struct {
			Key   string   `yaml:"key"`
			EN    string   `yaml:"en"`
			Cells []string `yaml:"cells"`
		} `yaml:"buildings"`
	}
	if yaml.Unmarshal(data, &doc) != nil {
		return labels, nil
	}
	for _, c := range doc.Market {
		labels[c] = "Market"
	}
	for _, c := range doc.Streets {
		labels[c] = "Street"
	}
	for _, b := range doc.Buildings {
		name := b.EN
		if name == "" {
			name = b.Key
		}
		for _, c := range b.Cells {
			labels[c] = name
		}
	}
	return labels, nil
}

// catalogCards lists the cards of a catalog file: every mapping with a
// scalar id: key, in file order, named by its deck (the top-level key it
// is under). It reads the catalog loosely so as not to depend on a game's
// catalog package.
func catalogCards(path string) ([]tagmap.Target, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []tagmap.Target
	seen := map[string]int{}
	var walk func(n *yaml.Node, deck string) error
	walk = func(n *yaml.Node, deck string) error {
		switch n.Kind {
		case yaml.DocumentNode, yaml.SequenceNode:
			for _, c := range n.Content {
				if err := walk(c, deck); err != nil {
					return err
				}
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if k.Value == "id" && v.Kind == yaml.ScalarNode {
					if line, dup := seen[v.Value]; dup {
						return fmt.Errorf("%s:%d: card id %q is also on line %d", path, v.Line, v.Value, line)
					}
					seen[v.Value] = v.Line
					out = append(out, tagmap.Target{Kind: tagmap.KindCard, ID: v.Value, Label: deck})
				}
			}
			for i := 0; i+1 < len(n.Content); i += 2 {
				d := deck
				if n == doc.Content[0] {
					d = n.Content[i].Value
				}
				if err := walk(n.Content[i+1], d); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(&doc, ""); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no card with an id: key", path)
	}
	return out, nil
}
