package bgstats_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"comptoir/bgstats"
	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/journal"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// tally is the test game's metadata: Tally has points; "take" names the
// start player (the first to take; in Tally always the first seat: the
// cmd/comptoir export test has a Négoce game opened by the second).
var tally = bgstats.Game{Name: "Tally", MinPlayers: 2, MaxPlayers: 4, StartCommand: "take"}

// start is 19:30 in Paris.
var start = time.Date(2026, 11, 21, 18, 30, 0, 0, time.UTC)

// tallyJournal writes a journal with: game 1 played to the end (with an
// undone step), game 2 ended by the staff, game 3 abandoned, game 4
// running.
func tallyJournal(t *testing.T) *journal.Store {
	t.Helper()
	st, err := journal.Open(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	rules := enginetest.Rules{}
	setup := engine.Setup{Game: "tally", Players: []string{"Anna", "Bruno"}}
	play := func(g *journal.Game, s engine.State, at time.Time, by engine.Seat, n int) engine.State {
		t.Helper()
		a := engine.Action{By: by, Cmd: enginetest.Take{N: n}}
		next, evs, err := engine.Play(s, a)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Append(at, a, evs); err != nil {
			t.Fatal(err)
		}
		return next
	}
	for i, outcome := range []string{"over", "over", "abandoned", ""} {
		at := start.Add(time.Duration(i) * 24 * time.Hour)
		g, err := st.Begin(rules, setup, at)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := rules.Start(setup)
		if i == 0 {
			play(g, s, at.Add(time.Minute), 0, 1)
			if _, err := g.Undo(at.Add(2*time.Minute), engine.Staff, "wrong player"); err != nil {
				t.Fatal(err)
			}
			for k := 0; !s.Result().Over; k++ {
				at = at.Add(7 * time.Minute)
				s = play(g, s, at, engine.Seat(k%2), 3)
			}
		} else {
			at = at.Add(40*time.Minute + 31*time.Second)
			play(g, s, at, 0, 2)
		}
		if outcome != "" {
			if err := g.Finish(at, outcome); err != nil {
				t.Fatal(err)
			}
		}
	}
	return st
}

func TestRead(t *testing.T) {
	st := tallyJournal(t)
	rules := enginetest.Rules{}
	p, err := bgstats.Read(st, rules, 1, tally)
	if err != nil {
		t.Fatal(err)
	}
	if p.StartPlayer != 0 {
		t.Errorf("start player = %v, want seat 1", p.StartPlayer)
	}
	if got, want := p.Duration(), 49; got != want { // 7 steps of 7 minutes
		t.Errorf("Duration() = %d, want %d", got, want)
	}
	if !p.Result.Over || p.ID != 1 {
		t.Errorf("play = %+v, want game 1 over", p)
	}
	// Ended by the staff: scored as it stands, 40.5 minutes rounds to 41.
	p, err = bgstats.Read(st, rules, 2, tally)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Result.Over || p.Duration() != 41 || p.StartPlayer != 0 {
		t.Errorf("staff-ended game: over %v, duration %d, start %v; want over, 41, seat 1", p.Result.Over, p.Duration(), p.StartPlayer)
	}
	for _, tc := range []struct {
		id   int64
		want error
		text string
	}{
		{3, bgstats.ErrNotFinished, "was abandoned"},
		{4, bgstats.ErrNotFinished, "is still being played"},
		{5, bgstats.ErrNoSuchGame, "game 5"},
	} {
		if _, err := bgstats.Read(st, rules, tc.id, tally); !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("Read(game %d) = %v, want %v with %q", tc.id, err, tc.want, tc.text)
		}
	}
}

func TestFileGolden(t *testing.T) {
	st := tallyJournal(t)
	p, err := bgstats.Read(st, enginetest.Rules{}, 1, tally)
	if err != nil {
		t.Fatal(err)
	}
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.File(bgstats.Opts{Location: "Café du Port", Zone: paris})
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "tally.bgsplay")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("File differs from %s:\n%s", golden, got)
	}
	var f bgstats.File
	if err := json.Unmarshal(got, &f); err != nil {
		t.Fatal(err)
	}
	if pd := f.Plays[0].PlayDate; pd != "2026-11-21 19:30:00" {
		t.Errorf("playDate = %q, want 19:30 in Paris", pd)
	}
	// The same play in UTC: the wall time moves, the id does not.
	utc, _ := p.File(bgstats.Opts{Location: "Café du Port", Zone: time.UTC})
	var fu bgstats.File
	json.Unmarshal(utc, &fu)
	if fu.Plays[0].PlayDate != "2026-11-21 18:30:00" || fu.Plays[0].UUID != f.Plays[0].UUID {
		t.Errorf("in UTC: playDate %q uuid %q, want 18:30:00 and %q", fu.Plays[0].PlayDate, fu.Plays[0].UUID, f.Plays[0].UUID)
	}
}

