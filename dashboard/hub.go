package dashboard

import (
	"context"
	"encoding/json"
	"time"

	"github.com/gorilla/websocket"

	"comptoir/engine"
	"comptoir/games/kit"
)

// Timing of the websocket connections.
const (
	// writeWait is the time allowed to write one message to a phone.
	writeWait = 10 * time.Second
	// pongWait is how long a phone may stay silent (no pong, no message)
	// before its connection is dropped.
	pongWait = 60 * time.Second
	// pingPeriod is how often the server pings; less than pongWait.
	pingPeriod = pongWait * 9 / 10
	// replyBuffer is the replies (accepted, refused, error) queued for
	// one connection; a phone that lets more pile up is dropped.
	replyBuffer = 16
)

// sweepPeriod is how often the hub ends staff sessions and renews expired
// join codes (a variable for the tests).
var sweepPeriod = 5 * time.Second

// Roles of a connection.
const (
	roleTable = "table" // the table's screen or any spectator: public view
	roleSeat  = "seat"  // a player's phone: public view and that seat's secrets
	roleStaff = "staff" // the staff page, after the PIN
)

// audience is who a frame is for; frames are built once per audience.
type audience struct {
	role string
	seat engine.Seat // for roleSeat; NoSeat otherwise
	// screen is the table's trusted screen (joincode.go): it alone of
	// the table's audience is shown the join codes.
	screen bool
}

var tableAudience = audience{role: roleTable, seat: engine.NoSeat}

// client is one websocket connection. Its reader is the HTTP handler's
// goroutine, its writer a goroutine of its own.
type client struct {
	conn *websocket.Conn
	// send carries frames from the hub to the writer; the hub closes it
	// when it drops the client.
	send chan []byte
	// replies carries replies from the reader to the writer; never closed.
	replies chan []byte
	// screen: the connection is the table's trusted screen.
	screen bool
}

// tableAud is the table's audience of c: the screen's if c is it.
func (c *client) tableAud() audience {
	return audience{role: roleTable, seat: engine.NoSeat, screen: c.screen}
}

// member is the hub's record of a client; only the hub goroutine reads or
// writes it.
type member struct {
	aud   audience
	token string    // the seat token that made it a seat, to check on changes
	until time.Time // the end of a staff session; zero otherwise
}

// identity is a reader's request to the hub: this client is now aud.
type identity struct {
	c     *client
	aud   audience
	token string
	until time.Time // the staff session's end, for a staff audience
}

