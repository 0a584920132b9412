package table

import (
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/games/tally"
	"comptoir/hw/clock"
	"comptoir/input"
	"comptoir/journal"
)

var t0 = time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC)

// checkLeaks fails the test if goroutines it started are still running at
// its end, after giving them two seconds to stop.
func checkLeaks(t *testing.T) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		deadline := time.Now().Add(2 * time.Second)
		for runtime.NumGoroutine() > before {
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<16)
				t.Errorf("goroutine leak: %d running, %d before\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	})
}

// lights records what the session asks of the box's lights.
type lights struct {
	mu      sync.Mutex
	waiting []bool
	refused int
}

func (l *lights) Waiting(on bool) { l.mu.Lock(); l.waiting = append(l.waiting, on); l.mu.Unlock() }
func (l *lights) Refused()        { l.mu.Lock(); l.refused++; l.mu.Unlock() }
func (l *lights) refusals() int   { l.mu.Lock(); defer l.mu.Unlock(); return l.refused }

// rig is a session on a real journal in a temporary directory, running in
// a goroutine, with a channel of inputs.
type rig struct {
	t      *testing.T
	path   string
	store  *journal.Store
	game   *journal.Game
	s      *Session
	clock  *clock.Fake
	lights *lights
	in     chan input.Event
	cancel context.CancelFunc
	done   chan error
}

var tallySetup = engine.Setup{Game: "tally", Players: []string{"Anna", "Bruno", "Chloé"}}

var testTags = map[string]Target{
	"04AA": {Kind: "coins", ID: "1"},
	"04BB": {Kind: "coins", ID: "2"},
	"04CC": {Kind: "coins", ID: "3"},
	"04DD": {Kind: "square", ID: "3-4"},
}

func lookup(uid string) (Target, bool) { t, ok := testTags[uid]; return t, ok }

func newRig(t *testing.T, path string) *rig {
	t.Helper()
	return newRigWith(t, path, enginetest.Rules{}, tallySetup, lookup)
}

func newRigWith(t *testing.T, path string, rules engine.Rules, setup engine.Setup, tags TagLookup) *rig {
	t.Helper()
	return newRigOpts(t, path, rules, setup, tags, nil)
}

// newRigOpts is newRigWith with the session's options changed by set.
func newRigOpts(t *testing.T, path string, rules engine.Rules, setup engine.Setup, tags TagLookup, set func(*Opts)) *rig {
	t.Helper()
	if path == "" {
		path = filepath.Join(t.TempDir(), "table.db")
	}
	r := &rig{t: t, path: path, clock: clock.NewFake(t0), lights: &lights{}, in: make(chan input.Event)}
	var err error
	if r.store, err = journal.Open(path); err != nil {
		t.Fatal(err)
	}
	r.game, err = r.store.Resume(rules)
	if errors.Is(err, journal.ErrNoGame) {
		r.game, err = r.store.Begin(rules, setup, t0)
	}
	if err != nil {
		t.Fatal(err)
	}
	opts := DefaultOpts
	opts.Rules, opts.Game, opts.Store = rules, r.game, r.store
	opts.Clock, opts.Indicator, opts.Tags = r.clock, r.lights, tags
	opts.Kit = kitOf(t, rules)
	if set != nil {
		set(&opts)
	}
	if r.s, err = New(opts); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel, r.done = cancel, make(chan error, 1)
	go func() { r.done <- r.s.Run(ctx, r.in) }()
	t.Cleanup(r.stop)
	return r
}

// stop ends Run and closes the journal; it may be called twice.
func (r *rig) stop() {
	if r.cancel == nil {
		return
	}
	r.cancel()
	if err := <-r.done; err != nil {
		r.t.Errorf("Run = %v, want nil", err)
	}
	r.cancel = nil
	r.store.Close()
}

// input sends an event and waits until the session has handled it: the
// next request is only read once the input is done.
func (r *rig) input(ev input.Event) {
	r.t.Helper()
	r.in <- ev
	r.sync()
}

// sync waits until the session has handled everything sent before.
func (r *rig) sync() {
	r.t.Helper()
	if err := r.s.do(context.Background(), request{sync: true}); err != nil {
		r.t.Fatalf("sync: %v", err)
	}
}

