package notation

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"comptoir/engine"
	"comptoir/engine/enginetest"
)

func readFile(t *testing.T, path string) *Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := Read(f, path)
	if err != nil {
		t.Fatalf("Read(%s): %v", path, err)
	}
	return rec
}

func TestPlayRecord(t *testing.T) {
	rec := readFile(t, "testdata/tally-3p.txt")
	if got, want := rec.Setup.Players, []string{"Anna", "Bruno", "Chloé"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("players = %q, want %q", got, want)
	}
	if d, _ := rec.Tag("Date"); d != "2026-11-21" {
		t.Errorf("Tag(Date) = %q", d)
	}
	s, err := Play(enginetest.Rules{}, rec)
	if err != nil {
		t.Fatalf("Play: %v", err)
	}
	res := s.Result()
	if !res.Over {
		t.Fatalf("game not over after the record")
	}
	if len(res.Winners) != 1 || res.Winners[0] != 0 {
		t.Errorf("winners = %v, want [seat 1] (Anna, 9 coins)", res.Winners)
	}
	if got := res.Scores[1].Total; got != 0 {
		t.Errorf("Bruno (took the last coin) scores %d, want 0", got)
	}
}

func TestPlayStopsAtIllegalLine(t *testing.T) {
	rec := readFile(t, "testdata/tally-illegal.txt")
	_, err := Play(enginetest.Rules{}, rec)
	var le *LineError
	if !errors.As(err, &le) {
		t.Fatalf("Play = %v, want a *LineError", err)
	}
	if le.Line != 5 {
		t.Errorf("error at line %d, want 5", le.Line)
	}
	if !errors.Is(err, enginetest.ErrTakeCount) || !errors.Is(err, engine.ErrIllegal) {
		t.Errorf("error %v does not match the rule broken", err)
	}
	if want := "testdata/tally-illegal.txt:5: you cannot take 4 coins"; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error = %q, want prefix %q", err, want)
	}
}

func TestRoundTrip(t *testing.T) {
	rec := readFile(t, "testdata/tally-3p.txt")
	var buf bytes.Buffer
	if err := Write(&buf, rec); err != nil {
		t.Fatal(err)
	}
	again, err := Read(&buf, "again")
	if err != nil {
		t.Fatalf("Read(Write(rec)): %v\n%s", err, buf.String())
	}
	if len(again.Lines) != len(rec.Lines) {
		t.Fatalf("%d lines after round trip, want %d", len(again.Lines), len(rec.Lines))
	}
	for i := range rec.Lines {
		a, b := rec.Lines[i], again.Lines[i]
		if a.By != b.By || a.Command != b.Command || a.Comment != b.Comment {
			t.Errorf("line %d = %+v, want %+v", i, b, a)
		}
	}
}

func TestNewAddWrite(t *testing.T) {
	setup := engine.Setup{Game: "tally", Players: []string{"Anna", "Bruno"}, Options: map[string]string{"pile": "5"}}
	rec := New(setup, Tag{"Table", "7"})
	c := enginetest.Rules{}.Codec()
	rec.Add(c, engine.Action{By: 0, Cmd: enginetest.Take{N: 3}}, "")
	rec.Add(c, engine.Action{By: 1, Cmd: enginetest.Take{N: 2}}, "the last two")
	var buf bytes.Buffer
	if err := Write(&buf, rec); err != nil {
		t.Fatal(err)
	}
	want := "[Game \"tally\"]\n[Players \"Anna, Bruno\"]\n[Option \"pile=5\"]\n[Table \"7\"]\n\nAnna: take n=3\nBruno: take n=2 # the last two\n"
	if buf.String() != want {
		t.Errorf("Write =\n%s\nwant\n%s", buf.String(), want)
	}
	back, err := Read(strings.NewReader(want), "x")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Play(enginetest.Rules{}, back)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Result().Over {
		t.Error("a pile of 5 taken 3+2 should end the game")
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"no game", "[Players \"A, B\"]\ntake n=1\n", "x:2: record syntax: the header has no [Game"},
		{"no players", "[Game \"tally\"]\n", "x:1: record syntax: the header has no [Players"},
		{"unquoted", "[Game tally]\n", "x:1: record syntax: tag Game: the value must be in double quotes"},
		{"late tag", "[Game \"tally\"]\n[Players \"A, B\"]\nA: take n=1\n[Date \"x\"]\n", "x:4: record syntax: header tag"},
		{"dup player", "[Game \"tally\"]\n[Players \"A, a\"]\n", "x:2: record syntax: player \"a\" named twice"},
		{"bad option", "[Game \"tally\"]\n[Option \"pile\"]\n", "x:2: record syntax: tag Option \"pile\""},
		{"empty command", "[Game \"tally\"]\n[Players \"A, B\"]\nA:\n", "x:3: record syntax: \"A:\" has no command"},
		{"game twice", "[Game \"tally\"]\n[Game \"genoa\"]\n", "x:2: record syntax: tag Game given twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tt.text), "x")
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("Read(%q) = %v, want prefix %q", tt.text, err, tt.want)
			}
			if !errors.Is(err, ErrSyntax) {
				t.Errorf("error %v is not ErrSyntax", err)
			}
		})
	}
}

func TestActionsBadCommand(t *testing.T) {
	tests := []struct{ line, want string }{
		{"A: fly", `x:4: "fly" is not a command of tally`},
		{"A: take m=1", `x:4: take: "m" is not an argument`},
		{"A: take n=one", `x:4: take: n=one: "one" is not a whole number`},
		{"A: take n=1 n=2", `x:4: take: n given twice`},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			rec, err := Read(strings.NewReader("[Game \"tally\"]\n[Players \"A, B\"]\n\n"+tt.line+"\n"), "x")
			if err != nil {
				t.Fatal(err)
			}
			_, err = rec.Actions(enginetest.Rules{}.Codec())
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("Actions = %v, want prefix %q", err, tt.want)
			}
		})
	}
}

func FuzzRead(f *testing.F) {
	for _, p := range []string{"testdata/tally-3p.txt", "testdata/tally-illegal.txt"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("[Game \"x\"]\n[Players \"a\"]\na: b c=\"d # e\" # f\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := Read(bytes.NewReader(data), "fuzz")
		if err != nil {
			return
		}
		// What was read must write and read back the same.
		var buf bytes.Buffer
		if err := Write(&buf, rec); err != nil {
			t.Fatal(err)
		}
		again, err := Read(&buf, "again")
		if err != nil {
			t.Fatalf("Read(Write(rec)) = %v\n%s", err, buf.String())
		}
		if len(again.Lines) != len(rec.Lines) {
			t.Fatalf("%d lines after round trip, want %d", len(again.Lines), len(rec.Lines))
		}
		if rec.Setup.Game == "tally" {
			// Playing any record must not panic.
			_, _ = Play(enginetest.Rules{}, rec)
		}
	})
}
