package main

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/games/tally"
	"comptoir/input"
	"comptoir/journal"
	session "comptoir/table"
)

// TestDiceMisreadsByThrower: comptoir dice --misreads counts the camera's
// readings that the player who threw corrected from their phone
// (table.Session.CorrectDice) with those the staff corrected, on a
// journal a real table session wrote; a refused correction is none.
func TestDiceMisreadsByThrower(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	st, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	rules := enginetest.Rules{}
	g, err := st.Begin(rules, engine.Setup{Game: "tally", Players: []string{"Anna", "Bruno"}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	opts := session.DefaultOpts
	opts.Rules, opts.Game, opts.Store, opts.Kit = rules, g, st, tally.Game()
	s, err := session.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	in := make(chan input.Event)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); s.Run(ctx, in) }()
	read := func(blue, red input.Face) int64 {
		t.Helper()
		in <- input.DiceRolled{At: time.Now(), Blue: blue, Red: red, Confidence: 1}
		u, err := s.Current(ctx)
		if err != nil || u.Reading == nil {
			t.Fatalf("reading %d %d: %v, %+v", blue, red, err, u.Reading)
		}
		return u.Seq
	}
	// Anna threw: she corrects the camera; Bruno's phone may not.
	seq := read(2, 3)
	if err := s.CorrectDice(ctx, 1, seq, 3, 3); err == nil {
		t.Error("Bruno corrected Anna's throw")
	}
	if err := s.CorrectDice(ctx, 0, seq, 3, 3); err != nil {
		t.Fatalf("Anna's correction: %v", err)
	}
	// Bruno threw: the staff correct it.
	read(4, 4)
	if err := s.Staff(ctx, session.StaffRequest{Kind: session.StaffDice, Blue: 5, Red: 4}); err != nil {
		t.Fatalf("the staff's correction: %v", err)
	}
	cancel()
	wg.Wait()
	st.Close()
	out, errs, code := runCmd(t, "dice", "--misreads", path)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{"game 1 (tally): 2 dice readings corrected", "all 1 games: 2 dice readings corrected"} {
		if !strings.Contains(out, want) {
			t.Errorf("output %q, want %q", out, want)
		}
	}
}
