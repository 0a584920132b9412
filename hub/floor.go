package hub

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"sync"
	"time"

	"comptoir/cafe"
	"comptoir/engine"
)

// Card is one table on the floor.
type Card struct {
	Table   string   `json:"table"`
	Name    string   `json:"name"`
	Variant string   `json:"variant"`
	Players []string `json:"players"`
	Game    int64    `json:"game"`
	Seq     int64    `json:"seq"`
	Round   int      `json:"round"`
	Waiting []string `json:"waiting"`
	// At is the time of the last step; Started the game's start.
	At      time.Time `json:"at"`
	Started time.Time `json:"started"`
	// Received is when the hub received the last step.
	Received time.Time     `json:"received"`
	State    string        `json:"state"`
	Online   bool          `json:"online"`
	LastSeen time.Time     `json:"lastSeen"`
	Devices  []cafe.Device `json:"devices"`
	// Dice is how the table's dice camera fared over its last throws;
	// nil for a table without one.
	Dice      *cafe.DiceHealth `json:"dice,omitempty"`
	StaffCall time.Time        `json:"staffCall,omitzero"`
	Answered  time.Time        `json:"answered,omitzero"`
	Outcome   string           `json:"outcome,omitempty"`
	Result    *engine.Result   `json:"result,omitempty"`
	// Log is the last lines of the game's log; View the table's public
	// view (only in a table's detail, not in the floor's updates).
	Log  []cafe.Line     `json:"log"`
	View json.RawMessage `json:"view,omitempty"`
	// Median is the café's median length for this game and player count,
	// 0 when too few plays are known.
	Median time.Duration `json:"median"`
}

// Alert is something the staff should see.
type Alert struct {
	ID     string    `json:"id"`
	Table  string    `json:"table"`
	Kind   string    `json:"kind"` // staff, long, device, offline
	Since  time.Time `json:"since"`
	Detail string    `json:"detail,omitempty"`
	Acked  bool      `json:"acked"`
}

// Alert kinds.
const (
	AlertStaff   = "staff"
	AlertLong    = "long"
	AlertDevice  = "device"
	AlertOffline = "offline"
)

// logKept is how many log lines a card keeps.
const logKept = 40

// Floor is the live floor: a card per table, the alerts, the
// subscribers that receive every change as a JSON frame.
//
// # Concurrency
//
// A mutex guards everything; subscribers' channels are buffered and a
// subscriber that falls behind is dropped (its channel closed), never
// waited for.
type Floor struct {
	mu      sync.Mutex
	cards   map[string]*Card         // guarded by mu
	acked   map[string]bool          // alert ids acknowledged, guarded by mu
	medians map[string]time.Duration // guarded by mu
	subs    map[*Sub]struct{}        // guarded by mu
	alerts  []Alert                  // guarded by mu, the last computed
	// downs is when each device down was first seen down, by table and
	// device name, guarded by mu: a device alert is dated by it, so its
	// id stays while the device stays down, whatever else the card learns.
	downs map[string]map[string]time.Time
	// LongFactor times the median makes a game run long.
	longFactor   float64
	offlineAfter time.Duration
}

// NewFloor returns an empty floor.
func NewFloor(offlineAfter time.Duration, longFactor float64) *Floor {
	return &Floor{cards: map[string]*Card{}, acked: map[string]bool{}, medians: map[string]time.Duration{},
		subs: map[*Sub]struct{}{}, downs: map[string]map[string]time.Time{}, offlineAfter: offlineAfter, longFactor: longFactor}
}

// Frame is a message to the floor page.
type Frame struct {
	Type   string  `json:"type"` // snapshot, update
	Cards  []*Card `json:"cards,omitempty"`
	Alerts []Alert `json:"alerts,omitempty"`
	// AlertsChanged is set on an update that brings the alerts.
	AlertsChanged bool `json:"alertsChanged,omitempty"`
}

func (f *Floor) cardLocked(table string) *Card {
	c := f.cards[table]
	if c == nil {
		c = &Card{Table: table, State: cafe.StatePlaying, Devices: []cafe.Device{}, Log: []cafe.Line{}, Waiting: []string{}}
		f.cards[table] = c
	}
	return c
}

