package cafe

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"comptoir/engine"
	"comptoir/journal"
)

// Opts configure a Publisher.
type Opts struct {
	// Table is the table's name on the café's network (CheckName).
	Table string
	// URL is the café's NATS server, for example nats://192.168.1.2:4222.
	URL string
	// User and Password are the table's credentials on the café's server.
	User, Password string
	// Store is the table's journal: the outbox and the cursor's home.
	Store *journal.Store
	// Rules returns the rules a journalled game was played with, by the
	// game's name (the table's own rules, with its board).
	Rules func(game string) (engine.Rules, error)
	// Logf logs; nil: silent.
	Logf func(format string, args ...any)
	// Window is how many steps may wait for JetStream's acknowledgement
	// at once.
	Window int
	// Heartbeat is how often the table's presence is refreshed; the hub
	// shows a table offline after a few missed.
	Heartbeat time.Duration
	// Poll is how often the journal is read when nothing called Notify.
	Poll time.Duration
	// AckWait bounds the wait for an acknowledgement before the steps
	// not acknowledged are sent again.
	AckWait time.Duration
	// IdleAfter is how long without a step makes a table idle.
	IdleAfter time.Duration
	// CursorEvery is how often at most the cursor is written to the
	// journal while steps are acknowledged (and always when Run ends):
	// one write per step would cost the table a commit per step. A table
	// that dies sends again the steps acknowledged since the last write;
	// the stream and the hub drop them.
	CursorEvery time.Duration
	// CursorSteps writes the cursor sooner, once it moved that many steps
	// since the last write (a catch-up of an hour offline): a table killed
	// mid-way sends again at most that many.
	CursorSteps int64
	// Now is the clock; nil: time.Now.
	Now func() time.Time
}

// DefaultOpts are a table's defaults; Table, URL, Store and Rules must
// still be set.
var DefaultOpts = Opts{
	Window:      256,
	Heartbeat:   2 * time.Second,
	Poll:        5 * time.Second,
	AckWait:     5 * time.Second,
	IdleAfter:   15 * time.Minute,
	CursorEvery: 10 * time.Second,
	CursorSteps: 256,
}

// Publisher sends a table's journal to the café's hub. Make it with New,
// then call Run.
type Publisher struct {
	opts Opts
	wake chan struct{} // a pending Notify, capacity 1

	mu       sync.Mutex
	presence Presence // guarded by mu
	changed  chan struct{}
	answers  chan Answer
	online   chan struct{} // the connection came up, capacity 1

	// Owned by Run.
	infos    []journal.Info // the journal's games as last read; nil: read them
	rep      *replayer
	lastStep time.Time
	cur      journal.Cursor // acknowledged up to here
	curRead  bool           // cur was read from the journal
	saved    journal.Cursor // the cursor last written to the journal
	savedAt  time.Time      // when
}

// New checks the options and returns a Publisher.
func New(opts Opts) (*Publisher, error) {
	if err := CheckName(opts.Table); err != nil {
		return nil, err
	}
	if opts.URL == "" || opts.Store == nil || opts.Rules == nil {
		return nil, errors.New("cafe: Opts.URL, Opts.Store and Opts.Rules are required")
	}
	d := DefaultOpts
	if opts.Window <= 0 {
		opts.Window = d.Window
	}
	if opts.Heartbeat <= 0 {
		opts.Heartbeat = d.Heartbeat
	}
	if opts.Poll <= 0 {
		opts.Poll = d.Poll
	}
	if opts.AckWait <= 0 {
		opts.AckWait = d.AckWait
	}
	if opts.IdleAfter <= 0 {
		opts.IdleAfter = d.IdleAfter
	}
	if opts.CursorSteps <= 0 {
		opts.CursorSteps = d.CursorSteps
	}
	if opts.CursorEvery <= 0 {
		opts.CursorEvery = d.CursorEvery
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	return &Publisher{
		opts: opts, wake: make(chan struct{}, 1), changed: make(chan struct{}, 1), answers: make(chan Answer, 1), online: make(chan struct{}, 1),
		presence: Presence{V: Version, Table: opts.Table, State: StatePlaying, Devices: []Device{}},
	}, nil
}

// Notify tells the publisher the journal has grown. It never blocks.
func (p *Publisher) Notify() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// SetDevices sets the devices' status sent with the table's presence.
func (p *Publisher) SetDevices(devs []Device) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if fmt.Sprint(devs) == fmt.Sprint(p.presence.Devices) {
		return
	}
	p.presence.Devices = append([]Device{}, devs...)
	p.signalLocked()
}

