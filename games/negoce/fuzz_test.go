package negoce

import (
	"fmt"
	"strconv"
	"testing"

	"comptoir/engine"
)

// FuzzPhoneCommand feeds commands as phones send them (a name and JSON
// arguments, from any seat) to positions of every phase: the engine must
// refuse them or accept them with events that apply and keep the
// invariants; it must never panic.
func FuzzPhoneCommand(f *testing.F) {
	positions := [][]string{nil, deal, cat(deal, "Bruno: bid price=1"), auction, laidDown, offers, forced, named}
	states := make([]*State, len(positions))
	for i, p := range positions {
		states[i] = script(f, p)
	}
	f.Add(uint8(0), "deal", []byte(`{"to":0,"goods":["jade","6"]}`), int8(-1))
	f.Add(uint8(2), "bid", []byte(`{"price":3}`), int8(2))
	f.Add(uint8(3), "lay", []byte(`{"card":"jade-1","up":true}`), int8(0))
	f.Add(uint8(5), "offer", []byte(`{"card":"perfume-2","up":true,"coins":2}`), int8(1))
	f.Add(uint8(5), "accept", []byte(`{"from":3}`), int8(0))
	f.Add(uint8(5), "bonus", []byte(`{"coins":-4}`), int8(0))
	f.Add(uint8(6), "name", []byte(`{"good":"Thé"}`), int8(0))
	f.Add(uint8(7), "pick", []byte(`{"card":"tea-4"}`), int8(-1))
	f.Add(uint8(5), "accept", []byte(`{"from":9}`), int8(0))
	f.Add(uint8(1), "deal", []byte(`{"cards":["jade-1","jade-1"]}`), int8(-2))
	f.Fuzz(func(t *testing.T, pos uint8, name string, args []byte, by int8) {
		s := states[int(pos)%len(states)]
		cmd, err := codec.DecodeCommand(name, args)
		if err != nil {
			if _, ok := engine.AsRefusal(err); !ok {
				t.Fatalf("DecodeCommand(%q, %q) = %v, not a refusal", name, args, err)
			}
			return
		}
		decideAndApply(t, s, cmd, engine.Seat(by), fmt.Sprint(cmd))
	})
}

// FuzzRecordLine feeds lines of a game record (the text form, as typed on
// the dashboard's command field) to positions of every phase.
func FuzzRecordLine(f *testing.F) {
	positions := [][]string{nil, deal, cat(deal, "Bruno: bid price=1"), auction, laidDown, offers, forced, named}
	states := make([]*State, len(positions))
	for i, p := range positions {
		states[i] = script(f, p)
	}
	for _, l := range []string{"deal to=Anna goods=jade,6", "bid price=2", "lay card=contraband up=true", `offer card="wine-1" coins=3`,
		"accept from=4", "name good=Thé", "pick card=tea-2", "bonus coins=99999999999999999999", "deal cards=jade-1,,jade-2"} {
		f.Add(uint8(5), l, int8(0))
	}
	players := []string{"Anna", "Bruno", "Chloé", "David"}
	f.Fuzz(func(t *testing.T, pos uint8, line string, by int8) {
		s := states[int(pos)%len(states)]
		cmd, err := codec.ParseCommand(line, players)
		if err != nil {
			if _, ok := engine.AsRefusal(err); !ok {
				t.Fatalf("ParseCommand(%q) = %v, not a refusal", line, err)
			}
			return
		}
		decideAndApply(t, s, cmd, engine.Seat(by), strconv.Quote(line))
	})
}

// decideAndApply decides cmd by seat by on s: the engine must refuse it,
// or accept it with events that apply and keep the invariants. what names
// the command in failures.
func decideAndApply(t *testing.T, s *State, cmd engine.Command, by engine.Seat, what string) {
	t.Helper()
	evs, err := s.Decide(engine.Action{By: by, Cmd: cmd})
	if err != nil {
		if _, ok := engine.AsRefusal(err); !ok {
			t.Fatalf("Decide(%s by %d) = %v, not a refusal", what, by, err)
		}
		return
	}
	var st engine.State = s
	for _, ev := range evs {
		if st, err = st.Apply(ev); err != nil {
			t.Fatalf("%s by %d: accepted, but %s does not apply: %v", what, by, ev.Name(), err)
		}
		if err := st.(*State).Check(); err != nil {
			t.Fatalf("%s by %d: %v", what, by, err)
		}
	}
}
