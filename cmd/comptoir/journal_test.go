package main

import (
	"errors"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/games"
	"comptoir/journal"
)

// TestJournalEndsOtherGame: the command the journal's start-up error
// gives for an unfinished game of another type, run as given, lets the
// table begin its own game.
func TestJournalEndsOtherGame(t *testing.T) {
	for _, verb := range []string{"end", "abandon"} {
		t.Run(verb, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "t.db")
			st, err := journal.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := st.Begin(enginetest.Rules{}, engine.Setup{Game: "tally", Players: []string{"A", "B"}}, time.Now()); err != nil {
				t.Fatal(err)
			}
			negoce, err := games.ByName("negoce")
			if err != nil {
				t.Fatal(err)
			}
			_, err = st.Resume(negoce)
			st.Close()
			f, ok := journal.AsFault(err)
			if !ok || f.Kind != journal.FaultOtherGame {
				t.Fatalf("Resume(negoce) on a tally game = %v, want a FaultOtherGame", err)
			}
			m := regexp.MustCompile("`(comptoir journal " + verb + " [^`]*)`").FindStringSubmatch(f.EN)
			if m == nil {
				t.Fatalf("the error gives no `comptoir journal %s` command: %s", verb, f.EN)
			}
			out, errs, code := runCmd(t, strings.Fields(m[1])[1:]...)
			if code != 0 {
				t.Fatalf("%s: exit %d\n%s%s", m[1], code, out, errs)
			}
			st, err = journal.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := st.Resume(negoce); !errors.Is(err, journal.ErrNoGame) {
				t.Errorf("Resume(negoce) after %s = %v, want ErrNoGame", m[1], err)
			}
			st.Close()
			out, _, code = runCmd(t, "journal", "list", "--journal", path)
			want := map[string]string{"end": "over", "abandon": "abandoned"}[verb]
			if code != 0 || !strings.Contains(out, "1\ttally") || !strings.Contains(out, want) {
				t.Errorf("journal list = %d %q, want game 1 of tally, %s", code, out, want)
			}
		})
	}
	if _, errs, code := runCmd(t, "journal", "end", "--journal", "x.db"); code != 2 || !strings.Contains(errs, "usage: comptoir journal") {
		t.Errorf("journal end without --game = %d %q, want the usage", code, errs)
	}
}
