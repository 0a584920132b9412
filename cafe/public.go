package cafe

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"comptoir/engine"
	"comptoir/journal"
	"comptoir/table"
)

// PublicStep is the one place that decides what of a step leaves the
// table, and it takes only what the table's own screen shows (the
// dashboard's frame for the table, engine.NoSeat): the table's view of
// after, the state after the step; the names of the players the game waits
// for; the step's log lines as the table's log tells them (table.StepLog:
// the rules' public words, the same lines every screen gets); the result
// only once the game is over. Nothing is worded or filtered here: a seat's
// secret is kept by the views and the log that never hold it.
func PublicStep(table string, info journal.Info, after engine.State, seq int64, at time.Time, log []Line) (Step, error) {
	setup := after.Setup()
	view, err := json.Marshal(after.View(engine.NoSeat))
	if err != nil {
		return Step{}, fmt.Errorf("cafe: the table's view: %w", err)
	}
	s := Step{
		V: Version, Table: table, Game: info.ID, Seq: seq, At: at.UTC(), Started: info.Started.UTC(),
		Name: setup.Game, Variant: setup.Variant, Players: setup.Players, View: view,
		Round: roundOf(view), Waiting: []string{}, Log: []Line{},
	}
	for _, seat := range after.Waiting() {
		if seat >= 0 && int(seat) < len(setup.Players) {
			s.Waiting = append(s.Waiting, setup.Players[seat])
		}
	}
	s.Log = append(s.Log, log...)
	if res := after.Result(); res.Over || (seq == 0 && info.Outcome == "over") {
		s.Result = &res
	}
	return s, nil
}

// roundOf reads a top-level "round" number from a view, 0 if none.
func roundOf(view []byte) int {
	var v struct {
		Round json.Number `json:"round"`
	}
	if json.Unmarshal(view, &v) != nil {
		return 0
	}
	n, _ := strconv.Atoi(string(v.Round))
	return n
}

// replayer follows one game of the journal step by step, as it was at
// each step: an undo takes back the last standing step.
type replayer struct {
	rules    engine.Rules
	info     journal.Info
	st       engine.State
	seq      int64
	standing []journal.Step
}

func newReplayer(rules engine.Rules, info journal.Info) (*replayer, error) {
	st, err := rules.Start(info.Setup)
	if err != nil {
		return nil, fmt.Errorf("cafe: game %d: %w", info.ID, err)
	}
	return &replayer{rules: rules, info: info, st: st}, nil
}

// apply takes one step and returns its log lines, as the table's log
// tells them (table.StepLog).
func (r *replayer) apply(step journal.Step) ([]Line, error) {
	r.seq = step.Seq
	if step.Undo {
		if len(r.standing) == 0 {
			return nil, fmt.Errorf("cafe: game %d step %d: an undo with no step standing", r.info.ID, step.Seq)
		}
		r.standing = r.standing[:len(r.standing)-1]
		var evs []engine.Event
		for _, s := range r.standing {
			evs = append(evs, s.Events...)
		}
		st, err := engine.Replay(r.rules, r.info.Setup, evs)
		if err != nil {
			return nil, fmt.Errorf("cafe: game %d step %d: %w", r.info.ID, step.Seq, err)
		}
		_, lines, _ := table.StepLog(r.st, step)
		r.st = st
		return publicLines(lines), nil
	}
	r.standing = append(r.standing, step)
	st, lines, err := table.StepLog(r.st, step)
	if err != nil {
		return nil, fmt.Errorf("cafe: game %d step %d: %w", r.info.ID, step.Seq, err)
	}
	r.st = st
	return publicLines(lines), nil
}

// publicLines are the table's log lines on the wire.
func publicLines(lines []table.LogLine) []Line {
	out := make([]Line, 0, len(lines))
	for _, l := range lines {
		out = append(out, Line{FR: l.FR, EN: l.EN})
	}
	return out
}

// endStep is the public message of a game's end.
func endStep(table string, info journal.Info, st engine.State) (Step, error) {
	s, err := PublicStep(table, info, st, 0, info.Finished, nil)
	if err != nil {
		return s, err
	}
	s.End, s.Outcome = true, info.Outcome
	if info.Outcome != "over" {
		s.Result = nil
	}
	return s, nil
}
