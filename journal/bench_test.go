package journal

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/engine/enginetest"
)

// cpuTime is the process's CPU time so far, in user space and in the
// kernel.
func cpuTime(tb testing.TB) (user, sys time.Duration) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
}

// BenchmarkAppendStep times what a café table does with its journal for
// each step: append the step with its events (synced), then read it back
// for the café's publisher (StepsAfter). It reports the CPU time per step
// in user space (user-ns/op: the SQL, what preparing statements once
// saves) and in the kernel (sys-ns/op: mostly the disk's sync) beside the
// wall time, which the sync dominates.
func BenchmarkAppendStep(b *testing.B) {
	st, err := Open(filepath.Join(b.TempDir(), "table.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	rules := enginetest.Rules{}
	g, err := st.Begin(rules, setup(1<<30), t0)
	if err != nil {
		b.Fatal(err)
	}
	s, err := g.State()
	if err != nil {
		b.Fatal(err)
	}
	a := engine.Action{By: engine.NoSeat, Cmd: enginetest.Take{N: 1}}
	evs, err := s.Decide(a)
	if err != nil {
		b.Fatal(err)
	}
	// A step of a real game has a few events: Genoa's average is about 3.
	evs = append(append(evs, evs...), evs...)
	b.ResetTimer()
	user, sys := cpuTime(b)
	for b.Loop() {
		step, err := g.Append(t0, a, evs)
		if err != nil {
			b.Fatal(err)
		}
		got, err := st.StepsAfter(rules, g.ID(), step.Seq-1)
		if err != nil || len(got) != 1 || len(got[0].Events) != len(evs) {
			b.Fatalf("StepsAfter = %d steps, %v", len(got), err)
		}
	}
	user2, sys2 := cpuTime(b)
	b.ReportMetric(float64(user2-user)/float64(b.N), "user-ns/op")
	b.ReportMetric(float64(sys2-sys)/float64(b.N), "sys-ns/op")
}
