package main

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"comptoir/bgstats"
	"comptoir/engine"
	"comptoir/games"
	"comptoir/journal"
	"comptoir/notation"
)

// journalGame is a game to write in a test journal: a record played
// step by step from start, a step every minute apart, finished or not.
type journalGame struct {
	record string
	start  time.Time
	step   time.Duration
	finish bool
}

// writeJournal plays the records into a new journal at path, as a table
// would (one step per line, at the given times), and returns the end
// time of each game.
func writeJournal(t *testing.T, path string, gs []journalGame) []time.Time {
	t.Helper()
	st, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var ends []time.Time
	for _, jg := range gs {
		f, err := os.Open(jg.record)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := notation.Read(f, jg.record)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		rules, err := games.ByName(rec.Setup.Game)
		if err != nil {
			t.Fatal(err)
		}
		g, err := st.Begin(rules, rec.Setup, jg.start)
		if err != nil {
			t.Fatal(err)
		}
		s, err := rules.Start(rec.Setup)
		if err != nil {
			t.Fatal(err)
		}
		at := jg.start
		for _, l := range rec.Lines {
			cmd, err := rules.Codec().ParseCommand(l.Command, rec.Setup.Players)
			if err != nil {
				t.Fatalf("%s:%d: %v", jg.record, l.N, err)
			}
			a := engine.Action{By: l.By, Cmd: cmd}
			next, evs, err := engine.Play(s, a)
			if err != nil {
				t.Fatalf("%s:%d: %v", jg.record, l.N, err)
			}
			at = at.Add(jg.step)
			if _, err := g.Append(at, a, evs); err != nil {
				t.Fatal(err)
			}
			s = next
		}
		if jg.finish {
			if !s.Result().Over {
				t.Fatalf("%s: the record does not end the game", jg.record)
			}
			if err := g.Finish(at, "over"); err != nil {
				t.Fatal(err)
			}
		}
		ends = append(ends, at)
	}
	return ends
}