// SetDice sets how the table's dice camera fared, sent with the
// table's presence (nil: no camera).
func (p *Publisher) SetDice(h *DiceHealth) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if h.Equal(p.presence.Dice) {
		return
	}
	p.presence.Dice = h.clone()
	p.signalLocked()
}

// CallStaff raises (on) or closes (off) the table's call for staff.
func (p *Publisher) CallStaff(on bool) {
	p.mu.Lock()
	if on && p.presence.StaffCall.IsZero() {
		p.presence.StaffCall = p.opts.Now().UTC()
		p.presence.Answered = time.Time{}
		p.presence.State = StateStaff
	} else if !on {
		p.presence.StaffCall, p.presence.Answered = time.Time{}, time.Time{}
	}
	p.signalLocked()
	p.mu.Unlock()
	p.Notify() // the state is set again from the journal
}

// Presence is the table's presence as last sent or about to be.
func (p *Publisher) Presence() Presence {
	p.mu.Lock()
	defer p.mu.Unlock()
	q := p.presence
	q.Devices = append([]Device{}, q.Devices...)
	q.Dice = q.Dice.clone()
	return q
}

// Answers receives the floor's answers to the table's calls for staff;
// one not read before the next is replaced.
func (p *Publisher) Answers() <-chan Answer { return p.answers }

func (p *Publisher) signalLocked() {
	select {
	case p.changed <- struct{}{}:
	default:
	}
}

// Run connects to the café's server and sends the journal until ctx ends.
// It returns nil then; a lost server is waited for, never an error.
func (p *Publisher) Run(ctx context.Context) error {
	nc, err := nats.Connect(p.opts.URL,
		nats.Name("comptoir table "+p.opts.Table),
		nats.UserInfo(p.opts.User, p.opts.Password),
		nats.CustomInboxPrefix(InboxPrefix(p.opts.Table)),
		nats.RetryOnFailedConnect(true),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(250*time.Millisecond),
		nats.ReconnectJitter(100*time.Millisecond, time.Second),
		// Nothing is buffered while the server is away: the stream then
		// holds a prefix of the table's steps, and the publisher sends
		// the rest again from the cursor, in order.
		nats.ReconnectBufSize(-1),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil {
				p.opts.Logf("café: disconnected: %v", err)
			}
		}),
		nats.ConnectHandler(func(*nats.Conn) { p.signalOnline() }),
		nats.ReconnectHandler(func(*nats.Conn) {
			p.opts.Logf("café: reconnected")
			p.signalOnline()
		}),
	)
	if err != nil {
		return fmt.Errorf("café %s: %w", p.opts.URL, err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc, jetstream.WithPublishAsyncMaxPending(p.opts.Window), jetstream.WithPublishAsyncTimeout(p.opts.AckWait))
	if err != nil {
		return fmt.Errorf("café: %w", err)
	}
	sub, err := nc.Subscribe(AnswerSubject(p.opts.Table), func(m *nats.Msg) {
		var a Answer
		if json.Unmarshal(m.Data, &a) != nil || a.Table != p.opts.Table {
			return
		}
		p.mu.Lock()
		if !p.presence.StaffCall.IsZero() && a.Call.Equal(p.presence.StaffCall) {
			p.presence.Answered = a.At
			p.signalLocked()
		}
		p.mu.Unlock()
		select {
		case <-p.answers:
		default:
		}
		p.answers <- a
	})
	if err != nil {
		return fmt.Errorf("café: %w", err)
	}
	defer sub.Unsubscribe()

	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		p.heartbeat(ctx, nc)
	}()
	defer wg.Wait()
	defer p.saveCursor(true)

	backoff := 100 * time.Millisecond
	poll := time.NewTicker(p.opts.Poll)
	defer poll.Stop()
	full := true // read the journal's games again, not only the steps
	for {
		err := errOffline
		if nc.IsConnected() {
			err = p.sync(ctx, js, full)
		}
		full = true
		wait := p.opts.Poll
		if err != nil && ctx.Err() == nil {
			if err != errOffline {
				p.opts.Logf("café: %v (sent again in %v)", err, backoff)
			}
			wait, backoff = backoff, min(2*backoff, 5*time.Second)
			// After a failure only the clock or the server's return
			// bring the next try: a step played meanwhile waits in the
			// journal (trying at every step would read the game again
			// and again while the café's network is away).
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return nil
			case <-p.online:
			case <-t.C:
			}
			t.Stop()
			continue
		}
		backoff = 100 * time.Millisecond
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-p.wake:
			full = false // a step: the games as read will do
		case <-p.online:
		case <-poll.C:
		case <-t.C:
		}
		t.Stop()
	}
}

