// Package health answers whether a table is well: its journal takes
// writes, its session's goroutine answers, its devices report no fault.
// comptoird serves it at /healthz (200 when well, 503 otherwise, with the
// details in JSON) for a supervisor or a monitoring probe.
//
// # Checks
//
//   - journal: the journal's own check (journal.Store.Verify, through
//     Opts.Verify): the file at its path is still the one open, its WAL
//     the one written, both writable; it fails when the file was deleted
//     or replaced, or made read-only. The journal is opened in exclusive
//     locking mode, so no second connection could look; and the
//     session's own journal status, set when a step could not be written.
//   - session: a round trip through the session's goroutine within
//     Opts.Timeout.
//   - devices: the last status of each device; a device at fault makes
//     the table degraded (still 200: the game goes on from the phones),
//     except the journal.
//
// # Concurrency
//
// A Checker may serve several requests at once; each runs its checks.
package health

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"comptoir/input"
)

// Opts are what a Checker checks.
type Opts struct {
	// Journal is the journal's file, named in the details.
	Journal string
	// Verify checks the journal (journal.Store.Verify); nil: not checked.
	Verify func() error
	// Session answers once the session's goroutine has handled a request;
	// nil: not checked.
	Session func(ctx context.Context) error
	// Devices returns the last status of each device; nil: none.
	Devices func() []input.DeviceStatus
	// Timeout bounds each check. Zero: DefaultTimeout.
	Timeout time.Duration
}

// DefaultTimeout bounds each check when Opts.Timeout is zero.
const DefaultTimeout = 2 * time.Second

// Checker checks a table.
type Checker struct {
	opts Opts
}

// New returns a Checker. Close it.
func New(opts Opts) (*Checker, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	return &Checker{opts: opts}, nil
}

// Close releases the Checker (it holds nothing of its own now: the
// journal is checked through its Store).
func (c *Checker) Close() error { return nil }

// Check is one check's result.
type Check struct {
	OK     bool   `json:"ok"`
	Detail string `json:"detail,omitempty"`
}

// Report is a table's health.
type Report struct {
	// Status is "ok", "degraded" (a device at fault) or "unhealthy" (the
	// journal or the session).
	Status  string           `json:"status"`
	Journal Check            `json:"journal"`
	Session Check            `json:"session"`
	Devices map[string]Check `json:"devices"`
}

// Healthy reports whether the table serves its game: journal and session.
func (r Report) Healthy() bool { return r.Status != "unhealthy" }

// Check runs the checks.
func (c *Checker) Check(ctx context.Context) Report {
	r := Report{Journal: c.journal(), Session: Check{OK: true, Detail: "not checked"}, Devices: map[string]Check{}}
	if c.opts.Session != nil {
		sctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
		err := c.opts.Session(sctx)
		cancel()
		r.Session = Check{OK: err == nil}
		if err != nil {
			r.Session.Detail = fmt.Sprintf("the session's goroutine did not answer within %v: %v", c.opts.Timeout, err)
		}
	}
	degraded := false
	if c.opts.Devices != nil {
		for _, d := range c.opts.Devices() {
			r.Devices[d.Device] = Check{OK: d.OK, Detail: d.Detail}
			if d.Device == "journal" && !d.OK && r.Journal.OK {
				r.Journal = Check{Detail: "the session could not write a step: " + d.Detail}
			}
			if !d.OK && d.Device != "journal" {
				degraded = true
			}
		}
	}
	switch {
	case !r.Journal.OK || !r.Session.OK:
		r.Status = "unhealthy"
	case degraded:
		r.Status = "degraded"
	default:
		r.Status = "ok"
	}
	return r
}

// journal runs the journal's own check.
func (c *Checker) journal() Check {
	if c.opts.Verify == nil {
		return Check{OK: true, Detail: "not checked"}
	}
	if err := c.opts.Verify(); err != nil {
		return Check{Detail: fmt.Sprintf("%s: %v", c.opts.Journal, err)}
	}
	return Check{OK: true}
}

// ServeHTTP answers the report in JSON: 200 when healthy (ok or
// degraded), 503 when not.
func (c *Checker) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rep := c.Check(r.Context())
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	if !rep.Healthy() {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(rep)
}
