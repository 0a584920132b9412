package hub

import (
	"fmt"
	"net"
	"slices"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"comptoir/cafe"
)

// TestCafeJoinsCentralAsLeaf: a café's server joins a central server as a
// leaf node; a table's steps published at the café reach a subscriber at
// the centre, and the café's own JetStream keeps working for its hub.
func TestCafeJoinsCentralAsLeaf(t *testing.T) {
	hubPW := NewPassword()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	leafPort := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	central, err := StartServer(ServerOpts{Dir: t.TempDir(), Host: "127.0.0.1", Port: -1, LeafPort: leafPort, HubPassword: hubPW, Name: "central", Domain: "central"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { central.Shutdown(); central.WaitForShutdown() }()
	tablePW := NewPassword()
	r := &rig{t: t, dir: t.TempDir(), creds: map[string]string{"genoa-1": tablePW}, hubPW: NewPassword()}
	srv, err := StartServer(ServerOpts{Dir: r.dir, Host: "127.0.0.1", Port: -1, Tables: r.creds, HubPassword: r.hubPW,
		Name: "cafe-rivoli", Domain: "cafe-rivoli", LeafRemotes: []string{fmt.Sprintf("nats-leaf://%s:%s@127.0.0.1:%d", HubUser, hubPW, leafPort)}})
	if err != nil {
		t.Fatal(err)
	}
	r.srv, r.port = srv, srv.Addr().(*net.TCPAddr).Port
	t.Cleanup(func() {
		for _, tb := range r.tables {
			tb.stopPub()
			tb.Close()
		}
		if r.stop != nil {
			r.stop()
		}
		srv.Shutdown()
		srv.WaitForShutdown()
	})
	deadline := time.Now().Add(20 * time.Second)
	for central.NumLeafNodes() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the café's server never joined the centre")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cn, err := nats.Connect(central.ClientURL(), nats.UserInfo(HubUser, hubPW))
	if err != nil {
		t.Fatal(err)
	}
	defer cn.Close()
	got := make(chan *nats.Msg, 1024)
	sub, err := cn.ChanSubscribe("comptoir.table.>", got)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	cn.Flush()
	// The centre's interest crosses the leaf link: the café's server has
	// it once its leaf connection lists the subscription (a sleep of
	// 200 ms stood here; under load the 30 steps could all be published
	// before it crossed, and the centre saw none).
	for !leafHasInterest(t, srv, "comptoir.table.>") {
		if time.Now().After(deadline) {
			t.Fatal("the centre's interest never reached the café's server")
		}
		time.Sleep(10 * time.Millisecond)
	}

	r.startHub()
	r.addTable("genoa-1", 0, 61)
	r.play(30)
	r.waitAll(60 * time.Second)
	select {
	case m := <-got:
		s, err := cafe.DecodeStep(m.Data)
		if err != nil || s.Table != "genoa-1" {
			t.Fatalf("the centre received %s: %v", m.Data, err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the centre never saw the café's steps")
	}
}

// leafHasInterest reports whether srv's leaf connections carry a
// subscription to subject from the other side.
func leafHasInterest(t *testing.T, srv *server.Server, subject string) bool {
	t.Helper()
	lz, err := srv.Leafz(&server.LeafzOptions{Subscriptions: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lz.Leafs {
		if slices.Contains(l.Subs, subject) {
			return true
		}
	}
	return false
}
