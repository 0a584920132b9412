package table_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/games/tally"
	"comptoir/input"
	"comptoir/journal"
	"comptoir/table"
)

// A session over a fresh journal: a phone's command, then a tap of a tag
// enrolled as "take 2 coins", each journalled before the update shows it.
func Example() {
	dir, _ := os.MkdirTemp("", "table")
	defer os.RemoveAll(dir)
	store, err := journal.Open(filepath.Join(dir, "table.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer store.Close()
	rules := enginetest.Rules{}
	game, err := store.Begin(rules, engine.Setup{Game: "tally", Players: []string{"Anna", "Bruno"}}, time.Now())
	if err != nil {
		fmt.Println(err)
		return
	}
	opts := table.DefaultOpts
	opts.Rules, opts.Game, opts.Kit = rules, game, tally.Game()
	opts.Tags = func(uid string) (table.Target, bool) {
		return table.Target{Kind: "coins", ID: "2"}, uid == "04A1B2C3"
	}
	s, err := table.New(opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	inputs := make(chan input.Event)
	done := make(chan error)
	go func() { done <- s.Run(ctx, inputs) }()
	updates := s.Subscribe(ctx)
	<-updates // the game as it stands

	if err := s.Submit(ctx, engine.Action{By: 0, Cmd: enginetest.Take{N: 3}}); err != nil {
		fmt.Println(err)
	}
	fmt.Println((<-updates).Log[0].EN)
	inputs <- input.TagTapped{UID: "04A1B2C3"} // Bruno's turn: the tag takes 2
	u := <-updates
	fmt.Println(u.Seq, u.Log[1].EN)
	err = s.Submit(ctx, engine.Action{By: 1, Cmd: enginetest.Take{N: 1}})
	fmt.Println("refused:", err)
	cancel()
	<-done
	// Output:
	// Anna takes 3 coin(s)
	// 2 Bruno takes 2 coin(s)
	// refused: it is Anna's turn
}
