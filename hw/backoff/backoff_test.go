package backoff

import (
	"errors"
	"testing"
	"time"

	"comptoir/input"
)

func TestBounds(t *testing.T) {
	const defLo, defHi = 250 * time.Millisecond, 8 * time.Second
	tests := []struct {
		name           string
		lo, hi         time.Duration
		wantLo, wantHi time.Duration
	}{
		{"unset", 0, 0, defLo, defHi},
		{"negative lo", -time.Second, 2 * time.Second, defLo, 2 * time.Second},
		{"both set", 100 * time.Millisecond, time.Second, 100 * time.Millisecond, time.Second},
		{"hi below lo", time.Second, 500 * time.Millisecond, time.Second, defHi},
		{"lo above the default hi", 10 * time.Second, 0, 10 * time.Second, 10 * time.Second},
		{"hi equal to lo", time.Second, time.Second, time.Second, time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lo, hi := Bounds(tt.lo, tt.hi, defLo, defHi)
			if lo != tt.wantLo || hi != tt.wantHi {
				t.Errorf("Bounds(%v, %v) = %v, %v; want %v, %v", tt.lo, tt.hi, lo, hi, tt.wantLo, tt.wantHi)
			}
		})
	}
}

// step is one try of the device: failed or answered, and what Health
// should say.
type step struct {
	fail       bool
	wantReport bool
	wantOK     bool
	wantDetail string
	wantWait   time.Duration // after a failure
}

func TestHealth(t *testing.T) {
	errBus := errors.New("i2c: no ack")
	ms := time.Millisecond
	tests := []struct {
		name  string
		opts  Opts
		steps []step
	}{
		{"ready at once, quiet after", Opts{Device: "nfc", Ready: "reader ready"}, []step{
			{wantReport: true, wantOK: true, wantDetail: "reader ready"},
			{},
			{},
		}},
		{"fault from the start, doubling to max, reported once", Opts{Min: 100 * ms, Max: 350 * ms}, []step{
			{fail: true, wantReport: true, wantDetail: "i2c: no ack", wantWait: 100 * ms},
			{fail: true, wantWait: 200 * ms},
			{fail: true, wantWait: 350 * ms},
			{fail: true, wantWait: 350 * ms},
			{wantReport: true, wantOK: true, wantDetail: "ready"},
		}},
		{"fault after ready, then again, wait reset", Opts{Min: 100 * ms, Max: time.Second, Again: "answers again"}, []step{
			{wantReport: true, wantOK: true, wantDetail: "ready"},
			{fail: true, wantReport: true, wantDetail: "i2c: no ack", wantWait: 100 * ms},
			{fail: true, wantWait: 200 * ms},
			{wantReport: true, wantOK: true, wantDetail: "answers again"},
			{},
			{fail: true, wantReport: true, wantDetail: "i2c: no ack", wantWait: 100 * ms},
		}},
		{"defaults", Opts{}, []step{
			{fail: true, wantReport: true, wantDetail: "i2c: no ack", wantWait: DefaultOpts.Min},
			{fail: true, wantWait: 2 * DefaultOpts.Min},
		}},
	}
	t0 := time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := New(tt.opts)
			device := tt.opts.Device
			if device == "" {
				device = DefaultOpts.Device
			}
			for i, s := range tt.steps {
				now := t0.Add(time.Duration(i) * time.Second)
				var st input.DeviceStatus
				var report bool
				if s.fail {
					var wait time.Duration
					st, report, wait = h.Failed(now, errBus)
					if wait != s.wantWait {
						t.Errorf("step %d: wait %v, want %v", i, wait, s.wantWait)
					}
				} else {
					st, report = h.Answered(now)
				}
				if h.Faulty() != s.fail {
					t.Errorf("step %d: Faulty() = %v, want %v", i, h.Faulty(), s.fail)
				}
				if report != s.wantReport {
					t.Fatalf("step %d: report %v (%+v), want %v", i, report, st, s.wantReport)
				}
				want := input.DeviceStatus{}
				if report {
					want = input.DeviceStatus{At: now, Device: device, OK: s.wantOK, Detail: s.wantDetail}
				}
				if st != want {
					t.Errorf("step %d: status %+v, want %+v", i, st, want)
				}
			}
		})
	}
}

func BenchmarkHealthFailedAnswered(b *testing.B) {
	h := New(Opts{})
	err := errors.New("fault")
	now := time.Now()
	for b.Loop() {
		h.Failed(now, err)
		h.Answered(now)
	}
}
