package engine_test

import (
	"testing"

	"comptoir/engine"
)

type handOver struct {
	To    engine.Seat `json:"to"`
	Cards []string    `json:"cards,omitempty"`
}

func (handOver) Name() string { return "hand-over" }

type handedOver struct {
	To engine.Seat `json:"to"`
}

func (handedOver) Name() string { return "handed-over" }

// A seat left out of a phone's JSON is NoSeat, as in the text form: never
// seat 0, the first player.
func TestDecodeCommandSeatLeftOut(t *testing.T) {
	c := engine.NewCodec("test", []engine.Command{handOver{}}, []engine.Event{handedOver{}})
	players := []string{"Anna", "Bruno"}
	for _, tt := range []struct {
		json string
		want engine.Seat
	}{
		{`{"cards":["a"]}`, engine.NoSeat},
		{``, engine.NoSeat},
		{`{"to":0}`, 0},
		{`{"to":1}`, 1},
		{`{"to":-2}`, engine.Staff},
	} {
		cmd, err := c.DecodeCommand("hand-over", []byte(tt.json))
		if err != nil {
			t.Fatalf("DecodeCommand(%q): %v", tt.json, err)
		}
		if got := cmd.(handOver).To; got != tt.want {
			t.Errorf("DecodeCommand(%q).To = %v, want %v", tt.json, got, tt.want)
		}
		text, err := c.ParseCommand(c.FormatCommand(cmd, players), players)
		if err != nil || text.(handOver).To != tt.want {
			t.Errorf("%q as text reads back as %v, %v; want the same seat %v", tt.json, text, err, tt.want)
		}
	}
	// Events are the journal: written whole, read as written.
	ev, err := c.DecodeEvent("handed-over", []byte(`{}`))
	if err != nil || ev.(handedOver).To != 0 {
		t.Errorf("DecodeEvent({}) = %v, %v; want seat 0 as encoded", ev, err)
	}
}
