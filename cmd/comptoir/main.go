// Command comptoir is the command line of Comptoir: replay and score game
// records, print a board, simulate games, read dice, enroll tags, check the
// hardware.
//
// Each subcommand lives in its own file and registers itself in commands
// from an init function.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"comptoir/buildinfo"
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

// run runs the command line and returns the exit status: 0 done, 1
// failed, 2 wrong usage. Help (help, -h, --help, help CMD, CMD -h) goes to
// stdout with status 0; usage errors go to stderr.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			return help(args[1:], stdout, stderr)
		}
		usage(stdout)
		return 0
	case "version", "-version", "--version":
		fmt.Fprintln(stdout, "comptoir", buildinfo.Read())
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "comptoir: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	if wantsHelp(args[1:]) {
		return help(args, stdout, stderr)
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

// wantsHelp reports whether args ask for help (-h, -help or --help
// before a "--").
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// help prints the help of the command args[0] (and of its subcommand,
// like "hw check") on stdout: the command runs with -h and both its
// outputs on stdout.
func help(args []string, stdout, stderr io.Writer) int {
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "comptoir help: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	var sub []string
	for _, a := range args[1:] {
		if strings.HasPrefix(a, "-") {
			break
		}
		sub = append(sub, a)
	}
	c.run(append(sub, "-h"), stdout, stdout)
	return 0
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: comptoir <command> [arguments]")
	fmt.Fprintln(w, "       comptoir help <command>     (or comptoir <command> -h): a command's help")
	fmt.Fprintln(w, "       comptoir version            the version and commit of this build")
	fmt.Fprintln(w, "Exit status: 0 done, 1 failed, 2 wrong usage.")
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

// parseFlags parses a command's flags; a bad flag is a usage error (the
// flag package has printed it, and the usage, on stderr). -h is one too
// for the command: run has sent it to help, which prints the usage on
// stdout and exits 0.
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) error {
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	return nil
}

// usageError prints what is wrong and the command's usage on the flag
// set's output (stderr), and returns errUsage.
func usageError(fs *flag.FlagSet, format string, args ...any) error {
	fmt.Fprintf(fs.Output(), "comptoir %s: %s\n", fs.Name(), fmt.Sprintf(format, args...))
	fs.Usage()
	return errUsage
}
