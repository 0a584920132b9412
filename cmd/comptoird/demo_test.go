package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/games/genoa"
	"comptoir/games/genoa/board"
	"comptoir/hw/clock"
	"comptoir/hw/replay"
	"comptoir/hw/tagmap"
	"comptoir/input"
	"comptoir/journal"
	"comptoir/table"
	"comptoir/tableconfig"
)

var update = flag.Bool("update", false, "write the demo's recorded inputs (configs/demo) again")

const (
	demoConfig = "../../configs/tables/demo.yaml"
	demoTurns  = 6
	// unknownUID is a sticker nobody enrolled, tapped once in the demo.
	unknownUID = "04FFFFFFFFFF01"
)

var demoStart = time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC)

// player drives a table session from a test: it sends inputs and waits
// until the session has handled them.
type player struct {
	t      *testing.T
	s      *table.Session
	in     chan input.Event
	cancel context.CancelFunc
	done   chan error
	store  *journal.Store
	game   *journal.Game
}

func newPlayer(t *testing.T, cfg *tableconfig.Config, tags *tagmap.Map) *player {
	t.Helper()
	rules, setup := genoa.New(), engine.Setup{Game: cfg.Game, Variant: cfg.Variant, Players: cfg.Players, Options: cfg.Options}
	opts, store, game := demoGame(t, rules, setup)
	opts.Tags = func(uid string) (table.Target, bool) {
		t, ok := tags.Lookup(uid)
		return table.Target{Kind: t.Kind, ID: t.ID}, ok
	}
	s, err := table.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	p := &player{t: t, s: s, in: make(chan input.Event), cancel: cancel, done: make(chan error, 1), store: store, game: game}
	go func() { p.done <- s.Run(ctx, p.in) }()
	t.Cleanup(func() {
		cancel()
		<-p.done
	})
	return p
}

