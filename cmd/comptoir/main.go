// Command comptoir is the command line of Comptoir: replay and score game
// records, print a board, simulate games, read dice, enroll tags, check the
// hardware.
//
// Each subcommand lives in its own file and registers itself in commands
// from an init function.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// command is one subcommand of comptoir.
type command struct {
	// summary is the one-line help.
	summary string
	// run runs the subcommand with the arguments after its name.
	run func(args []string, stdout, stderr io.Writer) error
}

// commands maps a subcommand name to its command. It is filled by init
// functions, one per file, before main runs, and only read afterwards.
var commands = map[string]command{}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// errUsage is returned by a subcommand whose arguments are wrong, after it
// printed its usage; comptoir then exits with status 2.
var errUsage = fmt.Errorf("usage")

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "comptoir: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	if err := c.run(args[1:], stdout, stderr); err != nil {
		if err == errUsage {
			return 2
		}
		fmt.Fprintf(stderr, "comptoir %s: %v\n", args[0], err)
		return 1
	}
	return 0
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: comptoir <command> [arguments]")
	fmt.Fprintln(w, "commands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
}
