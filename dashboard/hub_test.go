package dashboard

import (
	"context"
	"testing"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/table"
)

// TestSlowClientClosed: a connection that does not read is closed once its
// queue is full; the hub never waits for it.
func TestSlowClientClosed(t *testing.T) {
	checkLeaks(t)
	sess := newMemSession(t, enginetest.Rules{}, engine.Setup{Game: "tally", Players: []string{"Anna", "Bruno"}})
	opts := DefaultOpts
	opts.SendBuffer = 2
	s, err := New(sess, opts)
	if err != nil {
		t.Fatal(err)
	}
	updates := make(chan Update)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { s.run(ctx, updates); close(done) }()
	slow := &client{send: make(chan []byte, opts.SendBuffer), replies: make(chan []byte, replyBuffer)}
	s.register <- slow
	st, _ := sess.current()
	for seq := int64(1); seq <= 5; seq++ {
		updates <- Update{Update: table.Update{Seq: seq, State: st, Rules: sess.rules, Codec: sess.rules.Codec()}} // never blocks on the slow client
	}
	n := 0
	for range slow.send {
		n++
	}
	if n != opts.SendBuffer {
		t.Errorf("the slow client got %d frames before it was closed, want %d (its queue)", n, opts.SendBuffer)
	}
	cancel()
	<-done
}
