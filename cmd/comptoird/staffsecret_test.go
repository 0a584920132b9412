package main

import (
	"bytes"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"comptoir/tableconfig"
)

func TestStaffSecret(t *testing.T) {
	dir := t.TempDir()
	var logs bytes.Buffer
	logger := log.New(&logs, "", 0)
	cfg := &tableconfig.Config{File: "table.yaml", Journal: filepath.Join(dir, "table.db")}
	secret, err := staffSecret(cfg, logger)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "table.staff-secret")
	data, err := os.ReadFile(path)
	if err != nil || strings.TrimSpace(string(data)) != secret {
		t.Fatalf("secret file %s: %q %v, want %q", path, data, err, secret)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("secret file mode %v, want 0600", fi.Mode().Perm())
	}
	if !strings.Contains(logs.String(), secret) {
		t.Errorf("the log %q does not give the new secret", logs.String())
	}
	logs.Reset()
	again, err := staffSecret(cfg, logger)
	if err != nil || again != secret || strings.Contains(logs.String(), secret) {
		t.Errorf("second start: %q %v, log %q; want the same secret, not logged again", again, err, logs.String())
	}
	logs.Reset()
	cfg.StaffPIN = "1234"
	if pin, err := staffSecret(cfg, logger); err != nil || pin != "1234" || !strings.Contains(logs.String(), "warning") {
		t.Errorf("configured weak PIN: %q %v, log %q; want it kept and warned about", pin, err, logs.String())
	}
}
