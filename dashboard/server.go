package dashboard

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"comptoir/engine"
	"comptoir/engine/genoa/board"
	"comptoir/input"
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
	// Announce names the commands whose text every screen shows once
	// accepted, for example Genoa's "offer": the rules keep who offered,
	// the table hears what. Nil: DefaultOpts's.
	Announce []string
	// GenoaBoard is the board the table plays Genoa on, when the café
	// corrected the default layout (genoa.WithBoard). Nil: the default.
	GenoaBoard *board.Board
}

// DefaultOpts are the options for a table of the café.
var DefaultOpts = Opts{
	RatePerSecond: 10,
	Burst:         20,
	SendBuffer:    8,
	LogLines:      40,
	SubmitTimeout: 5 * time.Second,
	Location:      "Comptoir",
	Announce:      []string{"offer"},
}

// ErrNotRunning is returned by requests made before Run or after it ended.
var ErrNotRunning = errors.New("dashboard not running")

// Server is one table's dashboard: HTTP pages, downloads and the
// websocket hub.
type Server struct {
	sess     Session
	opts     Opts
	tok      *tokens
	upgrader websocket.Upgrader
	mux      *http.ServeMux

	// The version of the game's fixed data (see infoRev).
	revMu    sync.Mutex
	revBoard *board.Board // guarded by revMu
	rev      string       // guarded by revMu

	// Channels to the hub goroutine (see run).
	register     chan *client
	unregister   chan *client
	identify     chan identity
	seatsChanged chan struct{}

	props *proposals

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
	if opts.Announce == nil {
		opts.Announce = d.Announce
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
	s := &Server{
		sess: sess, opts: opts, tok: tok,
		register: make(chan *client), unregister: make(chan *client),
		identify: make(chan identity), seatsChanged: make(chan struct{}, 1),
		props: newProposals(),
	}
	s.upgrader = websocket.Upgrader{ReadBufferSize: 1024, WriteBufferSize: 4096, CheckOrigin: s.checkOrigin}
	s.routes()
	return s, nil
}

// Handler serves the pages, downloads and websocket.
func (s *Server) Handler() http.Handler { return s.mux }

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

// checkOrigin accepts a websocket from the dashboard's own pages or an
// allowed origin.
func (s *Server) checkOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true // not a browser: the origin check protects browsers
	}
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	if strings.EqualFold(u.Host, r.Host) {
		return true
	}
	if s.opts.BaseURL != "" && strings.EqualFold(origin, s.opts.BaseURL) {
		return true
	}
	for _, o := range s.opts.AllowedOrigins {
		if strings.EqualFold(strings.TrimRight(o, "/"), origin) {
			return true
		}
	}
	return false
}

func (s *Server) routes() {
	m := http.NewServeMux()
	static, _ := fs.Sub(webFS, "web")
	page := func(w http.ResponseWriter, r *http.Request) {
		secureHeaders(w)
		http.ServeFileFS(w, r, static, "index.html")
	}
	m.HandleFunc("GET /{$}", page)
	m.HandleFunc("GET /seat", page)
	m.HandleFunc("GET /staff", page)
	m.HandleFunc("GET /join", page)
	m.Handle("GET /static/", http.StripPrefix("/static/", staticHandler(static)))
	m.HandleFunc("GET /ws", s.serveWS)
	m.HandleFunc("POST /api/join", s.serveJoin)
	m.HandleFunc("GET /qr/{seat}", s.serveQR)
	m.HandleFunc("GET /api/game", s.serveGameInfo)
	m.HandleFunc("GET /download/record", s.serveRecord)
	m.HandleFunc("GET /download/bgsplay", s.serveBGSPlay)
	m.HandleFunc("GET /bgstats", s.serveBGStatsLink)
	m.HandleFunc("GET /qr/bgstats.png", s.serveBGStatsQR)
	m.HandleFunc("GET /api/plays", s.servePlays)
	s.mux = m
}

func staticHandler(static fs.FS) http.Handler {
	files := http.FileServerFS(static)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		secureHeaders(w)
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
}

// secureHeaders keeps the pages to their own server: no script, style or
// image from elsewhere (the dashboard works with no internet access).
func secureHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; connect-src 'self' ws: wss:; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
}