func (r *rig) latest() Update { return r.s.Latest() }

func held(t *testing.T, st engine.State) (pile int, held []int) {
	t.Helper()
	s := st.(*enginetest.State)
	return s.Pile, s.Held
}

func TestSubmitAcceptedIsJournalledAndPublished(t *testing.T) {
	checkLeaks(t)
	r := newRig(t, "")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	updates := r.s.Subscribe(ctx)
	if u := <-updates; u.Seq != 0 || u.Game != r.game.ID() {
		t.Fatalf("first update: Seq %d Game %d, want 0 and %d", u.Seq, u.Game, r.game.ID())
	}
	if err := r.s.Submit(ctx, engine.Action{By: 0, Cmd: enginetest.Take{N: 2}}); err != nil {
		t.Fatalf("Submit(Anna takes 2) = %v, want nil", err)
	}
	// Journalled before Submit returned.
	steps := r.game.Steps()
	if len(steps) != 1 || steps[0].Command != "take n=2" || steps[0].By != 0 {
		t.Fatalf("journal steps = %+v, want one step Anna: take n=2", steps)
	}
	u := <-updates
	if u.Seq != 1 {
		t.Errorf("update Seq = %d, want 1", u.Seq)
	}
	if pile, h := held(t, u.State); pile != 19 || h[0] != 2 {
		t.Errorf("after Anna takes 2: pile %d, Anna holds %d; want 19 and 2", pile, h[0])
	}
	if len(u.Log) != 1 || u.Log[0].EN != "Anna takes 2 coin(s)" || u.Log[0].FR != "Anna prend 2 pièce(s)" || u.Log[0].Seq != 1 {
		t.Errorf("log = %+v, want one line telling Anna takes 2", u.Log)
	}
	if u.Refusal != nil {
		t.Errorf("Refusal = %+v, want nil", u.Refusal)
	}
}

func TestSubmitRefused(t *testing.T) {
	checkLeaks(t)
	r := newRig(t, "")
	ctx := context.Background()
	tests := []struct {
		name string
		a    engine.Action
		rule *engine.Rule
		en   string
	}{
		{"not your turn", engine.Action{By: 1, Cmd: enginetest.Take{N: 1}}, engine.ErrNotYourTurn, "it is Anna's turn"},
		{"too many", engine.Action{By: 0, Cmd: enginetest.Take{N: 4}}, enginetest.ErrTakeCount, "you cannot take 4 coins: take 1, 2 or 3"},
		{"staff through Submit", engine.Action{By: engine.Staff, Cmd: enginetest.Take{N: 1}}, ErrStaffNotAllowed, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := r.s.Submit(ctx, tt.a)
			ref, ok := engine.AsRefusal(err)
			if !ok || !errors.Is(err, tt.rule) {
				t.Fatalf("Submit(%+v) = %v, want a refusal of %s", tt.a, err, tt.rule.Code)
			}
			if tt.en != "" && ref.EN != tt.en {
				t.Errorf("reason = %q, want %q", ref.EN, tt.en)
			}
		})
	}
	u := r.latest()
	if u.Seq != 0 || len(r.game.Steps()) != 0 {
		t.Errorf("after refusals: Seq %d, %d journal steps; want nothing written", u.Seq, len(r.game.Steps()))
	}
	if u.Refusal == nil || u.Refusal.Code != "tally.take-count" || u.Refusal.Seat != 0 {
		t.Errorf("Update.Refusal = %+v, want Anna's take-count refusal", u.Refusal)
	}
	if n := r.lights.refusals(); n != 0 {
		t.Errorf("buzzer sounded %d times for phone refusals, want 0", n)
	}
}

