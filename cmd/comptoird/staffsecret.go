package main

import (
	"log"
	"path/filepath"
	"strings"

	"comptoir/dashboard"
	"comptoir/tableconfig"
)

// staffSecret is the table's staff secret: the configuration's staff_pin
// (warned about when weak), else the one kept beside the journal in a file
// only the service's user reads, made at the first start and written to
// the log, never to the table's screen.
func staffSecret(cfg *tableconfig.Config, logger *log.Logger) (string, error) {
	if cfg.StaffPIN != "" {
		if why := dashboard.WeakStaffSecret(cfg.StaffPIN); why != "" {
			logger.Printf("warning: %s (%s)", why, cfg.File)
		}
		return cfg.StaffPIN, nil
	}
	path := staffSecretPath(cfg.Journal)
	secret, created, err := dashboard.StaffSecret(path)
	if err != nil {
		return "", err
	}
	if created {
		logger.Printf("staff secret made: %s (kept in %s, mode 0600; set staff_pin: in %s to choose one)", secret, path, cfg.File)
	} else {
		logger.Printf("staff secret: kept in %s", path)
	}
	return secret, nil
}

// staffSecretPath is the staff secret's file beside the journal.
func staffSecretPath(journal string) string {
	return strings.TrimSuffix(journal, filepath.Ext(journal)) + ".staff-secret"
}