// httpError writes a JSON error in both languages.
func httpError(w http.ResponseWriter, code int, en, fr string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]string{"en": en, "fr": fr})
}

func joinPath(seat engine.Seat, code string) string {
	return "/join?seat=" + strconv.Itoa(int(seat)+1) + "&code=" + code
}

// serveJoin makes the phone a seat: {"seat":1,"code":"…"} (seat 1-based,
// as in the join link) answers {"token":"…","seat":0}.
func (s *Server) serveJoin(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Seat int    `json:"seat"`
		Code string `json:"code"`
	}
	dec := json.NewDecoder(io.LimitReader(r.Body, maxMessage))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		httpError(w, http.StatusBadRequest, "bad join request: "+err.Error(), "demande invalide : "+err.Error())
		return
	}
	u := s.latestUpdate()
	if u == nil {
		httpError(w, http.StatusServiceUnavailable, "the table is starting, try again", "la table démarre, réessayez")
		return
	}
	players := u.State.Setup().Players
	if req.Seat < 1 || req.Seat > len(players) {
		httpError(w, http.StatusBadRequest, fmt.Sprintf("no seat %d: seats 1 to %d", req.Seat, len(players)), fmt.Sprintf("pas de place %d : places 1 à %d", req.Seat, len(players)))
		return
	}
	seat := engine.Seat(req.Seat - 1)
	tok, err := s.tok.join(seat, req.Code, s.opts.Clock.Now())
	switch {
	case errors.Is(err, ErrSeatTaken):
		httpError(w, http.StatusConflict, "another phone already holds this seat; ask the staff to free it", "un autre téléphone a déjà cette place ; demandez au personnel de la libérer")
		return
	case errors.Is(err, ErrBadJoinCode):
		httpError(w, http.StatusForbidden, "this join code is out of date: scan the QR code on the table's screen again", "ce code n'est plus valable : scannez à nouveau le QR code de l'écran de la table")
		return
	case err != nil:
		s.logf("dashboard: join: %v", err)
		httpError(w, http.StatusInternalServerError, "the table could not save the seat", "la table n'a pas pu enregistrer la place")
		return
	}
	s.notifySeats()
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"token": tok, "seat": seat, "name": players[seat]})
}