func TestInputs(t *testing.T) {
	checkLeaks(t)
	r := newRig(t, "")
	roll := func(blue, red input.Face, conf float64) input.DiceRolled {
		return input.DiceRolled{At: r.clock.Now(), Blue: blue, Red: red, Confidence: conf}
	}
	steps := []struct {
		name     string
		ev       input.Event
		wantPile int
		wantCode string // refusal code, "" when accepted or ignored
		buzz     int    // buzzer sounds so far
	}{
		{"coin tag takes 2", input.TagTapped{UID: "04BB"}, 19, "", 0},
		{"roll blue 6 takes 3", roll(6, 2, 0.99), 16, "", 0},
		{"unsure roll refused", roll(1, 1, 0.5), 16, "table.dice-unreadable", 1},
		{"unreadable dice", input.DiceUnreadable{Reason: "red die cocked"}, 16, "table.dice-unreadable", 2},
		{"square tag means nothing in Tally", input.TagTapped{UID: "04DD"}, 16, "table.tag-not-for-game", 3},
		{"confirm does nothing", input.Button{Name: "confirm"}, 16, "table.nothing-to-do", 4},
		{"unknown button ignored", input.Button{Name: "bell"}, 16, "table.nothing-to-do", 4},
		{"unknown tag kept for enrolment", input.TagTapped{UID: "04EE"}, 16, "table.nothing-to-do", 4},
		{"device status", input.DeviceStatus{Device: "nfc", OK: false, Detail: "SPI timeout"}, 16, "table.nothing-to-do", 4},
		{"roll blue 1 takes 1", roll(1, 8, 0.95), 15, "", 4},
	}
	for _, st := range steps {
		r.input(st.ev)
		u := r.latest()
		if pile, _ := held(t, u.State); pile != st.wantPile {
			t.Errorf("%s: pile %d, want %d", st.name, pile, st.wantPile)
		}
		code := ""
		if u.Refusal != nil {
			code = u.Refusal.Code
		}
		if code != st.wantCode {
			t.Errorf("%s: refusal %q, want %q", st.name, code, st.wantCode)
		}
		if n := r.lights.refusals(); n != st.buzz {
			t.Errorf("%s: buzzer sounded %d times, want %d", st.name, n, st.buzz)
		}
	}
	u := r.latest()
	if len(u.Unknown) != 1 || u.Unknown[0].UID != "04EE" {
		t.Errorf("Unknown = %+v, want tag 04EE", u.Unknown)
	}
	if len(u.Devices) != 1 || u.Devices[0].Device != "nfc" || u.Devices[0].OK {
		t.Errorf("Devices = %+v, want the nfc fault", u.Devices)
	}
	if got := len(r.game.Steps()); got != 3 {
		t.Errorf("journal holds %d steps, want 3", got)
	}
	for _, s := range r.game.Steps() {
		if s.By != engine.NoSeat {
			t.Errorf("step %d by %v, want the table", s.Seq, s.By)
		}
	}
}

func TestDiceCorrection(t *testing.T) {
	checkLeaks(t)
	r := newRig(t, "")
	r.input(input.DiceRolled{Blue: 2, Red: 3, Confidence: 1}) // takes 2
	r.input(input.DiceRolled{Blue: 3, Red: 3, Confidence: 1, Correction: true})
	u := r.latest()
	if pile, h := held(t, u.State); pile != 18 || h[0] != 3 {
		t.Fatalf("after the correction: pile %d, Anna %d; want 18 and 3 (the corrected roll replaces the first)", pile, h[0])
	}
	steps := r.game.Steps()
	if len(steps) != 3 || !steps[0].Undone || !steps[1].Undo || steps[2].Command != "take n=3" {
		t.Fatalf("journal = %+v, want take undone, undo, take n=3", steps)
	}
	// Bruno moves on; a late correction is refused.
	if err := r.s.Submit(context.Background(), engine.Action{By: 1, Cmd: enginetest.Take{N: 1}}); err != nil {
		t.Fatal(err)
	}
	r.input(input.DiceRolled{Blue: 1, Red: 3, Confidence: 1, Correction: true})
	u = r.latest()
	if u.Refusal == nil || u.Refusal.Code != "table.late-correction" {
		t.Errorf("late correction: refusal %+v, want table.late-correction", u.Refusal)
	}
	if pile, _ := held(t, u.State); pile != 17 {
		t.Errorf("late correction changed the pile to %d, want 17", pile)
	}
}

