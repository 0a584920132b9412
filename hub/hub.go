package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"comptoir/cafe"
)

// Opts configure a Hub.
type Opts struct {
	// Conn is the hub's connection to the café's NATS server.
	Conn *nats.Conn
	// History is the hub's SQLite history.
	History *History
	// Durable is the consumer's name on the stream.
	Durable string
	// OfflineAfter is how long a silent table stays online.
	OfflineAfter time.Duration
	// AckWait is how long a step delivered to the hub and not
	// acknowledged waits before the stream delivers it again: after a hub
	// died, the steps it held come back this long after.
	AckWait time.Duration
	// LongFactor times the café's median length makes a game run long.
	LongFactor float64
	// Logf logs; nil: silent.
	Logf func(string, ...any)
	// Now is the clock; nil: time.Now.
	Now func() time.Time
}

// DefaultOpts are the hub's defaults; Conn and History must be set.
var DefaultOpts = Opts{Durable: "hub", OfflineAfter: 6 * time.Second, AckWait: 30 * time.Second, LongFactor: 1.5}

// Hub consumes the tables' steps and presence into the floor and the
// history.
type Hub struct {
	opts  Opts
	Floor *Floor
	batch chan received // from the consumer to record
	quit  chan struct{} // closed when record returns

	// Counters, read with Stats.
	received, recorded, duplicates, malformed atomic.Int64
}

// Stats are the hub's counters.
type Stats struct {
	Received   int64 `json:"received"`
	Recorded   int64 `json:"recorded"`
	Duplicates int64 `json:"duplicates"`
	Malformed  int64 `json:"malformed"`
}

// New returns a hub.
func New(opts Opts) (*Hub, error) {
	if opts.Conn == nil || opts.History == nil {
		return nil, errors.New("hub: Opts.Conn and Opts.History are required")
	}
	d := DefaultOpts
	if opts.Durable == "" {
		opts.Durable = d.Durable
	}
	if opts.OfflineAfter <= 0 {
		opts.OfflineAfter = d.OfflineAfter
	}
	if opts.LongFactor <= 0 {
		opts.LongFactor = d.LongFactor
	}
	if opts.AckWait <= 0 {
		opts.AckWait = d.AckWait
	}
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	h := &Hub{opts: opts, Floor: NewFloor(opts.OfflineAfter, opts.LongFactor), batch: make(chan received, 2*maxBatch), quit: make(chan struct{})}
	if m, err := opts.History.Medians(); err == nil {
		h.Floor.SetMedians(m)
	}
	acks, err := opts.History.Acks(opts.Now().Add(-AckKept))
	if err != nil {
		return nil, err
	}
	h.Floor.SetAcked(acks)
	downs, err := opts.History.Downs(opts.Now().Add(-AckKept))
	if err != nil {
		return nil, err
	}
	h.Floor.SetDowns(downs)
	return h, nil
}

// Stats returns the counters.
func (h *Hub) Stats() Stats {
	return Stats{Received: h.received.Load(), Recorded: h.recorded.Load(), Duplicates: h.duplicates.Load(), Malformed: h.malformed.Load()}
}

// Run consumes until ctx ends; call it once. The stream, the bucket and
// the consumer are made if missing; a server away is waited for.
func (h *Hub) Run(ctx context.Context) error {
	js, err := jetstream.New(h.opts.Conn)
	if err != nil {
		return err
	}
	var kv jetstream.KeyValue
	for {
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		kv, err = Ensure(cctx, js)
		cancel()
		if err == nil {
			break
		}
		h.opts.Logf("%v (trying again)", err)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(500 * time.Millisecond):
		}
	}
	var cons jetstream.Consumer
	for {
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		cons, err = js.CreateOrUpdateConsumer(cctx, cafe.Stream, jetstream.ConsumerConfig{
			Durable: h.opts.Durable, AckPolicy: jetstream.AckExplicitPolicy, AckWait: h.opts.AckWait,
			MaxAckPending: 8192, DeliverPolicy: jetstream.DeliverAllPolicy, MaxDeliver: -1,
		})
		cancel()
		if err == nil {
			break
		}
		h.opts.Logf("hub: consumer: %v (trying again)", err)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(500 * time.Millisecond):
		}
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	rctx, stopRecord := context.WithCancel(context.Background())
	defer stopRecord() // after the consumer stopped: see the defers below
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(h.quit)
		h.record(rctx)
	}()
	cc, err := cons.Consume(h.handle, jetstream.PullMaxMessages(1024), jetstream.PullExpiry(5*time.Second), jetstream.ConsumeErrHandler(func(_ jetstream.ConsumeContext, err error) {
		if !errors.Is(err, jetstream.ErrNoHeartbeat) {
			h.opts.Logf("hub: consume: %v", err)
		}
	}))
	if err != nil {
		return fmt.Errorf("hub: consume: %w", err)
	}
	defer cc.Stop()

	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	wg.Add(1)
	go func() {
		defer wg.Done()
		h.watchPresence(wctx, kv)
	}()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	medians := time.NewTicker(time.Minute)
	defer medians.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
			h.Floor.Tick(h.opts.Now())
		case <-medians.C:
			if m, err := h.opts.History.Medians(); err == nil {
				h.Floor.SetMedians(m)
			}
		}
	}
}