// serveQR serves the join QR code of a free seat (1-based) as a PNG.
func (s *Server) serveQR(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimSuffix(r.PathValue("seat"), ".png")
	n, err := strconv.Atoi(name)
	u := s.latestUpdate()
	if err != nil || u == nil || n < 1 || n > len(u.State.Setup().Players) {
		http.NotFound(w, r)
		return
	}
	seat := engine.Seat(n - 1)
	if s.tok.taken(seat) {
		httpError(w, http.StatusGone, "this seat is taken", "cette place est prise")
		return
	}
	base := s.opts.BaseURL
	if base == "" {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		base = scheme + "://" + r.Host
	}
	png, err := qrPNG(base+joinPath(seat, s.tok.code(seat)), 256)
	if err != nil {
		s.logf("dashboard: QR: %v", err)
		http.Error(w, "QR code failed", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(png)
}

// serveGameInfo serves the fixed data of the game being played (board
// layout, names, what each card needs): no state, no secret.
func (s *Server) serveGameInfo(w http.ResponseWriter, r *http.Request) {
	u := s.latestUpdate()
	if u == nil {
		httpError(w, http.StatusServiceUnavailable, "the table is starting, try again", "la table démarre, réessayez")
		return
	}
	info, err := GameInfoFor(u.State.Setup(), s.genoaBoard(u))
	if err != nil {
		s.logf("dashboard: %v", err)
		httpError(w, http.StatusInternalServerError, "the game's data could not be read", "les données du jeu n'ont pas pu être lues")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(info)
}

// genoaBoard is the board a Genoa game is drawn on: the session's current
// one (the staff may have edited it), else the one given in Opts.
func (s *Server) genoaBoard(u *Update) *board.Board {
	if u != nil && u.GenoaBoard != nil {
		return u.GenoaBoard
	}
	return s.opts.GenoaBoard
}

// infoRev names the version of the game's fixed data a frame goes with:
// it changes when the board's layout does, so the pages fetch it again.
func (s *Server) infoRev(u *Update) string {
	b := s.genoaBoard(u)
	if b == nil {
		return ""
	}
	s.revMu.Lock()
	defer s.revMu.Unlock()
	if b != s.revBoard {
		sum := sha256.Sum256(b.Encode())
		s.revBoard, s.rev = b, hex.EncodeToString(sum[:6])
	}
	return s.rev
}

// StaffPINHeader carries the staff PIN on a download made before the end
// of the game.
const StaffPINHeader = "X-Comptoir-Staff-Pin"

// serveRecord serves the game record (the engine's notation).
func (s *Server) serveRecord(w http.ResponseWriter, r *http.Request) {
	if s.recordSealed() && !s.checkPIN(r.Header.Get(StaffPINHeader)) {
		httpError(w, http.StatusConflict, "the game record names every hidden card and bid: it can be downloaded once the game is over, or by the staff with the PIN", "la feuille de partie nomme toutes les cartes et mises cachées : elle se télécharge une fois la partie finie, ou par le personnel avec son code")
		return
	}
	data, err := s.sess.Record()
	if err != nil {
		s.logf("dashboard: record: %v", err)
		httpError(w, http.StatusInternalServerError, "the game record could not be read", "la feuille de partie n'a pas pu être lue")
		return
	}
	name := "game"
	if u := s.latestUpdate(); u != nil {
		name = u.State.Setup().Game
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-%s.txt"`, name, s.opts.Clock.Now().Format("2006-01-02")))
	w.Write(data)
}

// serveWS upgrades to a websocket and runs the connection: this goroutine
// reads, a second one writes.
func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	ctx, hubDone, ok := s.running()
	if !ok {
		http.Error(w, "dashboard not running", http.StatusServiceUnavailable)
		return
	}
	defer s.conns.Done()
	conn, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader has answered
	}
	c := &client{conn: conn, send: make(chan []byte, s.opts.SendBuffer), replies: make(chan []byte, replyBuffer)}
	select {
	case s.register <- c:
	case <-hubDone:
		conn.Close()
		return
	}
	s.conns.Add(1) // the hub is running, so conns is above zero
	go func() {
		defer s.conns.Done()
		s.write(c)
	}()
	s.read(ctx, c)
	select {
	case s.unregister <- c:
	case <-hubDone:
	}
	conn.Close()
}

// write is a connection's writer: frames from the hub, replies from the
// reader, pings. It ends when the hub closes send or a write fails.
func (s *Server) write(c *client) {
	ping := time.NewTicker(pingPeriod)
	defer func() {
		ping.Stop()
		c.conn.Close()
	}()
	for {
		select {
		case f, ok := <-c.send:
			c.conn.SetWriteDeadline(time.Now().Add(writeWait))
			if !ok {
				c.conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, "bye"))
				return
			}
			if err := c.conn.WriteMessage(websocket.TextMessage, f); err != nil {
				return
			}
		case f := <-c.replies:
			c.conn.SetWriteDeadline(time.Now().Add(writeWait))
			if err := c.conn.WriteMessage(websocket.TextMessage, f); err != nil {
				return
			}
		case <-ping.C:
			c.conn.SetWriteDeadline(time.Now().Add(writeWait))
			if err := c.conn.WriteMessage(websocket.PingMessage, nil); err != nil {
				return
			}
		}
	}
}

// conn is the reader's own state of a connection.
type connState struct {
	token     string // the seat token given in hello, "" if none
	staff     bool
	pinFailed int
	limit     *bucket
}

// maxPINFailures wrong PINs close the connection.
const maxPINFailures = 5