// after reports whether step (game, seq) comes after the card's.
func after(c *Card, s cafe.Step) bool {
	if s.Game != c.Game {
		return s.Game > c.Game
	}
	if c.Outcome != "" {
		return false
	}
	return s.End || s.Seq > c.Seq
}

// Step applies a step to its table's card; an old step (one resent, or
// received after a later one) leaves the card as it is.
func (f *Floor) Step(s cafe.Step, now time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.cardLocked(s.Table)
	if !after(c, s) {
		return
	}
	if s.Game != c.Game {
		c.Log = c.Log[:0]
		c.Outcome, c.Result = "", nil
	}
	c.Name, c.Variant, c.Players, c.Game, c.Started = s.Name, s.Variant, s.Players, s.Game, s.Started
	c.Round, c.Waiting, c.View, c.Received = s.Round, s.Waiting, s.View, now
	if s.End {
		c.Outcome, c.Result, c.State = s.Outcome, s.Result, cafe.StateFinished
		c.At = s.At
	} else {
		c.Seq, c.At = s.Seq, s.At
		if s.Result != nil {
			c.Result = s.Result
		}
	}
	c.Log = append(c.Log, s.Log...)
	if len(c.Log) > logKept {
		c.Log = append([]cafe.Line(nil), c.Log[len(c.Log)-logKept:]...)
	}
	c.Median = f.medians[medianKey(c.Name, len(c.Players))]
	f.cardChangedLocked(c)
}

// DeviceDown is a change of a device's first-seen-down time: Since is
// when it was first seen down, zero when it is up again (or no longer
// reported).
type DeviceDown struct {
	Table, Device string
	Since         time.Time
}

// Presence applies a table's presence, seen at seen, and returns the
// changes of its devices' first-seen-down times, for the history to keep
// them across a restart. The alerts are made again only when the
// presence changed what they are made of (a heartbeat that changes
// nothing costs no walk over every table).
func (f *Floor) Presence(p cafe.Presence, seen time.Time) []DeviceDown {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.cardLocked(p.Table)
	if seen.Before(c.LastSeen) {
		return nil
	}
	changes := f.downsLocked(p, seen)
	was := c.shown()
	c.LastSeen, c.Online = seen, true
	if p.Name != "" && (p.Game > c.Game || c.Name == "") {
		// A game with no step yet: shown from the table's presence.
		c.Name, c.Variant, c.Players, c.Started = p.Name, p.Variant, p.Players, p.Started
		if p.Game > c.Game {
			c.Game, c.Seq, c.Round, c.Outcome, c.Result, c.View = p.Game, 0, 0, "", nil, nil
			c.Log = c.Log[:0]
			c.Waiting = []string{}
		}
	}
	c.State, c.StaffCall = p.State, p.StaffCall
	if !slices.Equal(c.Devices, p.Devices) {
		c.Devices = p.Devices
	}
	c.Dice = p.Dice
	if !p.Answered.IsZero() || p.StaffCall.IsZero() {
		c.Answered = p.Answered
	}
	if c.Outcome != "" && c.Game >= p.Game && p.State != cafe.StateStaff {
		c.State = cafe.StateFinished
	}
	if !c.shown().equal(was) || len(changes) > 0 {
		f.cardChangedLocked(c)
		f.alertsLocked(seen)
	}
	return changes
}

// downsLocked dates the devices p reports down that were not down
// before, at seen, and forgets those up again.
func (f *Floor) downsLocked(p cafe.Presence, seen time.Time) []DeviceDown {
	var changes []DeviceDown
	was := f.downs[p.Table]
	now := map[string]time.Time{}
	for _, d := range p.Devices {
		if d.OK {
			continue
		}
		since, ok := was[d.Name]
		if !ok {
			since = seen
			changes = append(changes, DeviceDown{p.Table, d.Name, since})
		}
		now[d.Name] = since
	}
	for name := range was {
		if _, ok := now[name]; !ok {
			changes = append(changes, DeviceDown{Table: p.Table, Device: name})
		}
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i].Device < changes[j].Device })
	if len(now) == 0 {
		delete(f.downs, p.Table)
	} else {
		f.downs[p.Table] = now
	}
	return changes
}

