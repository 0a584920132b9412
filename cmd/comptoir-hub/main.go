// Command comptoir-hub is the café's hub: the floor page that shows every
// table live, the history of the plays and their statistics, fed by the
// tables over NATS JetStream.
//
// Usage:
//
//	comptoir-hub --state /var/lib/comptoir-hub --tables /etc/comptoir/tables.yaml [--listen :8090] [--nats-listen :4222]
//	comptoir-hub --state DIR --nats nats://server:4222 --nats-user hub --nats-password PW
//	comptoir-hub add-table --tables /etc/comptoir/tables.yaml NAME
//
// By default the hub runs its own NATS server (JetStream on disk under
// --state), where each table of --tables logs in with its own password and
// may publish only under its own name. add-table adds a table to the file
// with a new password and prints the cafe: section of its configuration.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"comptoir/hub"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := hub.Command(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0) // -h: the usage is printed
		}
		if errors.Is(err, hub.ErrUsage) {
			os.Exit(2)
		}
		fmt.Fprintln(os.Stderr, "comptoir-hub:", err)
		os.Exit(1)
	}
}
