package dashboard

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/games/dschunke"
	"comptoir/games/genoa"
	"comptoir/games/negoce"
)

// TestNoFrameLeaksSecrets plays whole games (random legal moves from a
// fixed seed, with illegal ones mixed in) while a phone per seat and the
// table's screen are connected, records every frame each one receives,
// and checks that no frame holds another seat's secret: the view is
// exactly the engine's view for that seat, no other seat's secret word
// (a card id) appears anywhere in the frame, no money but the seat's own
// is in its view, and the actions listed are the seat's own.
func TestNoFrameLeaksSecrets(t *testing.T) {
	tests := []struct {
		name  string
		rules engine.Rules
		setup engine.Setup
		seed  int64
	}{
		{"tally", enginetest.Rules{}, engine.Setup{Game: "tally", Players: []string{"Anna", "Bruno", "Chloé"}}, 1},
		{"genoa alea 3", genoa.New(), engine.Setup{Game: "genoa", Variant: "alea-2001", Players: []string{"Anna", "Bruno", "Chloé"}}, 2},
		{"genoa filosofia 2", genoa.New(), engine.Setup{Game: "genoa", Variant: "filosofia-2008", Players: []string{"Anna", "Bruno"}}, 3},
		{"negoce", negoce.New(), engine.Setup{Game: "negoce", Players: []string{"Anna", "Bruno", "Chloé", "David"}}, 4},
		{"dschunke 3", dschunke.New(), engine.Setup{Game: "dschunke", Players: []string{"Anna", "Bruno", "Chloé"}}, 5},
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
			checked := 0
			for i, fs := range frames {
				viewer := engine.Seat(i - 1) // connection 0 is the table
				for _, raw := range fs {
					checkFrame(t, raw, viewer, history)
					checked++
				}
			}
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

func checkFrame(t *testing.T, raw []byte, viewer engine.Seat, history map[int64]engine.State) {
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
	// No other seat's secret word anywhere in the frame.
	sec := secretsOf(st)
	for k, ws := range sec.bySeat {
		if engine.Seat(k) == viewer {
			continue
		}
		for _, w := range ws {
			if viewer >= 0 && slices.Contains(sec.bySeat[viewer], w) {
				continue
			}
			if regexp.MustCompile(`\b` + regexp.QuoteMeta(w) + `\b`).Match(raw) {
				t.Errorf("seq %d: the frame for %v holds seat %d's secret %q", f.Seq, viewer, k+1, w)
			}
		}
	}
}

func TestJSONStrings(t *testing.T) {
	v := map[string]any{"mine": map[string]any{"cards": []string{"L01", `a"b\c`, "<é>"}, "ducats": 120}, "name": "Anna"}
	var got []string
	words(v, func(w string) { got = append(got, w) })
	slices.Sort(got)
	want := []string{"<é>", "Anna", "L01", `a"b\c`}
	if !slices.Equal(got, want) {
		t.Errorf("words(%v) = %q, want %q", v, got, want)
	}
}

func TestRedact(t *testing.T) {
	sec := &secrets{bySeat: [][]string{{"L01", "S01"}, {"L05"}}}
	sec.re = []*regexp.Regexp{regexp.MustCompile(`\b(?:L01|S01)\b`), regexp.MustCompile(`\b(?:L05)\b`)}
	tests := []struct {
		viewer engine.Seat
		in     string
		want   string
	}{
		{engine.NoSeat, "Anna draws L01, Bruno draws L05", "Anna draws •••, Bruno draws •••"},
		{0, "Anna draws L01, Bruno draws L05", "Anna draws L01, Bruno draws •••"},
		{1, "Anna draws L01, Bruno draws L05", "Anna draws •••, Bruno draws L05"},
		{engine.Staff, "Anna draws L01", "Anna draws L01"},
		{1, "XL01 is not a card", "XL01 is not a card"},
	}
	for _, tt := range tests {
		if got := sec.redact(tt.in, tt.viewer); got != tt.want {
			t.Errorf("redact(%q, %v) = %q, want %q", tt.in, tt.viewer, got, tt.want)
		}
	}
}
