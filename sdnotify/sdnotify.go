// Package sdnotify speaks systemd's service notification protocol
// (sd_notify(3)): a service of Type=notify tells systemd it is ready
// (READY=1), that it is stopping (STOPPING=1), and, under WatchdogSec=,
// that it is alive (WATCHDOG=1) often enough, else systemd kills and
// restarts it. A notification is one datagram of "KEY=value" lines to the
// unix socket named by $NOTIFY_SOCKET (a leading "@" names an abstract
// socket).
//
// [Watchdog] pings only while a probe succeeds: comptoird's probe is a
// round trip through the table session's goroutine, so a stuck session
// stops the pings and systemd restarts the daemon, which resumes the game
// from its journal.
//
// # Concurrency
//
// A Notifier may be used from several goroutines; Watchdog runs in the
// caller's goroutine until its context ends.
package sdnotify

import (
	"context"
	"errors"
	"net"
	"os"
	"strconv"
	"time"
)

// Notifier sends notifications to the service manager. The nil Notifier
// (not run by systemd, or not as Type=notify) sends nothing.
type Notifier struct {
	socket string
}

// FromEnv returns the Notifier of $NOTIFY_SOCKET, nil when it is unset.
func FromEnv() *Notifier {
	return New(os.Getenv("NOTIFY_SOCKET"))
}

// New returns a Notifier to the socket at path ("@name" for an abstract
// socket); nil for "".
func New(path string) *Notifier {
	if path == "" {
		return nil
	}
	return &Notifier{socket: path}
}

// Notification states.
const (
	Ready    = "READY=1"
	Stopping = "STOPPING=1"
	Alive    = "WATCHDOG=1"
)

// Send sends state, one or more "KEY=value" lines, as one datagram.
func (n *Notifier) Send(state string) error {
	if n == nil {
		return nil
	}
	name := n.socket
	if name[0] == '@' {
		name = "\x00" + name[1:]
	}
	conn, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: name, Net: "unixgram"})
	if err != nil {
		return err
	}
	defer conn.Close()
	_, err = conn.Write([]byte(state))
	return err
}

// WatchdogInterval is the watchdog's timeout systemd set for this
// process ($WATCHDOG_USEC, if $WATCHDOG_PID is unset or this process);
// 0 when there is no watchdog.
func WatchdogInterval() time.Duration {
	if pid := os.Getenv("WATCHDOG_PID"); pid != "" && pid != strconv.Itoa(os.Getpid()) {
		return 0
	}
	us, err := strconv.ParseInt(os.Getenv("WATCHDOG_USEC"), 10, 64)
	if err != nil || us <= 0 {
		return 0
	}
	return time.Duration(us) * time.Microsecond
}

// ErrNoWatchdog is returned by Watchdog given no timeout.
var ErrNoWatchdog = errors.New("sdnotify: no watchdog timeout")

// Watchdog pings (WATCHDOG=1) every timeout/3 while probe answers within
// that time, until ctx ends. A probe that fails or hangs skips the ping
// (logged once until the probe answers again): past timeout without one,
// systemd restarts the service.
func Watchdog(ctx context.Context, n *Notifier, timeout time.Duration, probe func(context.Context) error, logf func(string, ...any)) error {
	if timeout <= 0 {
		return ErrNoWatchdog
	}
	every := timeout / 3
	t := time.NewTicker(every)
	defer t.Stop()
	failing := false
	for {
		pctx, cancel := context.WithTimeout(ctx, every)
		err := probe(pctx)
		cancel()
		switch {
		case ctx.Err() != nil:
			return nil
		case err != nil:
			if !failing && logf != nil {
				logf("watchdog: the probe failed (%v): no ping; systemd restarts the service after %v without one", err, timeout)
			}
			failing = true
		default:
			if failing && logf != nil {
				logf("watchdog: the probe answers again")
			}
			failing = false
			if err := n.Send(Alive); err != nil && logf != nil {
				logf("watchdog: %v", err)
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}
