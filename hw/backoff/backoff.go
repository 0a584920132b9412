package backoff

import (
	"time"

	"comptoir/input"
)

// Opts configures a Health.
type Opts struct {
	// Min and Max bound the wait between two tries of a failing device;
	// the wait doubles after each failure.
	Min, Max time.Duration
	// Device names the device in input.DeviceStatus events.
	Device string
	// Ready is the detail of the status reported at the first answer,
	// Again the one of the first answer after a fault.
	Ready, Again string
}

// DefaultOpts are the options of the reference build.
var DefaultOpts = Opts{
	Min:    250 * time.Millisecond,
	Max:    8 * time.Second,
	Device: "device",
	Ready:  "ready",
	Again:  "answers again",
}

// Bounds returns back-off bounds that can be used: a lo of 0 or less
// takes defLo, and a hi below lo takes the larger of defHi and lo. It is
// how the devices' options give their zero fields a value.
func Bounds(lo, hi, defLo, defHi time.Duration) (time.Duration, time.Duration) {
	if lo <= 0 {
		lo = defLo
	}
	if hi < lo {
		hi = max(defHi, lo)
	}
	return lo, hi
}

// Health is the state of one polled device: whether it has answered yet,
// whether it is faulty, and the wait before the next try.
type Health struct {
	o      Opts
	wait   time.Duration // before the next try after a failure
	faulty bool          // the device failed and has not answered since
	ready  bool          // the device has answered once
}

// New returns the health of a device that has not been tried yet. Zero
// fields of o take their value from DefaultOpts (Min and Max by Bounds).
func New(o Opts) *Health {
	d := DefaultOpts
	o.Min, o.Max = Bounds(o.Min, o.Max, d.Min, d.Max)
	if o.Device == "" {
		o.Device = d.Device
	}
	if o.Ready == "" {
		o.Ready = d.Ready
	}
	if o.Again == "" {
		o.Again = d.Again
	}
	return &Health{o: o, wait: o.Min}
}

// Failed records a try at now that failed with err. It returns the status
// to report, with report true only when the fault starts, and how long to
// wait before the next try: Min after the first failure, doubling up to
// Max.
func (h *Health) Failed(now time.Time, err error) (status input.DeviceStatus, report bool, wait time.Duration) {
	wait = h.wait
	h.wait = min(2*h.wait, h.o.Max)
	if h.faulty {
		return input.DeviceStatus{}, false, wait
	}
	h.faulty = true
	return input.DeviceStatus{At: now, Device: h.o.Device, OK: false, Detail: err.Error()}, true, wait
}

// Answered records a try at now that the device answered. It returns the
// OK status to report, with report true at the first answer and at the
// first answer after a fault, and resets the wait to Min.
func (h *Health) Answered(now time.Time) (status input.DeviceStatus, report bool) {
	if h.ready && !h.faulty {
		return input.DeviceStatus{}, false
	}
	detail := h.o.Ready
	if h.ready {
		detail = h.o.Again
	}
	h.faulty, h.ready, h.wait = false, true, h.o.Min
	return input.DeviceStatus{At: now, Device: h.o.Device, OK: true, Detail: detail}, true
}

// Faulty reports whether the last try failed.
func (h *Health) Faulty() bool { return h.faulty }
