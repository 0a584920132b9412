package cafe

import (
	"encoding/json"

	"comptoir/engine"
	"comptoir/journal"
)

// BuildAll builds and encodes every message of the store's games, as a
// catch-up from the start does, and returns how many.
func BuildAll(st *journal.Store, rules func(string) (engine.Rules, error)) int {
	infos, _ := st.Games()
	n := 0
	for _, info := range infos {
		r, _ := rules(info.Setup.Game)
		rep, _ := newReplayer(r, info)
		steps, _ := st.StepsAfter(r, info.ID, 0)
		hidden := SecretWords(rep.st)
		for _, s := range steps {
			_, lines, _ := rep.apply(s)
			msg, secret, _ := PublicStep("bench", info, rep.st, hidden, s.Seq, s.At, lines)
			hidden = secret
			json.Marshal(msg)
			n++
		}
	}
	return n
}
