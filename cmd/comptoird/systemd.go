package main

import (
	"context"
	"log"

	"comptoir/sdnotify"
	"comptoir/table"
)

// notifySystemd tells systemd (a Type=notify unit) that the table is
// ready, then, under WatchdogSec=, pings its watchdog while the table
// session's goroutine answers: a stuck session stops the pings and
// systemd restarts the daemon, which resumes the game from the journal.
// Outside systemd it returns at once.
func notifySystemd(ctx context.Context, n *sdnotify.Notifier, sess *table.Session, logger *log.Logger) error {
	if n == nil {
		return nil
	}
	if err := n.Send(sdnotify.Ready); err != nil {
		logger.Printf("systemd: %v", err)
	}
	defer n.Send(sdnotify.Stopping)
	timeout := sdnotify.WatchdogInterval()
	if timeout <= 0 {
		<-ctx.Done()
		return nil
	}
	logger.Printf("systemd: watchdog every %v, fed by the table session", timeout/3)
	probe := func(ctx context.Context) error {
		_, err := sess.Current(ctx)
		return err
	}
	return sdnotify.Watchdog(ctx, n, timeout, probe, logger.Printf)
}
