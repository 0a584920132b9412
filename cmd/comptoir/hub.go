package main

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"syscall"

	"comptoir/hub"
)

func init() {
	commands["hub"] = command{
		summary: "run the café's hub: the floor page of every table, the history, over NATS JetStream (same as comptoir-hub)",
		run: func(args []string, stdout, stderr io.Writer) error {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if err := hub.Command(ctx, args, stdout, stderr); errors.Is(err, hub.ErrUsage) {
				return errUsage
			} else {
				return err
			}
		},
	}
}
