package genoa

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"comptoir/engine"
)

// staff plays a line as the café staff.
func staffAction(t testing.TB, s *State, line string) engine.Action {
	t.Helper()
	cmd, err := codec.ParseCommand(line, s.setup.Players)
	if err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	return engine.Action{By: engine.Staff, Cmd: cmd}
}

// TestCorrect: the staff set or change a player's ducats, goods, tiles and
// markers; goods, tiles and markers come from and go back to their
// supplies, money is counted apart; the invariants still hold; the public
// log never tells the money, the player's own view does.
func TestCorrect(t *testing.T) {
	r := realRules(t)
	base := func(t *testing.T) *State {
		s := game(t, r, "filosofia-2008", "Anna", "Bruno", "Chloé")
		goods(t, s, "Anna", "silk", "silk", "wine")
		tiles(t, s, "Anna", "extra")
		return s
	}
	start := base(t).d.prof.StartDucats
	tests := []struct {
		name    string
		line    string
		ducats  int            // Anna's ducats after
		goods   map[string]int // Anna's goods after (those named)
		tiles   map[string]int
		markers int
		staff   int // StaffMoney after
		logEN   string
	}{
		{"ducats set", `correct player=Anna ducats=100 reason="miscounted"`, 100, nil, nil, 0, 100 - start, "the staff corrected Anna's holding: ducats"},
		{"ducats added", `correct player=Anna ducats=+10 reason="deal paid twice"`, start + 10, nil, nil, 0, 10, "the staff corrected Anna's holding: ducats"},
		{"ducats taken", `correct player=Anna ducats=-30 reason="message paid twice"`, start - 30, nil, nil, 0, -30, "the staff corrected Anna's holding: ducats"},
		{"ducats set to none", `correct player=Anna ducats=0 reason="lost everything"`, 0, nil, nil, 0, -start, "ducats"},
		{"goods set and added", `correct player=Anna goods=silk:1,wine:+2 reason="took the wrong goods"`, start, map[string]int{"silk": 1, "wine": 3}, nil, 0, 0,
			"the staff corrected Anna's holding: -1 silk, +2 wine (took the wrong goods)"},
		{"good unquoted", `correct player=Anna goods="pepper:+1" reason=forgot`, start, map[string]int{"pepper": 1, "silk": 2}, nil, 0, 0, "+1 pepper (forgot)"},
		{"tiles", `correct player=Anna tiles=extra:0,trade:+1 reason="tile not returned"`, start, nil, map[string]int{"extra": 0, "trade": 1}, 0, 0, "-1 extra action tile, +1 trade 1:1 tile"},
		{"markers", `correct player=Anna markers=+2 reason="cathedral"`, start, nil, nil, 2, 0, "+2 markers in reserve (cathedral)"},
		{"money and goods together", `correct player=Anna ducats=+5 goods=silk:-2 reason="sold back 5"`, start + 5, map[string]int{"silk": 0}, nil, 0, 5,
			"the staff corrected Anna's holding: ducats, -2 silk"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := base(t)
			a := staffAction(t, s, tt.line)
			evs, err := s.Decide(a)
			if err != nil {
				t.Fatalf("%s: %v", tt.line, err)
			}
			if len(evs) != 1 {
				t.Fatalf("%d events, want one Corrected", len(evs))
			}
			log := s.Describe(evs[0], "en")
			if !strings.Contains(log, tt.logEN) {
				t.Errorf("log %q, want %q", log, tt.logEN)
			}
			fr := s.Describe(evs[0], "fr")
			if !strings.Contains(fr, "le personnel corrige l'avoir d'Anna") && !strings.Contains(fr, "le personnel corrige l'avoir de Anna") {
				t.Errorf("French log %q", fr)
			}
			next := mustPlay(t, s, a)
			p := next.P[0]
			if p.Ducats != tt.ducats {
				t.Errorf("Anna holds %d ducats, want %d", p.Ducats, tt.ducats)
			}
			if next.StaffMoney != tt.staff {
				t.Errorf("staff money %d, want %d", next.StaffMoney, tt.staff)
			}
			for k, v := range tt.goods {
				if got := p.Goods[next.good(k)]; int(got) != v {
					t.Errorf("Anna holds %d %s, want %d", got, k, v)
				}
			}
			for k, v := range tt.tiles {
				if got := p.Tiles[tileIndex(k)]; int(got) != v {
					t.Errorf("Anna holds %d %s tiles, want %d", got, k, v)
				}
			}
			if p.Markers != tt.markers {
				t.Errorf("Anna holds %d markers, want %d", p.Markers, tt.markers)
			}
			// The money: in neither the public log nor anyone else's view;
			// in Anna's, with the reason.
			ev := evs[0].(Corrected)
			if ev.Ducats != 0 {
				for _, lang := range []string{"en", "fr"} {
					if l := s.Describe(ev, lang); strings.Contains(l, strconv.Itoa(ev.Ducats)) || strings.Contains(l, strconv.Itoa(p.Ducats)) || strings.Contains(l, ev.Reason) {
						t.Errorf("public log %q tells the amount or its reason", l)
					}
				}
				mine := next.View(0).(View).Mine
				if len(mine.Corrections) != 1 || mine.Corrections[0].Ducats != ev.Ducats || mine.Corrections[0].Reason != ev.Reason {
					t.Errorf("Anna's view shows corrections %+v, want %d (%s)", mine.Corrections, ev.Ducats, ev.Reason)
				}
				for _, seat := range []engine.Seat{engine.NoSeat, 1, 2, engine.Staff} {
					data, _ := json.Marshal(next.View(seat))
					if strings.Contains(string(data), ev.Reason) || strings.Contains(string(data), "corrections") {
						t.Errorf("view of %v shows Anna's correction: %s", seat, data)
					}
				}
			}
			// The event goes through the journal's JSON and back.
			data, err := codec.EncodeEvent(ev)
			if err != nil {
				t.Fatal(err)
			}
			back, err := codec.DecodeEvent(ev.Name(), data)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Apply(back); err != nil {
				t.Fatalf("decoded event does not apply: %v", err)
			}
		})
	}
}

