package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"comptoir/cafe"
	"comptoir/cafe/cafetest"
	"comptoir/engine"
	"comptoir/games"
)

// TestTablesReachTheFloor plays three tables (Genoa, Négoce, Dschunke)
// against a real embedded server and hub: every step and every finished
// play reaches the history once, the floor shows each table at its last
// step, and no published message holds a seat's secret.
func TestTablesReachTheFloor(t *testing.T) {
	r := newRig(t, "genoa-1", "negoce-1", "dschunke-1")
	r.startHub()
	capt := r.capture()
	r.addTable("genoa-1", 0, 1)
	r.addTable("negoce-1", 1, 2)
	r.addTable("dschunke-1", 2, 3)
	r.play(250)
	r.waitAll(60 * time.Second)
	st := r.hub.Stats()
	if st.Malformed != 0 {
		t.Errorf("malformed = %d, want 0", st.Malformed)
	}
	finished := 0
	for _, tb := range r.tables {
		finished += tb.Finished
	}
	if finished == 0 {
		t.Fatal("no game finished in 250 steps a table: the history is not tested")
	}
	// The capture is a connection of its own: it may receive the last
	// messages after the history holds them (a sleep of 100 ms stood
	// here, and the check then read fewer messages than were sent).
	steps, ends := r.journalled()
	checkNoSecrets(t, r, capt.wait(t, int(steps)+ends, 30*time.Second))
}