// SetDowns sets when the devices down were first seen down (from the
// history), by table and device name.
func (f *Floor) SetDowns(downs map[string]map[string]time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for table, devs := range downs {
		f.downs[table] = maps.Clone(devs)
	}
}

// shownState is what a presence may change of a card's look and alerts.
type shownState struct {
	online              bool
	state, name         string
	game                int64
	staffCall, answered time.Time
	devices             []cafe.Device
	dice                *cafe.DiceHealth
}

func (c *Card) shown() shownState {
	return shownState{c.Online, c.State, c.Name, c.Game, c.StaffCall, c.Answered, c.Devices, c.Dice}
}

func (a shownState) equal(b shownState) bool {
	return a.online == b.online && a.state == b.state && a.name == b.name && a.game == b.game &&
		a.staffCall.Equal(b.staffCall) && a.answered.Equal(b.answered) && slices.Equal(a.devices, b.devices) &&
		a.dice.Equal(b.dice)
}

// Answer marks a table's call for staff answered; it returns the call
// answered, zero if the table has none open.
func (f *Floor) Answer(table string, now time.Time) time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.cards[table]
	if c == nil || c.StaffCall.IsZero() {
		return time.Time{}
	}
	c.Answered = now
	f.cardChangedLocked(c)
	return c.StaffCall
}

// Ack acknowledges an alert.
func (f *Floor) Ack(id string, now time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.acked[id] = true
	f.alertsLocked(now)
}

// SetAcked sets the alerts acknowledged before (from the history).
func (f *Floor) SetAcked(ids map[string]bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for id := range ids {
		f.acked[id] = true
	}
}

// SetMedians sets the café's median lengths (from the history).
func (f *Floor) SetMedians(m map[string]time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.medians = m
	for _, c := range f.cards {
		c.Median = m[medianKey(c.Name, len(c.Players))]
	}
}

// Tick marks silent tables offline and recomputes the alerts.
func (f *Floor) Tick(now time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.cards {
		if c.Online && now.Sub(c.LastSeen) > f.offlineAfter {
			c.Online = false
			f.cardChangedLocked(c)
		}
	}
	f.alertsLocked(now)
}

func (f *Floor) alertsLocked(now time.Time) {
	var out []Alert
	add := func(c *Card, kind, what string, since time.Time, detail string) {
		id := fmt.Sprintf("%s/%s/%d", c.Table, kind, since.Unix())
		if what != "" {
			id = fmt.Sprintf("%s/%s/%s/%d", c.Table, kind, what, since.Unix())
		}
		out = append(out, Alert{ID: id, Table: c.Table, Kind: kind, Since: since, Detail: detail, Acked: f.acked[id]})
	}
	for _, c := range f.cards {
		if !c.Online && !c.LastSeen.IsZero() {
			add(c, AlertOffline, "", c.LastSeen, "")
			continue
		}
		if !c.StaffCall.IsZero() {
			detail := ""
			if !c.Answered.IsZero() {
				detail = "answered"
			}
			add(c, AlertStaff, "", c.StaffCall, detail)
		}
		for _, d := range c.Devices {
			if !d.OK {
				add(c, AlertDevice, d.Name, f.downSinceLocked(c, d), d.Name+": "+d.Detail)
			}
		}
		if c.Median > 0 && c.Outcome == "" && !c.Started.IsZero() && now.Sub(c.Started) > time.Duration(float64(c.Median)*f.longFactor) {
			add(c, AlertLong, "", c.Started, c.Median.Round(time.Minute).String())
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Since.Equal(out[j].Since) {
			return out[i].Since.Before(out[j].Since)
		}
		return out[i].ID < out[j].ID
	})
	if !slices.EqualFunc(out, f.alerts, func(a, b Alert) bool {
		return a.ID == b.ID && a.Kind == b.Kind && a.Detail == b.Detail && a.Acked == b.Acked && a.Since.Equal(b.Since)
	}) {
		f.alerts = out
		f.alertsChangedLocked()
	}
}

func nonNil(a []Alert) []Alert {
	if a == nil {
		return []Alert{}
	}
	return a
}

