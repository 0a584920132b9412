package table

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/games/kit"
	"comptoir/input"
	"comptoir/journal"
)

// TestCorrectDice: the player who threw corrects the camera's reading
// from their phone (CorrectDice) while it is the last step: the reading
// is undone as theirs with a misread reason that names them, which
// Misreads counts and the log tells in both languages, and the roll they
// saw is played; another seat, a stale or wrong step, a roll the dice
// cannot show and the faces read are refused, and change nothing.
func TestCorrectDice(t *testing.T) {
	checkLeaks(t)
	read := func(blue, red input.Face) func(*rig) error {
		return func(r *rig) error { r.input(input.DiceRolled{Blue: blue, Red: red, Confidence: 1}); return nil }
	}
	// fix is seat's correction of the step back steps before the last
	// (0: the last).
	fix := func(seat engine.Seat, back int64, blue, red int) func(*rig) error {
		return func(r *rig) error {
			return r.s.CorrectDice(context.Background(), seat, r.latest().Seq-back, blue, red)
		}
	}
	take := func(seat engine.Seat) func(*rig) error {
		return func(r *rig) error {
			return r.s.Submit(context.Background(), engine.Action{By: seat, Cmd: enginetest.Take{N: 1}})
		}
	}
	staff := func(blue, red int) func(*rig) error {
		return func(r *rig) error {
			return r.s.Staff(context.Background(), StaffRequest{Kind: StaffDice, Blue: blue, Red: red})
		}
	}
	for _, tc := range []struct {
		name      string
		do        []func(*rig) error
		want      error // of the last of do
		wantTaken int   // Anna's holding
		wantSteps int
		misreads  int
		reason    string // the undo's reason, "" for none
		undoBy    engine.Seat
		noteWhy   string // the DiceMisread note's English words, "" for none
	}{
		{"the thrower corrects", []func(*rig) error{read(2, 3), fix(0, 0, 3, 3)}, nil, 3, 3, 1,
			MisreadPrefix + "read blue=2 red=3, Anna saw blue=3 red=3", 0, "Anna saw blue 3, red 3"},
		{"another seat", []func(*rig) error{read(2, 3), fix(1, 0, 3, 3)}, ErrNotThrower, 2, 1, 0, "", 0, ""},
		{"the game moved on", []func(*rig) error{read(2, 3), take(1), fix(0, 1, 3, 3)}, ErrMisreadLate, 2, 2, 0, "", 0, ""},
		{"a step that is not the reading", []func(*rig) error{read(2, 3), fix(0, 1, 3, 3)}, ErrMisreadLate, 2, 1, 0, "", 0, ""},
		{"nothing read", []func(*rig) error{take(0), fix(0, 0, 3, 3)}, ErrMisreadLate, 1, 1, 0, "", 0, ""},
		{"entered by the staff", []func(*rig) error{staff(2, 3), fix(0, 0, 3, 3)}, ErrMisreadLate, 2, 1, 0, "", 0, ""},
		{"corrected twice", []func(*rig) error{read(2, 3), fix(0, 0, 3, 3), fix(0, 0, 1, 3)}, ErrMisreadLate, 3, 3, 1,
			MisreadPrefix + "read blue=2 red=3, Anna saw blue=3 red=3", 0, "Anna saw blue 3, red 3"},
		{"the faces read", []func(*rig) error{read(2, 3), fix(0, 0, 2, 3)}, ErrSameRoll, 2, 1, 0, "", 0, ""},
		{"not a roll", []func(*rig) error{read(2, 3), fix(0, 0, 9, 3)}, ErrNotARoll, 2, 1, 0, "", 0, ""},
		{"no face", []func(*rig) error{read(2, 3), fix(0, 0, 0, 3)}, ErrNotARoll, 2, 1, 0, "", 0, ""},
		{"the staff correct it", []func(*rig) error{read(2, 3), staff(3, 3)}, nil, 3, 3, 1,
			MisreadPrefix + "read blue=2 red=3, the players saw blue=3 red=3", engine.Staff, "the players saw blue 3, red 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var notes []DiceNote
			r := newRigOpts(t, "", enginetest.Rules{}, tallySetup, lookup, func(o *Opts) {
				o.DiceNote = func(n DiceNote) { notes = append(notes, n) }
			})
			r.t = t
			var err error
			for _, f := range tc.do {
				err = f(r)
			}
			if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("last call = %v, want %v", err, tc.want)
			}
			if ref, ok := engine.AsRefusal(err); tc.want != nil && (!ok || ref.EN == "" || ref.FR == "") {
				t.Errorf("refusal %+v, want one in both languages", ref)
			}
			u := r.latest()
			if _, h := held(t, u.State); h[0] != tc.wantTaken {
				t.Errorf("Anna holds %d, want %d", h[0], tc.wantTaken)
			}
			steps := r.game.Steps()
			if len(steps) != tc.wantSteps {
				t.Fatalf("journal = %+v, want %d steps", steps, tc.wantSteps)
			}
			if got := Misreads(steps); got != tc.misreads {
				t.Errorf("Misreads = %d, want %d", got, tc.misreads)
			}
			var undo *journal.Step
			for i := range steps {
				if steps[i].Undo {
					undo = &steps[i]
				}
			}
			switch {
			case tc.reason == "" && undo != nil:
				t.Errorf("undo %+v, want none", *undo)
			case tc.reason != "" && (undo == nil || undo.Reason != tc.reason || undo.By != tc.undoBy):
				t.Errorf("undo %+v, want one by %v with reason %q", undo, tc.undoBy, tc.reason)
			}
			var why string
			for _, n := range notes {
				if n.Fate == DiceMisread {
					why = n.Why.EN
				}
			}
			if why != tc.noteWhy {
				t.Errorf("misread note %q, want %q", why, tc.noteWhy)
			}
			if tc.reason != "" {
				if u.Reading != nil {
					t.Errorf("Reading %+v after the roll entered by hand, want none", *u.Reading)
				}
				var line LogLine
				for _, l := range u.Log {
					if l.Seq == undo.Seq {
						line = l
					}
				}
				who, whoFR := "Anna saw", "Anna a vu"
				if tc.undoBy == engine.Staff {
					who, whoFR = "the players saw", "les joueurs ont vu"
				}
				if !strings.Contains(line.EN, "dice misread: the camera read blue 2, red 3; "+who+" blue 3, red 3") ||
					!strings.Contains(line.FR, "dés mal lus : la caméra a lu bleu 2, rouge 3 ; "+whoFR+" bleu 3, rouge 3") {
					t.Errorf("the undo's log line %+v, want the misread in both languages", line)
				}
			}
		})
	}
}

