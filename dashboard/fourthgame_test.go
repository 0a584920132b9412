package dashboard

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"comptoir/engine"
	"comptoir/games"
	"comptoir/games/kit"
	"comptoir/input"
	"comptoir/journal"
	"comptoir/table"
)

// race is a throwaway fourth game, made here and nowhere else: each seat
// steps forward by the number it names; the first at 10 wins. The table's
// confirm button steps the leader forward by one.
type race struct{}

type step struct {
	N int `json:"n"`
}

func (step) Name() string { return "step" }

type stepped struct {
	By engine.Seat `json:"by"`
	N  int         `json:"n"`
}

func (stepped) Name() string { return "stepped" }

var raceCodec = engine.NewCodec("race", []engine.Command{step{}}, []engine.Event{stepped{}})

func (race) Name() string         { return "race" }
func (race) Codec() *engine.Codec { return raceCodec }
func (race) Start(s engine.Setup) (engine.State, error) {
	if len(s.Players) < 2 {
		return nil, fmt.Errorf("race: 2 players at least")
	}
	return &raceState{setup: s, at: make([]int, len(s.Players))}, nil
}

type raceState struct {
	setup engine.Setup
	at    []int
}

func (s *raceState) Setup() engine.Setup { return s.setup }
func (s *raceState) Decide(a engine.Action) ([]engine.Event, error) {
	c, ok := a.Cmd.(step)
	switch {
	case !ok:
		return nil, engine.Refuse(engine.ErrUnknownCommand, "", "")
	case s.Result().Over:
		return nil, engine.Refuse(engine.ErrGameOver, "", "")
	case c.N < 1 || c.N > 3:
		return nil, engine.Refusef(engine.ErrBadArgument, "a step is 1 to 3, not %d", "un pas fait 1 à 3, pas %d", c.N)
	}
	by := a.By
	if by == engine.NoSeat { // the table's button: the leader
		by = 0
		for i, at := range s.at {
			if at > s.at[by] {
				by = engine.Seat(i)
			}
		}
	}
	if by < 0 || int(by) >= len(s.at) {
		return nil, engine.Refuse(engine.ErrNotYourTurn, "", "")
	}
	return []engine.Event{stepped{By: by, N: c.N}}, nil
}
func (s *raceState) Apply(ev engine.Event) (engine.State, error) {
	e := ev.(stepped)
	n := &raceState{setup: s.setup, at: append([]int(nil), s.at...)}
	n.at[e.By] += e.N
	return n, nil
}
func (s *raceState) Legal() []engine.Action {
	if s.Result().Over {
		return nil
	}
	var out []engine.Action
	for i := range s.at {
		out = append(out, engine.Action{By: engine.Seat(i), Cmd: step{N: 1}})
	}
	return out
}
func (s *raceState) Waiting() []engine.Seat {
	if s.Result().Over {
		return nil
	}
	out := make([]engine.Seat, len(s.at))
	for i := range out {
		out[i] = engine.Seat(i)
	}
	return out
}
func (s *raceState) Result() engine.Result {
	for _, at := range s.at {
		if at >= 10 {
			r := engine.Result{Over: true}
			for i, a := range s.at {
				r.Scores = append(r.Scores, engine.Score{Seat: engine.Seat(i), Player: s.setup.Players[i], Total: a})
			}
			r.Rank()
			return r
		}
	}
	return engine.Result{}
}
func (s *raceState) View(seat engine.Seat) any { return map[string]any{"at": s.at} }

// raceAdapter: the confirm button steps the leader by one.
type raceAdapter struct{}

func (raceAdapter) Translate(s engine.State, ev input.Event, t kit.Target) (engine.Action, error) {
	if b, ok := ev.(input.Button); ok && b.Name == "confirm" {
		return engine.Action{By: engine.NoSeat, Cmd: step{N: 1}}, nil
	}
	return engine.Action{}, fmt.Errorf("race: %v: %w", ev, kit.ErrNoCommand)
}
func (raceAdapter) AwaitsTable(s engine.State) bool { return false }

// raceKit is the race's kit: rules, adapter, page data, renderer.
func raceKit() kit.Game {
	return kit.Game{
		Name:    "race",
		Rules:   func() engine.Rules { return race{} },
		Adapter: func(engine.Rules) kit.Adapter { return raceAdapter{} },
		Info: func(s engine.Setup, _ engine.Rules) (kit.Info, error) {
			return kit.Info{Game: s.Game, Extra: map[string]kit.Name{"goal": {FR: "arrivée à 10", EN: "finish at 10"}}}, nil
		},
		Play:    &kit.Play{Actions: raceActions, Prompt: racePrompt},
		Web:     fstest.MapFS{"race.js": {Data: []byte("window.RENDERERS.race = function (v, f, c) { return c.h('p', {id: 'race'}, v.at.join(' ')); };\n")}},
		BGStats: kit.BGStats{Name: "Race"},
	}
}