// downSinceLocked is the time an alert for a device down is dated: when
// the floor first saw it down (kept in the history across restarts), so
// the alert keeps its id, and its acknowledgement, while the device
// stays down, whether the table's steps came before its status or after.
func (f *Floor) downSinceLocked(c *Card, d cafe.Device) time.Time {
	if since, ok := f.downs[c.Table][d.Name]; ok {
		return since
	}
	return c.LastSeen // not reached: every device down is dated
}

// brief is a copy of the card for the floor's updates: the last few log
// lines, no view.
func (c *Card) brief() *Card {
	b := *c
	b.View = nil
	if n := len(b.Log); n > 3 {
		b.Log = b.Log[n-3:]
	}
	b.Log = append([]cafe.Line{}, b.Log...)
	b.Devices = append([]cafe.Device{}, b.Devices...)
	return &b
}

// Detail is a table's whole card, its view and log, for its page.
func (f *Floor) Detail(table string) (*Card, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c, ok := f.cards[table]
	if !ok {
		return nil, false
	}
	d := *c
	d.Log = append([]cafe.Line{}, c.Log...)
	return &d, true
}

// Snapshot is every card and the alerts.
func (f *Floor) Snapshot() Frame {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.snapshotLocked()
}

func (f *Floor) snapshotLocked() Frame {
	fr := Frame{Type: "snapshot", Cards: []*Card{}, Alerts: nonNil(f.alerts)}
	for _, c := range f.cards {
		fr.Cards = append(fr.Cards, c.brief())
	}
	sort.Slice(fr.Cards, func(i, j int) bool { return fr.Cards[i].Table < fr.Cards[j].Table })
	return fr
}

// Sub is a floor page's subscription: the changes since it last took
// them, coalesced (a table's latest card only), so a page that falls
// behind gets the floor as it is now, never a backlog, and is never
// dropped.
type Sub struct {
	f     *Floor
	ready chan struct{} // a pending change, capacity 1

	// Guarded by f.mu.
	snapshot bool
	cards    map[string]*Card
	order    []string
	alerts   bool
}

// Subscribe returns a subscription whose first frame is the snapshot.
func (f *Floor) Subscribe() *Sub {
	s := &Sub{f: f, ready: make(chan struct{}, 1), snapshot: true, cards: map[string]*Card{}}
	s.ready <- struct{}{}
	f.mu.Lock()
	f.subs[s] = struct{}{}
	f.mu.Unlock()
	return s
}

// Ready receives when changes wait to be taken with Next.
func (s *Sub) Ready() <-chan struct{} { return s.ready }

// Next takes the pending changes as one frame, nil if none: the
// snapshot first, then "update" frames with the changed cards and, when
// they changed, the alerts.
func (s *Sub) Next() []byte {
	s.f.mu.Lock()
	defer s.f.mu.Unlock()
	var fr Frame
	switch {
	case s.snapshot:
		fr = s.f.snapshotLocked()
	case len(s.order) > 0 || s.alerts:
		fr = Frame{Type: "update", Cards: make([]*Card, 0, len(s.order))}
		for _, t := range s.order {
			fr.Cards = append(fr.Cards, s.cards[t])
		}
		if s.alerts {
			fr.Alerts, fr.AlertsChanged = nonNil(s.f.alerts), true
		}
	default:
		return nil
	}
	s.snapshot, s.alerts = false, false
	clear(s.cards)
	s.order = s.order[:0]
	data, _ := json.Marshal(fr)
	return data
}

// Close ends the subscription.
func (s *Sub) Close() {
	s.f.mu.Lock()
	defer s.f.mu.Unlock()
	delete(s.f.subs, s)
}

func (f *Floor) cardChangedLocked(c *Card) {
	if len(f.subs) == 0 {
		return
	}
	b := c.brief()
	for s := range f.subs {
		if _, ok := s.cards[c.Table]; !ok {
			s.order = append(s.order, c.Table)
		}
		s.cards[c.Table] = b
		s.signal()
	}
}

func (f *Floor) alertsChangedLocked() {
	for s := range f.subs {
		s.alerts = true
		s.signal()
	}
}

func (s *Sub) signal() {
	select {
	case s.ready <- struct{}{}:
	default:
	}
}
