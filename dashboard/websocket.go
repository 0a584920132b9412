package dashboard

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/websocket"

	"comptoir/engine"
)

// serveWS upgrades to a websocket and runs the connection: this goroutine
// reads, a second one writes.
func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	ctx, hubDone, ok := s.running()
	if !ok {
		http.Error(w, "dashboard not running", http.StatusServiceUnavailable)
		return
	}
	defer s.conns.Done()
	addr := remoteIP(r.RemoteAddr)
	if !s.wsLimit.acquire(addr) {
		httpError(w, http.StatusServiceUnavailable, "too many connections: try again later", "trop de connexions : réessayez plus tard")
		return
	}
	defer s.wsLimit.release(addr)
	conn, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader has answered
	}
	c := &client{conn: conn, send: make(chan []byte, s.opts.SendBuffer), replies: make(chan []byte, replyBuffer), screen: s.trustedScreen(r)}
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
	token      string // the seat token given in hello, "" if none
	staff      bool
	staffUntil time.Time // the staff session's end
	pinFailed  int
	limit      *bucket
}

// maxPINFailures wrong PINs close the connection (the staff guard counts
// them across all connections besides).
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
		if !st.limit.allow() || !s.global.allow() {
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
	Type string       `json:"type"` // welcome, accepted, proposed, refused, error
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

// handle answers one message; false closes the connection.
func (s *Server) handle(ctx context.Context, c *client, st *connState, m Message) bool {
	switch m.Type {
	case msgHello:
		return s.hello(ctx, c, st, m)
	case msgCommand:
		if seat, ok := s.seatOf(c, st, m.ID); ok {
			s.command(ctx, c, seat, m)
		}
	case msgAct:
		if seat, ok := s.seatOf(c, st, m.ID); ok {
			proposed, err := s.act(ctx, seat, m)
			s.reply(c, s.played(m.ID, proposed, err))
		}
	case msgTakeBack:
		if seat, ok := s.seatOf(c, st, m.ID); ok {
			s.reply(c, s.outcome(m.ID, s.takeBack(ctx, seat)))
		}
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
	case msgStaff:
		return s.staff(ctx, c, st, m)
	case msgDice:
		if st.token == "" {
			s.reply(c, s.enterDice(ctx, c, m))
		} else if seat, ok := s.seatOf(c, st, m.ID); ok {
			s.reply(c, s.correctDice(ctx, seat, m)) // the thrower corrects the camera (dicecorrect.go)
		}
	}
	return true
}

// hello identifies the connection: the staff by their PIN, a seat by its
// token; the hub then sends it the frames of that audience. false closes
// the connection (too many wrong PINs, or ctx ended).
func (s *Server) hello(ctx context.Context, c *client, st *connState, m Message) bool {
	tell := func(to audience, token string) bool {
		select {
		case s.identify <- identity{c: c, aud: to, token: token}:
			return true
		case <-ctx.Done():
			return false
		}
	}
	if m.Role == roleStaff {
		if !s.staffLogin(c, st, m.ID, m.PIN) {
			st.pinFailed++
			return st.pinFailed < maxPINFailures
		}
		s.reply(c, encodeReply(replyMsg{Type: "welcome", ID: m.ID, Role: roleStaff}))
		return s.tellStaff(ctx, c, st.staffUntil)
	}
	seat, err := s.tok.seat(m.Token)
	if err != nil {
		s.reply(c, errorReply(m.ID, "unknown-token", "this phone holds no seat (any more): scan the seat's QR code on the table's screen", "ce téléphone n'a pas (plus) de place : scannez le QR code de la place sur l'écran de la table"))
		return true
	}
	st.token, st.staff = m.Token, false
	s.reply(c, encodeReply(replyMsg{Type: "welcome", ID: m.ID, Role: roleSeat, Seat: &seat}))
	return tell(audience{role: roleSeat, seat: seat}, m.Token)
}

// command plays a seat's game command and answers it, through the
// consent of the seats it needs (kit.Play.Consent) like an act; an
// accepted command the game announces (kit.Game.Announce) is shown to
// every screen.
func (s *Server) command(ctx context.Context, c *client, seat engine.Seat, m Message) {
	cmd, err := s.decodeCommand(m)
	if err != nil {
		s.reply(c, s.outcome(m.ID, err))
		return
	}
	proposed, err := s.playAs(ctx, seat, engine.Action{By: seat, Cmd: cmd}, nil)
	s.reply(c, s.played(m.ID, proposed, err))
}

// played is the reply to a step played from a phone: "proposed" when it
// waits for other seats' consent.
func (s *Server) played(id int64, proposed bool, err error) []byte {
	if err == nil && proposed {
		return encodeReply(replyMsg{Type: "proposed", ID: id})
	}
	return s.outcome(id, err)
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
