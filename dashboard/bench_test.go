package dashboard

import (
	"bytes"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gorilla/websocket"

	"comptoir/engine"
	"comptoir/games/genoa"
	"comptoir/games/kit"
	"comptoir/table"
)

// countGame is a game for 2 to 8 seats where anyone may tick at any
// time, and each seat's view holds its own secret count of ticks: the
// benchmark's game, since Tally and Genoa stop at 4 and 5 players.
type countGame struct{}

type tick struct{}

func (tick) Name() string { return "tick" }

type ticked struct {
	By engine.Seat `json:"by"`
}

func (ticked) Name() string { return "ticked" }

var countCodec = engine.NewCodec("count", []engine.Command{tick{}}, []engine.Event{ticked{}})

// countKit is the count game's kit, with a renderer the benchmark never
// loads.
func countKit() kit.Game {
	return kit.Game{Name: "count", Rules: func() engine.Rules { return countGame{} },
		Web: fstest.MapFS{"count.js": {Data: []byte("// count")}}, BGStats: kit.BGStats{Name: "Count"}}
}

func (countGame) Name() string         { return "count" }
func (countGame) Codec() *engine.Codec { return countCodec }
func (countGame) Start(s engine.Setup) (engine.State, error) {
	return &countState{setup: s, ticks: make([]int, len(s.Players))}, nil
}

type countState struct {
	setup engine.Setup
	ticks []int
	total int
}

func (s *countState) Setup() engine.Setup { return s.setup }
func (s *countState) Decide(a engine.Action) ([]engine.Event, error) {
	if a.By < 0 || int(a.By) >= len(s.ticks) {
		return nil, engine.Refuse(engine.ErrNotYourTurn, "", "")
	}
	return []engine.Event{ticked{By: a.By}}, nil
}
func (s *countState) Apply(ev engine.Event) (engine.State, error) {
	n := &countState{setup: s.setup, ticks: append([]int(nil), s.ticks...), total: s.total + 1}
	n.ticks[ev.(ticked).By]++
	return n, nil
}
func (s *countState) Legal() []engine.Action {
	var out []engine.Action
	for i := range s.ticks {
		out = append(out, engine.Action{By: engine.Seat(i), Cmd: tick{}})
	}
	return out
}
func (s *countState) Waiting() []engine.Seat {
	out := make([]engine.Seat, len(s.ticks))
	for i := range out {
		out[i] = engine.Seat(i)
	}
	return out
}
func (s *countState) Result() engine.Result { return engine.Result{} }
func (s *countState) View(seat engine.Seat) any {
	v := map[string]int{"total": s.total}
	if seat >= 0 && int(seat) < len(s.ticks) {
		v["mine"] = s.ticks[seat]
	}
	return v
}

// BenchmarkBroadcast measures how long an accepted step takes to reach
// every connection: 6 seats and 100 spectators on loopback, each frame
// built for its seat. It reports the 50th and 99th percentiles.
func BenchmarkBroadcast(b *testing.B) {
	const seats, spectators = 6, 100
	players := make([]string, seats)
	for i := range players {
		players[i] = fmt.Sprintf("P%d", i+1)
	}
	sess := newMemSession(b, countGame{}, engine.Setup{Game: "count", Players: players})
	opts := DefaultOpts
	opts.SendBuffer = 64
	r := newRig(b, sess, opts)

	arrived := make(chan int64, 4096)
	var wg sync.WaitGroup
	var conns []*websocket.Conn
	for i := 0; i < seats+spectators; i++ {
		url := "ws" + strings.TrimPrefix(r.http.URL, "http") + "/ws"
		conn, _, err := websocket.DefaultDialer.Dial(url, http.Header{"Origin": {r.http.URL}})
		if err != nil {
			b.Fatal(err)
		}
		if i < seats {
			if err := conn.WriteJSON(Message{Type: msgHello, Token: r.join(i + 1)}); err != nil {
				b.Fatal(err)
			}
		}
		conns = append(conns, conn)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				_, data, err := conn.ReadMessage()
				if err != nil {
					return
				}
				if seq, ok := frameSeq(data); ok {
					arrived <- seq
				}
			}
		}()
	}
	defer func() {
		for _, c := range conns {
			c.Close()
		}
		wg.Wait()
	}()
	// Let the hellos and first frames settle.
	time.Sleep(200 * time.Millisecond)
	for len(arrived) > 0 {
		<-arrived
	}

	var lat []time.Duration
	ctx := b.Context()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		if err := sess.Submit(ctx, engine.Action{By: engine.Seat(i % seats), Cmd: tick{}}); err != nil {
			b.Fatal(err)
		}
		_, seq := sess.current()
		got := 0
		for got < seats+spectators {
			if s := <-arrived; s == seq {
				got++
			}
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	pct := func(p float64) float64 {
		return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.5), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}

// frameSeq reads the seq of a state frame without decoding it all.
func frameSeq(data []byte) (int64, bool) {
	const prefix = `{"type":"state","seq":`
	if !bytes.HasPrefix(data, []byte(prefix)) {
		return 0, false
	}
	rest := data[len(prefix):]
	end := bytes.IndexByte(rest, ',')
	if end < 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(string(rest[:end]), 10, 64)
	return n, err == nil
}

// BenchmarkFramesGenoa measures the hub's work for one update of a
// five-player Genoa game in its first turn: the secrets, the legal
// actions, and the frames of the table, the five seats and the staff.
func BenchmarkFramesGenoa(b *testing.B) {
	sess := newMemSession(b, genoa.New(), engine.Setup{Game: "genoa", Variant: "filosofia-2008", Players: []string{"Anna", "Bruno", "Chloé", "Dario", "Eva"}})
	ctx := b.Context()
	// Deal the hands and roll: the merchant's turn, with its many choices.
	for {
		st, _ := sess.current()
		if v := st.View(engine.NoSeat).(genoa.View); v.Phase == "move" {
			break
		}
		if err := sess.Submit(ctx, st.Legal()[0]); err != nil {
			b.Fatal(err)
		}
	}
	s, err := New(sess, DefaultOpts)
	if err != nil {
		b.Fatal(err)
	}
	st, seq := sess.current()
	u := &Update{Update: table.Update{Seq: seq, State: st, Rules: sess.rules, Codec: sess.rules.Codec()}}
	auds := []audience{tableAudience, {role: roleStaff, seat: engine.NoSeat}}
	for i := 0; i < 5; i++ {
		auds = append(auds, audience{role: roleSeat, seat: engine.Seat(i)})
	}
	size := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		vs := viewsOf(u.State)
		legal := s.legalOf(u.Codec, u.State)
		size = 0
		for _, a := range auds {
			size += len(s.frame(u, vs, legal, s.seatActions(u.State), a))
		}
	}
	b.ReportMetric(float64(size)/float64(len(auds)), "bytes/frame")
}