// TestExportBGStats exports a finished game of each game from a journal
// and checks the play field by field: the local date in the table's time
// zone, the duration from the journal, the ids, noPoints, the start
// player, ranks and winners, rounds and the venue. The last game of the
// journal is unfinished, so none of the exported games is the latest.
func TestExportBGStats(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "table.db")
	// 19:30 in Paris (UTC+1 in November) is 18:30 UTC.
	evening := time.Date(2026, 11, 21, 18, 30, 0, 0, time.UTC)
	ends := writeJournal(t, db, []journalGame{
		{"../../games/genoa/testdata/alea-2001-3p.txt", evening, 20 * time.Second, true},
		{"../../games/negoce/testdata/anna-wins.txt", evening.Add(24 * time.Hour), time.Minute, true},
		{"../../games/dschunke/testdata/random-3p-seed41.txt", evening.Add(48 * time.Hour), 30 * time.Second, true},
		{"../../games/negoce/testdata/anna-wins.txt", evening.Add(72 * time.Hour), time.Minute, false},
	})
	cfg := filepath.Join(dir, "table.yaml")
	os.WriteFile(cfg, []byte("version: 1\ntable: Table 3\nvenue: Café du Port\ntimezone: Europe/Paris\ngame: negoce\nplayers: [Anna, Bruno, Chloé, David]\njournal: table.db\n"), 0o644)

	type player struct {
		name                 string
		score                string // "" without points
		rank                 int
		winner, startPlayer  bool
		seatOrder, playerRef int
	}
	tests := []struct {
		game                 int
		name                 string
		bggID                int
		noPoints             bool
		playDate, linkDate   string
		duration, rounds     int
		players              []player
		minPlayers, maxPlays int
	}{
		{1, "The Traders of Genoa", 2136, false, "2026-11-21 19:30:00", "2026-11-21 18:30:00",
			int(ends[0].Sub(evening).Round(time.Minute) / time.Minute), 10, // alea-2001 with 3 players: 10 rounds (configs/genoa/editions.yaml)
			// From the record's [Result] tag: Bruno 315, Anna 220, Chloé 215.
			[]player{{"Anna", "220", 2, false, true, 1, 1}, {"Bruno", "315", 1, true, false, 2, 2}, {"Chloé", "215", 3, false, false, 3, 3}}, 2, 5},
		// Négoce: no points; Bruno opens the Contraband auction (the
		// record's first bid); Anna wins.
		{2, "Négoce", 0, true, "2026-11-22 19:30:00", "2026-11-22 18:30:00",
			int(ends[1].Sub(evening.Add(24*time.Hour)).Round(time.Minute) / time.Minute), 0,
			[]player{{"Anna", "", 0, true, false, 1, 1}, {"Bruno", "", 0, false, true, 2, 2}, {"Chloé", "", 0, false, false, 3, 3}, {"David", "", 0, false, false, 4, 4}}, 4, 4},
		{3, "Dschunke", 0, false, "2026-11-23 19:30:00", "2026-11-23 18:30:00",
			int(ends[2].Sub(evening.Add(48*time.Hour)).Round(time.Minute) / time.Minute), 10,
			nil, 3, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errs, code := runCmd(t, "export", "--config", cfg, "--game", itoa(tt.game), "--format", "bgsplay")
			if code != 0 {
				t.Fatalf("export: exit %d: %s", code, errs)
			}
			var f bgstats.File
			if err := json.Unmarshal([]byte(out), &f); err != nil {
				t.Fatal(err)
			}
			if len(f.Games) != 1 || len(f.Plays) != 1 || len(f.Locations) != 1 {
				t.Fatalf("file has %d games, %d plays, %d locations, want 1 each", len(f.Games), len(f.Plays), len(f.Locations))
			}
			g, p := f.Games[0], f.Plays[0]
			check := func(field string, got, want any) {
				t.Helper()
				if got != want {
					t.Errorf("%s = %v, want %v", field, got, want)
				}
			}
			check("game.name", g.Name, tt.name)
			check("game.bggId", g.BGGID, tt.bggID)
			check("game.noPoints", g.NoPoints, tt.noPoints)
			check("game.highestWins", g.HighestWins, !tt.noPoints)
			check("game.minPlayerCount", g.MinPlayerCount, tt.minPlayers)
			check("game.maxPlayerCount", g.MaxPlayerCount, tt.maxPlays)
			check("play.playDate", p.PlayDate, tt.playDate)
			check("play.durationMin", p.DurationMin, tt.duration)
			check("play.rounds", p.Rounds, tt.rounds)
			check("location.name", f.Locations[0].Name, "Café du Port")
			check("play.locationRefId", p.LocationRefID, f.Locations[0].ID)
			check("play.gameRefId", p.GameRefID, g.ID)
			if tt.duration < 10 {
				t.Errorf("durationMin %d: the test's games should last longer", tt.duration)
			}
			if tt.players != nil {
				if len(p.PlayerScores) != len(tt.players) {
					t.Fatalf("%d player scores, want %d", len(p.PlayerScores), len(tt.players))
				}
				for i, w := range tt.players {
					ps := p.PlayerScores[i]
					check(w.name+".name", f.Players[ps.PlayerRefID-1].Name, w.name)
					check(w.name+".score", ps.Score, w.score)
					check(w.name+".rank", ps.Rank, w.rank)
					check(w.name+".winner", ps.Winner, w.winner)
					check(w.name+".startPlayer", ps.StartPlayer, w.startPlayer)
					check(w.name+".seatOrder", ps.SeatOrder, w.seatOrder)
				}
			} else {
				// Dschunke: the first player starts; one winner at rank 1.
				winners := 0
				for i, ps := range p.PlayerScores {
					check("startPlayer of seat "+itoa(i+1), ps.StartPlayer, i == 0)
					if ps.Winner {
						winners++
						check("winner's rank", ps.Rank, 1)
					}
					if ps.Score == "" || ps.Rank < 1 {
						t.Errorf("seat %d: score %q rank %d, want points and a rank", i+1, ps.Score, ps.Rank)
					}
				}
				if winners != 1 {
					t.Errorf("%d winners, want 1", winners)
				}
			}

			// The link carries the same play, dated in UTC.
			out, errs, code = runCmd(t, "export", "--config", cfg, "--game", itoa(tt.game), "--format", "link")
			if code != 0 {
				t.Fatalf("export link: exit %d: %s", code, errs)
			}
			link := strings.TrimSpace(out)
			data, ok := strings.CutPrefix(link, bgstats.LinkBase+"?data=")
			if !ok {
				t.Fatalf("link %q does not start with %s?data=", link, bgstats.LinkBase)
			}
			js, err := url.QueryUnescape(data)
			if err != nil {
				t.Fatal(err)
			}
			var l bgstats.Link
			if err := json.Unmarshal([]byte(js), &l); err != nil {
				t.Fatal(err)
			}
			check("link.playDate", l.PlayDate, tt.linkDate)
			check("link.durationMin", l.DurationMin, tt.duration)
			check("link.location", l.Location, "Café du Port")
			check("link.game.bggId", l.Game.BGGID, tt.bggID)
			check("link.game.noPoints", l.Game.NoPoints, tt.noPoints)
			check("link.sourcePlayId", l.SourcePlayID, p.UUID)
			for i, lp := range l.Players {
				ps := p.PlayerScores[i]
				check("link player name", lp.Name, f.Players[ps.PlayerRefID-1].Name)
				check(lp.Name+" link winner", lp.Winner, ps.Winner)
				check(lp.Name+" link startPlayer", lp.StartPlayer, ps.StartPlayer)
				check(lp.Name+" link rank", lp.Rank, ps.Rank)
				if (lp.Score == nil) != tt.noPoints {
					t.Errorf("%s: link score %v with noPoints %v", lp.Name, lp.Score, tt.noPoints)
				}
			}
		})
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestPlaysAndExportErrors(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "table.db")
	start := time.Date(2026, 11, 21, 18, 30, 0, 0, time.UTC)
	writeJournal(t, db, []journalGame{
		{"../../games/negoce/testdata/anna-wins.txt", start, time.Minute, true},
		{"../../games/negoce/testdata/anna-wins.txt", start.Add(time.Hour), time.Minute, false},
	})
	tests := []struct {
		args     []string
		code     int
		contains []string
	}{
		{[]string{"plays", "--journal", db, "--timezone", "Europe/Paris"}, 0, []string{"GAME", "negoce", "Anna, Bruno, Chloé, David", "2026-11-21 19:30", "over", "2026-11-21 20:30", "playing"}},
		{[]string{"plays"}, 2, []string{"name the journal"}},
		{[]string{"plays", "--journal", filepath.Join(dir, "none.db")}, 1, []string{"none.db"}},
		{[]string{"export", "--journal", db, "--game", "2"}, 1, []string{"game 2 of", "is still being played"}},
		{[]string{"export", "--journal", db, "--game", "7"}, 1, []string{"no game 7"}},
		{[]string{"export", "--journal", db, "--format", "pdf"}, 2, []string{`--format "pdf"`}},
		{[]string{"export", "--journal", db, "--game", "2", "--format", "record"}, 0, []string{`[Game "negoce"]`, "Bruno: bid price=1", `[Journal "2"]`}},
		{[]string{"export", "--journal", db, "--format", "bgstats"}, 0, []string{`"sourceName": "Comptoir"`, `"noPoints": true`, `"playDate": "2026-11-21 18:30:00"`}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args[:1], " ")+" "+strings.Join(tt.args[min(3, len(tt.args)):], " "), func(t *testing.T) {
			out, errs, code := runCmd(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, out, errs)
			}
			for _, c := range tt.contains {
				if !strings.Contains(out+errs, c) {
					t.Errorf("output does not contain %q:\n%s%s", c, out, errs)
				}
			}
		})
	}
}