// read is a connection's reader: one message at a time, each answered.
func (s *Server) read(ctx context.Context, c *client) {
	st := &connState{limit: newBucket(s.opts.Clock, s.opts.RatePerSecond, s.opts.Burst)}
	c.conn.SetReadLimit(maxFrame)
	c.conn.SetReadDeadline(time.Now().Add(pongWait))
	c.conn.SetPongHandler(func(string) error { c.conn.SetReadDeadline(time.Now().Add(pongWait)); return nil })
	for {
		typ, r, err := c.conn.NextReader()
		if err != nil {
			return
		}
		c.conn.SetReadDeadline(time.Now().Add(pongWait))
		data, err := io.ReadAll(io.LimitReader(r, maxMessage+1))
		if err != nil {
			return
		}
		if len(data) > maxMessage {
			if _, err := io.Copy(io.Discard, r); err != nil {
				return
			}
			s.reply(c, errorReply(0, "message-too-large", fmt.Sprintf("message too large: at most %d bytes", maxMessage), fmt.Sprintf("message trop long : %d octets au plus", maxMessage)))
			continue
		}
		if !st.limit.allow() {
			s.reply(c, errorReply(0, "rate-limited", "too many messages: wait a moment", "trop de messages : attendez un instant"))
			continue
		}
		if typ != websocket.TextMessage {
			s.reply(c, errorReply(0, "bad-message", "send JSON text messages", "envoyez des messages texte JSON"))
			continue
		}
		msg, err := DecodeMessage(data)
		if err != nil {
			s.reply(c, errorReply(0, "bad-message", err.Error(), "message invalide : "+strings.TrimPrefix(err.Error(), ErrBadMessage.Error()+": ")))
			continue
		}
		if !s.handle(ctx, c, st, msg) {
			return
		}
	}
}

// reply queues a reply to the writer; a phone that lets replies pile up
// is closed.
func (s *Server) reply(c *client, data []byte) {
	select {
	case c.replies <- data:
	default:
		c.conn.Close()
	}
}

type replyMsg struct {
	Type string       `json:"type"` // welcome, accepted, refused, error
	ID   int64        `json:"id,omitempty"`
	Code string       `json:"code,omitempty"`
	EN   string       `json:"en,omitempty"`
	FR   string       `json:"fr,omitempty"`
	Role string       `json:"role,omitempty"`
	Seat *engine.Seat `json:"seat,omitempty"`
}

func encodeReply(r replyMsg) []byte {
	b, _ := json.Marshal(r)
	return b
}

func errorReply(id int64, code, en, fr string) []byte {
	return encodeReply(replyMsg{Type: "error", ID: id, Code: code, EN: en, FR: fr})
}

// outcome is the reply to a session's answer.
func (s *Server) outcome(id int64, err error) []byte {
	if err == nil {
		return encodeReply(replyMsg{Type: "accepted", ID: id})
	}
	if ref, ok := engine.AsRefusal(err); ok {
		code := ""
		if ref.Rule != nil {
			code = ref.Rule.Code
		}
		return encodeReply(replyMsg{Type: "refused", ID: id, Code: code, EN: ref.EN, FR: ref.FR})
	}
	s.logf("dashboard: session: %v", err)
	if errors.Is(err, context.DeadlineExceeded) {
		return errorReply(id, "busy", "the table did not answer in time; try again", "la table n'a pas répondu à temps ; réessayez")
	}
	return errorReply(id, "fault", "the table could not do it: "+err.Error(), "la table n'a pas pu le faire : "+err.Error())
}

func (s *Server) checkPIN(pin string) bool {
	return s.opts.StaffPIN != "" && subtle.ConstantTimeCompare([]byte(pin), []byte(s.opts.StaffPIN)) == 1
}