// demoGame begins a game of rules with setup at demoStart in a new
// journal, closed when the test ends (after the cleanups registered
// later); opts are a session's options over it, on a fake clock.
func demoGame(t *testing.T, rules engine.Rules, setup engine.Setup) (table.Opts, *journal.Store, *journal.Game) {
	t.Helper()
	store, err := journal.Open(filepath.Join(t.TempDir(), "table.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	game, err := store.Begin(rules, setup, demoStart)
	if err != nil {
		t.Fatal(err)
	}
	opts := table.DefaultOpts
	opts.Rules, opts.Game, opts.Store, opts.Clock = rules, game, store, clock.NewFake(demoStart)
	return opts, store, game
}

// send gives the session one input and returns the update after it.
func (p *player) send(e input.Event) table.Update {
	p.t.Helper()
	p.in <- e
	u, err := p.s.Current(context.Background())
	if err != nil {
		p.t.Fatal(err)
	}
	return u
}

func gview(u table.Update) genoa.View { return u.State.View(engine.NoSeat).(genoa.View) }

func squareUID(c input.Cell) string { return fmt.Sprintf("04D0000000%02d%02d", c.X, c.Y) }

func cardUID(i int) string { return fmt.Sprintf("04CA%010X", i+1) }

// cellOf is a cell of the square the engine names p.
func cellOf(b *board.Board, p genoa.Place) input.Cell {
	id, ok := b.ByKey(string(p))
	if !ok {
		id, _ = b.ByKey("street-" + string(p))
	}
	return b.Square(id).Cells[0]
}

func isStreet(p genoa.Place) bool { return p != "" && p[0] >= '1' && p[0] <= '8' }

// TestDemoRecording writes (with -update) and checks the demo's recorded
// inputs: a scripted Genoa game played from the table's inputs only (card
// scans, rolls, taps, a refused tap, an undo, an unknown sticker, the
// confirm button), played back through a real session and journal.
func TestDemoRecording(t *testing.T) {
	cfg, err := tableconfig.Load(demoConfig)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Replay == nil || cfg.Tags == "" {
		t.Fatalf("%s: want replay: and tags:", demoConfig)
	}
	if *update {
		writeDemo(t, cfg)
	}
	tags, err := tagmap.Load(cfg.Tags)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := replay.Open(cfg.Replay.Inputs, replay.Opts{Speed: 1})
	if err != nil {
		t.Fatal(err)
	}
	p := newPlayer(t, cfg, tags)
	var refusals []string
	var u table.Update
	for _, e := range rec.Events() {
		before := p.s.Latest().Refusal
		u = p.send(e)
		if u.Refusal != nil && u.Refusal != before {
			refusals = append(refusals, u.Refusal.Code)
		}
	}
	// The one refusal is the scripted tap on a square out of reach.
	if len(refusals) != 1 || refusals[0] != "genoa.not-adjacent" {
		t.Errorf("refusals while playing the demo: %v, want only the scripted genoa.not-adjacent", refusals)
	}
	if len(u.Unknown) != 1 || u.Unknown[0].UID != unknownUID {
		t.Errorf("unknown tags %+v, want the scripted %s", u.Unknown, unknownUID)
	}
	v := gview(u)
	if v.Round < 2 || v.Drawing != nil {
		t.Errorf("after the demo: round %d, drawing %+v; want the game past its first round, no draw pending", v.Round, v.Drawing)
	}
	undos := 0
	for _, s := range p.game.Steps() {
		if s.Undo {
			undos++
		}
	}
	if undos != 1 {
		t.Errorf("%d undos in the journal, want the scripted one", undos)
	}
	t.Logf("demo: %d inputs, %d journal steps, round %d, %d log lines", len(rec.Events()), len(p.game.Steps()), v.Round, len(u.Log))
}

// writeDemo plays a game from inputs chosen on the live state and writes
// the recording and the tag map it needs.
func writeDemo(t *testing.T, cfg *tableconfig.Config) {
	b := board.Default()
	tags := tagmap.New()
	for x := 1; x <= 8; x++ {
		for y := 1; y <= 8; y++ {
			c := input.Cell{X: x, Y: y}
			sq := b.Square(b.SquareAt(x, y))
			if err := tags.Add(squareUID(c), tagmap.Target{Kind: tagmap.KindSquare, ID: c.String(), Label: sq.NameEN}); err != nil {
				t.Fatal(err)
			}
		}
	}
	cards := map[string]string{} // card id -> uid
	p := newPlayer(t, cfg, tags)
	var buf bytes.Buffer
	buf.WriteString("# The demo's recorded inputs: a Genoa game played from the table box alone,\n")
	buf.WriteString("# written by `go test ./cmd/comptoird -run TestDemoRecording -update`.\n")
	w := replay.NewWriter(&buf)
	at := demoStart
	emit := func(gap time.Duration, e input.Event) table.Update {
		at = at.Add(gap)
		e = input.WithTime(e, at)
		if err := w.Write(e); err != nil {
			t.Fatal(err)
		}
		return p.send(e)
	}
	emit(0, input.DeviceStatus{Device: "nfc", OK: true, Detail: "replay"})
	emit(200*time.Millisecond, input.DeviceStatus{Device: "camera", OK: true, Detail: "replay"})
	u := p.s.Latest()
	refusedOnce, undoneOnce, unknownOnce := false, false, false
	turns := 0
script:
	for {
		v := gview(u)
		switch {
		case v.Drawing != nil:
			var card string
			for _, a := range u.State.Legal() {
				if d, ok := a.Cmd.(genoa.Draw); ok {
					card = d.Card
					break
				}
			}
			uid, ok := cards[card]
			if !ok {
				uid = cardUID(len(cards))
				cards[card] = uid
				if err := tags.Add(uid, tagmap.Target{Kind: tagmap.KindCard, ID: card}); err != nil {
					t.Fatal(err)
				}
			}
			u = emit(1500*time.Millisecond, input.TagTapped{UID: uid})
		case v.Phase == "start":
			if turns == demoTurns {
				break script
			}
			turns++
			roll := pickRoll(t, u.State, turns)
			u = emit(3*time.Second, input.DiceRolled{Blue: input.Face(roll.X), Red: input.Face(roll.Y), Confidence: 0.98, Latency: 120 * time.Millisecond})
			// The merchant sets the pawn down and taps its square.
			u = emit(2*time.Second, input.TagTapped{UID: squareUID(roll)})
		case v.Phase == "move":
			if !unknownOnce {
				unknownOnce = true
				u = emit(2*time.Second, input.TagTapped{UID: unknownUID})
			}
			if !refusedOnce {
				refusedOnce = true
				u = emit(2*time.Second, input.TagTapped{UID: squareUID(farCell(b, v))})
			}
			next := ""
			if len(v.Path) < 4 {
				for _, r := range v.Reach {
					if len(r.Path) == 1 && isStreet(r.Square) {
						next = string(r.Square)
						break
					}
				}
			}
			if next == "" {
				u = emit(2500*time.Millisecond, input.Button{Name: "confirm"})
				continue
			}
			u = emit(2500*time.Millisecond, input.TagTapped{UID: squareUID(cellOf(b, genoa.Place(next)))})
			if !undoneOnce && turns == 2 {
				undoneOnce = true
				u = emit(2*time.Second, input.Button{Name: "undo"})
				u = emit(2*time.Second, input.TagTapped{UID: squareUID(cellOf(b, genoa.Place(next)))})
			}
		case v.Phase == "acquire":
			u = emit(2500*time.Millisecond, input.Button{Name: "confirm"})
		default:
			t.Fatalf("demo: phase %q", v.Phase)
		}
		if u.Refusal != nil && u.Refusal.Code != "genoa.not-adjacent" {
			t.Fatalf("demo script refused: %+v", u.Refusal)
		}
	}
	if err := os.WriteFile(cfg.Replay.Inputs, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	head := "# The demo's enrolled tags: every square of the default board and the\n# cards the recording scans. Written with configs/demo/genoa-inputs.jsonl.\n"
	if err := os.WriteFile(cfg.Tags, append([]byte(head), tags.Encode()...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// pickRoll chooses a roll that starts the pawn on a street with a street
// next to it, varying with the turn.
func pickRoll(t *testing.T, st engine.State, turn int) input.Cell {
	for i := 0; i < 64; i++ {
		k := (turn*23 + i*13) % 64
		c := input.Cell{X: k%8 + 1, Y: k/8 + 1}
		evs, err := st.Decide(engine.Action{By: engine.NoSeat, Cmd: genoa.Roll{Blue: c.X, Red: c.Y}})
		if err != nil {
			continue
		}
		next := st
		for _, ev := range evs {
			if next, err = next.Apply(ev); err != nil {
				t.Fatal(err)
			}
		}
		v := next.View(engine.NoSeat).(genoa.View)
		if len(v.Path) != 1 || !isStreet(v.Path[0]) {
			continue
		}
		for _, r := range v.Reach {
			if len(r.Path) == 1 && isStreet(r.Square) {
				return c
			}
		}
	}
	t.Fatal("no roll starts on a street")
	return input.Cell{}
}

// farCell is a cell three or more moves from the pawn: a tap there is
// refused.
func farCell(b *board.Board, v genoa.View) input.Cell {
	pawn := cellOf(b, v.Path[len(v.Path)-1])
	x, y := 1, 1
	if pawn.X < 5 {
		x = 8
	}
	if pawn.Y < 5 {
		y = 8
	}
	return input.Cell{X: x, Y: y}
}
