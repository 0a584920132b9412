package table

import (
	"comptoir/engine"
	"comptoir/journal"
)

// StepLog tells a journalled step in the log's public words, the lines
// the table's screen and every phone show for it (the session builds its
// own log with the same code). For an action step it applies the step's
// events to st and returns the state after; for an undo step it returns
// st unchanged with the undo's line (the caller rebuilds the state from
// the steps still standing). A follower of the journal (the café's
// publisher) sends these lines, never anything it words itself.
func StepLog(st engine.State, step journal.Step) (engine.State, []LogLine, error) {
	if step.Undo {
		return st, []LogLine{undoLine(step, st.Setup().Players)}, nil
	}
	return describe(st, step.Seq, step.By, step.Command, step.Events)
}
