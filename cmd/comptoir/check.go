package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"comptoir/cmd/internal/diceprog"
	"comptoir/tablecheck"
	"comptoir/tableconfig"
)

func init() {
	commands["check"] = command{
		summary: "check a table configuration without starting the table",
		run:     runCheck,
	}
}

func runCheck(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	strict := fs.Bool("strict", false, "fail on warnings too")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), `usage: comptoir check [--strict] CONFIG

Checks the table configuration CONFIG as comptoird does at start, without
starting the table: the file (unknown keys, with a "did you mean"; bad
values; pins that clash with each other or with the SPI and I2C buses),
the game and its setup, the files it names (board, tags, recordings, the
journal's folder), the dice reader, and what phones need (base_url).
Prints each problem with its file, line and key. Exit status 1 on an
error (or a warning, with --strict), 0 otherwise.`)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError(fs, "name one table configuration file")
	}
	cfg, err := tableconfig.Load(fs.Arg(0))
	if err != nil {
		return err
	}
	ps := tablecheck.Check(cfg, tablecheck.Opts{DiceReader: diceReaderOnPath})
	warnings := 0
	for _, p := range ps {
		fmt.Fprintln(stdout, p)
		if p.Severity == tablecheck.Warning {
			warnings++
		}
	}
	if err := tablecheck.Err(ps); err != nil {
		return fmt.Errorf("%s: %d errors, %d warnings", cfg.File, len(ps)-warnings, warnings)
	}
	if *strict && warnings > 0 {
		return fmt.Errorf("%s: %d warnings (--strict)", cfg.File, warnings)
	}
	fmt.Fprintf(stdout, "%s: ok (%d warnings)\n", cfg.File, warnings)
	return nil
}

// diceReaderOnPath finds the dice reader as comptoird would, from here:
// dice_reader:, else comptoir-dice, else comptoir, beside this comptoir
// (installed beside comptoird) or in PATH (diceprog.Search), else this
// comptoir, whose dicefeed command is the same reader.
func diceReaderOnPath(cfg *tableconfig.Config) (string, error) {
	if cfg.DiceReader != "" {
		fi, err := os.Stat(cfg.DiceReader)
		if err != nil {
			return "", fmt.Errorf("dice_reader: %w", err)
		}
		if fi.IsDir() || fi.Mode()&0o111 == 0 {
			return "", fmt.Errorf("dice_reader: %s is not an executable program", cfg.DiceReader)
		}
		return cfg.DiceReader, nil
	}
	exe, err := os.Executable()
	dir := ""
	if err == nil {
		dir = filepath.Dir(exe)
	}
	if p, _, ok := diceprog.Search(dir); ok {
		return p, nil
	}
	if err == nil {
		return exe, nil
	}
	return "", errors.New("the dice reader (the comptoir-dice program) is not installed: install comptoir-dice beside comptoird, or name it with dice_reader: in the configuration")
}
