package main

import (
	"io"
	"log"
	"log/slog"
	"os"

	"comptoir/tableconfig"
)

// newLogger returns the daemon's structured logger (log/slog, text or
// JSON, from the table's log: section) and, for the parts that print
// lines, a *log.Logger writing through it at level info. Under journald
// ($JOURNAL_STREAM set), which stamps every line, the time is left out.
func newLogger(cfg tableconfig.Log, stderr io.Writer) (*slog.Logger, *log.Logger) {
	var level slog.Level
	switch cfg.Level {
	case "debug":
		level = slog.LevelDebug
	case "warn":
		level = slog.LevelWarn
	case "error":
		level = slog.LevelError
	}
	opts := &slog.HandlerOptions{Level: level}
	if os.Getenv("JOURNAL_STREAM") != "" {
		opts.ReplaceAttr = func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		}
	}
	var h slog.Handler = slog.NewTextHandler(stderr, opts)
	if cfg.Format == "json" {
		h = slog.NewJSONHandler(stderr, opts)
	}
	sl := slog.New(h)
	return sl, slog.NewLogLogger(h, slog.LevelInfo)
}
