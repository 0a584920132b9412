package main

import (
	"context"
	"os"
	"testing"
	"time"

	"comptoir/cmd/internal/killtest"
)

// TestKillDuringPlay is the kill test with a few kills (the full run:
// comptoir killtest --kills 1000): two phones play on the websocket, the
// daemon (this test binary) is killed with SIGKILL at random moments and
// started again; no acknowledged step may be lost, changed or duplicated,
// and every state shown must be the journal's.
func TestKillDuringPlay(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the daemon many times")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	f, err := killtest.Run(ctx, killtest.Opts{
		Daemon: []string{os.Args[0]}, Env: []string{"COMPTOIRD_CHILD=1"}, Dir: t.TempDir(),
		Kills: 12, Seed: 1, MaxPlay: 200 * time.Millisecond, StartupKills: 0.2, Logf: t.Logf,
	})
	t.Logf("\n%s", f)
	if err != nil {
		t.Fatal(err)
	}
	if !f.OK() {
		t.Errorf("the kill test failed:\n%s", f)
	}
	if f.Acked == 0 || f.AfterChecked == 0 || f.ShownChecked == 0 {
		t.Errorf("the kill test checked nothing:\n%s", f)
	}
}
