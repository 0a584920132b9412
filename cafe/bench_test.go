package cafe_test

import (
	"testing"
	"time"

	"comptoir/cafe"
	"comptoir/cafe/cafesim"
	"comptoir/engine"
	"comptoir/journal"
)

// BenchmarkPublicSteps times the table's side of a catch-up: reading a
// journal of 3,600 steps and building each step's public message.
func BenchmarkPublicSteps(b *testing.B) {
	dir := b.TempDir()
	opts := cafe.DefaultOpts
	opts.URL = "nats://127.0.0.1:1"
	tb, err := cafesim.Open(dir, "bench", cafesim.Setups[0], 1, opts)
	if err != nil {
		b.Fatal(err)
	}
	defer tb.Close()
	for i := 0; i < 3600; i++ {
		if _, _, _, err := tb.Step(time.Now()); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		n := cafe.BuildAll(tb.Store, func(string) (engine.Rules, error) { return tb.Game().Rules(), nil })
		if n < 3600 {
			b.Fatalf("%d messages", n)
		}
	}
	_ = journal.Cursor{}
}
