package main

import (
	"context"
	"io"
	"log"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/games/tally"
	"comptoir/hw/clock"
	"comptoir/hw/replay"
	"comptoir/input"
	"comptoir/journal"
	"comptoir/table"
	"comptoir/tableconfig"
)

// TestReplayLoop plays a two-tap recording of Tally in a loop: each pass
// is a new game, the game of the pass before is abandoned.
func TestReplayLoop(t *testing.T) {
	store, err := journal.Open(filepath.Join(t.TempDir(), "loop.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	rules := enginetest.Rules{}
	g, err := store.Begin(rules, engine.Setup{Game: "tally", Players: []string{"A", "B"}}, demoStart)
	if err != nil {
		t.Fatal(err)
	}
	opts := table.DefaultOpts
	opts.Rules, opts.Game, opts.Store, opts.Kit = rules, g, store, tally.Game()
	opts.Tags = func(uid string) (table.Target, bool) { return table.Target{Kind: "coins", ID: "2"}, true }
	sess, err := table.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := replay.Read(strings.NewReader(`{"t":"2026-11-21T20:00:00Z","type":"tag","uid":"04A1B2C3"}
{"t":"2026-11-21T20:00:01Z","type":"tag","uid":"04A1B2C3"}
`), "loop.jsonl", replay.Opts{Speed: math.Inf(1)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	inputs := make(chan input.Event)
	done := make(chan error, 2)
	go func() { done <- sess.Run(ctx, inputs) }()
	go func() {
		done <- replayLoop(ctx, sess, rec, &tableconfig.Replay{Loop: true, Pause: time.Millisecond}, nil, inputs, clock.Real(), log.New(io.Discard, "", 0))
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		games, err := store.Games()
		if err != nil {
			t.Fatal(err)
		}
		if len(games) >= 3 {
			for _, gi := range games[:2] {
				if gi.Outcome != "abandoned" {
					t.Errorf("game %d outcome %q, want abandoned when the recording starts again", gi.ID, gi.Outcome)
				}
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("only %d games after 10 s of looping", len(games))
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	for i := 0; i < 2; i++ {
		if err := <-done; err != nil {
			t.Errorf("stopped with %v", err)
		}
	}
}
