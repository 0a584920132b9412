package clock

import (
	"context"
	"testing"
	"time"
)

func TestFakeFiresInOrder(t *testing.T) {
	start := time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC)
	f := NewFake(start)
	a := f.NewTimer(30 * time.Millisecond)
	b := f.NewTimer(10 * time.Millisecond)
	c := f.NewTimer(time.Second)
	if got := f.Pending(); got != 3 {
		t.Fatalf("Pending() = %d, want 3", got)
	}
	f.Advance(50 * time.Millisecond)
	if got := <-b.C(); !got.Equal(start.Add(10 * time.Millisecond)) {
		t.Errorf("b fired at %v, want start+10ms", got)
	}
	if got := <-a.C(); !got.Equal(start.Add(30 * time.Millisecond)) {
		t.Errorf("a fired at %v, want start+30ms", got)
	}
	select {
	case <-c.C():
		t.Fatal("c fired before its time")
	default:
	}
	if !c.Stop() {
		t.Error("Stop() of a pending timer = false, want true")
	}
	if c.Stop() {
		t.Error("second Stop() = true, want false")
	}
	if got := f.Now(); !got.Equal(start.Add(50 * time.Millisecond)) {
		t.Errorf("Now() = %v, want start+50ms", got)
	}
}

func TestWaitTimersAndSleep(t *testing.T) {
	f := NewFake(time.Unix(0, 0))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- Sleep(ctx, f, time.Minute) }()
	if !f.WaitTimers(ctx, 1) {
		t.Fatal("WaitTimers: the sleeper never armed its timer")
	}
	f.Advance(time.Minute)
	if err := <-done; err != nil {
		t.Fatalf("Sleep = %v, want nil", err)
	}

	cctx, ccancel := context.WithCancel(context.Background())
	go func() { done <- Sleep(cctx, f, time.Minute) }()
	f.WaitTimers(ctx, 1)
	ccancel()
	if err := <-done; err != context.Canceled {
		t.Fatalf("Sleep after cancel = %v, want context.Canceled", err)
	}
	short, scancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer scancel()
	if f.WaitTimers(short, 5) {
		t.Error("WaitTimers(5) = true with no timer pending")
	}
}

func TestAdvanceToNext(t *testing.T) {
	f := NewFake(time.Unix(0, 0))
	if d := f.AdvanceToNext(); d != 0 {
		t.Errorf("AdvanceToNext() with no timer = %v, want 0", d)
	}
	a := f.NewTimer(250 * time.Millisecond)
	f.NewTimer(time.Second)
	if d := f.AdvanceToNext(); d != 250*time.Millisecond {
		t.Errorf("AdvanceToNext() = %v, want 250ms", d)
	}
	<-a.C()
	if d := f.AdvanceToNext(); d != 750*time.Millisecond {
		t.Errorf("second AdvanceToNext() = %v, want 750ms", d)
	}
}
