package dashboard

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/games/dschunke"
	"comptoir/games/genoa"
	"comptoir/games/negoce"
)

// TestSealedRecord checks that no game's record is served before the end
// (it names hidden cards and bids), except to the staff with the PIN.
func TestSealedRecord(t *testing.T) {
	for _, tt := range []struct {
		rules  engine.Rules
		setup  engine.Setup
		secret string // a word of the record that must stay sealed
	}{
		{negoce.New(), engine.Setup{Game: negoce.Name, Players: []string{"Anna", "Bruno", "Chloé", "David"}}, "deal"},
		{dschunke.New(), engine.Setup{Game: dschunke.Name, Players: []string{"Anna", "Bruno", "Chloé"}}, "hand"},
		{genoa.New(), engine.Setup{Game: "genoa", Variant: "alea-2001", Players: []string{"Anna", "Bruno", "Chloé"}}, "draw card="},
		{enginetest.Rules{}, engine.Setup{Game: "tally", Players: []string{"Anna", "Bruno"}}, "take"},
	} {
		t.Run(tt.setup.Game, func(t *testing.T) {
			checkLeaks(t)
			sess := newMemSession(t, tt.rules, tt.setup)
			opts := DefaultOpts
			opts.StaffPIN = "2468"
			r := newRig(t, sess, opts)
			st, _ := sess.current()
			if err := sess.Submit(t.Context(), st.Legal()[0]); err != nil {
				t.Fatal(err)
			}
			for _, pin := range []string{"", "1111", "2468"} {
				req, _ := http.NewRequest("GET", r.http.URL+"/download/record", nil)
				if pin != "" {
					req.Header.Set(StaffPINHeader, pin)
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				want := http.StatusConflict
				switch pin {
				case "2468":
					want = http.StatusOK
				case "1111":
					want = http.StatusForbidden // a wrong secret, counted by the staff guard
				}
				if resp.StatusCode != want {
					t.Fatalf("record during the game, PIN %q: %s %q, want %d", pin, resp.Status, body, want)
				}
				if want == http.StatusConflict && (!strings.Contains(string(body), "once the game is over") || strings.Contains(string(body), tt.secret)) {
					t.Errorf("refusal %q: want the reason, and no record", body)
				}
				if want == http.StatusOK && !strings.Contains(string(body), tt.secret) {
					t.Errorf("staff download %q: want the record", body)
				}
			}
		})
	}
}
