package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"comptoir/buildinfo"
)

// Exit statuses, as for every Comptoir command: 0 done, 1 failed, 2
// wrong usage.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// errUsage is a wrong command line, already told on stderr with the
// usage.
var errUsage = errors.New("usage")

// usageText is the daemon's usage, before its flags.
const usageText = `usage: comptoird [--config FILE] [--listen ADDR] [--journal FILE] [--no-replay]
       comptoird help       (or -h, --help): this help
       comptoird version    the version and commit of this build

Runs a table: its devices, its journal, its game session and the players'
dashboard, until SIGINT or SIGTERM. Exit status: 0 stopped by a signal,
1 failed, 2 wrong usage.

`

// commandLine parses the daemon's arguments: help and version are
// answered on stdout (done is true), a wrong command line is told on
// stderr (errUsage).
func commandLine(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (done bool, err error) {
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usageText)
		fs.PrintDefaults()
	}
	if len(args) > 0 {
		switch args[0] {
		case "help":
			fs.SetOutput(stdout)
			fs.Usage()
			return true, nil
		case "version":
			fmt.Fprintln(stdout, "comptoird", buildinfo.Read())
			return true, nil
		}
	}
	fs.SetOutput(io.Discard)
	err = fs.Parse(args)
	fs.SetOutput(stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.SetOutput(stdout)
		fs.Usage()
		return true, nil
	case err != nil:
		fmt.Fprintf(stderr, "comptoird: %v\n", err)
		fs.Usage()
		return true, errUsage
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "comptoird: unexpected arguments %q\n", fs.Args())
		fs.Usage()
		return true, errUsage
	}
	return false, nil
}

// exitCode is the exit status of run's error, told on stderr.
func exitCode(err error, stderr io.Writer) int {
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errUsage):
		return exitUsage
	}
	fmt.Fprintln(stderr, "comptoird:", err)
	return exitFailure
}
