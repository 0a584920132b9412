package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"comptoir/games/genoa/board"
	"comptoir/games/genoa/catalog"
)

func init() {
	commands["board"] = command{
		summary: "print the Genoa board layout (8x8 grid and legend), or check a board file",
		run:     runBoard,
	}
}

func runBoard(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("board", flag.ContinueOnError)
	fs.SetOutput(stderr)
	edition := fs.String("edition", "", "name the buildings as this edition's rules do: "+strings.Join(catalog.Editions(), " or ")+" (default: neutral French names)")
	file := fs.String("file", "", "board file to read instead of the embedded default (configs/genoa/board.yaml)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: comptoir board [--edition alea-2001|filosofia-2008] [--file board.yaml]")
		fmt.Fprintln(stderr, "\nPrints the Genoa board: blue X across (columns 1-8), red Y down (rows 1-8),")
		fmt.Fprintln(stderr, "one letter per building, '.' for a street, '#' for the market, then the legend.")
		fmt.Fprintln(stderr, "With --file, the file is checked first; a bad file is reported as file:line: what is wrong.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil || fs.NArg() != 0 {
		if err == nil {
			fs.Usage()
		}
		return errUsage
	}
	b := board.Default()
	source := "embedded " + board.DefaultFile
	if *file != "" {
		data, err := os.ReadFile(*file)
		if err != nil {
			return err
		}
		if b, err = board.Decode(data, *file); err != nil {
			return err
		}
		source = *file
	}
	name := func(s *board.Square) string { return s.NameFR }
	title := "Genoa board"
	if *edition != "" {
		e, c, err := catalog.Load(*edition)
		if err != nil {
			return err
		}
		if err := catalog.Check(b, e, c); err != nil {
			return fmt.Errorf("%s does not fit edition %s: %w", source, e.Key, err)
		}
		name = e.Name
		title = e.NameFR
	}
	fmt.Fprintf(stdout, "%s — %s\n\n", title, source)
	fmt.Fprint(stdout, b.Format(name))
	return nil
}
