package genoa

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"comptoir/engine"
	"comptoir/notation"
)

var update = flag.Bool("update", false, "rewrite the game records and golden scores in testdata")

// The example game records in testdata. They were played by a weighted
// random player (it prefers actions, deliveries and deals to wandering)
// and written with -update; the golden test replays them through the
// notation and checks the final scores.
var exampleRecords = []struct {
	file    string
	edition string
	players []string
	seed    uint64
}{
	{"alea-2001-5p.txt", "alea-2001", []string{"Anna", "Bruno", "Chloé", "Denis", "Emma"}, 11},
	{"alea-2001-3p.txt", "alea-2001", []string{"Anna", "Bruno", "Chloé"}, 12},
	{"filosofia-2008-5p.txt", "filosofia-2008", []string{"Philippe", "Mathieu", "Anna", "Bruno", "Chloé"}, 13},
	{"filosofia-2008-2p.txt", "filosofia-2008", []string{"Philippe", "Mathieu"}, 14},
}

// weight is how much the example player likes an action.
func weight(a engine.Action) int {
	switch c := a.Cmd.(type) {
	case Act:
		if c.Order != "" {
			return 200
		}
		return 30
	case Deliver:
		return 200
	case Accept:
		return 10
	case Deal:
		return 6
	case Offer:
		return 3
	case Move:
		return 8
	case End:
		return 2
	case Take, Trade, Build:
		return 3
	case Extra:
		return 2
	case Acquire:
		return 8 * (len(c.Place) + 1)
	case Pass:
		return 1
	}
	return 1
}

// botGame plays a game with the example player and returns its record.
func botGame(t testing.TB, r *Rules, edition string, players []string, seed uint64) *notation.Record {
	t.Helper()
	setup := engine.Setup{Game: "genoa", Variant: edition, Players: players}
	st, err := r.Start(setup)
	if err != nil {
		t.Fatal(err)
	}
	rec := notation.New(setup, notation.Tag{Key: "Event", Value: fmt.Sprintf("example game, weighted random player, seed %d", seed)})
	rng := rand.New(rand.NewPCG(seed, 99))
	for steps := 0; !st.(*State).Over(); steps++ {
		if steps > 20000 {
			t.Fatal("the example game does not end")
		}
		legal := st.Legal()
		total := 0
		for _, a := range legal {
			total += weight(a)
		}
		pick := rng.IntN(total)
		var a engine.Action
		for _, x := range legal {
			if pick -= weight(x); pick < 0 {
				a = x
				break
			}
		}
		// Draws and rolls come from the table (the NFC reader, the dice camera).
		switch a.Cmd.(type) {
		case Draw, Roll:
			a.By = engine.NoSeat
		}
		next, evs, err := engine.Play(st, a)
		if err != nil {
			t.Fatalf("%s: %v", codec.FormatCommand(a.Cmd, players), err)
		}
		var notes []string
		for _, ev := range evs {
			switch ev.(type) {
			case Transfer, Delivered, TrackAdvanced, Acquired:
				notes = append(notes, st.(*State).Describe(ev, "fr"))
			}
			st, _ = st.Apply(ev)
		}
		_ = next
		rec.Add(codec, a, strings.Join(notes, " ; "))
	}
	res := st.Result()
	rec.Tags = append(rec.Tags, notation.Tag{Key: "Result", Value: scoreLine(res)})
	return rec
}

// scoreLine writes a result on one line: each player's total and its
// breakdown, and the winners.
func scoreLine(r engine.Result) string {
	var parts []string
	for _, s := range r.Scores {
		var b []string
		for _, p := range s.Parts {
			b = append(b, fmt.Sprintf("%s %d", p.Name, p.Points))
		}
		parts = append(parts, fmt.Sprintf("%s %d (%s, tie-break %d, rank %d)", s.Player, s.Total, strings.Join(b, ", "), s.TieBreak, s.Rank))
	}
	var w []string
	for _, s := range r.Winners {
		w = append(w, r.Scores[s].Player)
	}
	return strings.Join(parts, "; ") + "; winner " + strings.Join(w, ", ")
}

func TestExampleRecords(t *testing.T) {
	r := realRules(t)
	for _, ex := range exampleRecords {
		t.Run(ex.file, func(t *testing.T) {
			path := filepath.Join("testdata", ex.file)
			golden := strings.TrimSuffix(path, ".txt") + ".scores"
			if *update {
				rec := botGame(t, r, ex.edition, ex.players, ex.seed)
				var buf bytes.Buffer
				if err := notation.Write(&buf, rec); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			rec, err := notation.Read(f, path)
			if err != nil {
				t.Fatal(err)
			}
			st, err := notation.Play(r, rec)
			if err != nil {
				t.Fatal(err)
			}
			res := st.Result()
			if !res.Over {
				t.Fatalf("the record ends before the game is over")
			}
			got := strings.ReplaceAll(scoreLine(res), "; ", "\n") + "\n"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("final scores of %s:\n%s\nwant (%s):\n%s", path, got, golden, want)
			}
			if tag, _ := rec.Tag("Result"); tag != scoreLine(res) {
				t.Errorf("Result tag %q, scores %q", tag, scoreLine(res))
			}
			if err := st.(*State).Check(); err != nil {
				t.Error(err)
			}
		})
	}
}

// BenchmarkReplay5Players replays the 5-player example record from its
// text: reading, parsing and playing every line.
func BenchmarkReplay5Players(b *testing.B) {
	r := realRules(b)
	data, err := os.ReadFile(filepath.Join("testdata", "alea-2001-5p.txt"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		rec, err := notation.Read(bytes.NewReader(data), "alea-2001-5p.txt")
		if err != nil {
			b.Fatal(err)
		}
		st, err := notation.Play(r, rec)
		if err != nil || !st.Result().Over {
			b.Fatal(err)
		}
	}
}
