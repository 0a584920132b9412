package genoa

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"comptoir/engine"
	"comptoir/notation"
)

// FuzzDecide feeds arbitrary command lines, from any seat, to positions of
// an example game: Decide must never panic, a refusal must give reasons in
// both languages, and an accepted command must apply and keep the
// invariants.
func FuzzDecide(f *testing.F) {
	r := realRules(f)
	data, err := os.ReadFile(filepath.Join("testdata", "filosofia-2008-5p.txt"))
	if err != nil {
		f.Fatal(err)
	}
	rec, err := notation.Read(strings.NewReader(string(data)), "filosofia-2008-5p.txt")
	if err != nil {
		f.Fatal(err)
	}
	// Every 7th position of the game.
	var states []*State
	st, _ := r.Start(rec.Setup)
	for i, l := range rec.Lines {
		cmd, err := codec.ParseCommand(l.Command, rec.Setup.Players)
		if err != nil {
			f.Fatal(err)
		}
		if i%7 == 0 {
			states = append(states, st.(*State))
		}
		if st, _, err = engine.Play(st, engine.Action{By: l.By, Cmd: cmd}); err != nil {
			f.Fatal(err)
		}
	}
	for i, l := range rec.Lines {
		f.Add(uint8(i), int8(l.By), l.Command)
	}
	f.Add(uint8(3), int8(1), "deal from=2 to=harbour goods=silk:-1 markers=-2")
	f.Add(uint8(9), int8(-1), "acquire street=6-3 place=guild-hall,guild-hall remove=guild-hall")
	f.Add(uint8(12), int8(0), "trade give=card:L01 get=deck:contract")
	f.Add(uint8(5), int8(engine.Staff), `correct player=Anna ducats=+10 goods="silk:2,wine:-1" tiles=extra:0 markers=+1 reason="paid twice"`)
	f.Add(uint8(8), int8(engine.Staff), `correct player=2 ducats=-999999999999 goods=silk:+127 reason=x`)
	f.Add(uint8(2), int8(engine.Staff), `deal from=Bruno to=harbour ducats=5`)
	f.Fuzz(func(t *testing.T, pos uint8, by int8, line string) {
		s := states[int(pos)%len(states)]
		cmd, err := codec.ParseCommand(line, s.setup.Players)
		if err != nil {
			return
		}
		evs, err := s.Decide(engine.Action{By: engine.Seat(by), Cmd: cmd})
		if err != nil {
			// a "%!" in a refusal is a formatting mistake (a verb
			// without its value), unless the player wrote it: a
			// refusal quotes the word it cannot take
			ref, ok := engine.AsRefusal(err)
			if !ok || ref.EN == "" || ref.FR == "" || strings.Contains(ref.EN+ref.FR, "%!") && !strings.Contains(line, "%!") {
				t.Fatalf("%q by %d: bad refusal %#v", line, by, err)
			}
			return
		}
		var next engine.State = s
		for _, ev := range evs {
			if next, err = next.Apply(ev); err != nil {
				t.Fatalf("%q by %d: decided event %s does not apply: %v", line, by, ev.Name(), err)
			}
		}
		if err := next.(*State).Check(); err != nil {
			t.Fatalf("%q by %d: %v", line, by, err)
		}
	})
}
