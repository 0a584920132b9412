package dashboard

import (
	"testing"

	"comptoir/engine"
	"comptoir/games/dschunke"
	"comptoir/games/negoce"
	"comptoir/table"
)

// benchFrames measures the hub's work for one update of a game played by
// its first legal actions until ready says so: the secrets, the legal
// actions, and the frames of the table, every seat and the staff.
func benchFrames(b *testing.B, rules engine.Rules, setup engine.Setup, ready func(engine.State) bool) {
	sess := newMemSession(b, rules, setup)
	for steps := 0; ; steps++ {
		st, _ := sess.current()
		if ready(st) {
			break
		}
		if steps > 2000 {
			b.Fatal("the game never reached the benchmarked position")
		}
		if err := sess.Submit(b.Context(), st.Legal()[0]); err != nil {
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
	for i := range setup.Players {
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

// BenchmarkFramesNegoce: a Négoce 2 negotiation (four buyers' offers
// listed, every hand secret).
func BenchmarkFramesNegoce(b *testing.B) {
	benchFrames(b, negoce.New(), engine.Setup{Game: negoce.Name, Players: []string{"Anna", "Bruno", "Chloé", "David"}}, func(st engine.State) bool {
		return st.View(engine.NoSeat).(negoce.View).Phase == "negotiate"
	})
}

// BenchmarkFramesDschunke: a four-player Dschunke bidding (every hand
// and bid form secret).
func BenchmarkFramesDschunke(b *testing.B) {
	benchFrames(b, dschunke.New(), engine.Setup{Game: dschunke.Name, Players: []string{"Anna", "Bruno", "Chloé", "David"}}, func(st engine.State) bool {
		return st.(*dschunke.State).AwaitsBids()
	})
}
