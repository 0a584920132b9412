package hub

import (
	"encoding/json"
	"testing"
	"time"

	"comptoir/cafe"
)

func kinds(f *Floor) map[string]bool {
	out := map[string]bool{}
	for _, a := range f.Snapshot().Alerts {
		out[a.Table+"/"+a.Kind] = true
	}
	return out
}

// TestFloorAlerts: running long against the café's median, offline, and
// the acknowledgement of an alert; an old step leaves a card as it is.
func TestFloorAlerts(t *testing.T) {
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	f := NewFloor(5*time.Second, 1.5)
	f.SetMedians(map[string]time.Duration{medianKey("genoa", 3): time.Hour})
	step := func(table string, started time.Time, seq int64) cafe.Step {
		return cafe.Step{V: 1, Table: table, Game: 1, Seq: seq, At: now, Started: started, Name: "genoa", Players: []string{"A", "B", "C"}}
	}
	f.Step(step("short", now.Add(-80*time.Minute), 10), now)
	f.Step(step("long", now.Add(-100*time.Minute), 10), now)
	f.Step(step("long", now.Add(-100*time.Minute), 4), now) // resent, older
	f.Presence(cafe.Presence{V: 1, Table: "short", State: cafe.StatePlaying}, now)
	f.Presence(cafe.Presence{V: 1, Table: "long", State: cafe.StatePlaying}, now)
	f.Tick(now)
	got := kinds(f)
	if !got["long/long"] || got["short/long"] {
		t.Fatalf("alerts %v: want long/long only (median 1h, factor 1.5)", got)
	}
	if c, _ := f.Detail("long"); c.Seq != 10 {
		t.Fatalf("card at step %d after an older step came, want 10", c.Seq)
	}
	f.Tick(now.Add(6 * time.Second))
	if got := kinds(f); !got["short/offline"] || !got["long/offline"] {
		t.Fatalf("alerts %v: want both tables offline after 6s of silence", got)
	}
	id := f.Snapshot().Alerts[0].ID
	f.Ack(id, now.Add(6*time.Second))
	for _, a := range f.Snapshot().Alerts {
		if a.ID == id && !a.Acked {
			t.Fatalf("alert %s not acknowledged", id)
		}
	}
}

// TestSubCoalesces: a page that does not read gets one frame with each
// table's latest card.
func TestSubCoalesces(t *testing.T) {
	now := time.Now()
	f := NewFloor(5*time.Second, 1.5)
	sub := f.Subscribe()
	defer sub.Close()
	<-sub.Ready()
	var snap Frame
	json.Unmarshal(sub.Next(), &snap)
	if snap.Type != "snapshot" {
		t.Fatalf("first frame %q, want snapshot", snap.Type)
	}
	for seq := int64(1); seq <= 100; seq++ {
		for _, tb := range []string{"a", "b"} {
			f.Step(cafe.Step{V: 1, Table: tb, Game: 1, Seq: seq, At: now, Name: "genoa", Players: []string{"A"}}, now)
		}
	}
	<-sub.Ready()
	var fr Frame
	json.Unmarshal(sub.Next(), &fr)
	if fr.Type != "update" || len(fr.Cards) != 2 || fr.Cards[0].Seq != 100 || fr.Cards[1].Seq != 100 {
		t.Fatalf("frame %+v, want one update with both tables at step 100", fr)
	}
	if data := sub.Next(); data != nil {
		t.Fatalf("Next after taking everything = %s, want nil", data)
	}
}

// TestFloorDice: a table's presence brings how its dice camera fared to
// its card; a presence that changes only that updates the floor's pages,
// one that changes nothing does not.
func TestFloorDice(t *testing.T) {
	now := time.Now()
	f := NewFloor(5*time.Second, 1.5)
	sub := f.Subscribe()
	defer sub.Close()
	<-sub.Ready()
	sub.Next() // the snapshot
	p := cafe.Presence{V: 1, Table: "t1", State: cafe.StatePlaying, Devices: []cafe.Device{}}
	f.Presence(p, now)
	<-sub.Ready()
	sub.Next()
	update := func() *Card {
		t.Helper()
		data := sub.Next()
		if data == nil {
			return nil
		}
		var fr Frame
		if err := json.Unmarshal(data, &fr); err != nil || len(fr.Cards) != 1 {
			t.Fatalf("update %s: want one card", data)
		}
		return fr.Cards[0]
	}
	for i, h := range []*cafe.DiceHealth{
		{Throws: 3, Read: 2, Entered: 1},
		{Throws: 4, Read: 2, Entered: 1, Misread: 1},
		{Throws: 4, Read: 2, Entered: 1, Misread: 1, Advice: []cafe.Line{{FR: "descendez la caméra", EN: "bring the camera lower"}}},
		nil,
	} {
		p.Dice = h
		f.Presence(p, now.Add(time.Duration(i+1)*time.Second))
		c := update()
		if c == nil || !c.Dice.Equal(h) {
			t.Fatalf("presence with the dice %+v: card %+v", h, c)
		}
		// the same again: no update
		f.Presence(p, now.Add(time.Duration(i+1)*time.Second+time.Millisecond))
		if c := update(); c != nil {
			t.Fatalf("the same presence again sent %+v", c)
		}
	}
	if d, _ := f.Detail("t1"); d.Dice != nil {
		t.Errorf("a camera gone still shows %+v", d.Dice)
	}
}