// TestReading: the update tells the camera's reading while it is the
// last step, with the seat that threw: the seat whose phone may enter
// the roll (kit.Play), or else the seat the game waited for.
func TestReading(t *testing.T) {
	checkLeaks(t)
	// chloeRolls gives Chloé a phone action that enters the dice as the
	// table's camera does (Tally's adapter: blue's face, counted 1-3).
	chloeRolls := func(o *Opts) {
		p := *o.Kit.Play
		p.Actions = func(s engine.State, seat engine.Seat) []kit.Action {
			if seat != 2 {
				return nil
			}
			die := func(key string) kit.Field { return kit.Field{Key: key, Options: []kit.Option{{Value: "1"}}} }
			return []kit.Action{{ID: "roll", Fields: []kit.Field{die("r"), die("b")}, By: engine.NoSeat,
				Build: func(v map[string]string) (engine.Command, error) {
					n, err := strconv.Atoi(v["b"])
					return enginetest.Take{N: (n-1)%3 + 1}, err
				}}}
		}
		o.Kit.Play = &p
	}
	for _, tc := range []struct {
		name string
		set  func(*Opts)
		want engine.Seat
	}{
		{"the seat the game waited for", nil, 0},
		{"the seat whose phone enters the roll", chloeRolls, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRigOpts(t, "", enginetest.Rules{}, tallySetup, lookup, tc.set)
			if u := r.latest(); u.Reading != nil {
				t.Errorf("Reading %+v before any roll", *u.Reading)
			}
			r.input(input.DiceRolled{Blue: 5, Red: 7, Confidence: 1})
			u := r.latest()
			if want := (Reading{Seq: u.Seq, Blue: 5, Red: 7, Thrower: tc.want}); u.Reading == nil || *u.Reading != want {
				t.Fatalf("Reading %+v, want %+v", u.Reading, want)
			}
			if err := r.s.Submit(context.Background(), engine.Action{By: 1, Cmd: enginetest.Take{N: 1}}); err != nil {
				t.Fatal(err)
			}
			if u := r.latest(); u.Reading != nil {
				t.Errorf("Reading %+v after another step, want none", *u.Reading)
			}
		})
	}
}