func TestCorrectRefused(t *testing.T) {
	r := realRules(t)
	base := func(t *testing.T) *State {
		s := game(t, r, "filosofia-2008", "Anna", "Bruno", "Chloé")
		goods(t, s, "Anna", "silk")
		return s
	}
	tests := []struct {
		name string
		by   engine.Seat
		line string
		rule *engine.Rule
		en   string
	}{
		{"from a player", 0, `correct player=Anna ducats=+10 reason=x`, ErrStaffOnly, "only the staff"},
		{"from the table", engine.NoSeat, `correct player=Anna ducats=+10 reason=x`, ErrStaffOnly, "only the staff"},
		{"no reason", engine.Staff, `correct player=Anna ducats=+10`, ErrCorrection, "say why"},
		{"no player", engine.Staff, `correct ducats=+10 reason=x`, engine.ErrBadArgument, "player= must name a player"},
		{"nothing changed", engine.Staff, `correct player=Anna goods=silk:1 reason=x`, ErrCorrection, "changes nothing"},
		{"bad amount", engine.Staff, `correct player=Anna ducats=ten reason=x`, ErrCorrection, "not an amount"},
		{"negative money", engine.Staff, `correct player=Anna ducats=-1000 reason=x`, ErrCorrection, "fewer than none"},
		{"amount too large", engine.Staff, `correct player=Anna ducats=+9223372036854775807 reason=x`, ErrCorrection, "at most"},
		{"negative set", engine.Staff, `correct player=Anna ducats=-0x reason=x`, ErrCorrection, "not an amount"},
		{"unknown good", engine.Staff, `correct player=Anna goods=gold:1 reason=x`, ErrCorrection, "not a good"},
		{"good without amount", engine.Staff, `correct player=Anna goods=silk reason=x`, ErrCorrection, "name:amount"},
		{"more goods than the supply", engine.Staff, `correct player=Anna goods=silk:+5 reason=x`, ErrCorrection, "the supply has 4 silk"},
		{"goods below none", engine.Staff, `correct player=Anna goods=silk:-2 reason=x`, ErrCorrection, "fewer than none"},
		{"unknown tile", engine.Staff, `correct player=Anna tiles=gold:1 reason=x`, ErrCorrection, "not a tile"},
		{"markers beyond the common supply", engine.Staff, `correct player=Anna markers=8 reason=x`, ErrCorrection, "common supply has 7"},
		{"markers below none", engine.Staff, `correct player=Anna markers=-1 reason=x`, ErrCorrection, "fewer than none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := base(t)
			cmd, err := codec.ParseCommand(tt.line, s.setup.Players)
			if err != nil {
				t.Fatalf("%q: %v", tt.line, err)
			}
			_, err = s.Decide(engine.Action{By: tt.by, Cmd: cmd})
			if !errors.Is(err, tt.rule) {
				t.Fatalf("%q by %v: %v, want %s", tt.line, tt.by, err, tt.rule.Code)
			}
			ref, ok := engine.AsRefusal(err)
			if !ok || !strings.Contains(ref.EN, tt.en) || ref.FR == "" || strings.Contains(ref.EN+ref.FR, "%!") {
				t.Errorf("refusal %q / %q, want %q in both languages", ref.EN, ref.FR, tt.en)
			}
		})
	}
}

