package main

import (
	"context"
	"errors"
	"fmt"
	"log"

	"comptoir/hw/clock"
	"comptoir/hw/replay"
	"comptoir/input"
	"comptoir/table"
	"comptoir/tableconfig"
)

// demoReason is the reason given to the journal when a looping recording
// starts again and abandons the game it played.
const demoReason = "the recording starts again"

// replayLoop plays the recording into out, as the table's devices would.
// A looping recording plays each pass in a fresh game: the game the last
// pass (or an earlier run) left is abandoned and a new one begun with the
// same setup, so the recording always meets the position it was made in.
//
// dice, when not nil, is offered each recorded roll first; a roll it
// takes (shown as a picture to the dice reader) is not sent as is.
func replayLoop(ctx context.Context, sess *table.Session, rec *replay.Source, r *tableconfig.Replay, dice func(input.DiceRolled) bool, out chan<- input.Event, clk clock.Clock, logger *log.Logger) error {
	for pass := 1; ; pass++ {
		for r.Loop {
			err := freshGame(ctx, sess)
			if err == nil {
				break
			}
			if ctx.Err() != nil {
				return nil
			}
			if !errors.Is(err, table.ErrJournal) {
				return err
			}
			// The journal does not record: the next pass waits for it.
			logger.Printf("replay: %v; the next pass waits for the journal", err)
			if clock.Sleep(ctx, clk, table.DefaultJournalCheck) != nil {
				return nil
			}
		}
		for e := range rec.Run(ctx) {
			if d, ok := e.(input.DiceRolled); ok && dice != nil && dice(d) {
				continue
			}
			select {
			case out <- e:
			case <-ctx.Done():
				return nil
			}
		}
		if ctx.Err() != nil {
			return nil
		}
		if !r.Loop {
			logger.Printf("the recording has ended; the game goes on from the phones")
			return nil
		}
		logger.Printf("pass %d of the recording ended; again in %v", pass, r.Pause)
		if clock.Sleep(ctx, clk, r.Pause) != nil {
			return nil
		}
	}
}

// freshGame makes sure the session's game has not begun: it abandons a
// game under way and begins a new one with the same setup.
func freshGame(ctx context.Context, sess *table.Session) error {
	u, err := sess.Current(ctx)
	if err != nil {
		return err
	}
	if u.Seq == 0 && u.Outcome == "" {
		return nil
	}
	if u.Outcome == "" {
		if err := sess.Staff(ctx, table.StaffRequest{Kind: table.StaffAbandon, Reason: demoReason}); err != nil {
			return fmt.Errorf("abandon the last pass's game: %w", err)
		}
	}
	setup := u.State.Setup()
	if err := sess.Staff(ctx, table.StaffRequest{Kind: table.StaffNewGame, Setup: &setup}); err != nil {
		return fmt.Errorf("begin a new game: %w", err)
	}
	return nil
}
