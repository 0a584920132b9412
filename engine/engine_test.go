package engine_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"comptoir/engine"
	"comptoir/engine/enginetest"
)

type square struct{ x, y int }

func (s square) MarshalText() ([]byte, error) {
	return []byte(strings.Repeat("", 0) + itoa(s.x) + "-" + itoa(s.y)), nil
}
func (s *square) UnmarshalText(b []byte) error {
	a, c, ok := strings.Cut(string(b), "-")
	if !ok || len(a) != 1 || len(c) != 1 {
		return errors.New("want X-Y")
	}
	s.x, s.y = int(a[0]-'0'), int(c[0]-'0')
	return nil
}
func itoa(n int) string { return string(rune('0' + n)) }

type deal struct {
	From   engine.Seat    `json:"from"`
	To     engine.Seat    `json:"to"`
	Ducats int            `json:"ducats"`
	Goods  map[string]int `json:"goods"`
	Path   []square       `json:"path"`
	Note   string         `json:"note" note:"text"`
	Public bool           `json:"public"`
	Hidden int            `json:"-" note:"-"`
}

func (deal) Name() string { return "deal" }

type dealt struct{ N int }

func (dealt) Name() string { return "dealt" }

var codec = engine.NewCodec("test", []engine.Command{deal{}}, []engine.Event{dealt{}})

func TestCommandText(t *testing.T) {
	players := []string{"Anna", "Bruno Marc", "Chloé"}
	tests := []struct {
		cmd  deal
		text string
	}{
		{deal{From: 1, To: 0, Ducats: 20}, `deal from="Bruno Marc" to=Anna ducats=20`},
		{deal{From: 2, To: engine.NoSeat, Goods: map[string]int{"silk": 1, "wheat": 2}}, `deal from=Chloé to=table goods=silk:1,wheat:2`},
		{deal{From: 0, To: 2, Path: []square{{3, 4}, {4, 4}}, Note: `a "quoted" note`, Public: true}, `deal from=Anna to=Chloé path=3-4,4-4 text="a \"quoted\" note" public=true`},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			if got := codec.FormatCommand(tt.cmd, players); got != tt.text {
				t.Errorf("FormatCommand = %s, want %s", got, tt.text)
			}
			back, err := codec.ParseCommand(tt.text, players)
			if err != nil {
				t.Fatalf("ParseCommand(%q): %v", tt.text, err)
			}
			if !reflect.DeepEqual(back, tt.cmd) {
				t.Errorf("ParseCommand(%q) = %+v, want %+v", tt.text, back, tt.cmd)
			}
		})
	}
}

func TestParseCommandRefusals(t *testing.T) {
	players := []string{"Anna", "Bruno"}
	tests := []struct {
		line string
		rule *engine.Rule
		want string
	}{
		{"fly", engine.ErrUnknownCommand, `"fly" is not a command of test; commands: deal`},
		{"deal to=Zoé", engine.ErrBadArgument, `deal: to=Zoé: no player "Zoé" (players: Anna, Bruno)`},
		{"deal path=3-4,9", engine.ErrBadArgument, `deal: path=3-4,9: want X-Y`},
		{"deal goods=silk", engine.ErrBadArgument, `deal: goods=silk: "silk": want name:count`},
		{"deal text=\"open", engine.ErrBadArgument, `unclosed quote after text=`},
		{"deal hidden=3", engine.ErrBadArgument, `deal: "hidden" is not an argument; arguments: from, to, ducats, goods, path, text, public`},
		{"from=Anna", engine.ErrBadArgument, `a line starts with a command name`},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			_, err := codec.ParseCommand(tt.line, players)
			if !errors.Is(err, tt.rule) || !errors.Is(err, engine.ErrIllegal) {
				t.Fatalf("ParseCommand(%q) = %v, want rule %s", tt.line, err, tt.rule.Code)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ParseCommand(%q) = %q, want it to say %q", tt.line, err, tt.want)
			}
			r, _ := engine.AsRefusal(err)
			if r.Reason("fr") == "" || r.Reason("fr") == r.Reason("en") {
				t.Errorf("no French reason for %q: %q", tt.line, r.Reason("fr"))
			}
		})
	}
}

func TestJSON(t *testing.T) {
	cmd, err := codec.DecodeCommand("deal", []byte(`{"from":1,"to":0,"ducats":5}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := (deal{From: 1, To: 0, Ducats: 5}); !reflect.DeepEqual(cmd, want) {
		t.Errorf("DecodeCommand = %+v, want %+v", cmd, want)
	}
	if _, err := codec.DecodeCommand("deal", []byte(`{"ducats":5,"steal":1}`)); !errors.Is(err, engine.ErrBadArgument) {
		t.Errorf("unknown field: %v, want ErrBadArgument", err)
	}
	if _, err := codec.DecodeCommand("deal", []byte(`{"ducats":5} {}`)); !errors.Is(err, engine.ErrBadArgument) {
		t.Errorf("trailing data: %v, want ErrBadArgument", err)
	}
	b, err := codec.EncodeEvent(dealt{N: 3})
	if err != nil {
		t.Fatal(err)
	}
	ev, err := codec.DecodeEvent("dealt", b)
	if err != nil || ev != (dealt{N: 3}) {
		t.Errorf("DecodeEvent(EncodeEvent) = %v, %v", ev, err)
	}
	if _, err := codec.DecodeEvent("nope", b); err == nil {
		t.Error("DecodeEvent of an unknown name succeeded")
	}
}

func TestNewCodecPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"twice":   func() { engine.NewCodec("x", []engine.Command{deal{}, deal{}}, nil) },
		"pointer": func() { engine.NewCodec("x", []engine.Command{&deal{}}, nil) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("NewCodec did not panic")
				}
			}()
			f()
		})
	}
}

func TestPlayAndReplay(t *testing.T) {
	r := enginetest.Rules{}
	setup := engine.Setup{Game: "tally", Players: []string{"A", "B"}, Options: map[string]string{"pile": "4"}}
	s, err := r.Start(setup)
	if err != nil {
		t.Fatal(err)
	}
	var all []engine.Event
	for _, n := range []int{3, 1} {
		next, evs, err := engine.Play(s, engine.Action{By: engine.NoSeat, Cmd: enginetest.Take{N: n}})
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, evs...)
		if s.(*enginetest.State).Pile == next.(*enginetest.State).Pile {
			t.Fatal("Play did not return a new state")
		}
		s = next
	}
	// Refused: the state stays as it was.
	if _, _, err := engine.Play(s, engine.Action{Cmd: enginetest.Take{N: 1}}); !errors.Is(err, engine.ErrGameOver) {
		t.Errorf("Play after the end = %v, want ErrGameOver", err)
	}
	again, err := engine.Replay(r, setup, all)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again, s) {
		t.Errorf("Replay = %+v, want %+v", again, s)
	}
	res := s.Result()
	if !res.Over || len(res.Winners) != 1 || res.Winners[0] != 0 || res.Scores[0].Rank != 1 || res.Scores[1].Rank != 2 {
		t.Errorf("Result = %+v", res)
	}
}

func TestSeatOf(t *testing.T) {
	s := engine.Setup{Players: []string{"Anna", "Bruno"}}
	for _, tt := range []struct {
		in   string
		want engine.Seat
		ok   bool
	}{{"anna", 0, true}, {"2", 1, true}, {"3", engine.NoSeat, false}, {"02", engine.NoSeat, false}, {"Zoé", engine.NoSeat, false}} {
		if got, ok := s.SeatOf(tt.in); got != tt.want || ok != tt.ok {
			t.Errorf("SeatOf(%q) = %v, %v, want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
