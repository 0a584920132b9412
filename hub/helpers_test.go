package hub

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"comptoir/cafe"
	"comptoir/cafe/cafesim"
)

// testAckWait is the tests' hub's AckWait: a hub stopped or killed has its
// steps delivered again after it, not after the default 30 s.
const testAckWait = 2 * time.Second

// rig is a café in a test: an embedded NATS server, a hub, tables.
type rig struct {
	t      *testing.T
	dir    string
	port   int
	srv    *server.Server
	creds  map[string]string
	hubPW  string
	hist   *History
	hub    *Hub
	stop   func()
	tables []*simTable
}

type simTable struct {
	*cafesim.Table
	cancel func()
	done   chan struct{}
}

func newRig(t *testing.T, names ...string) *rig {
	t.Helper()
	r := &rig{t: t, dir: t.TempDir(), creds: map[string]string{}, hubPW: NewPassword(), port: -1}
	for _, n := range names {
		r.creds[n] = NewPassword()
	}
	r.startServer()
	t.Cleanup(func() {
		for _, tb := range r.tables {
			tb.stopPub()
			tb.Close()
		}
		if r.stop != nil {
			r.stop()
		}
		if r.srv != nil {
			r.srv.Shutdown()
			r.srv.WaitForShutdown()
		}
	})
	return r
}

func (r *rig) startServer() {
	r.t.Helper()
	srv, err := StartServer(ServerOpts{Dir: filepath.Join(r.dir, "js"), Host: "127.0.0.1", Port: r.port, Tables: r.creds, HubPassword: r.hubPW})
	if err != nil {
		r.t.Fatal(err)
	}
	r.srv = srv
	r.port = srv.Addr().(*net.TCPAddr).Port
}

func (r *rig) url() string { return fmt.Sprintf("nats://127.0.0.1:%d", r.port) }

// startHub starts the hub (its history in the rig's folder).
func (r *rig) startHub() {
	r.t.Helper()
	hist, err := OpenHistory(filepath.Join(r.dir, "history.db"))
	if err != nil {
		r.t.Fatal(err)
	}
	nc, err := Connect(r.url(), HubUser, r.hubPW, r.t.Logf)
	if err != nil {
		r.t.Fatal(err)
	}
	h, err := New(Opts{Conn: nc, History: hist, OfflineAfter: 2 * time.Second, AckWait: testAckWait, Logf: r.t.Logf})
	if err != nil {
		r.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := h.Run(ctx); err != nil {
			r.t.Errorf("hub: %v", err)
		}
	}()
	r.hist, r.hub = hist, h
	r.stop = func() {
		cancel()
		<-done
		nc.Close()
		hist.Close()
		r.stop = nil
	}
}

// addTable opens a simulated table and starts its publisher.
func (r *rig) addTable(name string, setup int, seed int64) *simTable {
	r.t.Helper()
	return r.addTableVia(name, setup, seed, r.url())
}

// addTableVia is addTable with the table reaching the server at url.
func (r *rig) addTableVia(name string, setup int, seed int64, url string) *simTable {
	r.t.Helper()
	opts := cafe.DefaultOpts
	opts.URL, opts.User, opts.Password = url, name, r.creds[name]
	opts.Heartbeat, opts.AckWait = 300*time.Millisecond, 2*time.Second
	opts.Logf = func(f string, a ...any) { r.t.Logf(name+": "+f, a...) }
	tb, err := cafesim.Open(filepath.Join(r.dir, "tables"), name, cafesim.Setups[setup%len(cafesim.Setups)], seed, opts)
	if err != nil {
		r.t.Fatal(err)
	}
	st := &simTable{Table: tb}
	st.startPub()
	r.tables = append(r.tables, st)
	return st
}

func (s *simTable) startPub() {
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel, s.done = cancel, make(chan struct{})
	go func() {
		defer close(s.done)
		s.Pub.Run(ctx)
	}()
}

func (s *simTable) stopPub() {
	if s.cancel != nil {
		s.cancel()
		<-s.done
		s.cancel = nil
	}
}

// play plays n steps on each table.
func (r *rig) play(n int) {
	r.t.Helper()
	for i := 0; i < n; i++ {
		for _, tb := range r.tables {
			if _, _, _, err := tb.Step(time.Now()); err != nil {
				r.t.Fatal(err)
			}
		}
	}
}

// journalled counts the messages the tables' journals make: every step,
// and an end per finished game.
func (r *rig) journalled() (steps int64, ends int) {
	r.t.Helper()
	for _, tb := range r.tables {
		infos, err := tb.Store.Games()
		if err != nil {
			r.t.Fatal(err)
		}
		for _, in := range infos {
			g, err := tb.Store.Load(tb.Game().Rules(), in.ID)
			if err != nil {
				r.t.Fatal(err)
			}
			steps += g.Len()
			if !in.Finished.IsZero() {
				ends++
			}
		}
	}
	return steps, ends
}

// waitAll waits until the history holds every journalled step and end,
// then checks none is missing or doubled.
func (r *rig) waitAll(within time.Duration) {
	r.t.Helper()
	steps, ends := r.journalled()
	want := steps + int64(ends)
	deadline := time.Now().Add(within)
	for {
		n, err := r.hist.StepCount()
		if err != nil {
			r.t.Fatal(err)
		}
		if n == want {
			break
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("history holds %d steps and ends, the journals %d", n, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
	plays, err := r.hist.Plays(Filter{})
	if err != nil {
		r.t.Fatal(err)
	}
	if len(plays) != ends {
		r.t.Fatalf("history holds %d plays, the journals finished %d", len(plays), ends)
	}
	seen := map[string]bool{}
	for _, p := range plays {
		k := fmt.Sprintf("%s/%d", p.Table, p.Game)
		if seen[k] {
			r.t.Fatalf("play %s twice", k)
		}
		seen[k] = true
	}
	// The floor shows each table at its journal's last step (the floor
	// follows the history by a moment).
	for _, tb := range r.tables {
		for {
			c, ok := r.hub.Floor.Detail(tb.Name)
			g := tb.Game()
			if ok && (g.Len() == 0 || (c.Game == g.ID() && c.Seq == g.Len())) {
				break
			}
			if time.Now().After(deadline) {
				if !ok {
					r.t.Fatalf("table %s not on the floor", tb.Name)
				}
				r.t.Fatalf("floor shows %s at game %d step %d, journal at game %d step %d", tb.Name, c.Game, c.Seq, g.ID(), g.Len())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// capture records every step message published, as the hub's user.
type capture struct {
	mu   sync.Mutex
	msgs [][]byte
	sub  *nats.Subscription
	nc   *nats.Conn
}

func (r *rig) capture() *capture {
	r.t.Helper()
	nc, err := nats.Connect(r.url(), nats.UserInfo(HubUser, r.hubPW))
	if err != nil {
		r.t.Fatal(err)
	}
	c := &capture{nc: nc}
	c.sub, err = nc.Subscribe(cafe.StepSubjects, func(m *nats.Msg) {
		c.mu.Lock()
		c.msgs = append(c.msgs, append([]byte(nil), m.Data...))
		c.mu.Unlock()
	})
	if err != nil {
		r.t.Fatal(err)
	}
	nc.Flush()
	r.t.Cleanup(nc.Close)
	return c
}
