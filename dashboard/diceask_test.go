package dashboard

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/games/genoa"
	"comptoir/input"
	"comptoir/table"
)

// genoaDiceRig is a Genoa table (Anna the merchant, hands dealt) waiting
// for the dice, its session fed by the returned channel, and a dashboard
// over it with opts.
func genoaDiceRig(t *testing.T, opts Opts) (*rig, *table.Session, chan<- input.Event) {
	t.Helper()
	rules := genoa.New()
	setup := engine.Setup{Game: "genoa", Variant: "alea-2001", Players: []string{"Anna", "Bruno"}}
	store, sess := newSession(t, t.TempDir(), rules, setup)
	in := make(chan input.Event)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); sess.Run(ctx, in) }()
	t.Cleanup(func() { cancel(); wg.Wait(); store.Close() })
	drawGenoaHands(t, ctx, sess, rules, setup.Players)
	opts.StaffPIN = "2468"
	return newRig(t, FromTable(sess, TableOpts{Store: store}), opts), sess, in
}

// askOf waits for a frame of c at seq at least seq and returns its
// dice_ask (nil if none).
func askOf(c *wsClient, seq int64, role string) (map[string]any, int64) {
	c.t.Helper()
	for {
		f := c.stateAt(seq)
		if f["role"] != role {
			continue
		}
		a, _ := f["dice_ask"].(map[string]any)
		return a, int64(f["seq"].(float64))
	}
}

// TestDiceAsk checks who is asked for a roll the camera could not read
// and how: the merchant's phone names its roll action and the fields of
// each die, the other phone nothing, the table's trusted screen the faces
// and the right to enter them; the roll entered there is played as the
// table's, a stale or untrusted one refused; a sure roll asks nothing.
func TestDiceAsk(t *testing.T) {
	checkLeaks(t)
	r, sess, in := genoaDiceRig(t, DefaultOpts)
	anna, bruno, tv := r.dial(), r.dial(), r.dial()
	anna.send(map[string]string{"type": "hello", "token": r.join(1)})
	bruno.send(map[string]string{"type": "hello", "token": r.join(2)})
	seq := sess.Latest().Seq
	if a, _ := askOf(tv, seq, "table"); a != nil {
		t.Fatalf("an ask before any reading: %v", a)
	}
	// newAsk waits for c's ask of another throw than the last seen (its
	// ID changes with each): frames of the last throw's may still come.
	lastID := map[*wsClient]any{}
	newAsk := func(c *wsClient, role string) map[string]any {
		for {
			if a, _ := askOf(c, seq, role); a != nil && a["id"] != lastID[c] {
				lastID[c] = a["id"]
				return a
			}
		}
	}
	// the reader's reason, in each language (none for a reading refused
	// as too unsure: the table says why itself)
	const en, fr = "red die: numeral unclear (63% sure): look again", "dé rouge : chiffre peu net (sûr à 63 %) : regardez à nouveau"
	for _, tc := range []struct {
		ev                 input.Event
		reasonEN, reasonFR string
	}{
		{input.DiceUnreadable{At: time.Now(), Reason: en, ReasonFR: fr}, en, fr},
		{input.DiceRolled{At: time.Now(), Blue: 3, Red: 4, Confidence: 0.5}, "not sure enough", "pas assez sûre"},
	} {
		ev := tc.ev
		in <- ev
		a := newAsk(anna, "seat")
		if a["action"] != "roll" || a["blue"] != "blue" || a["red"] != "red" || a["en"] == "" || a["fr"] == "" {
			t.Errorf("%v: Anna's ask %v, want her roll action, its blue and red fields, in both languages", ev, a)
		}
		aEN, _ := a["en"].(string)
		aFR, _ := a["fr"].(string)
		if !strings.Contains(aEN, tc.reasonEN) || !strings.Contains(aFR, tc.reasonFR) || strings.Contains(aEN, tc.reasonFR) || strings.Contains(aFR, tc.reasonEN) {
			t.Errorf("%v: Anna's ask says %q in English and %q in French, want %q and %q, each in its own", ev, aEN, aFR, tc.reasonEN, tc.reasonFR)
		}
		if b, _ := askOf(bruno, seq, "seat"); b != nil {
			t.Errorf("%v: Bruno is asked %v", ev, b)
		}
		ta := newAsk(tv, "table")
		if ta["enter"] != true || len(ta["faces"].([]any)) != 8 {
			t.Errorf("%v: the table's ask %v, want eight faces and the right to enter them", ev, ta)
		}
		if ta["en"] != aEN || ta["fr"] != aFR {
			t.Errorf("%v: the table's ask says %q and %q, want the phone's %q and %q", ev, ta["en"], ta["fr"], aEN, aFR)
		}
	}
	tv.send(map[string]any{"type": "dice", "seq": seq - 1, "values": map[string]string{"blue": "3", "red": "4"}})
	if rep := tv.reply(); rep["type"] != "refused" || rep["code"] != "dashboard.no-dice-ask" {
		t.Errorf("a stale roll: %v, want refused", rep)
	}
	tv.send(map[string]any{"type": "dice", "seq": seq, "values": map[string]string{"blue": "9", "red": "4"}})
	if rep := tv.reply(); rep["type"] != "refused" {
		t.Errorf("a face the dice do not have: %v, want refused", rep)
	}
	tv.send(map[string]any{"type": "dice", "seq": seq, "values": map[string]string{"blue": "3", "red": "4"}})
	if rep := tv.reply(); rep["type"] != "accepted" {
		t.Fatalf("the roll entered on the table's screen: %v", rep)
	}
	lines := sess.Record().Lines
	if last := lines[len(lines)-1]; last.By != engine.NoSeat || last.Command != "roll blue=3 red=4" {
		t.Errorf("last step %+v, want the table's roll blue=3 red=4", last)
	}
	if a, _ := askOf(anna, seq+1, "seat"); a != nil {
		t.Errorf("the ask outlived the roll: %v", a)
	}

	t.Run("untrusted screen", func(t *testing.T) {
		opts := DefaultOpts
		opts.ScreenAddrs = []string{"192.0.2.1"} // not this test's loopback
		r, sess, in := genoaDiceRig(t, opts)
		tv := r.dial()
		seq := sess.Latest().Seq
		in <- input.DiceUnreadable{At: time.Now(), Reason: "blue die not found in the tray"}
		a, _ := askOf(tv, seq, "table")
		for a == nil {
			a, _ = askOf(tv, seq, "table")
		}
		if a["enter"] == true {
			t.Errorf("a spectator's ask %v lets it enter the roll", a)
		}
		tv.send(map[string]any{"type": "dice", "seq": seq, "values": map[string]string{"blue": "3", "red": "4"}})
		if rep := tv.reply(); rep["type"] != "error" || rep["code"] != "not-screen" {
			t.Errorf("a spectator's roll: %v, want refused", rep)
		}
		if n := len(sess.Record().Lines); n != 8 {
			t.Errorf("%d steps, want the 8 draws only", n)
		}
	})
}
