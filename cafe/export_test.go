package cafe

import (
	"encoding/json"

	"comptoir/engine"
	"comptoir/journal"
)

// BuildAll builds and encodes every message of the store's games, as a
// catch-up from the start does, and returns how many.
func BuildAll(st *journal.Store, rules func(string) (engine.Rules, error)) int {
	msgs, _ := Messages(st, rules)
	for _, m := range msgs {
		json.Marshal(m)
	}
	return len(msgs)
}

// Messages are the messages a publisher sends for the store's games, from
// the start: every step's, then each finished game's end.
func Messages(st *journal.Store, rules func(string) (engine.Rules, error)) ([]Step, error) {
	infos, err := st.Games()
	if err != nil {
		return nil, err
	}
	var out []Step
	for _, info := range infos {
		r, err := rules(info.Setup.Game)
		if err != nil {
			return nil, err
		}
		rep, err := newReplayer(r, info)
		if err != nil {
			return nil, err
		}
		steps, err := st.StepsAfter(r, info.ID, 0)
		if err != nil {
			return nil, err
		}
		for _, s := range steps {
			lines, err := rep.apply(s)
			if err != nil {
				return nil, err
			}
			msg, err := PublicStep("t", info, rep.st, s.Seq, s.At, lines)
			if err != nil {
				return nil, err
			}
			out = append(out, msg)
		}
		if !info.Finished.IsZero() {
			msg, err := endStep("t", info, rep.st)
			if err != nil {
				return nil, err
			}
			out = append(out, msg)
		}
	}
	return out, nil
}