// wait returns the messages captured once they hold n distinct ones (by
// their message id), or fails t after within.
func (c *capture) wait(t *testing.T, n int, within time.Duration) [][]byte {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		c.mu.Lock()
		msgs := append([][]byte(nil), c.msgs...)
		c.mu.Unlock()
		ids := map[string]bool{}
		for _, m := range msgs {
			if s, err := cafe.DecodeStep(m); err == nil {
				ids[cafe.MsgID(s.Table, s.Game, s.Seq)] = true
			}
		}
		if len(ids) >= n {
			return msgs
		}
		if time.Now().After(deadline) {
			t.Fatalf("captured %d distinct messages, want %d", len(ids), n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// checkNoSecrets checks every published message with the café's
// independent leak oracle (package cafetest), fed with each table's
// journal: no word of a seat's view that the table's view does not show,
// no seat's money, no score before the game is over.
func checkNoSecrets(t *testing.T, r *rig, msgs [][]byte) {
	t.Helper()
	// One table's oracles per goroutine: replaying the journals with
	// every seat's view is the check's longest part.
	oracles := map[string]map[int64]*cafetest.Oracle{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	errs := make(chan error, len(r.tables))
	for _, tb := range r.tables {
		rules := tb.Game().Rules()
		g, err := games.Lookup(rules.Name())
		if err != nil {
			t.Fatal(err)
		}
		var vocab []string
		if g.Vocabulary != nil {
			vocab = g.Vocabulary()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			o, err := cafetest.FromJournal(tb.Store, func(string) (engine.Rules, error) { return rules, nil }, func(string) []string { return vocab })
			if err != nil {
				errs <- err
				return
			}
			mu.Lock()
			oracles[tb.Name] = o
			mu.Unlock()
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	checked := 0
	for _, m := range msgs {
		s, err := cafe.DecodeStep(m)
		if err != nil {
			t.Fatalf("published %s: %v", m, err)
		}
		o := oracles[s.Table][s.Game]
		if o == nil {
			t.Fatalf("message of a game no journal holds: %s", cafe.MsgID(s.Table, s.Game, s.Seq))
		}
		if leaks := o.Leaks(s); len(leaks) > 0 {
			t.Fatalf("%d leaks, the first: %s", len(leaks), leaks[0])
		}
		checked++
	}
	if checked < 700 {
		t.Fatalf("only %d messages checked", checked)
	}
	t.Logf("%d messages checked against every seat's secrets", checked)
}

// TestTableCannotPoseAsAnother: table-a's credentials may not publish
// under table-b's subject, nor its presence.
func TestTableCannotPoseAsAnother(t *testing.T) {
	r := newRig(t, "table-a", "table-b")
	errs := make(chan error, 4)
	nc, err := nats.Connect(r.url(), nats.UserInfo("table-a", r.creds["table-a"]), nats.CustomInboxPrefix(cafe.InboxPrefix("table-a")),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { errs <- err }))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	hnc, err := Connect(r.url(), HubUser, r.hubPW, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer hnc.Close()
	hjs, _ := jetstream.New(hnc)
	if _, err := Ensure(t.Context(), hjs); err != nil {
		t.Fatal(err)
	}
	js, _ := jetstream.New(nc)
	step := cafe.Step{V: cafe.Version, Table: "table-b", Game: 1, Seq: 1, At: time.Now(), Name: "genoa", Players: []string{"A"}}
	data, _ := json.Marshal(step)
	// No acknowledgement comes for a refused publish: a second is
	// enough to tell.
	pctx, cancel := context.WithTimeout(t.Context(), time.Second)
	defer cancel()
	if _, err := js.Publish(pctx, cafe.StepSubject("table-b"), data, jetstream.WithMsgID("x")); err == nil {
		t.Fatal("table-a published under table-b's subject")
	}
	select {
	case err := <-errs:
		if !strings.Contains(strings.ToLower(err.Error()), "permissions violation") {
			t.Fatalf("error %v, want a permissions violation", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no permissions violation reported")
	}
	nc.Publish(cafe.PresenceSubject("table-b"), []byte(`{}`))
	nc.Flush()
	// Its own subject is allowed.
	step.Table = "table-a"
	data, _ = json.Marshal(step)
	if _, err := js.Publish(t.Context(), cafe.StepSubject("table-a"), data, jetstream.WithMsgID("y")); err != nil {
		t.Fatalf("table-a on its own subject: %v", err)
	}
	s, err := hjs.Stream(t.Context(), cafe.Stream)
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if info.State.Msgs != 1 {
		t.Fatalf("stream holds %d messages, want 1 (table-a's own)", info.State.Msgs)
	}
	kv, _ := hjs.KeyValue(t.Context(), cafe.PresenceBucket)
	if _, err := kv.Get(t.Context(), "table-b"); !errors.Is(err, jetstream.ErrKeyNotFound) {
		t.Fatalf("table-b's presence after table-a wrote it: %v", err)
	}
}

// TestMalformedMessagesSkipped: garbage, an oversized message, a step
// naming another table than its subject are counted and skipped; the
// hub goes on with the good ones.
func TestMalformedMessagesSkipped(t *testing.T) {
	r := newRig(t, "table-a")
	r.startHub()
	nc, err := nats.Connect(r.url(), nats.UserInfo(HubUser, r.hubPW))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	wrong, _ := json.Marshal(cafe.Step{V: cafe.Version, Table: "table-b", Game: 1, Seq: 1, At: time.Now(), Name: "genoa", Players: []string{"A"}})
	bad := [][]byte{[]byte("not json"), []byte(`{"v":99}`), append([]byte(`{"v":1,"x":"`), append([]byte(strings.Repeat("x", cafe.MaxMessage)), '"', '}')...), wrong}
	deadline := time.Now().Add(10 * time.Second)
	for i, b := range bad {
		for {
			_, err := js.Publish(t.Context(), cafe.StepSubject("table-a"), b, jetstream.WithMsgID(fmt.Sprint("bad", i)))
			if err == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("publish %d: %v", i, err)
			}
			time.Sleep(50 * time.Millisecond) // the hub makes the stream
		}
	}
	r.addTable("table-a", 2, 7)
	r.play(50)
	r.waitAll(60 * time.Second)
	if got := r.hub.Stats().Malformed; got != int64(len(bad)) {
		t.Fatalf("malformed = %d, want %d", got, len(bad))
	}
}

// TestStaffCallAndPresence: a table's call for staff raises an alert,
// the floor's answer reaches the table; a device down raises an alert; a
// table whose publisher stops shows offline within seconds.
func TestStaffCallAndPresence(t *testing.T) {
	r := newRig(t, "genoa-1")
	r.startHub()
	tb := r.addTable("genoa-1", 0, 51)
	r.play(5)
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(8 * time.Second)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("never: %s", what)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	hasAlert := func(kind string) bool {
		r.hub.Floor.Tick(time.Now())
		for _, a := range r.hub.Floor.Snapshot().Alerts {
			if a.Table == "genoa-1" && a.Kind == kind {
				return true
			}
		}
		return false
	}
	tb.Pub.CallStaff(true)
	waitFor("a staff alert", func() bool { return hasAlert(AlertStaff) })
	if c, _ := r.hub.Floor.Detail("genoa-1"); c.State != cafe.StateStaff {
		t.Fatalf("state = %q, want %q", c.State, cafe.StateStaff)
	}
	if err := r.hub.Answer("genoa-1"); err != nil {
		t.Fatal(err)
	}
	waitFor("the answer at the table", func() bool { return !tb.Pub.Presence().Answered.IsZero() })
	tb.Pub.CallStaff(false)
	waitFor("the staff alert gone", func() bool { return !hasAlert(AlertStaff) })

	tb.Pub.SetDevices([]cafe.Device{{Name: "camera", OK: false, Detail: "unplugged"}})
	waitFor("a device alert", func() bool { return hasAlert(AlertDevice) })
	tb.Pub.SetDevices([]cafe.Device{{Name: "camera", OK: true}})
	waitFor("the device alert gone", func() bool { return !hasAlert(AlertDevice) })

	tb.stopPub()
	start := time.Now()
	waitFor("the table offline", func() bool { return hasAlert(AlertOffline) })
	t.Logf("offline after %v", time.Since(start).Round(10*time.Millisecond))
}
