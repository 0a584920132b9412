package dashboard

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/games"
	"comptoir/games/tally"
)

// TestNoFrameLeaksSecrets plays whole games of every game in the list
// (and Tally), every variant, from fixed seeds (random legal moves, with
// illegal ones from other seats mixed in, so refusals) while a phone per
// seat and the table's screen are connected, records every frame each one
// receives, and checks that no frame holds another seat's secret: the
// view is exactly the engine's view for that seat, no other seat's secret
// word (a card id) held at any time so far and never public appears
// anywhere in the frame, no other seat's secret money figure appears in
// its texts (log, refusal, proposals, announcements), no money but the
// seat's own is in its view, and the actions listed are the seat's own.
// The secrets are found by an independent scan of the views (oracle), not
// by the dashboard.
func TestNoFrameLeaksSecrets(t *testing.T) {
	type game struct {
		name  string
		rules engine.Rules
		setup engine.Setup
		vocab []string
		seed  int64
	}
	var tests []game
	for _, k := range append(games.All(), tally.Game()) {
		rules := k.Rules()
		variants, counts := []string{""}, []int{3}
		if c, ok := rules.(engine.Catalog); ok {
			if len(c.Variants()) > 0 {
				variants = c.Variants()
			}
			counts = c.PlayerCounts()
		}
		var vocab []string
		if k.Vocabulary != nil {
			vocab = k.Vocabulary()
		}
		for j, variant := range variants {
			n := counts[j%len(counts)] // the fewest players first: quicker
			setup := engine.Setup{Game: k.Name, Variant: variant, Players: []string{"Anna", "Bruno", "Chloé", "David", "Emma", "Félix"}[:n]}
			tests = append(tests, game{fmt.Sprintf("%s %s %d", k.Name, variant, n), rules, setup, vocab, int64(len(tests) + 1)})
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkLeaks(t)
			sess := newMemSession(t, tt.rules, tt.setup)
			r := newRig(t, sess, DefaultOpts)
			n := len(tt.setup.Players)
			phones := make([]*wsClient, n)
			for i := range phones {
				tok := r.join(i + 1)
				phones[i] = r.dial()
				phones[i].send(Message{Type: msgHello, Token: tok})
				if m := phones[i].reply(); m["type"] != "welcome" {
					t.Fatalf("seat %d hello: %v", i+1, m)
				}
			}
			table := r.dial()

			// Every connection must see every step: after each one the
			// script waits for all of them, so no frame is coalesced away.
			all := append([]*wsClient{table}, phones...)
			frames := make([][][]byte, len(all))
			waitAll := func(seq int64) {
				for i, c := range all {
					deadline := time.After(20 * time.Second)
				wait:
					for {
						select {
						case raw := <-c.raw:
							select { // its decoded copy, unread here: the reader must not block on it
							case <-c.in:
							default:
							}
							frames[i] = append(frames[i], raw)
							var f struct {
								Type string `json:"type"`
								Seq  int64  `json:"seq"`
							}
							json.Unmarshal(raw, &f)
							if f.Type == "state" && f.Seq >= seq {
								break wait
							}
						case <-deadline:
							t.Fatalf("connection %d never saw seq %d", i, seq)
						}
					}
				}
			}
			steps := playRandom(t, sess, tt.seed, 3000, waitAll)
			st, seq := sess.current()
			t.Logf("%d steps, seq %d, over %v", steps, seq, st.Result().Over)
			if !st.Result().Over {
				t.Errorf("the game did not end in %d steps", steps)
			}
			sess.mu.Lock()
			history := sess.history
			sess.mu.Unlock()
			sess.mu.Lock()
			named := sess.named
			sess.mu.Unlock()
			checked := checkFrames(t, frames, history, tt.vocab, named, nil)
			t.Logf("%d frames checked", checked)
		})
	}
}

