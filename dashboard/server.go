package dashboard

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"comptoir/engine"
	"comptoir/games/kit"
)

//go:embed web
var webFS embed.FS

// Opts configures a dashboard.
type Opts struct {
	// StaffPIN opens the staff page and authorises every staff request.
	// Empty disables the staff page. Choose at least 4 digits; it is sent
	// in clear over the café's network, like the page itself.
	StaffPIN string
	// BaseURL is the address the phones reach the dashboard at, written in
	// the join QR codes, for example "http://192.168.1.20:8080". Empty:
	// the address the table's screen used (fine unless that screen is the
	// box itself at http://localhost).
	BaseURL string
	// AllowedOrigins are origins ("http://host:port") other than the
	// dashboard's own allowed to open a websocket, for example the café's
	// front desk page. A websocket from any other origin is refused.
	AllowedOrigins []string
	// TokenFile keeps the seats' tokens across restarts, for example next
	// to the journal. Empty keeps them in memory: after a restart every
	// phone joins again.
	TokenFile string
	// Clock tells the time (rate limits, export dates). Nil: the system
	// clock.
	Clock Clock
	// RatePerSecond and Burst limit the messages of one connection: Burst
	// at once, then RatePerSecond. Beyond, messages get an error reply.
	RatePerSecond float64
	Burst         int
	// SendBuffer is how many frames may wait for one slow connection
	// before it is closed.
	SendBuffer int
	// LogLines is how many of the latest lines of the game's log each
	// frame carries.
	LogLines int
	// SubmitTimeout bounds how long a command waits for the session.
	SubmitTimeout time.Duration
	// Location is the place written in the BG Stats export, for example
	// the café's name.
	Location string
	// TimeZone is the table's, for the BG Stats export's dates. Nil: the
	// system's.
	TimeZone *time.Location
	// Logf logs what goes wrong with connections. Nil: discarded.
	Logf func(format string, args ...any)

	// Security (see staffauth.go, joincode.go, origin.go, limits.go).
	// StaffSession is how long a staff login lasts; 0: DefaultStaffSession.
	StaffSession time.Duration
	// ScreenAddrs are the addresses of the table's screen, the trusted
	// display shown the join codes; empty: loopback (the box's own
	// screen). Other devices are paired by the staff (POST /api/pair).
	ScreenAddrs []string
	// Hosts are host names the table answers to besides its base URL's,
	// localhost and IP addresses (the Host check against DNS rebinding).
	Hosts []string
	// JoinCodeTTL is how long a join code is good for; 0: DefaultJoinCodeTTL.
	JoinCodeTTL time.Duration
	// MaxConns and MaxConnsPerAddr cap the websockets; 0: the defaults.
	MaxConns, MaxConnsPerAddr int
	// GlobalRate and GlobalBurst limit the messages of all connections
	// together; 0: the defaults.
	GlobalRate  float64
	GlobalBurst int
	CallStaff   StaffCaller // the café's call for staff (callstaff.go); nil: not in a café

	// Dice is the table's dice camera on the staff page (dicelog.go);
	// nil: the table has none.
	Dice DiceCamera
	// InspectDir is where the frames sent for inspection are kept
	// (inspect.go); empty: none can be sent. InspectKeep and
	// InspectBytes bound it (0: DefaultInspectKeep, DefaultInspectBytes).
	InspectDir   string
	InspectKeep  int
	InspectBytes int64
}

// DefaultOpts are the options for a table of the café.
var DefaultOpts = Opts{
	RatePerSecond: 10,
	Burst:         20,
	SendBuffer:    8,
	LogLines:      40,
	SubmitTimeout: 5 * time.Second,
	Location:      "Comptoir",
}

// ErrNotRunning is returned by requests made before Run or after it ended.
var ErrNotRunning = errors.New("dashboard not running")

// Server is one table's dashboard: HTTP pages, downloads and the
// websocket hub.
type Server struct {
	sess     Session
	kit      kit.Game // the session's game's, fixed
	page     []byte   // index.html with the game's renderer
	opts     Opts
	tok      *tokens
	upgrader websocket.Upgrader
	mux      *http.ServeMux
	handler  http.Handler // mux behind the Host and Origin checks

	// The version of the game's fixed data (see infoRev).
	revMu  sync.Mutex
	revKey revKey // the rules and variant of rev, guarded by revMu
	rev    string // guarded by revMu

	// Channels to the hub goroutine (see run).
	register     chan *client
	unregister   chan *client
	identify     chan identity
	seatsChanged chan struct{}

	props *proposals

	// inspected tells the hub a frame was saved for inspection;
	// inspectMu serialises the saving and pruning (inspect.go).
	inspected chan struct{}
	inspectMu sync.Mutex

	// refusals counts the refusals the hub has seen (a new one at each
	// update whose refusal is not the last one's); the hub's only.
	refusals int64

	// Security hooks (staffauth.go, joincode.go, origin.go, limits.go).
	guard   *staffGuard
	screens *pairedScreens
	global  *sharedBucket
	wsLimit *connLimiter
	hosts   []string

	mu sync.Mutex
	// ctx is Run's context while it runs; guarded by mu.
	ctx context.Context
	// hubDone is closed when the hub has stopped; guarded by mu.
	hubDone chan struct{}
	// stopped is true once Run has ended; guarded by mu.
	stopped bool
	// latest is the latest update, for downloads; guarded by mu.
	latest *Update
	// conns counts the running connection goroutines; Add under mu.
	conns sync.WaitGroup
}