// handle answers one message; false closes the connection.
func (s *Server) handle(ctx context.Context, c *client, st *connState, m Message) bool {
	tell := func(to audience, token string) bool {
		select {
		case s.identify <- identity{c: c, aud: to, token: token}:
			return true
		case <-ctx.Done():
			return false
		}
	}
	switch m.Type {
	case msgHello:
		if m.Role == roleStaff {
			if !s.checkPIN(m.PIN) {
				st.pinFailed++
				s.reply(c, errorReply(m.ID, "bad-pin", "wrong staff PIN", "code du personnel erroné"))
				return st.pinFailed < maxPINFailures
			}
			st.staff, st.token = true, ""
			s.reply(c, encodeReply(replyMsg{Type: "welcome", ID: m.ID, Role: roleStaff}))
			return tell(audience{role: roleStaff, seat: engine.NoSeat}, "")
		}
		seat, err := s.tok.seat(m.Token)
		if err != nil {
			s.reply(c, errorReply(m.ID, "unknown-token", "this phone holds no seat (any more): scan the seat's QR code on the table's screen", "ce téléphone n'a pas (plus) de place : scannez le QR code de la place sur l'écran de la table"))
			return true
		}
		st.token, st.staff = m.Token, false
		s.reply(c, encodeReply(replyMsg{Type: "welcome", ID: m.ID, Role: roleSeat, Seat: &seat}))
		return tell(audience{role: roleSeat, seat: seat}, m.Token)
	case msgCommand:
		seat, ok := s.seatOf(c, st, m.ID)
		if !ok {
			return true
		}
		cmd, err := s.decodeCommand(m)
		if err != nil {
			s.reply(c, s.outcome(m.ID, err))
			return true
		}
		sctx, cancel := context.WithTimeout(ctx, s.opts.SubmitTimeout)
		err = s.sess.Submit(sctx, engine.Action{By: seat, Cmd: cmd})
		cancel()
		if err == nil && s.announces(cmd) {
			s.props.announce(seat, s.sess.Rules().Codec().FormatCommand(cmd, s.players()))
			s.notifySeats()
		}
		s.reply(c, s.outcome(m.ID, err))
		return true
	case msgPropose, msgAnswer:
		seat, ok := s.seatOf(c, st, m.ID)
		if !ok {
			return true
		}
		if m.Type == msgPropose {
			s.reply(c, s.outcome(m.ID, s.propose(seat, m)))
		} else {
			s.reply(c, s.outcome(m.ID, s.answer(ctx, seat, m)))
		}
		return true
	case msgStaff:
		if !s.checkPIN(m.PIN) {
			st.pinFailed++
			s.logf("dashboard: staff action %q refused: wrong PIN (%d on this connection)", m.Action, st.pinFailed)
			s.reply(c, errorReply(m.ID, "bad-pin", "staff actions need the staff PIN", "les actions du personnel demandent le code du personnel"))
			return st.pinFailed < maxPINFailures
		}
		req, err := s.staffRequest(m)
		if err != nil {
			s.reply(c, s.outcome(m.ID, err))
			return true
		}
		if req.Kind == StaffReassign {
			if err := s.tok.free(req.Seat, s.opts.Clock.Now()); err != nil {
				s.logStaff(req, err)
				s.reply(c, s.outcome(m.ID, err))
				return true
			}
			s.logStaff(req, nil)
			s.notifySeats()
			s.reply(c, s.outcome(m.ID, nil))
			return true
		}
		sctx, cancel := context.WithTimeout(ctx, s.opts.SubmitTimeout)
		err = s.sess.Staff(sctx, req)
		cancel()
		s.logStaff(req, err)
		s.reply(c, s.outcome(m.ID, err))
		return true
	}
	return true
}

// seatOf is the seat of the connection's token, now; it replies with the
// error when there is none.
func (s *Server) seatOf(c *client, st *connState, id int64) (engine.Seat, bool) {
	if st.token == "" {
		s.reply(c, errorReply(id, "no-seat", "join a seat first: scan its QR code on the table's screen", "prenez d'abord une place : scannez son QR code sur l'écran de la table"))
		return engine.NoSeat, false
	}
	seat, err := s.tok.seat(st.token)
	if err != nil {
		s.reply(c, errorReply(id, "unknown-token", "this phone holds no seat any more", "ce téléphone n'a plus de place"))
		return engine.NoSeat, false
	}
	return seat, true
}

// propose records seat's proposal to the seat the game waits for.
func (s *Server) propose(seat engine.Seat, m Message) error {
	u := s.latestUpdate()
	if u == nil {
		return ErrNotRunning
	}
	cmd, err := s.sess.Rules().Codec().ParseCommand(m.Line, s.players())
	if err != nil {
		return err
	}
	if !onlySeat(cmd, seat) {
		return engine.Refuse(ErrProposeSeat, "", "")
	}
	to := engine.NoSeat
	for _, w := range u.State.Waiting() {
		if w != seat {
			to = w
			break
		}
	}
	if to == engine.NoSeat {
		return engine.Refuse(ErrNobodyToPropose, "", "")
	}
	s.props.add(seat, to, s.sess.Rules().Codec().FormatCommand(cmd, s.players()), cmd)
	s.notifySeats()
	return nil
}