// keys returns the sorted keys of a JSON object.
func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestLinkFields checks the import link: its address, its escaping, and
// each of its JSON's fields against the app's documented ones (LinkFields,
// cited in link.go), with their JSON types.
func TestLinkFields(t *testing.T) {
	st := tallyJournal(t)
	for _, g := range []bgstats.Game{tally, {Name: "Tally without points", NoPoints: true, BGGID: 4242}} {
		t.Run(g.Name, func(t *testing.T) {
			p, err := bgstats.Read(st, enginetest.Rules{}, 1, g)
			if err != nil {
				t.Fatal(err)
			}
			link, err := p.Link(bgstats.Opts{Location: "Café du Port"})
			if err != nil {
				t.Fatal(err)
			}
			data, ok := strings.CutPrefix(link, "https://app.bgstatsapp.com/createPlay.html?data=")
			if !ok {
				t.Fatalf("link %q: not the app's createPlay address", link)
			}
			if strings.ContainsAny(data, "+ {\"") {
				t.Errorf("data %q: not escaped as encodeURIComponent does (%%20 for a space)", data)
			}
			js, err := url.PathUnescape(data)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(js), &m); err != nil {
				t.Fatal(err)
			}
			for _, k := range keys(m) {
				if !slices.Contains(bgstats.LinkFields["play"], k) {
					t.Errorf("play field %q is not documented", k)
				}
			}
			for _, req := range []string{"sourceName", "sourcePlayId", "playDate", "game", "players"} {
				if _, ok := m[req]; !ok {
					t.Errorf("required field %q missing", req)
				}
			}
			if m["playDate"] != "2026-11-21 18:30:00" || m["durationMin"] != 49.0 || m["location"] != "Café du Port" || m["sourceName"] != "Comptoir" {
				t.Errorf("play = %v, want playDate 2026-11-21 18:30:00 (UTC), durationMin 49, location Café du Port, sourceName Comptoir", m)
			}
			game := m["game"].(map[string]any)
			for _, k := range keys(game) {
				if !slices.Contains(bgstats.LinkFields["game"], k) {
					t.Errorf("game field %q is not documented", k)
				}
			}
			// Booleans always written (the Android app fails on a missing
			// one); bggId a number, left out when 0.
			if game["highestWins"] != !g.NoPoints || game["noPoints"] != g.NoPoints || game["name"] != g.Name || game["sourceGameId"] != "tally" {
				t.Errorf("game = %v", game)
			}
			if id, ok := game["bggId"]; (g.BGGID == 0) == ok || (ok && id != float64(g.BGGID)) {
				t.Errorf("game.bggId = %v (present %v), want %d", id, ok, g.BGGID)
			}
			players := m["players"].([]any)
			if len(players) != 2 {
				t.Fatalf("%d players, want 2", len(players))
			}
			for i, pl := range players {
				pm := pl.(map[string]any)
				for _, k := range keys(pm) {
					if !slices.Contains(bgstats.LinkFields["player"], k) {
						t.Errorf("player field %q is not documented", k)
					}
				}
				for _, k := range []string{"name", "sourcePlayerId", "winner", "startPlayer"} {
					if _, ok := pm[k]; !ok {
						t.Errorf("player %d: %q missing", i+1, k)
					}
				}
				sc := p.Result.Scores[i]
				wantWinner := slices.Contains(p.Result.Winners, sc.Seat)
				if pm["name"] != p.Setup.Players[i] || pm["winner"] != wantWinner || pm["startPlayer"] != (i == 0) {
					t.Errorf("player %d = %v", i+1, pm)
				}
				score, hasScore := pm["score"]
				rank, hasRank := pm["rank"]
				if g.NoPoints && (hasScore || hasRank) {
					t.Errorf("player %d: score %v rank %v in a game without points", i+1, score, rank)
				}
				if !g.NoPoints && (score != float64(sc.Total) || rank != float64(sc.Rank)) {
					t.Errorf("player %d: score %v rank %v, want %d and %d", i+1, score, rank, sc.Total, sc.Rank)
				}
			}
		})
	}
}