// New returns the dashboard of a session. Call Run, and serve Handler.
func New(sess Session, opts Opts) (*Server, error) {
	if sess == nil {
		return nil, errors.New("dashboard: no session")
	}
	d := DefaultOpts
	if opts.Clock == nil {
		opts.Clock = SystemClock
	}
	if opts.RatePerSecond <= 0 {
		opts.RatePerSecond = d.RatePerSecond
	}
	if opts.Burst <= 0 {
		opts.Burst = d.Burst
	}
	if opts.SendBuffer <= 0 {
		opts.SendBuffer = d.SendBuffer
	}
	if opts.LogLines <= 0 {
		opts.LogLines = d.LogLines
	}
	if opts.SubmitTimeout <= 0 {
		opts.SubmitTimeout = d.SubmitTimeout
	}
	if opts.Location == "" {
		opts.Location = d.Location
	}
	if opts.BaseURL != "" {
		u, err := url.Parse(opts.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("dashboard: base URL %q: want http://host:port", opts.BaseURL)
		}
		opts.BaseURL = strings.TrimRight(opts.BaseURL, "/")
	}
	for _, o := range opts.AllowedOrigins {
		if u, err := url.Parse(o); err != nil || u.Host == "" {
			return nil, fmt.Errorf("dashboard: allowed origin %q: want scheme://host[:port]", o)
		}
	}
	tok, err := loadTokens(opts.TokenFile)
	if err != nil {
		return nil, fmt.Errorf("dashboard: %w", err)
	}
	opts.setSecurityDefaults()
	screens := &pairedScreens{}
	if err := screens.load(screensPath(opts.TokenFile)); err != nil {
		return nil, fmt.Errorf("dashboard: %w", err)
	}
	tok.ttl, tok.now = opts.JoinCodeTTL, opts.Clock.Now
	k := sess.Kit()
	if err := k.Check(); err != nil {
		return nil, fmt.Errorf("dashboard: %w", err)
	}
	page, err := gamePage(k)
	if err != nil {
		return nil, err
	}
	s := &Server{
		sess: sess, kit: k, page: page, opts: opts, tok: tok,
		register: make(chan *client), unregister: make(chan *client),
		identify: make(chan identity), seatsChanged: make(chan struct{}, 1),
		props: newProposals(), inspected: make(chan struct{}, 1),
	}
	s.screens = screens
	s.guard = newStaffGuard(opts.StaffPIN, opts.Clock, opts.StaffSession, s.notifySeats)
	s.global = newSharedBucket(opts.Clock, opts.GlobalRate, opts.GlobalBurst)
	s.wsLimit = newConnLimiter(opts.MaxConns, opts.MaxConnsPerAddr)
	s.hosts = configuredHosts(opts)
	s.upgrader = websocket.Upgrader{ReadBufferSize: 1024, WriteBufferSize: 4096, CheckOrigin: s.checkOrigin}
	s.routes()
	return s, nil
}

// Handler serves the pages, downloads and websocket.
func (s *Server) Handler() http.Handler { return s.handler }

// Run runs the hub until ctx ends, then closes every connection and waits
// for their goroutines. It returns nil when ctx ended.
func (s *Server) Run(ctx context.Context) error {
	s.mu.Lock()
	if s.ctx != nil || s.stopped {
		s.mu.Unlock()
		return errors.New("dashboard: Run called twice")
	}
	hubCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.ctx = hubCtx
	s.hubDone = make(chan struct{})
	hubDone := s.hubDone
	s.mu.Unlock()

	s.run(hubCtx, s.sess.Subscribe(hubCtx))

	s.mu.Lock()
	s.stopped = true
	close(hubDone)
	s.mu.Unlock()
	s.conns.Wait()
	return nil
}

func (s *Server) logf(format string, args ...any) {
	if s.opts.Logf != nil {
		s.opts.Logf(format, args...)
	}
}

func (s *Server) setLatest(u Update) {
	s.mu.Lock()
	s.latest = &u
	s.mu.Unlock()
}

func (s *Server) latestUpdate() *Update {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.latest
}

// running returns Run's context and the hub's done channel, and counts a
// connection goroutine in (release it with s.conns.Done), or ok=false.
func (s *Server) running() (ctx context.Context, hubDone chan struct{}, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ctx == nil || s.stopped {
		return nil, nil, false
	}
	s.conns.Add(1)
	return s.ctx, s.hubDone, true
}

func (s *Server) notifySeats() {
	select {
	case s.seatsChanged <- struct{}{}:
	default: // one pending notice covers any number of changes
	}
}

func (s *Server) name(seat engine.Seat) string {
	if p := s.players(); seat >= 0 && int(seat) < len(p) {
		return p[seat]
	}
	return seat.String()
}

func (s *Server) players() []string {
	if u := s.latestUpdate(); u != nil {
		return u.State.Setup().Players
	}
	return nil
}

// codec is the codec of the latest update's rules; nil before the first.
func (s *Server) codec() *engine.Codec {
	if u := s.latestUpdate(); u != nil {
		return u.Codec
	}
	return nil
}

func (s *Server) decodeCommand(m Message) (engine.Command, error) {
	codec := s.codec()
	if codec == nil {
		return nil, ErrNotRunning
	}
	if m.Line != "" {
		return codec.ParseCommand(m.Line, s.players())
	}
	return codec.DecodeCommand(m.Name, m.Args)
}
