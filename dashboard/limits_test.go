package dashboard

import (
	"io"
	"net"
	"testing"
	"time"
)

func TestConnLimiter(t *testing.T) {
	l := newConnLimiter(3, 2)
	steps := []struct {
		addr string
		ok   bool
	}{{"a", true}, {"a", true}, {"a", false}, {"b", true}, {"c", false}}
	for i, s := range steps {
		if got := l.acquire(s.addr); got != s.ok {
			t.Fatalf("step %d: acquire(%s) = %v, want %v", i, s.addr, got, s.ok)
		}
	}
	l.release("a")
	if !l.acquire("c") || l.open() != 3 {
		t.Errorf("after a release: want c in and 3 open, have %d", l.open())
	}
}

// TestLimitListener holds perAddr connections and checks the next one is
// closed at once, and let in once one is closed.
func TestLimitListener(t *testing.T) {
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := LimitListener(raw, 10, 2)
	defer ln.Close()
	accepted := make(chan net.Conn, 10)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				close(accepted)
				return
			}
			accepted <- c
		}
	}()
	dial := func() net.Conn {
		c, err := net.Dial("tcp", raw.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	c1, c2 := dial(), dial()
	s1, s2 := <-accepted, <-accepted
	c3 := dial()
	c3.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := c3.Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("third connection from one address: read %v, want EOF (closed by the listener)", err)
	}
	s1.Close()
	c4 := dial()
	select {
	case s4 := <-accepted:
		s4.Close()
	case <-time.After(10 * time.Second):
		t.Error("after a close, a new connection was not let in")
	}
	for _, c := range []net.Conn{c1, c2, c3, c4, s2} {
		c.Close()
	}
}