// TestStaffDiceMisread: the players enter the dice they see (StaffDice);
// a reading of the camera still standing that differs is undone with a
// reason that says so, which Misreads counts; a reading confirmed, a roll
// entered for an unreadable throw and a roll entered again by hand are not
// misreads.
func TestStaffDiceMisread(t *testing.T) {
	checkLeaks(t)
	read := func(blue, red input.Face) func(*rig) {
		return func(r *rig) { r.input(input.DiceRolled{Blue: blue, Red: red, Confidence: 1}) }
	}
	enter := func(blue, red int) func(*rig) {
		return func(r *rig) {
			if err := r.s.Staff(context.Background(), StaffRequest{Kind: StaffDice, Blue: blue, Red: red}); err != nil {
				r.t.Fatalf("StaffDice blue=%d red=%d: %v", blue, red, err)
			}
		}
	}
	for _, tc := range []struct {
		name      string
		do        []func(*rig)
		wantTaken int // Anna's holding: the die the game took
		wantSteps int
		misreads  int
		reason    string // the undo's reason begins so ("" for no undo)
	}{
		{"misread corrected", []func(*rig){read(2, 3), enter(3, 3)}, 3, 3, 1, MisreadPrefix + "read blue=2 red=3, the players saw blue=3 red=3"},
		{"reading confirmed", []func(*rig){read(2, 3), enter(2, 3)}, 2, 1, 0, ""},
		{"unreadable throw entered", []func(*rig){enter(3, 3)}, 3, 1, 0, ""},
		{"entered again by hand", []func(*rig){enter(2, 3), enter(3, 3)}, 3, 3, 0, "dice entered again"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, "")
			r.t = t
			for _, f := range tc.do {
				f(r)
			}
			if _, h := held(t, r.latest().State); h[0] != tc.wantTaken {
				t.Errorf("Anna holds %d, want %d", h[0], tc.wantTaken)
			}
			steps := r.game.Steps()
			if len(steps) != tc.wantSteps {
				t.Fatalf("journal = %+v, want %d steps", steps, tc.wantSteps)
			}
			if got := Misreads(steps); got != tc.misreads {
				t.Errorf("Misreads = %d, want %d", got, tc.misreads)
			}
			var undo *journal.Step
			for i := range steps {
				if steps[i].Undo {
					undo = &steps[i]
				}
			}
			switch {
			case tc.reason == "" && undo != nil:
				t.Errorf("undo %+v, want none", *undo)
			case tc.reason != "" && (undo == nil || !strings.HasPrefix(undo.Reason, tc.reason) || undo.By != engine.Staff):
				t.Errorf("undo %+v, want one by the staff with reason %q", undo, tc.reason)
			}
		})
	}
	t.Run("no faces", func(t *testing.T) {
		r := newRig(t, "")
		if err := r.s.Staff(context.Background(), StaffRequest{Kind: StaffDice, Blue: 0, Red: 3}); !errors.Is(err, ErrBadRequest) {
			t.Errorf("StaffDice blue=0: %v, want ErrBadRequest", err)
		}
	})
}

func TestUndoButton(t *testing.T) {
	checkLeaks(t)
	r := newRig(t, "")
	undo := input.Button{Name: "undo"}
	r.input(undo)
	if u := r.latest(); u.Refusal == nil || u.Refusal.Code != "table.nothing-to-undo" {
		t.Errorf("undo with no step: refusal %+v, want nothing-to-undo", u.Refusal)
	}
	r.input(input.TagTapped{UID: "04CC"})
	r.clock.Advance(10 * time.Second)
	r.input(undo)
	u := r.latest()
	if pile, _ := held(t, u.State); pile != 21 || u.Refusal != nil {
		t.Errorf("undo of a fresh tap: pile %d refusal %+v, want 21 and none", pile, u.Refusal)
	}
	if last := u.Log[len(u.Log)-1]; !strings.Contains(last.EN, "undone (the table's undo button)") || !strings.Contains(last.FR, "annulée (bouton d'annulation de la table)") {
		t.Errorf("last log line %q, want the undo", last.EN)
	}
	r.input(input.TagTapped{UID: "04CC"})
	r.clock.Advance(DefaultOpts.UndoWindow + time.Second)
	r.input(undo)
	if u := r.latest(); u.Refusal == nil || u.Refusal.Code != "table.undo-staff" {
		t.Errorf("undo of an old tap: refusal %+v, want undo-staff", u.Refusal)
	}
	if err := r.s.Submit(context.Background(), engine.Action{By: 1, Cmd: enginetest.Take{N: 1}}); err != nil {
		t.Fatal(err)
	}
	r.input(undo)
	u = r.latest()
	if u.Refusal == nil || u.Refusal.Code != "table.undo-staff" {
		t.Errorf("undo of a player's step: refusal %+v, want undo-staff", u.Refusal)
	}
	if pile, _ := held(t, u.State); pile != 17 {
		t.Errorf("pile %d, want 17: the refused undos changed nothing", pile)
	}
}