// handle records one step: malformed or oversized messages, or a step
// whose table is not its subject's, are counted, logged and dropped.
func (h *Hub) handle(m jetstream.Msg) {
	h.received.Add(1)
	subj := strings.Split(m.Subject(), ".")
	s, err := cafe.DecodeStep(m.Data())
	if err == nil && (len(subj) != 4 || subj[2] != s.Table) {
		err = fmt.Errorf("%w: table %q on subject %s", cafe.ErrMalformed, s.Table, m.Subject())
	}
	if err != nil {
		h.malformed.Add(1)
		h.opts.Logf("hub: skipped a message on %s: %v", m.Subject(), err)
		m.Term()
		return
	}
	select {
	case h.batch <- received{s, m}:
	case <-h.quit:
		// The hub stops: not acknowledged, the step comes again.
	}
}

// received is a step waiting to be recorded, and its message to ack.
type received struct {
	step cafe.Step
	msg  jetstream.Msg
}

// maxBatch is how many steps one history transaction records at most.
const maxBatch = 512

// record records the steps received, many to a transaction, then shows
// them on the floor and acknowledges them, until ctx ends; steps not
// acknowledged come again after a restart.
func (h *Hub) record(ctx context.Context) {
	var batch []received
	for {
		batch = batch[:0]
		select {
		case <-ctx.Done():
			return
		case r := <-h.batch:
			batch = append(batch, r)
		}
	more:
		for len(batch) < maxBatch {
			select {
			case r := <-h.batch:
				batch = append(batch, r)
			default:
				break more
			}
		}
		steps := make([]cafe.Step, len(batch))
		for i, r := range batch {
			steps[i] = r.step
		}
		fresh, err := h.opts.History.RecordAll(steps)
		if err != nil {
			h.opts.Logf("hub: %v (the steps come again)", err)
			for _, r := range batch {
				r.msg.Nak()
			}
			continue
		}
		now, ended := h.opts.Now(), false
		for i, r := range batch {
			if fresh[i] {
				h.recorded.Add(1)
			} else {
				h.duplicates.Add(1)
			}
			h.Floor.Step(r.step, now)
			ended = ended || r.step.End
			r.msg.Ack()
		}
		if ended {
			if med, err := h.opts.History.Medians(); err == nil {
				h.Floor.SetMedians(med)
			}
		}
	}
}

// watchPresence follows the presence bucket, watching it again when the
// watch ends (a server restarted).
func (h *Hub) watchPresence(ctx context.Context, kv jetstream.KeyValue) {
	for ctx.Err() == nil {
		w, err := kv.WatchAll(ctx)
		if err != nil {
			h.opts.Logf("hub: presence: %v", err)
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Second):
			}
			continue
		}
		for e := range w.Updates() {
			if e == nil || e.Operation() != jetstream.KeyValuePut {
				continue
			}
			p, err := cafe.DecodePresence(e.Value())
			if err != nil || p.Table != e.Key() {
				h.malformed.Add(1)
				h.opts.Logf("hub: skipped the presence of %q: %v", e.Key(), err)
				continue
			}
			seen := e.Created()
			if now := h.opts.Now(); seen.After(now) {
				seen = now
			}
			if changes := h.Floor.Presence(p, seen); len(changes) > 0 {
				if err := h.opts.History.RecordDowns(changes); err != nil {
					h.opts.Logf("hub: %v", err)
				}
			}
		}
		w.Stop()
	}
}

// Ack acknowledges an alert on the floor and in the history, so it stays
// acknowledged after a restart.
func (h *Hub) Ack(id string) error {
	now := h.opts.Now()
	if err := h.opts.History.RecordAck(id, now); err != nil {
		return err
	}
	h.Floor.Ack(id, now)
	return nil
}

// Answer answers table's call for staff: "on my way".
func (h *Hub) Answer(table string) error {
	now := h.opts.Now().UTC()
	call := h.Floor.Answer(table, now)
	if call.IsZero() {
		return fmt.Errorf("hub: table %q has no call for staff open", table)
	}
	data, _ := json.Marshal(cafe.Answer{V: cafe.Version, Table: table, Call: call, At: now})
	return h.opts.Conn.Publish(cafe.AnswerSubject(table), data)
}