// answer plays or refuses a proposal made to seat.
func (s *Server) answer(ctx context.Context, seat engine.Seat, m Message) error {
	if !*m.Accept {
		if _, ok := s.props.take(m.Proposal, seat, propRefused); !ok {
			return engine.Refuse(ErrNoProposal, "", "")
		}
		s.props.settle(m.Proposal, propRefused, "refused by "+s.name(seat), "refusée par "+s.name(seat))
		s.notifySeats()
		return nil
	}
	pr, ok := s.props.take(m.Proposal, seat, propAccepted)
	if !ok {
		return engine.Refuse(ErrNoProposal, "", "")
	}
	sctx, cancel := context.WithTimeout(ctx, s.opts.SubmitTimeout)
	err := s.sess.Submit(sctx, engine.Action{By: seat, Cmd: pr.cmd})
	cancel()
	if err != nil {
		en, fr := err.Error(), err.Error()
		if r, ok := engine.AsRefusal(err); ok {
			en, fr = r.EN, r.FR
		}
		s.props.settle(pr.ID, propRefused, en, fr)
	} else {
		s.props.settle(pr.ID, propAccepted, "", "")
	}
	s.notifySeats()
	return err
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

func (s *Server) decodeCommand(m Message) (engine.Command, error) {
	codec := s.sess.Rules().Codec()
	if m.Line != "" {
		return codec.ParseCommand(m.Line, s.players())
	}
	return codec.DecodeCommand(m.Name, m.Args)
}

func (s *Server) staffRequest(m Message) (StaffRequest, error) {
	bad := func(en, fr string) (StaffRequest, error) {
		return StaffRequest{}, engine.Refuse(engine.ErrBadArgument, en, fr)
	}
	req := StaffRequest{Kind: StaffKind(m.Action), Reason: m.Reason, Seat: engine.NoSeat}
	switch req.Kind {
	case StaffUndo, StaffEnd, StaffAbandon:
		if strings.TrimSpace(m.Reason) == "" {
			return bad("say why, for the journal", "dites pourquoi, pour le journal")
		}
	case StaffCorrect:
		if m.Line == "" {
			return bad(`a correction is a game command in "line"`, `une correction est une commande du jeu dans "line"`)
		}
		cmd, err := s.sess.Rules().Codec().ParseCommand(m.Line, s.players())
		if err != nil {
			return StaffRequest{}, err
		}
		req.Cmd = withReason(cmd, m.Reason)
	case StaffReassign:
		n := len(s.players())
		if m.Seat == nil || *m.Seat < 1 || *m.Seat > n {
			return bad(fmt.Sprintf("which seat? 1 to %d", n), fmt.Sprintf("quelle place ? 1 à %d", n))
		}
		req.Seat = engine.Seat(*m.Seat - 1)
	case StaffCell:
		var x, y int
		if _, err := fmt.Sscanf(m.Cell, "%d-%d", &x, &y); err != nil || x < 1 || x > 8 || y < 1 || y > 8 || fmt.Sprintf("%d-%d", x, y) != m.Cell {
			return bad(fmt.Sprintf("cell %q: write column-row, each 1 to 8, like 3-4", m.Cell), fmt.Sprintf("case %q : écrivez colonne-ligne, de 1 à 8, comme 3-4", m.Cell))
		}
		if strings.TrimSpace(m.Square) == "" {
			return bad("which square goes on this cell?", "quel lieu mettre sur cette case ?")
		}
		req.Cell, req.Square = input.Cell{X: x, Y: y}, m.Square
	case StaffNewGame:
		seen := map[string]bool{}
		for _, name := range strings.Split(m.Line, ",") {
			name = strings.TrimSpace(name)
			if name == "" {
				continue
			}
			if seen[strings.ToLower(name)] {
				return bad(fmt.Sprintf("%s is seated twice", name), fmt.Sprintf("%s est placé deux fois", name))
			}
			seen[strings.ToLower(name)] = true
			req.Players = append(req.Players, name)
		}
	}
	return req, nil
}
