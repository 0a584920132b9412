package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"comptoir/configs"
	"comptoir/hw/hwconfig"
	"comptoir/hw/replay"
	"comptoir/hw/wiring"
	"comptoir/tableconfig"
)

func init() {
	commands["hw"] = command{
		summary: "check the table box's devices (hw check) or record their inputs (hw record FILE)",
		run:     runHW,
	}
}

const hwUsage = `usage: comptoir hw check [--config FILE]
       comptoir hw record [--config FILE] [--for DURATION] OUT.jsonl

check   opens every device that the table configuration names (NFC reader,
        buttons, lights, board sensors), asks each a question and says
        which answer. Exit status 1 when any fails.
record  runs the devices and writes their events to OUT.jsonl, the format
        that replays read (see package comptoir/hw/replay), until Ctrl-C or
        for DURATION.

--config defaults to the embedded configs/tables/example-pi.yaml.
`

func runHW(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, hwUsage)
		return errUsage
	}
	switch args[0] {
	case "check":
		return runHWCheck(args[1:], stdout, stderr)
	case "record":
		return runHWRecord(args[1:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprint(stdout, hwUsage)
		return nil
	}
	fmt.Fprintf(stderr, "comptoir hw: unknown subcommand %q\n%s", args[0], hwUsage)
	return errUsage
}

// loadDevices reads the devices: section of a table configuration, or of
// the embedded example when path is empty.
func loadDevices(path string) (hwconfig.Devices, error) {
	if path == "" {
		data, err := configs.FS.ReadFile("tables/example-pi.yaml")
		if err != nil {
			return hwconfig.Devices{}, err
		}
		return hwconfig.Decode(data, "example-pi.yaml")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return hwconfig.Devices{}, err
	}
	// A typo in the table's keys is refused here too, not only by the
	// daemon.
	if err := tableconfig.CheckKeys(data, filepath.Base(path)); err != nil {
		return hwconfig.Devices{}, err
	}
	return hwconfig.Decode(data, filepath.Base(path))
}

func runHWCheck(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("hw check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	config := fs.String("config", "", "table configuration file (default: the embedded example-pi.yaml)")
	fs.Usage = func() { fmt.Fprint(stderr, hwUsage) }
	if err := fs.Parse(args); err != nil || fs.NArg() != 0 {
		if err == nil {
			fs.Usage()
		}
		return errUsage
	}
	devs, err := loadDevices(*config)
	if err != nil {
		return err
	}
	reports := wiring.Check(devs)
	failed := 0
	for _, r := range reports {
		fmt.Fprintln(stdout, r)
		if !r.OK {
			failed++
		}
	}
	if len(reports) == 0 {
		fmt.Fprintln(stdout, "no device in the configuration")
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d devices failed", failed, len(reports))
	}
	return nil
}

func runHWRecord(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("hw record", flag.ContinueOnError)
	fs.SetOutput(stderr)
	config := fs.String("config", "", "table configuration file (default: the embedded example-pi.yaml)")
	dur := fs.Duration("for", 0, "stop after this long (default: until Ctrl-C)")
	fs.Usage = func() { fmt.Fprint(stderr, hwUsage) }
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 {
		if err == nil {
			fs.Usage()
		}
		return errUsage
	}
	devs, err := loadDevices(*config)
	if err != nil {
		return err
	}
	f, err := os.Create(fs.Arg(0))
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *dur > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *dur)
		defer cancel()
	}
	table, err := wiring.Open(devs, wiring.Opts{})
	if err != nil {
		f.Close()
		return err
	}
	fmt.Fprintf(stdout, "recording to %s; Ctrl-C to stop\n", fs.Arg(0))
	w := replay.NewWriter(f)
	n := 0
	var werr error
	for e := range table.Run(ctx) {
		fmt.Fprintln(stdout, e.When().Format("15:04:05.000"), e)
		if werr == nil {
			werr = w.Write(e)
		}
		n++
	}
	herr := table.Close()
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		return fmt.Errorf("writing %s: %w", fs.Arg(0), err)
	}
	fmt.Fprintf(stdout, "%d events recorded in %s\n", n, fs.Arg(0))
	if herr != nil {
		return fmt.Errorf("halting the devices: %w", herr)
	}
	return nil
}
