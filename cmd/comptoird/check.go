package main

import (
	"log"

	"comptoir/tablecheck"
	"comptoir/tableconfig"
)

// checkAtStart runs the checks of `comptoir check` on the table's
// configuration: the warnings are logged, the errors stop the daemon
// before it opens anything.
func checkAtStart(cfg *tableconfig.Config, logger *log.Logger) error {
	ps := tablecheck.Check(cfg, tablecheck.Opts{DiceReader: findDiceReader})
	for _, p := range ps {
		if p.Severity == tablecheck.Warning {
			logger.Print(p)
		}
	}
	return tablecheck.Err(ps)
}
