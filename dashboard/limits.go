package dashboard

import (
	"log"
	"net"
	"net/http"
	"sync"
	"time"
)

// Limits that hold under abuse: the connections a table accepts (in all
// and per address, at the TCP listener and again for the websockets), a
// rate limit over all connections besides each one's, and the HTTP
// server's timeouts. The hub drops a phone that lets its frames pile up
// (Opts.SendBuffer) and the reader one that lets its replies pile up.

// Default limits; see Opts.
const (
	// DefaultMaxConns is the most websockets open at once.
	DefaultMaxConns = 256
	// DefaultMaxConnsPerAddr is the most websockets from one address (a
	// phone opens one; a table of six with spectators stays far below).
	DefaultMaxConnsPerAddr = 32
	// DefaultGlobalRate and DefaultGlobalBurst limit the messages and
	// state-changing requests of all connections together, per second.
	DefaultGlobalRate  = 200
	DefaultGlobalBurst = 400
	// ListenerMaxConns and ListenerMaxConnsPerAddr cap the TCP
	// connections the daemon's listener holds (see LimitListener).
	ListenerMaxConns        = 512
	ListenerMaxConnsPerAddr = 64
)

// Timeouts of the dashboard's HTTP server (see NewHTTPServer).
const (
	readHeaderTimeout = 5 * time.Second
	// readTimeout bounds a whole request, body included (a slow body is
	// cut); the websockets set their own deadlines once upgraded.
	readTimeout  = 10 * time.Second
	writeTimeout = 30 * time.Second
	// idleTimeout closes a kept-alive connection with no request.
	idleTimeout    = 60 * time.Second
	maxHeaderBytes = 16 << 10
)

// NewHTTPServer returns the HTTP server a table serves h with: read,
// write and idle timeouts and a bound on the headers, so that slow
// bodies and idle connections are not held.
func NewHTTPServer(h http.Handler, errorLog *log.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          errorLog,
	}
}

// connLimiter counts open connections in all and per address; safe for
// concurrent use.
type connLimiter struct {
	total, perAddr int

	mu     sync.Mutex
	n      int            // guarded by mu
	byAddr map[string]int // guarded by mu
}

func newConnLimiter(total, perAddr int) *connLimiter {
	return &connLimiter{total: total, perAddr: perAddr, byAddr: map[string]int{}}
}

// acquire counts a connection from addr in, or reports false when a cap
// is reached.
func (l *connLimiter) acquire(addr string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n >= l.total || l.byAddr[addr] >= l.perAddr {
		return false
	}
	l.n++
	l.byAddr[addr]++
	return true
}

func (l *connLimiter) release(addr string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n--
	if l.byAddr[addr]--; l.byAddr[addr] <= 0 {
		delete(l.byAddr, addr)
	}
}

// open is how many connections are counted in.
func (l *connLimiter) open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.n
}

// sharedBucket is a token bucket shared by every connection.
type sharedBucket struct {
	mu sync.Mutex
	b  *bucket // guarded by mu
}

func newSharedBucket(c Clock, rate float64, burst int) *sharedBucket {
	return &sharedBucket{b: newBucket(c, rate, burst)}
}

func (s *sharedBucket) allow() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.allow()
}

// remoteIP is the address part of a request's or connection's remote
// address.
func remoteIP(addr string) string {
	if h, _, err := net.SplitHostPort(addr); err == nil {
		return h
	}
	return addr
}

// LimitListener caps the TCP connections ln holds: at most total in all
// and perAddr from one address. A connection beyond a cap is closed as
// soon as it is accepted, so a flood holds no memory.
func LimitListener(ln net.Listener, total, perAddr int) net.Listener {
	return &limitListener{Listener: ln, lim: newConnLimiter(total, perAddr)}
}

type limitListener struct {
	net.Listener
	lim *connLimiter
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		addr := remoteIP(c.RemoteAddr().String())
		if !l.lim.acquire(addr) {
			c.Close()
			continue
		}
		return &limitConn{Conn: c, release: func() { l.lim.release(addr) }}, nil
	}
}

type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
