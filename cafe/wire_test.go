package cafe

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestDecodePresenceDice: a presence's dice health is checked as it is
// decoded: counts within the throws counted, advice in both languages,
// each refusal an ErrMalformed that names what is wrong.
func TestDecodePresenceDice(t *testing.T) {
	lamp := Line{FR: "La lampe éblouit les dés : écartez-la ou baissez-la.", EN: "The lamp washes the dice out: move it aside or dim it."}
	for _, tc := range []struct {
		name string
		dice *DiceHealth
		bad  string // a word of the error; "" when it decodes
	}{
		{"none", nil, ""},
		{"all read", &DiceHealth{Throws: 20, Read: 20}, ""},
		{"some entered, one misread, advice", &DiceHealth{Throws: 20, Read: 12, Entered: 6, Misread: 1, Advice: []Line{lamp}}, ""},
		{"no throw yet", &DiceHealth{}, ""},
		{"more read than thrown", &DiceHealth{Throws: 3, Read: 2, Entered: 2}, "of 3 throws"},
		{"negative", &DiceHealth{Throws: 3, Misread: -1}, "misread"},
		{"too many throws", &DiceHealth{Throws: MaxDiceThrows + 1}, "throws"},
		{"advice in one language", &DiceHealth{Throws: 1, Advice: []Line{{EN: "dim the lamp"}}}, "both languages"},
		{"advice too long", &DiceHealth{Throws: 1, Advice: []Line{{FR: strings.Repeat("é", 200), EN: "x"}}}, "bytes"},
		{"too much advice", &DiceHealth{Throws: 1, Advice: []Line{lamp, lamp, lamp, lamp, lamp}}, "lines of advice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, _ := json.Marshal(Presence{V: Version, Table: "t-1", State: StatePlaying, At: time.Unix(5, 0), Dice: tc.dice})
			p, err := DecodePresence(data)
			switch {
			case tc.bad == "" && err != nil:
				t.Fatalf("DecodePresence = %v", err)
			case tc.bad == "" && !p.Dice.Equal(tc.dice):
				t.Fatalf("decoded %+v, sent %+v", p.Dice, tc.dice)
			case tc.bad != "" && (!errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), tc.bad)):
				t.Fatalf("DecodePresence = %v, want ErrMalformed naming %q", err, tc.bad)
			}
		})
	}
}

// TestPublisherPresenceDice: the dice health set on a publisher goes out
// with its presence as a copy (changing the one set later changes
// nothing sent), and setting the same again signals no change.
func TestPublisherPresenceDice(t *testing.T) {
	p := &Publisher{changed: make(chan struct{}, 1), presence: Presence{V: Version, Table: "t-1", State: StatePlaying, Devices: []Device{}}}
	h := &DiceHealth{Throws: 4, Read: 3, Entered: 1, Advice: []Line{{FR: "a", EN: "b"}}}
	p.SetDice(h)
	select {
	case <-p.changed:
	default:
		t.Fatal("SetDice signalled no change")
	}
	h.Advice[0].EN = "changed after"
	h.Read = 0
	got := p.Presence().Dice
	if got == nil || got.Read != 3 || got.Advice[0].EN != "b" {
		t.Fatalf("presence's dice %+v: want the health as set", got)
	}
	p.SetDice(&DiceHealth{Throws: 4, Read: 3, Entered: 1, Advice: []Line{{FR: "a", EN: "b"}}})
	select {
	case <-p.changed:
		t.Fatal("the same health set again signalled a change")
	default:
	}
	p.SetDice(nil)
	if p.Presence().Dice != nil {
		t.Fatal("SetDice(nil) kept the health")
	}
}

func FuzzDecodePresence(f *testing.F) {
	good, _ := json.Marshal(Presence{V: Version, Table: "t-1", State: StatePlaying, Devices: []Device{{Name: "camera", OK: true}},
		Dice: &DiceHealth{Throws: 20, Read: 15, Entered: 4, Misread: 1, Advice: []Line{{FR: "baissez la caméra", EN: "bring the camera lower"}}}})
	f.Add(good)
	f.Add([]byte(`{"v":1,"table":"t","state":"idle","dice":{"throws":2,"read":3}}`))
	f.Add([]byte(`not json`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := DecodePresence(data)
		if err != nil {
			return
		}
		if CheckName(p.Table) != nil || p.V != Version {
			t.Fatalf("DecodePresence accepted %+v", p)
		}
		if d := p.Dice; d != nil && (d.Read+d.Entered+d.Misread > d.Throws || d.Read < 0 || d.Entered < 0 || d.Misread < 0 || d.Throws > MaxDiceThrows || len(d.Advice) > maxAdvice) {
			t.Fatalf("DecodePresence accepted the dice health %+v", d)
		}
	})
}
