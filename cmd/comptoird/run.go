package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"comptoir/input"
	"comptoir/sdnotify"
)

// parts runs the daemon's goroutines; the first error of any ends the
// daemon.
type parts struct {
	wg   sync.WaitGroup
	errc chan error
}

// maxParts is the most goroutines the daemon starts: errc holds an error
// from each, so none blocks on its error.
const maxParts = 16

func newParts() *parts { return &parts{errc: make(chan error, maxParts)} }

// run runs f in a goroutine; its error, named, ends the daemon.
func (p *parts) run(name string, f func() error) {
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		if err := f(); err != nil {
			p.errc <- fmt.Errorf("%s: %w", name, err)
		}
	}()
}

// wait waits for every goroutine until ctx ends; false if some are still
// running then.
func (p *parts) wait(ctx context.Context) bool {
	done := make(chan struct{})
	go func() { p.wg.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-ctx.Done():
		return false
	}
}

// run starts the daemon's parts and runs them until ctx ends (a signal)
// or one fails, then shuts them down: the part's error is returned.
func (d *tableDaemon) run(ctx context.Context) error {
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	p := newParts()
	inputs := make(chan input.Event)
	d.startInputs(runCtx, p, inputs)
	d.startSession(runCtx, p, inputs)
	d.startServing(runCtx, p)
	failure := d.waitStop(ctx, p.errc)
	d.shutdown(cancel, p)
	return failure
}

// startInputs feeds the table's inputs to inputs: its devices or its
// recording, and the dice reader.
func (d *tableDaemon) startInputs(ctx context.Context, p *parts, inputs chan input.Event) {
	in := d.in
	p.run("inputs", func() error { return feed(ctx, inputs, in.sources) })
	if in.rec != nil {
		p.run("replay", func() error {
			return replayLoop(ctx, d.sess, in.rec, d.cfg.Replay, in.diceHook, inputs, d.clk, d.logger)
		})
	}
	if in.dice != nil {
		p.run("dice reader", func() error { return in.dice.Run(ctx, inputs) })
	}
}

// startSession runs the table session over inputs, and its observer
// (the log and the metrics).
func (d *tableDaemon) startSession(ctx context.Context, p *parts, inputs <-chan input.Event) {
	p.run("session", func() error { return d.sess.Run(ctx, countInputs(ctx, inputs, d.met)) })
	p.run("observe", func() error { return observe(ctx, d.sess, d.met, d.slogger) })
}

// startServing runs what the daemon serves: the dashboard and its HTTP
// server, the café's publisher, systemd's notifications.
func (d *tableDaemon) startServing(ctx context.Context, p *parts) {
	p.run("dashboard", func() error { return d.dash.Run(ctx) })
	if d.cafe != nil {
		p.run("café", func() error { return d.cafe.run(ctx) })
	}
	p.run("http", func() error {
		if err := d.srv.Serve(d.ln); !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	})
	p.run("systemd", func() error { return notifySystemd(ctx, sdnotify.FromEnv(), d.sess, d.logger) })
}

// waitStop waits for ctx to end or a part to fail, and returns the
// failure (nil on a signal).
func (d *tableDaemon) waitStop(ctx context.Context, errc <-chan error) error {
	select {
	case <-ctx.Done():
		d.logger.Printf("stopping")
		return nil
	case err := <-errc:
		d.logger.Printf("stopping: %v", err)
		return err
	}
}

// shutdown stops the HTTP server within ShutdownTimeout, then the other
// parts (cancel) within what is left of it, then halts the devices.
func (d *tableDaemon) shutdown(cancel context.CancelFunc, p *parts) {
	ctx, stop := context.WithTimeout(context.Background(), ShutdownTimeout)
	defer stop()
	if err := d.srv.Shutdown(ctx); err != nil {
		d.logger.Printf("http shutdown: %v", err)
		d.srv.Close()
	}
	cancel()
	if !p.wait(ctx) {
		d.logger.Printf("some parts did not stop within %v", ShutdownTimeout)
	}
	if d.in.halt != nil {
		if err := d.in.halt(); err != nil {
			d.logger.Printf("halting the devices: %v", err)
		}
	}
}
