// Package metrics counts what a table does, for Prometheus
// (github.com/prometheus/client_golang): the steps played and undone, the
// refusals by reason, the dice reads (read, unsure, unreadable), the
// device faults, the phones connected. comptoird serves them at
// /metrics.
//
// The counts come from the table session's updates ([Metrics.Observe],
// which compares each update with the one before), the inputs on their
// way to the session ([Metrics.Input]) and the dashboard's websocket
// requests ([Metrics.Connections]).
//
// # Concurrency
//
// The collectors are safe for concurrent use; Observe keeps the last
// update under a mutex.
package metrics

import (
	"net/http"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"comptoir/input"
	"comptoir/table"
)

// Metrics are a table's counters and gauges, in a registry of their own.
type Metrics struct {
	reg *prometheus.Registry
	// minConfidence is the session's: a read below it is unsure.
	minConfidence float64

	steps       prometheus.Counter
	undos       prometheus.Counter
	games       prometheus.Counter
	refusals    *prometheus.CounterVec
	dice        *prometheus.CounterVec
	faults      *prometheus.CounterVec
	deviceUp    *prometheus.GaugeVec
	connections prometheus.Gauge

	mu   sync.Mutex
	last *table.Update // guarded by mu
}

// New returns the metrics of a table whose session refuses dice reads
// under minConfidence.
func New(minConfidence float64) *Metrics {
	m := &Metrics{
		reg:           prometheus.NewRegistry(),
		minConfidence: minConfidence,
		steps: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "comptoir_steps_total", Help: "Steps accepted and journalled (undo steps included).",
		}),
		undos: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "comptoir_undos_total", Help: "Steps undone.",
		}),
		games: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "comptoir_games_begun_total", Help: "Games begun at the table since the daemon started.",
		}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "comptoir_refusals_total", Help: "Commands refused, by the rule that refused them.",
		}, []string{"reason"}),
		dice: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "comptoir_dice_reads_total", Help: "Dice reads from the camera: read (sure enough), unsure (under the table's confidence), unreadable.",
		}, []string{"result"}),
		faults: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "comptoir_device_faults_total", Help: "Times a device went from working (or unknown) to at fault.",
		}, []string{"device"}),
		deviceUp: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "comptoir_device_up", Help: "1 when the device's last status is working, 0 at fault.",
		}, []string{"device"}),
		connections: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "comptoir_connections", Help: "Websocket connections open (phones and screens).",
		}),
	}
	m.reg.MustRegister(m.steps, m.undos, m.games, m.refusals, m.dice, m.faults, m.deviceUp, m.connections,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	for _, r := range []string{"read", "unsure", "unreadable"} {
		m.dice.WithLabelValues(r)
	}
	return m
}

// Handler serves the metrics in Prometheus's text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Registry is the metrics' registry (for tests and other collectors).
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Observe counts what changed from the last update to u: steps (the
// journal's sequence grows by one per step, undo steps included), undos,
// a new refusal, devices that fell at fault or came back, a new game.
func (m *Metrics) Observe(u table.Update) {
	m.mu.Lock()
	defer m.mu.Unlock()
	prev := m.last
	m.last = &u
	if prev == nil {
		for _, d := range u.Devices {
			m.device(d, nil)
		}
		return
	}
	if u.Game != prev.Game {
		m.games.Inc()
	} else if u.Seq > prev.Seq {
		m.steps.Add(float64(u.Seq - prev.Seq))
		if undoneSince(prev, &u) {
			m.undos.Inc()
		}
	}
	if r := u.Refusal; r != nil && (prev.Refusal == nil || *r != *prev.Refusal) {
		reason := r.Code
		if reason == "" {
			reason = "other"
		}
		m.refusals.WithLabelValues(reason).Inc()
	}
	was := map[string]input.DeviceStatus{}
	for _, d := range prev.Devices {
		was[d.Device] = d
	}
	for _, d := range u.Devices {
		if p, ok := was[d.Device]; ok {
			m.device(d, &p)
		} else {
			m.device(d, nil)
		}
	}
}

// undoneSince reports whether a step told in prev's log is no longer in
// u's: an undo takes the undone step's lines out (and adds its own).
func undoneSince(prev, u *table.Update) bool {
	now := map[int64]bool{}
	for _, l := range u.Log {
		now[l.Seq] = true
	}
	for _, l := range prev.Log {
		if !now[l.Seq] {
			return true
		}
	}
	return false
}

// device updates a device's gauge and counts a new fault.
func (m *Metrics) device(d input.DeviceStatus, prev *input.DeviceStatus) {
	up := 0.0
	if d.OK {
		up = 1
	}
	m.deviceUp.WithLabelValues(d.Device).Set(up)
	if !d.OK && (prev == nil || prev.OK) {
		m.faults.WithLabelValues(d.Device).Inc()
	}
}

// Input counts a dice read on its way to the session.
func (m *Metrics) Input(e input.Event) {
	switch e := e.(type) {
	case input.DiceRolled:
		if e.Confidence < m.minConfidence {
			m.dice.WithLabelValues("unsure").Inc()
		} else {
			m.dice.WithLabelValues("read").Inc()
		}
	case input.DiceUnreadable:
		m.dice.WithLabelValues("unreadable").Inc()
	}
}

// Connections wraps the dashboard's handler: a request to path (its
// websocket, which lasts as long as the connection) counts as one
// connection while it runs.
func (m *Metrics) Connections(path string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == path {
			m.connections.Inc()
			defer m.connections.Dec()
		}
		h.ServeHTTP(w, r)
	})
}
