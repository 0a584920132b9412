package cafe

import (
	"encoding/json"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/games/genoa"
	"comptoir/journal"
)

// TestPublicStepScores: no score leaves the table before the game is
// over (Genoa's running scores are the players' hidden money).
func TestPublicStepScores(t *testing.T) {
	rules := genoa.New()
	st, err := rules.Start(engine.Setup{Game: "genoa", Players: []string{"Anna", "Bruno", "Chloé"}})
	if err != nil {
		t.Fatal(err)
	}
	info := journal.Info{ID: 1, Setup: st.Setup(), Started: time.Now()}
	s, err := PublicStep("t", info, st, 1, time.Now(), []Line{{FR: "a", EN: "a"}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Result != nil {
		t.Fatalf("a running game's step carries scores: %+v", s.Result)
	}
	info.Outcome, info.Finished = "over", time.Now()
	end, err := endStep("t", info, st)
	if err != nil {
		t.Fatal(err)
	}
	if end.Result == nil || !end.End || end.Seq != 0 {
		t.Fatalf("end of a game ended by the staff: %+v, want its scores", end)
	}
	info.Outcome = "abandoned"
	if end, _ = endStep("t", info, st); end.Result != nil {
		t.Fatalf("an abandoned game's end carries scores")
	}
	data, _ := json.Marshal(s)
	if _, err := DecodeStep(data); err != nil {
		t.Fatalf("DecodeStep(PublicStep) = %v", err)
	}
}

func FuzzDecodeStep(f *testing.F) {
	good, _ := json.Marshal(Step{V: Version, Table: "t-1", Game: 1, Seq: 2, At: time.Unix(1, 0), Name: "genoa", Players: []string{"A"}})
	f.Add(good)
	f.Add([]byte(`{"v":1}`))
	f.Add([]byte(`not json`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := DecodeStep(data)
		if err != nil {
			return
		}
		if CheckName(s.Table) != nil || s.Game < 1 || (s.Seq == 0) != s.End || len(s.Players) == 0 {
			t.Fatalf("DecodeStep accepted %+v", s)
		}
		DecodePresence(data)
	})
}
