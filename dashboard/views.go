package dashboard

import (
	"encoding/json"

	"comptoir/engine"
)

// Secrets are kept by construction, not by filtering text: each frame
// carries the view the rules build for its viewer (State.View), the log
// the rules tell in public words (engine.Describer: a game never names a
// secret in its log), a refusal only to the seat that acted (and the
// staff), and a proposal's refusal in its public words (the rule broken)
// to the proposer, in full to the seat that played it. The tests check
// it with an independent scan of every frame for the other seats' secret
// words and money, over whole games of every game in the list.

// views are the JSON views of the table (NoSeat) and of each seat of one
// state, made once per update and reused for every frame.
type views map[engine.Seat][]byte

// viewsOf encodes the views of the table and of each seat of st.
func viewsOf(st engine.State) views {
	v := views{engine.NoSeat: encodeView(st.View(engine.NoSeat))}
	for i := range st.Setup().Players {
		v[engine.Seat(i)] = encodeView(st.View(engine.Seat(i)))
	}
	return v
}

// encodeView is the JSON of a view, "null" if it does not encode.
func encodeView(v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		return []byte("null")
	}
	return data
}