// raceActions: a seat steps 1 to 3, chosen on a stepper.
func raceActions(s engine.State, seat engine.Seat) []kit.Action {
	if s.Result().Over || seat < 0 {
		return nil
	}
	return []kit.Action{{ID: "step", Group: "move", Label: kit.Text{FR: "Avancer de {n}", EN: "Step {n} forward"}, By: seat,
		Fields: []kit.Field{{Key: "n", Label: kit.Text{FR: "Pas", EN: "Steps"}, Min: 1, Max: 3, Value: 1}},
		Build: func(v map[string]string) (engine.Command, error) {
			var n int
			if _, err := fmt.Sscan(v["n"], &n); err != nil {
				return nil, engine.Refusef(engine.ErrBadArgument, "a number of steps, not %q", "un nombre de pas, pas %q", v["n"])
			}
			return step{N: n}, nil
		}}}
}

func racePrompt(s engine.State, viewer engine.Seat) kit.Text {
	if s.Result().Over {
		return kit.Text{FR: "Partie finie", EN: "Game over"}
	}
	return kit.Text{FR: "Chacun avance", EN: "Everyone steps forward"}
}

// TestFourthGame plays a game that exists only in this test, in a
// temporary list of games, through the real session (a phone's command,
// the table's button through its adapter, the journal) and the dashboard
// (its page loads the game's renderer, its data at /api/game, frames to a
// phone): nothing else knows it.
func TestFourthGame(t *testing.T) {
	checkLeaks(t)
	list := append(games.All(), raceKit())
	if err := games.Check(list); err != nil {
		t.Fatal(err)
	}
	k, err := games.Find(list, "race")
	if err != nil {
		t.Fatal(err)
	}
	rules := k.Rules()
	setup := engine.Setup{Game: "race", Players: []string{"Anna", "Bruno"}}
	store, err := journal.Open(filepath.Join(t.TempDir(), "table.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	game, err := store.Begin(rules, setup, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	topts := table.DefaultOpts
	topts.Rules, topts.Game, topts.Store, topts.Kit = rules, game, store, k
	sess, err := table.New(topts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	inputs := make(chan input.Event)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); sess.Run(ctx, inputs) }()
	defer func() { cancel(); wg.Wait() }()
	r := newRig(t, FromTable(sess, TableOpts{Store: store}), DefaultOpts)
	defer r.stop()

	page := r.get("/")
	body, _ := io.ReadAll(page.Body)
	if !strings.Contains(string(body), `<script src="/static/race.js" defer></script>`) {
		t.Errorf("the page does not load the race's renderer:\n%s", body)
	}
	if js := r.get("/static/race.js"); js.StatusCode != http.StatusOK {
		t.Errorf("GET /static/race.js: %s", js.Status)
	}
	var info GameInfo
	if err := json.NewDecoder(r.get("/api/game").Body).Decode(&info); err != nil || info.Game != "race" || info.Extra["goal"].EN != "finish at 10" {
		t.Errorf("/api/game = %+v, %v", info, err)
	}

	tok := r.join(1)
	anna := r.dial()
	anna.send(Message{Type: msgHello, Token: tok})
	if m := anna.reply(); m["type"] != "welcome" {
		t.Fatalf("hello: %v", m)
	}
	anna.send(Message{Type: msgAct, Action: "step", Values: map[string]string{"n": "3"}})
	if m := anna.reply(); m["type"] != "accepted" {
		t.Fatalf("Anna steps 3 with a tap: %v", m)
	}
	anna.send(Message{Type: msgCommand, Line: "step n=4"})
	if m := anna.reply(); m["code"] != engine.ErrBadArgument.Code {
		t.Errorf("Anna steps 4: %v, want a refusal", m)
	}
	inputs <- input.Button{Name: "confirm"}
	u, err := sess.Current(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if at := u.State.(*raceState).at; at[0] != 4 || u.Seq != 2 {
		t.Errorf("after Anna's step and the button: at %v seq %d, want Anna at 4, seq 2", at, u.Seq)
	}
	f := anna.stateAt(2)
	if v, _ := json.Marshal(f["view"]); string(v) != `{"at":[4,0]}` {
		t.Errorf("Anna's frame shows %s", v)
	}
	if steps := game.Steps(); len(steps) != 2 || steps[1].By != engine.NoSeat {
		t.Errorf("the journal holds %+v, want Anna's step and the table's", steps)
	}
}
