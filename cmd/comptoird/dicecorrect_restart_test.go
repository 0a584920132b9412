package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestDiceCorrectAfterRestart: the camera reads the merchant's roll, the
// daemon is killed and started again on the same journal: the thrower's
// phone frame still carries the offer to correct the reading (the same
// step and faces as before the kill), another seat's does not.
func TestDiceCorrectAfterRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the daemon twice")
	}
	dir := t.TempDir()
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	// The demo's recording up to its first roll, blue 2 · red 7: the
	// draws before it, then the roll.
	demo, err := os.ReadFile(filepath.Join(repo, "configs/demo/genoa-inputs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	roll := `"type":"dice","blue":2,"red":7`
	i := strings.Index(string(demo), roll)
	if i < 0 {
		t.Fatalf("the demo's recording has no roll %s", roll)
	}
	end := i + strings.IndexByte(string(demo[i:]), '\n') + 1
	inputs := filepath.Join(dir, "inputs.jsonl")
	os.WriteFile(inputs, demo[:end], 0o644)
	cfg := genoaConfig(t, dir, "table.db", `staff_pin: "1234"
replay:
  inputs: `+inputs+`
  speed: 20
`)
	addr := freeAddr(t)
	d := startDaemon(t, addr, "--config", cfg)
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(d.get("/download/record"), "roll") {
		if time.Now().After(deadline) {
			t.Fatalf("the roll was not played; logs:\n%s", d.logs)
		}
		time.Sleep(100 * time.Millisecond)
	}
	// Each seat's phone joins by the table's QR code, and reconnects
	// with its token after the restart.
	table := d.tableFrame()
	var tokens []string
	for seat := range 3 {
		tokens = append(tokens, d.join(table, seat))
	}
	// offers are the dice_correct of each seat's frame, "" for none.
	offers := func(d *daemon) []string {
		var out []string
		for _, token := range tokens {
			f := d.seatFrame(token)
			if f["dice_correct"] == nil {
				out = append(out, "")
				continue
			}
			out = append(out, mustJSON(t, f["dice_correct"]))
		}
		return out
	}
	before := offers(d)
	thrower := -1
	for seat, o := range before {
		if o != "" {
			if thrower >= 0 {
				t.Fatalf("before the kill, seats %d and %d both have the offer: %q", thrower, seat, before)
			}
			thrower = seat
		}
	}
	if thrower < 0 || !strings.Contains(before[thrower], `"blue":2,`) || !strings.Contains(before[thrower], `"red":7,`) || !strings.Contains(before[thrower], "Camera read blue 2 · red 7") {
		t.Fatalf("before the kill: offers %q, want the thrower's of blue 2 · red 7", before)
	}

	if err := d.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-d.done
	d2 := startDaemon(t, addr, "--config", cfg, "--no-replay")
	if !strings.Contains(d2.logs.String(), "resumes at step") {
		t.Fatalf("the daemon did not resume the game; logs:\n%s", d2.logs)
	}
	after := offers(d2)
	for seat := range after {
		if after[seat] != before[seat] {
			t.Errorf("seat %d's offer after the restart: %q, want %q as before", seat, after[seat], before[seat])
		}
	}
}
