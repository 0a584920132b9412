package main

import (
	"context"
	"log/slog"
	"net/http"

	"comptoir/health"
	"comptoir/input"
	"comptoir/metrics"
	"comptoir/table"
)

// observe follows the table session's updates until ctx ends: it counts
// them in the metrics and logs what happened, once each — every new step
// of the journal in its public words (no secret: the log the table
// shows), refusals, devices falling at fault and recovering, the end of
// a game and the next one.
func observe(ctx context.Context, sess *table.Session, met *metrics.Metrics, log *slog.Logger) error {
	var prev *table.Update
	for u := range sess.Subscribe(ctx) {
		met.Observe(u)
		logUpdate(log, prev, &u)
		prev = &u
	}
	return nil
}

// logUpdate logs what changed from prev to u (nil prev: the first update,
// whose steps were logged before a restart, so only its faults are).
func logUpdate(log *slog.Logger, prev, u *table.Update) {
	was := map[string]input.DeviceStatus{}
	if prev != nil {
		for _, d := range prev.Devices {
			was[d.Device] = d
		}
	}
	for _, d := range u.Devices {
		p, seen := was[d.Device]
		switch {
		case !d.OK && (!seen || p.OK):
			log.Warn("device fault", "device", d.Device, "detail", d.Detail)
		case d.OK && seen && !p.OK:
			log.Info("device recovered", "device", d.Device, "detail", d.Detail)
		}
	}
	if prev == nil {
		return
	}
	if u.Game != prev.Game {
		s := u.State.Setup()
		log.Info("game begins", "game", u.Game, "rules", s.Game, "variant", s.Variant, "players", s.Players)
		return
	}
	last := int64(0)
	for _, l := range prev.Log {
		last = max(last, l.Seq)
	}
	for _, l := range u.Log {
		if l.Seq > last {
			log.Info("step", "game", u.Game, "seq", l.Seq, "en", l.EN)
		}
	}
	if r := u.Refusal; r != nil && (prev.Refusal == nil || *r != *prev.Refusal) {
		log.Info("refused", "game", u.Game, "seat", r.Seat.String(), "reason", r.Code, "en", r.EN)
	}
	if u.Outcome != "" && prev.Outcome == "" {
		log.Info("game ends", "game", u.Game, "outcome", u.Outcome)
	}
}

// countInputs passes the inputs on to the session, counting the dice
// reads in the metrics.
func countInputs(ctx context.Context, in <-chan input.Event, met *metrics.Metrics) <-chan input.Event {
	out := make(chan input.Event)
	go func() {
		defer close(out)
		for {
			select {
			case e := <-in:
				met.Input(e)
				select {
				case out <- e:
				case <-ctx.Done():
					return
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

// monitored serves /healthz and /metrics beside the dashboard, and counts
// the dashboard's websocket connections.
func monitored(dash http.Handler, hc *health.Checker, met *metrics.Metrics) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /healthz", hc)
	mux.Handle("GET /metrics", met.Handler())
	mux.Handle("/", met.Connections("/ws", dash))
	return mux
}
