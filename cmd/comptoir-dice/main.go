// Command comptoir-dice is the table's dice reader: comptoir's dicefeed
// command alone, in a program of its own. comptoird starts it as a child
// process (comptoir-dice dicefeed --readings --camera DEVICE) and reads
// the rolls it writes on stdout.
//
// `comptoir dicefeed` does the same, but the comptoir program carries the
// whole command line (the café hub's NATS server, SQLite, the simulators,
// fonts): mapped into the reader's process, it costs about 25 MB more
// resident memory, and the dice reader runs for as long as the table does.
// This program links only the reader (comptoir/vision and what dicefeed
// needs); TestDependencies keeps it so.
//
// Usage:
//
//	comptoir-dice dicefeed (--camera DEVICE | --video FILE | --frames DIR | --pictures DIR) [flags]
//	comptoir-dice help     (or comptoir-dice dicefeed -h)
//	comptoir-dice version
package main

import (
	"fmt"
	"io"
	"os"

	"comptoir/buildinfo"
	"comptoir/cmd/internal/dicefeed"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the command line and returns the exit status: 0 done, 1
// failed, 2 wrong usage.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && args[1] == "dicefeed" {
			dicefeed.Run([]string{"-h"}, stdout, stdout)
			return 0
		}
		usage(stdout)
		return 0
	case "version", "-version", "--version":
		fmt.Fprintln(stdout, "comptoir-dice", buildinfo.Read())
		return 0
	case "dicefeed":
	default:
		fmt.Fprintf(stderr, "comptoir-dice: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	for _, a := range args[1:] {
		if a == "-h" || a == "-help" || a == "--help" {
			dicefeed.Run([]string{"-h"}, stdout, stdout)
			return 0
		}
	}
	switch err := dicefeed.Run(args[1:], stdout, stderr); {
	case err == nil:
		return 0
	case err == dicefeed.ErrUsage:
		return 2
	default:
		fmt.Fprintf(stderr, "comptoir-dice dicefeed: %v\n", err)
		return 1
	}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: comptoir-dice dicefeed [arguments]   "+dicefeed.Summary)
	fmt.Fprintln(w, "       comptoir-dice help dicefeed          (or comptoir-dice dicefeed -h): its arguments")
	fmt.Fprintln(w, "       comptoir-dice version                the version and commit of this build")
	fmt.Fprintln(w, "The dice reader alone, in less memory than comptoir dicefeed; comptoird starts it.")
	fmt.Fprintln(w, "Exit status: 0 done, 1 failed, 2 wrong usage.")
}