// errOffline is the try of a publisher whose connection is down.
var errOffline = errors.New("café: the server is away")

// signalOnline tells Run the connection is up again. It never blocks.
func (p *Publisher) signalOnline() {
	select {
	case p.online <- struct{}{}:
	default:
	}
}

// heartbeat sends the table's presence at once when it changes and every
// Heartbeat. A core publish never waits: while the server is away it
// fails at once and the next beat tries again.
func (p *Publisher) heartbeat(ctx context.Context, nc *nats.Conn) {
	t := time.NewTicker(p.opts.Heartbeat)
	defer t.Stop()
	for {
		pr := p.Presence()
		pr.At = p.opts.Now().UTC()
		if data, err := json.Marshal(pr); err == nil && nc.IsConnected() {
			nc.Publish(PresenceSubject(p.opts.Table), data)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-p.changed:
		}
	}
}

// sync sends every step after the cursor, moving it as JetStream
// acknowledges them. The journal's list of games is read again when full
// is set (the poll, a reconnection, after a failure) or when the games as
// last read have nothing new (a game may have ended or begun): a step
// played costs a read of the steps only.
func (p *Publisher) sync(ctx context.Context, js jetstream.JetStream, full bool) error {
	st := p.opts.Store
	if !p.curRead {
		cur, err := st.Cursor(p.opts.Table)
		if err != nil {
			return err
		}
		p.cur, p.saved, p.curRead = cur, cur, true
	}
	if full || p.infos == nil {
		infos, err := st.Games()
		if err != nil {
			return err
		}
		p.infos, full = infos, true
	}
	defer func() { p.setState(p.infos) }()
	defer p.saveCursor(false) // a cursor moved less than CursorEvery ago
	for {
		sent := 0
		for _, info := range p.infos {
			if info.ID < p.cur.Game || (info.ID == p.cur.Game && p.cur.Ended) {
				continue
			}
			if info.ID > p.cur.Game {
				p.cur = journal.Cursor{Game: info.ID}
			}
			n, err := p.syncGame(ctx, js, info, &p.cur)
			sent += n
			if err != nil {
				p.rep = nil // rebuilt from the cursor next time
				return err
			}
		}
		if sent > 0 || full {
			return nil
		}
		infos, err := st.Games()
		if err != nil {
			return err
		}
		p.infos, full = infos, true
	}
}

// saveCursor writes the cursor to the journal when it moved and
// CursorEvery has passed since the last write or it moved CursorSteps
// steps or to another game, or now when force is set.
func (p *Publisher) saveCursor(force bool) {
	if !p.curRead || p.cur == p.saved {
		return
	}
	now := p.opts.Now()
	far := p.cur.Game != p.saved.Game || p.cur.Seq-p.saved.Seq >= p.opts.CursorSteps
	if !force && !far && now.Sub(p.savedAt) < p.opts.CursorEvery {
		return
	}
	if err := p.opts.Store.SetCursor(p.opts.Table, p.cur); err != nil {
		p.opts.Logf("café: %v", err)
		return
	}
	p.saved, p.savedAt = p.cur, now
}

// outgoing is a message sent and not yet acknowledged.
type outgoing struct {
	seq int64
	ack jetstream.PubAckFuture
}

