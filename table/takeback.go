package table

import (
	"context"
	"fmt"

	"comptoir/engine"
)

// A player may take back their own last step, as in online play, while
// nothing was revealed and no chance was involved (kit.Play.Undoable)
// and nobody acted since. The take back stays in the log and the journal
// like any undo.

// ErrNoTakeBack refuses a player's take back.
var ErrNoTakeBack = engine.NewRule("table.no-take-back", "you cannot take this step back: ask the staff", "vous ne pouvez pas reprendre cette étape : demandez au personnel")

// LastStep is the last standing step as the pages show it: the staff's
// undo cancels it, its player may take it back when TakeBack is true.
type LastStep struct {
	Seq int64
	By  engine.Seat
	// Command is the step's command in the notation (for the staff).
	Command string
	// Log are the step's lines of the game's log.
	Log []LogLine
	// TakeBack is true when By may take it back now.
	TakeBack bool
}

// playedStep is the last step played since the journal was read: the
// state it was played on, the action and its events (for
// kit.Play.Undoable).
type playedStep struct {
	seq    int64
	before engine.State
	action engine.Action
	events []engine.Event
}

// TakeBack undoes seat's own last step when the game allows it. Its
// errors are Submit's; ErrNoTakeBack when the step cannot be taken back.
func (s *Session) TakeBack(ctx context.Context, seat engine.Seat) error {
	if seat < 0 {
		return fmt.Errorf("%w: only a player takes back a step", ErrBadRequest)
	}
	return s.do(ctx, request{takeBack: &seat})
}

// lastStep describes s.last for the pages.
func (s *Session) lastStep() *LastStep {
	if s.last == nil {
		return nil
	}
	l := &LastStep{Seq: s.last.Seq, By: s.last.By, Command: s.last.Command}
	for _, line := range s.log {
		if line.Seq == s.last.Seq {
			l.Log = append(l.Log, line)
		}
	}
	l.TakeBack = s.mayTakeBack(s.last.By)
	return l
}

// mayTakeBack reports whether seat may take back the last step.
func (s *Session) mayTakeBack(seat engine.Seat) bool {
	p := s.opts.Kit.Play
	ps := s.played
	return seat >= 0 && s.outcome == "" && s.last != nil && s.last.By == seat && ps != nil && ps.seq == s.last.Seq &&
		p != nil && p.Undoable != nil && p.Undoable(ps.before, ps.action, ps.events)
}

// takeBack undoes seat's last step, or refuses.
func (s *Session) takeBack(seat engine.Seat) error {
	if !s.mayTakeBack(seat) {
		return engine.Refuse(ErrNoTakeBack, "", "")
	}
	return s.undo(seat, "taken back")
}