// run is the hub: the one goroutine that owns the set of clients. It
// follows the session's updates, builds one frame per audience and queues
// it to every client; a client whose queue is full is dropped.
func (s *Server) run(ctx context.Context, updates <-chan Update) {
	members := map[*client]*member{}
	frames := map[audience][]byte{}
	var cur *Update
	var vs views                          // of cur
	var legal []frameAction               // of cur, computed once for every frame
	var acts map[engine.Seat][]kit.Action // of cur, each seat's (kit.Play)
	drop := func(c *client) {
		if _, ok := members[c]; ok {
			delete(members, c)
			close(c.send)
		}
	}
	deliver := func(c *client, m *member) {
		if cur == nil {
			return
		}
		f, ok := frames[m.aud]
		if !ok {
			f = s.frame(cur, vs, legal, acts, m.aud)
			frames[m.aud] = f
		}
		select {
		case c.send <- f:
		default:
			s.logf("dashboard: a connection let %d frames pile up: closed", cap(c.send))
			drop(c)
		}
	}
	// notice tells a phone what happened to its seat before it sees
	// the table's view: the staff freed it, or a new game began.
	notice := func(c *client, code, en, fr string) {
		select {
		case c.send <- encodeReply(replyMsg{Type: "notice", Code: code, EN: en, FR: fr}):
		default:
			drop(c)
		}
	}
	seatFreed := func(c *client) {
		notice(c, "seat-freed", "the staff freed your seat: scan a free seat's QR code to play again", "le personnel a libéré votre place : scannez le QR code d'une place libre pour rejouer")
	}
	defer func() {
		for c := range members {
			drop(c)
		}
	}()
	sweep := time.NewTicker(sweepPeriod) // staff sessions, join codes, lockout
	defer sweep.Stop()
	locked := false
	camera := s.cameraChanged()
	// toStaff sends the staff their frame again (the dice camera changed).
	toStaff := func() {
		for a := range frames {
			if a.role == roleStaff {
				delete(frames, a)
			}
		}
		for c, m := range members {
			if m.aud.role == roleStaff {
				deliver(c, m)
			}
		}
	}
	for {
		select {
		case <-camera:
			toStaff()
		case <-s.inspected:
			toStaff()
		case <-ctx.Done():
			return
		case u, ok := <-updates:
			if !ok {
				return
			}
			first := cur == nil
			if u.Refusal != nil && (cur == nil || cur.Refusal != u.Refusal) {
				s.refusals++
			}
			cur = &u
			vs = viewsOf(u.State)
			legal = s.legalOf(u.Codec, u.State)
			acts = s.seatActions(u.State)
			// the tokens follow the game before a join can see it: a
			// seat joined at the new game's first update would
			// otherwise be freed by it
			freed, err := s.tok.setGame(u.Game, s.opts.Clock.Now())
			if err != nil {
				s.logf("dashboard: %v", err)
			}
			s.setLatest(u)
			clear(frames)
			if freed {
				s.props.clear()
			}
			if first {
				s.restoreSaid(&u) // after a restart
			}
			s.props.expire(u.State.Waiting(), u.Seq)
			for c, m := range members {
				if freed && m.aud.role == roleSeat {
					m.aud, m.token = c.tableAud(), ""
					notice(c, "game-replaced", "a new game began at this table: scan a free seat's QR code to play", "une nouvelle partie a commencé à cette table : scannez le QR code d'une place libre pour jouer")
				}
				if _, ok := members[c]; ok {
					deliver(c, m)
				}
			}
		case c := <-s.register:
			m := &member{aud: c.tableAud()}
			members[c] = m
			deliver(c, m)
		case c := <-s.unregister:
			drop(c)
		case id := <-s.identify:
			if m, ok := members[id.c]; ok {
				m.aud, m.token, m.until = id.aud, id.token, id.until
				if m.aud.role == roleSeat {
					// The token was good when the hello was read; the staff
					// may have freed the seat since, before this reached the
					// hub (and its seatsChanged found no seat to tell).
					if _, err := s.tok.seat(m.token); err != nil {
						m.aud, m.token = id.c.tableAud(), ""
						seatFreed(id.c)
					}
				}
				if _, ok := members[id.c]; ok {
					deliver(id.c, m)
				}
			}
		case <-s.seatsChanged:
			// A seat was taken or freed, or a proposal made or answered:
			// the table's join codes change, a phone whose token was
			// revoked is a seat no more, proposals are shown.
			clear(frames)
			for c, m := range members {
				if m.aud.role == roleSeat {
					if _, err := s.tok.seat(m.token); err != nil {
						m.aud, m.token = c.tableAud(), ""
						seatFreed(c)
					}
				}
				if _, ok := members[c]; ok {
					deliver(c, m)
				}
			}
			locked = s.staffLockNow() != nil
		case <-sweep.C:
			// A staff session ended (its connection sees the table's view
			// again), a join code expired, a lockout began or ended.
			now := s.opts.Clock.Now()
			changed := s.tok.codesExpired(now, s.opts.JoinCodeTTL) || (s.staffLockNow() != nil) != locked
			for c, m := range members {
				if m.aud.role == roleStaff && !m.until.IsZero() && !now.Before(m.until) {
					m.aud, m.until = c.tableAud(), time.Time{}
					deliver(c, m)
				}
			}
			if changed {
				s.notifySeats()
			}
		}
	}
}

