package hub

import (
	"io"
	"net"
	"sync"
	"testing"
	"time"
)

// TestNATSServerRestart stops the NATS server mid-run while the tables
// play on, starts it again on the same store: every step reaches the
// history once.
func TestNATSServerRestart(t *testing.T) {
	r := newRig(t, "genoa-1", "dschunke-1")
	r.startHub()
	r.addTable("genoa-1", 0, 11)
	r.addTable("dschunke-1", 2, 12)
	r.play(60)
	r.srv.Shutdown()
	r.srv.WaitForShutdown()
	r.play(150) // "a minute" of play without the server
	r.startServer()
	r.play(40)
	r.waitAll(60 * time.Second)
}

// TestHubRestart stops the hub abruptly (nothing acknowledged after) and
// starts a new one on the same history while the tables play on.
func TestHubRestart(t *testing.T) {
	r := newRig(t, "genoa-1", "negoce-1")
	r.startHub()
	r.addTable("genoa-1", 0, 21)
	r.addTable("negoce-1", 1, 22)
	r.play(80)
	r.stop()
	r.play(120)
	r.startHub()
	r.play(40)
	r.waitAll(60 * time.Second)
	if d := r.hub.Stats().Duplicates; d > 0 {
		t.Logf("%d steps delivered again after the restart, recorded once", d)
	}
}

// TestTableKilledMidCatchUp: a table offline for many steps is stopped
// while it catches up, then started again from its journal's cursor.
func TestTableKilledMidCatchUp(t *testing.T) {
	r := newRig(t, "genoa-1")
	r.startHub()
	tb := r.addTable("genoa-1", 0, 31)
	r.play(20)
	tb.stopPub()
	r.play(800)
	cur0, _ := tb.Store.Cursor("genoa-1")
	tb.startPub()
	deadline := time.Now().Add(10 * time.Second)
	for {
		cur, err := tb.Store.Cursor("genoa-1")
		if err != nil {
			t.Fatal(err)
		}
		if cur != cur0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the catch-up never moved the cursor")
		}
		time.Sleep(time.Millisecond)
	}
	tb.stopPub() // killed mid-way: its journal and the stream as they are
	cur, _ := tb.Store.Cursor("genoa-1")
	t.Logf("stopped at cursor %+v (from %+v)", cur, cur0)
	tb.startPub()
	r.play(20)
	r.waitAll(60 * time.Second)
}

// TestConnectionCut cuts the network between a table and the server
// (the TCP connections dropped, the table's process running) and mends it.
func TestConnectionCut(t *testing.T) {
	r := newRig(t, "genoa-1")
	r.startHub()
	px := newProxy(t, r.url()[len("nats://"):])
	tb := r.addTableVia("genoa-1", 0, 41, "nats://"+px.addr())
	r.play(50)
	px.cut(true)
	r.play(200)
	time.Sleep(500 * time.Millisecond)
	if n, _ := r.hist.StepCount(); n >= int64(tb.Game().Len()+250) {
		t.Fatal("steps went through a cut network")
	}
	px.cut(false)
	r.play(20)
	r.waitAll(60 * time.Second)
}

// proxy is a TCP relay whose connections can be cut.
type proxy struct {
	t      *testing.T
	ln     net.Listener
	target string
	mu     sync.Mutex
	down   bool       // guarded by mu
	conns  []net.Conn // guarded by mu
	wg     sync.WaitGroup
}

func newProxy(t *testing.T, target string) *proxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{t: t, ln: ln, target: target}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(func() {
		ln.Close()
		p.cut(true)
		p.wg.Wait()
	})
	return p
}

func (p *proxy) addr() string { return p.ln.Addr().String() }

func (p *proxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.down {
			p.mu.Unlock()
			c.Close()
			continue
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			p.mu.Unlock()
			c.Close()
			continue
		}
		p.conns = append(p.conns, c, s)
		p.mu.Unlock()
		p.wg.Add(2)
		go func() { defer p.wg.Done(); io.Copy(s, c); s.Close() }()
		go func() { defer p.wg.Done(); io.Copy(c, s); c.Close() }()
	}
}

// cut drops every connection and refuses new ones (down), or takes them
// again.
func (p *proxy) cut(down bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = down
	if down {
		for _, c := range p.conns {
			c.Close()
		}
		p.conns = nil
	}
}