func TestStaff(t *testing.T) {
	checkLeaks(t)
	r := newRig(t, "")
	ctx := context.Background()
	if err := r.s.Staff(ctx, StaffRequest{Kind: StaffUndo}); !errors.Is(err, ErrBadRequest) {
		t.Errorf("undo without a reason = %v, want ErrBadRequest", err)
	}
	if err := r.s.Staff(ctx, StaffRequest{Kind: StaffUndo, Reason: "test"}); !errors.Is(err, ErrNothingToUndo) {
		t.Errorf("undo of nothing = %v, want ErrNothingToUndo", err)
	}
	for _, n := range []int{3, 2} {
		if err := r.s.Submit(ctx, engine.Action{By: engine.NoSeat, Cmd: enginetest.Take{N: n}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.s.Staff(ctx, StaffRequest{Kind: StaffUndo, Reason: "Bruno took 2 by mistake"}); err != nil {
		t.Fatalf("staff undo = %v", err)
	}
	u := r.latest()
	if pile, _ := held(t, u.State); pile != 18 || u.Seq != 3 {
		t.Errorf("after the undo: pile %d Seq %d, want 18 and 3", pile, u.Seq)
	}
	if steps := r.game.Steps(); steps[2].By != engine.Staff || steps[2].Reason != "Bruno took 2 by mistake" {
		t.Errorf("undo step %+v, want by staff with the reason", steps[2])
	}
	// Tally has no staff command: the rules refuse it.
	if err := r.s.Staff(ctx, StaffRequest{Kind: StaffCorrect, Cmd: enginetest.Take{N: 1}}); !errors.Is(err, engine.ErrNotYourTurn) {
		t.Errorf("staff take = %v, want refused by the rules", err)
	}
	if err := r.s.Staff(ctx, StaffRequest{Kind: StaffEnd}); !errors.Is(err, ErrBadRequest) {
		t.Errorf("end of a running game without a reason = %v, want ErrBadRequest", err)
	}
	if err := r.s.Staff(ctx, StaffRequest{Kind: StaffNewGame, Setup: &tallySetup}); !errors.Is(err, ErrBadRequest) {
		t.Errorf("new game while one runs = %v, want ErrBadRequest", err)
	}
	if err := r.s.Staff(ctx, StaffRequest{Kind: StaffAbandon, Reason: "players left"}); err != nil {
		t.Fatalf("abandon = %v", err)
	}
	if u := r.latest(); u.Outcome != "abandoned" {
		t.Errorf("Outcome = %q, want abandoned", u.Outcome)
	}
	if err := r.s.Submit(ctx, engine.Action{By: 1, Cmd: enginetest.Take{N: 1}}); !errors.Is(err, ErrGameFinished) {
		t.Errorf("Submit after abandon = %v, want ErrGameFinished", err)
	}
	old := r.game.ID()
	if err := r.s.Staff(ctx, StaffRequest{Kind: StaffNewGame, Setup: &engine.Setup{Game: "tally", Players: []string{"Dora", "Emil"}}}); err != nil {
		t.Fatalf("new game = %v", err)
	}
	u = r.latest()
	if u.Game == old || u.Outcome != "" || u.Seq != 0 || len(u.Log) != 0 || u.State.Setup().Players[0] != "Dora" {
		t.Errorf("new game update: %+v, want a fresh game of Dora and Emil", u)
	}
	if err := r.s.Submit(ctx, engine.Action{By: 0, Cmd: enginetest.Take{N: 1}}); err != nil {
		t.Errorf("Dora takes 1 = %v", err)
	}
	if rec := r.s.Record(); len(rec.Lines) != 1 || rec.Lines[0].Command != "take n=1" {
		t.Errorf("Record lines = %+v, want Dora's take", rec.Lines)
	}
	// The dashboard frees seats and the daemon edits the game's data:
	// those requests are not the session's.
	for _, k := range []StaffKind{StaffReassign, StaffCell, "shuffle"} {
		if err := r.s.Staff(ctx, StaffRequest{Kind: k, Reason: "test"}); !errors.Is(err, ErrBadRequest) {
			t.Errorf("Staff(%q) = %v, want ErrBadRequest", k, err)
		}
	}
	// A new game without a setup is the game before's, with other
	// players when they are named.
	for _, tc := range []struct {
		players []string
		want    string
	}{
		{nil, "Dora Emil"},
		{[]string{"Fay", "Gus", "Hal"}, "Fay Gus Hal"},
		{nil, "Fay Gus Hal"},
	} {
		if err := r.s.Staff(ctx, StaffRequest{Kind: StaffAbandon, Reason: "next"}); err != nil {
			t.Fatalf("abandon = %v", err)
		}
		if err := r.s.Staff(ctx, StaffRequest{Kind: StaffNewGame, Players: tc.players}); err != nil {
			t.Fatalf("new game of %q = %v", tc.players, err)
		}
		u := r.latest()
		if got := strings.Join(u.State.Setup().Players, " "); got != tc.want || u.State.Setup().Game != "tally" || u.Outcome != "" {
			t.Errorf("new game of %q: players %q of %q (outcome %q), want %q of tally", tc.players, got, u.State.Setup().Game, u.Outcome, tc.want)
		}
	}
}

// TestResume stops a session in the middle of a game and starts another
// on the same journal file: same state, same log, same Seq.
func TestResume(t *testing.T) {
	checkLeaks(t)
	path := filepath.Join(t.TempDir(), "table.db")
	r := newRig(t, path)
	ctx := context.Background()
	r.input(input.TagTapped{UID: "04BB"})
	if err := r.s.Submit(ctx, engine.Action{By: 1, Cmd: enginetest.Take{N: 3}}); err != nil {
		t.Fatal(err)
	}
	r.input(input.TagTapped{UID: "04AA"})
	if err := r.s.Staff(ctx, StaffRequest{Kind: StaffUndo, Reason: "wrong tag"}); err != nil {
		t.Fatal(err)
	}
	before := r.latest()
	r.stop()

	r2 := newRig(t, path)
	after := r2.latest()
	if after.Seq != before.Seq || after.Game != before.Game {
		t.Errorf("resumed Seq %d Game %d, want %d and %d", after.Seq, after.Game, before.Seq, before.Game)
	}
	if !sameView(before.State, after.State) {
		t.Errorf("resumed state differs: %+v, want %+v", after.State, before.State)
	}
	if len(after.Log) != len(before.Log) {
		t.Fatalf("resumed log has %d lines, want %d", len(after.Log), len(before.Log))
	}
	for i := range before.Log {
		if after.Log[i] != before.Log[i] {
			t.Errorf("log line %d = %+v, want %+v", i, after.Log[i], before.Log[i])
		}
	}
	// And the game goes on: Chloé's turn.
	if err := r2.s.Submit(ctx, engine.Action{By: 2, Cmd: enginetest.Take{N: 1}}); err != nil {
		t.Errorf("Chloé takes 1 after the restart = %v", err)
	}
}

func sameView(a, b engine.State) bool {
	for seat := engine.Seat(-1); int(seat) < len(a.Setup().Players); seat++ {
		va, vb := a.View(seat).(enginetest.View), b.View(seat).(enginetest.View)
		if va.Pile != vb.Pile || va.Turn != vb.Turn || (va.Mine == nil) != (vb.Mine == nil) || va.Mine != nil && *va.Mine != *vb.Mine {
			return false
		}
	}
	return true
}

func TestSubscribeCoalescesAndCloses(t *testing.T) {
	checkLeaks(t)
	r := newRig(t, "")
	ctx, cancel := context.WithCancel(context.Background())
	slow := r.s.Subscribe(ctx)
	for i := 0; i < 3; i++ {
		if err := r.s.Submit(context.Background(), engine.Action{By: engine.NoSeat, Cmd: enginetest.Take{N: 1}}); err != nil {
			t.Fatal(err)
		}
	}
	// The slow reader finds only the latest update waiting.
	u := <-slow
	if u.Seq != 3 {
		t.Errorf("slow subscriber reads Seq %d, want the latest, 3", u.Seq)
	}
	select {
	case u := <-slow:
		t.Errorf("a second update %d was waiting, want none", u.Seq)
	default:
	}
	cancel()
	deadline := time.After(2 * time.Second)
	for {
		select {
		case _, ok := <-slow:
			if !ok {
				return
			}
		case <-deadline:
			t.Fatal("channel not closed after its context ended")
		}
	}
}

func TestJournalFailure(t *testing.T) {
	checkLeaks(t)
	r := newRig(t, "")
	r.store.Close()
	err := r.s.Submit(context.Background(), engine.Action{By: 0, Cmd: enginetest.Take{N: 1}})
	if !errors.Is(err, ErrJournal) {
		t.Fatalf("Submit with the journal closed = %v, want ErrJournal", err)
	}
	u := r.latest()
	if pile, _ := held(t, u.State); pile != 21 || u.Seq != 0 {
		t.Errorf("after a failed write: pile %d Seq %d, want the step not taken", pile, u.Seq)
	}
	if len(u.Devices) != 1 || u.Devices[0].Device != "journal" || u.Devices[0].OK {
		t.Errorf("Devices = %+v, want the journal fault shown", u.Devices)
	}
}

func TestRunTwiceAndStopped(t *testing.T) {
	checkLeaks(t)
	r := newRig(t, "")
	r.sync() // Run has started
	if err := r.s.Run(context.Background(), nil); !errors.Is(err, ErrRunning) {
		t.Errorf("second Run = %v, want ErrRunning", err)
	}
	r.stop()
	if err := r.s.Submit(context.Background(), engine.Action{By: 0, Cmd: enginetest.Take{N: 1}}); !errors.Is(err, ErrStopped) {
		t.Errorf("Submit after Run returned = %v, want ErrStopped", err)
	}
}

func TestWaitingLight(t *testing.T) {
	checkLeaks(t)
	r := newRig(t, "")
	ctx := context.Background()
	for i := 0; i < 7; i++ {
		if err := r.s.Submit(ctx, engine.Action{By: engine.NoSeat, Cmd: enginetest.Take{N: 3}}); err != nil {
			t.Fatal(err)
		}
	}
	r.lights.mu.Lock()
	got := append([]bool(nil), r.lights.waiting...)
	r.lights.mu.Unlock()
	// On at the start, off once the last coin is taken: said once each.
	if len(got) != 2 || !got[0] || got[1] {
		t.Errorf("waiting light calls = %v, want [true false]", got)
	}
}

// BenchmarkSubmit is one accepted step: decided, journalled (synced to
// disk) and published.
func BenchmarkSubmit(b *testing.B) {
	path := filepath.Join(b.TempDir(), "bench.db")
	store, err := journal.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	rules := enginetest.Rules{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	g, err := store.Begin(rules, engine.Setup{Game: "tally", Players: []string{"A", "B"}, Options: map[string]string{"pile": "1000000000"}}, t0)
	if err != nil {
		b.Fatal(err)
	}
	opts := DefaultOpts
	opts.Rules, opts.Game, opts.Kit = rules, g, tally.Game()
	s, err := New(opts)
	if err != nil {
		b.Fatal(err)
	}
	done := make(chan error)
	go func() { done <- s.Run(ctx, nil) }()
	defer func() { cancel(); <-done }()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := s.Submit(ctx, engine.Action{By: engine.NoSeat, Cmd: enginetest.Take{N: 1}}); err != nil {
			b.Fatal(err)
		}
	}
}