// syncGame sends a game's steps after the cursor, and its end once it
// ended; it returns how many messages it sent.
func (p *Publisher) syncGame(ctx context.Context, js jetstream.JetStream, info journal.Info, cur *journal.Cursor) (int, error) {
	st := p.opts.Store
	if p.rep == nil || p.rep.info.ID != info.ID || p.rep.seq != cur.Seq {
		rules, err := p.opts.Rules(info.Setup.Game)
		if err != nil {
			return 0, fmt.Errorf("game %d: %w", info.ID, err)
		}
		if p.rep, err = newReplayer(rules, info); err != nil {
			return 0, err
		}
		old, err := st.StepsAfter(rules, info.ID, 0)
		if err != nil {
			return 0, err
		}
		for _, s := range old {
			if s.Seq > cur.Seq {
				break
			}
			if _, err := p.rep.apply(s); err != nil {
				return 0, err
			}
			p.lastStep = s.At
		}
	}
	p.rep.info = info
	steps, err := st.StepsAfter(p.rep.rules, info.ID, cur.Seq)
	if err != nil {
		return 0, err
	}
	var inflight []outgoing
	// settle waits for the oldest acknowledgements and moves the cursor
	// past the ones received, in order.
	settle := func(keep int) error {
		defer p.saveCursor(false)
		for len(inflight) > keep {
			o := inflight[0]
			select {
			case <-o.ack.Ok():
			case err := <-o.ack.Err():
				return fmt.Errorf("step %s: %w", MsgID(p.opts.Table, info.ID, o.seq), err)
			case <-ctx.Done():
				return ctx.Err()
			}
			inflight = inflight[1:]
			if o.seq == 0 {
				cur.Ended = true
			} else {
				cur.Seq = o.seq
			}
		}
		return nil
	}
	send := func(s Step) error {
		data, err := json.Marshal(s)
		if err != nil {
			return err
		}
		m := nats.NewMsg(StepSubject(p.opts.Table))
		m.Data = data
		ack, err := js.PublishMsgAsync(m, jetstream.WithMsgID(MsgID(p.opts.Table, s.Game, s.Seq)), jetstream.WithExpectStream(Stream))
		if err != nil {
			return fmt.Errorf("step %s: %w", MsgID(p.opts.Table, s.Game, s.Seq), err)
		}
		inflight = append(inflight, outgoing{seq: s.Seq, ack: ack})
		if len(inflight) >= p.opts.Window {
			return settle(p.opts.Window / 2)
		}
		return nil
	}
	sent := 0
	for _, step := range steps {
		lines, err := p.rep.apply(step)
		if err != nil {
			return 0, err
		}
		p.lastStep = step.At
		msg, err := PublicStep(p.opts.Table, info, p.rep.st, step.Seq, step.At, lines)
		if err != nil {
			return 0, err
		}
		if err := send(msg); err != nil {
			settle(0)
			return sent, err
		}
		sent++
	}
	if !info.Finished.IsZero() && !cur.Ended {
		msg, err := endStep(p.opts.Table, info, p.rep.st)
		if err != nil {
			return 0, err
		}
		if err := send(msg); err != nil {
			settle(0)
			return sent, err
		}
		sent++
	}
	return sent, settle(0)
}

// setState sets the presence's state from the journal: finished when the
// last game has ended, idle after IdleAfter without a step, waiting for
// staff while a call is open.
func (p *Publisher) setState(infos []journal.Info) {
	p.mu.Lock()
	defer p.mu.Unlock()
	old := p.presence
	state := StatePlaying
	switch {
	case !p.presence.StaffCall.IsZero():
		state = StateStaff
	case len(infos) > 0 && !infos[len(infos)-1].Finished.IsZero():
		state = StateFinished
	case !p.lastStep.IsZero() && p.opts.Now().Sub(p.lastStep) > p.opts.IdleAfter:
		state = StateIdle
	}
	p.presence.State = state
	if p.rep != nil {
		p.presence.Game, p.presence.Seq = p.rep.info.ID, p.rep.seq
	}
	if n := len(infos); n > 0 && infos[n-1].ID > p.presence.Game {
		p.presence.Game, p.presence.Seq = infos[n-1].ID, 0
	}
	if n := len(infos); n > 0 {
		in := infos[n-1]
		p.presence.Name, p.presence.Variant, p.presence.Players, p.presence.Started = in.Setup.Game, in.Setup.Variant, in.Setup.Players, in.Started.UTC()
	}
	if old.State != p.presence.State || old.Seq != p.presence.Seq || old.Game != p.presence.Game {
		p.signalLocked()
	}
}