// TestStaffPlaysForTheTable: a game command from the staff is played as
// the table's (here a deal the merchant agreed aloud), and a correction is
// accepted while a draw is due.
func TestStaffPlaysForTheTable(t *testing.T) {
	r := realRules(t)
	s := game(t, r, "alea-2001", "Anna", "Bruno", "Chloé")
	s = play(t, s, "roll blue=2 red=2")
	s = mustPlay(t, s, staffAction(t, s, "deal from=Bruno to=harbour ducats=5"))
	if s.Assigned != 1 {
		t.Fatalf("the staff's deal did not give Bruno the action")
	}
	s = play(t, s, "Bruno: act", "move to=3-3", "move to=guild-hall", "Anna: act")
	if len(s.Pending) == 0 {
		t.Fatal("the guild hall asks for no draw")
	}
	s = mustPlay(t, s, staffAction(t, s, `correct player=Chloé goods=rice:+1 reason="forgot her rice"`))
	if s.P[2].Goods[s.good("rice")] != 1 || len(s.Pending) == 0 {
		t.Errorf("correction during a draw: rice %d, pending %v", s.P[2].Goods[s.good("rice")], s.Pending)
	}
}

// TestCorrectRecord: a record with a staff correction replays, and the
// line written back reads the same.
func TestCorrectRecord(t *testing.T) {
	s := game(t, realRules(t), "filosofia-2008", "Anna", "Bruno")
	for _, line := range []string{
		`correct player=Anna ducats=+10 goods="silk:1,wine:+2" reason="deal paid twice"`,
		`correct player=Bruno markers=2 reason=cathedral`,
	} {
		a := staffAction(t, s, line)
		if got := codec.FormatCommand(a.Cmd, s.setup.Players); got != line {
			t.Errorf("written back as %q, want %q", got, line)
		}
		s = mustPlay(t, s, a)
	}
	data, _ := json.Marshal(Correct{Player: 0, Ducats: "+5", Goods: "silk:1", Reason: "x"})
	cmd, err := codec.DecodeCommand("correct", data)
	if err != nil || cmd.(Correct).Ducats != "+5" {
		t.Errorf("JSON %s decodes as %+v, %v", data, cmd, err)
	}
}