// frame is what a connection receives after every change: everything its
// audience may see, and nothing else.
type frame struct {
	Type    string       `json:"type"` // "state"
	Seq     int64        `json:"seq"`
	Role    string       `json:"role"`
	Seat    *engine.Seat `json:"seat,omitempty"`
	Game    string       `json:"game"`
	Variant string       `json:"variant,omitempty"`
	// Info is the version of the game's fixed data (GET /api/game): it
	// changes when the staff edit the board.
	Info     string          `json:"info,omitempty"`
	Players  []framePlayer   `json:"players"`
	Waiting  []engine.Seat   `json:"waiting"`
	Over     bool            `json:"over"`
	Outcome  string          `json:"outcome,omitempty"`
	View     json.RawMessage `json:"view"`
	Log      []LogLine       `json:"log"`
	Commands []string        `json:"commands,omitempty"`
	Legal    []frameAction   `json:"legal,omitempty"`
	// Title is the game's name for people (kit.BGStats.Name).
	Title string `json:"title"`
	// Prompt is what the game waits for, told to this viewer (kit.Play).
	Prompt *kit.Text `json:"prompt,omitempty"`
	// Actions are a seat's actions described for people (kit.Play): a
	// seat's frame then carries no Legal and no Commands.
	Actions []kit.Action `json:"actions"`
	// TakeBack is the seat's own last step, which it may take back.
	TakeBack *lastStep `json:"take_back,omitempty"`
	// Last is the last standing step, which the staff's undo cancels.
	Last *lastStep `json:"last,omitempty"`
	// Proposals are the proposals this seat made or must answer.
	Proposals []proposal `json:"proposals,omitempty"`
	// Said are the seats' latest announced commands (offers), public.
	Said    []announced    `json:"said,omitempty"`
	Refusal *Refused       `json:"refusal,omitempty"`
	Result  *engine.Result `json:"result,omitempty"`
	Devices []frameDevice  `json:"devices,omitempty"`
	// StaffLock is the staff access's lockout after wrong secrets, on
	// the table's and the staff's frames.
	StaffLock *staffLock `json:"staff_lock,omitempty"`
	Unknown   []string   `json:"unknown,omitempty"`
	// Camera is the dice camera's last throws and the frames sent for
	// inspection, on the staff's frame (dicelog.go).
	Camera *staffCamera `json:"camera,omitempty"`
	// DiceAsk asks for the roll the camera could not read (diceask.go).
	DiceAsk *diceAsk `json:"dice_ask,omitempty"`
	// DiceCorrect offers the seat that threw to correct the camera's
	// reading (dicecorrect.go).
	DiceCorrect *diceCorrect `json:"dice_correct,omitempty"`
}

type framePlayer struct {
	Seat engine.Seat `json:"seat"`
	Name string      `json:"name"`
	// Free is true when no phone holds the seat.
	Free bool `json:"free"`
	// Join is the join link of a free seat, on the table's and staff's
	// frames only.
	Join string `json:"join,omitempty"`
}

type frameAction struct {
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
	Line string          `json:"line"`
	By   engine.Seat     `json:"by"`
}

// lastStep is a step as the staff's undo and a player's take back show
// it: its words in the log, and for the staff its notation.
type lastStep struct {
	Seq  int64       `json:"seq"`
	By   engine.Seat `json:"by"`
	Line string      `json:"line,omitempty"`
	Log  []LogLine   `json:"log"`
}

type frameDevice struct {
	Device string `json:"device"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail,omitempty"`
	// FR is Detail in French, when the device gives it.
	FR string `json:"fr,omitempty"`
}

// frame builds the frame of u for a.
// legalOf lists the legal actions with their JSON and text, once per
// update; each frame keeps its seat's.
func (s *Server) legalOf(codec *engine.Codec, st engine.State) []frameAction {
	players := st.Setup().Players
	var out []frameAction
	for _, act := range st.Legal() {
		args, err := json.Marshal(act.Cmd)
		if err != nil {
			continue
		}
		out = append(out, frameAction{Name: act.Cmd.Name(), Args: args, Line: codec.FormatCommand(act.Cmd, players), By: act.By})
	}
	return out
}