// playRandom plays legal actions chosen at random, and every seventh step
// an action of a seat the game does not wait for, until the game ends or
// max steps.
func playRandom(t *testing.T, sess *memSession, seed int64, max int, after func(seq int64)) int {
	rng := rand.New(rand.NewSource(seed))
	ctx := t.Context()
	steps := 0
	for ; steps < max; steps++ {
		st, _ := sess.current()
		if st.Result().Over {
			break
		}
		legal := st.Legal()
		if len(legal) == 0 {
			t.Fatalf("step %d: no legal action and the game is not over", steps)
		}
		a := legal[rng.Intn(len(legal))]
		otherPlayed := false
		if steps%7 == 3 {
			// The same command from another seat: usually refused, and
			// the refusal goes to that seat only.
			other := engine.Seat(rng.Intn(len(st.Setup().Players)))
			if other != a.By {
				// A seat the rules also let play it (a Négoce offer, a
				// Genoa draw the drawer scans) plays it.
				otherPlayed = sess.Submit(ctx, engine.Action{By: other, Cmd: a.Cmd}) == nil
			}
		}
		if err := sess.Submit(ctx, a); err != nil {
			// Every action Legal lists must be accepted, unless another
			// seat's command just changed the game.
			if !otherPlayed {
				t.Fatalf("step %d: listed action %s by %v refused: %v", steps, sess.rules.Codec().FormatCommand(a.Cmd, st.Setup().Players), a.By, err)
			}
			for _, b := range legal {
				if sess.Submit(ctx, b) == nil {
					break
				}
			}
		}
		_, seq := sess.current()
		after(seq)
	}
	return steps
}

func checkFrame(t *testing.T, raw []byte, viewer engine.Seat, history map[int64]engine.State, o *oracle) {
	t.Helper()
	var f struct {
		Type    string          `json:"type"`
		Seq     int64           `json:"seq"`
		Role    string          `json:"role"`
		Seat    *engine.Seat    `json:"seat"`
		View    json.RawMessage `json:"view"`
		Legal   []frameAction   `json:"legal"`
		Refusal *Refused        `json:"refusal"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatalf("frame %q: %v", raw, err)
	}
	if f.Type != "state" {
		return
	}
	st, ok := history[f.Seq]
	if !ok {
		t.Fatalf("frame of seq %d: no such state", f.Seq)
	}
	if f.Role == roleTable {
		viewer = engine.NoSeat // a phone before its hello
	}
	if viewer >= 0 && (f.Seat == nil || *f.Seat != viewer || f.Role != roleSeat) {
		t.Fatalf("frame for seat %d says role %s seat %v", viewer, f.Role, f.Seat)
	}
	// The view is the engine's view for this seat, nothing more.
	want, _ := json.Marshal(st.View(viewer))
	var got, wantV any
	json.Unmarshal(f.View, &got)
	json.Unmarshal(want, &wantV)
	if !reflect.DeepEqual(got, wantV) {
		t.Fatalf("seq %d: view for %v differs from the engine's:\n got %s\nwant %s", f.Seq, viewer, f.View, want)
	}
	// Money and cards in the view only under "mine" (the seat's own).
	var walk func(path string, x any)
	walk = func(path string, x any) {
		switch x := x.(type) {
		case map[string]any:
			for k, v := range x {
				if (k == "ducats" || k == "mine") && path != "" && !strings.HasPrefix(path+"/"+k, "/mine") {
					t.Errorf("seq %d: view for %v holds %s%s", f.Seq, viewer, path, "/"+k)
				}
				walk(path+"/"+k, v)
			}
		case []any:
			for i, v := range x {
				walk(fmt.Sprintf("%s/%d", path, i), v)
			}
		}
	}
	walk("", got)
	if m, ok := got.(map[string]any); ok && viewer < 0 {
		if _, has := m["mine"]; has {
			t.Errorf("seq %d: the table's view holds a seat's secrets", f.Seq)
		}
	}
	for _, a := range f.Legal {
		if a.By != viewer {
			t.Errorf("seq %d: seat %v is shown %s's action %q", f.Seq, viewer, a.By, a.Line)
		}
	}
	if viewer < 0 && f.Legal != nil {
		t.Errorf("seq %d: the table is shown actions", f.Seq)
	}
	if f.Refusal != nil && f.Refusal.Seat != viewer {
		t.Errorf("seq %d: seat %v is shown %v's refusal", f.Seq, viewer, f.Refusal.Seat)
	}
	o.check(t, f.Seq, raw, viewer)
}
