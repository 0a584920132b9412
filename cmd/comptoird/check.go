package main

import (
	"log/slog"

	"comptoir/tablecheck"
	"comptoir/tableconfig"
)

// checkAtStart runs the checks of `comptoir check` on the table's
// configuration: the warnings are logged, the errors stop the daemon
// before it opens anything.
func checkAtStart(cfg *tableconfig.Config, logger *slog.Logger) error {
	ps := tablecheck.Check(cfg, tablecheck.Opts{DiceReader: findDiceReader, Games: gameList})
	for _, p := range ps {
		if p.Severity == tablecheck.Warning {
			logger.Warn(p.Msg, "file", p.File, "line", p.Line, "key", p.Key)
		}
	}
	return tablecheck.Err(ps)
}