func (s *Server) frame(u *Update, vs views, legal []frameAction, acts map[engine.Seat][]kit.Action, a audience) []byte {
	st := u.State
	setup := st.Setup()
	viewer := engine.NoSeat
	switch a.role {
	case roleSeat:
		viewer = a.seat
	case roleStaff:
		viewer = engine.Staff
	}
	f := frame{
		Type: "state", Seq: u.Seq, Role: a.role, Game: setup.Game, Variant: setup.Variant, Info: s.infoRev(u),
		Waiting: st.Waiting(),
	}
	if f.Waiting == nil {
		f.Waiting = []engine.Seat{}
	}
	if a.role == roleSeat {
		seat := a.seat
		f.Seat = &seat
	}
	res := st.Result()
	f.Over = res.Over || u.Outcome != ""
	f.Outcome = u.Outcome
	if res.Over || u.Outcome == "over" {
		f.Result = &res // the final scores are for everyone
	}
	for i, name := range setup.Players {
		p := framePlayer{Seat: engine.Seat(i), Name: name, Free: !s.tok.taken(engine.Seat(i))}
		if p.Free && (a.role == roleStaff || a.screen) && !f.Over {
			p.Join = joinPath(p.Seat, s.tok.code(p.Seat))
		}
		f.Players = append(f.Players, p)
	}
	view, ok := vs[viewer]
	if !ok {
		var err error
		if view, err = json.Marshal(st.View(viewer)); err != nil {
			s.logf("dashboard: view of %v: %v", viewer, err)
			view = []byte("null")
		}
	}
	f.View = view
	log := u.Log
	if n := s.opts.LogLines; len(log) > n {
		log = log[len(log)-n:]
	}
	f.Log = log
	if f.Log == nil {
		f.Log = []LogLine{} // the page reads a list, never null
	}
	if r := u.Refusal; r != nil {
		// A refusal may tell the seat's own holdings ("you have only 12
		// ducats"): it goes whole to that seat and to the staff; the
		// table's screen, which everyone reads, sees the refusals of the
		// table's own devices in the rule's public words only (a card
		// scanned twice is not named: it may be in a player's hand).
		switch {
		case a.role == roleStaff || (r.Seat == viewer && r.Seat != engine.NoSeat):
			f.Refusal = &Refused{Seat: r.Seat, Seq: r.Seq, FR: r.FR, EN: r.EN}
		case r.Seat == viewer:
			f.Refusal = &Refused{Seat: r.Seat, Seq: r.Seq, FR: r.PublicFR, EN: r.PublicEN}
		}
	}
	words := s.kit.Play != nil
	f.Title = s.kit.BGStats.Name
	if !f.Over || res.Over {
		f.Prompt = s.prompt(st, viewer)
	}
	if a.role == roleSeat && words && !f.Over {
		// A seat plays in words: its actions, never the notation.
		f.Actions = acts[a.seat]
		if f.Actions == nil {
			f.Actions = []kit.Action{}
		}
	}
	if l := u.Last; l != nil && !f.Over {
		switch {
		case a.role == roleStaff:
			f.Last = &lastStep{Seq: l.Seq, By: l.By, Line: l.Command, Log: l.Log}
		case a.role == roleSeat && l.TakeBack && l.By == a.seat:
			f.TakeBack = &lastStep{Seq: l.Seq, By: l.By, Log: l.Log}
		}
	}
	if a.role != roleTable && !f.Over && !(a.role == roleSeat && words) {
		f.Commands = u.Codec.CommandNames()
		for _, act := range legal {
			if a.role == roleSeat && act.By != a.seat {
				continue
			}
			f.Legal = append(f.Legal, act)
		}
	}
	if a.role != roleTable {
		f.Proposals = s.props.visible(a, words)
	}
	f.Said = s.props.announcements(words && a.role != roleStaff)
	f.Devices = seatDevices(a, u.Devices)
	if a.role != roleSeat {
		f.StaffLock = s.staffLockNow()
		for _, d := range u.Devices {
			f.Devices = append(f.Devices, frameDevice{Device: d.Device, OK: d.OK, Detail: d.Detail, FR: d.DetailFR})
		}
		for _, t := range u.Unknown {
			f.Unknown = append(f.Unknown, t.UID)
		}
	}
	if a.role == roleStaff {
		f.Camera = s.camera()
	}
	f.DiceAsk = s.diceAskFor(u, acts, a, f.Over)
	f.DiceCorrect = s.diceCorrectFor(u, a, f.Over)
	data, err := json.Marshal(f)
	if err != nil {
		s.logf("dashboard: frame: %v", err)
		return []byte(`{"type":"error","en":"the server could not build the view","fr":"le serveur n'a pas pu construire la vue"}`)
	}
	return data
}
