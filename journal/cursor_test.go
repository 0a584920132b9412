package journal

import (
	"path/filepath"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/engine/enginetest"
)

func TestCursorAndStepsAfter(t *testing.T) {
	st, err := Open(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if c, err := st.Cursor("cafe"); err != nil || c != (Cursor{}) {
		t.Fatalf("Cursor of a new journal = %+v, %v; want zero, nil", c, err)
	}
	want := Cursor{Game: 3, Seq: 7, Ended: true}
	if err := st.SetCursor("cafe", want); err != nil {
		t.Fatal(err)
	}
	if err := st.SetCursor("other", Cursor{Game: 1}); err != nil {
		t.Fatal(err)
	}
	if c, err := st.Cursor("cafe"); err != nil || c != want {
		t.Fatalf("Cursor = %+v, %v; want %+v", c, err, want)
	}
	rules := enginetest.Rules{}
	g, err := st.Begin(rules, engine.Setup{Game: "tally", Players: []string{"A", "B"}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	s, err := rules.Start(g.Setup())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		a := s.Legal()[0]
		var evs []engine.Event
		if s, evs, err = engine.Play(s, a); err != nil {
			t.Fatal(err)
		}
		if _, err := g.Append(time.Now(), a, evs); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := g.Undo(time.Now(), engine.Staff, "test"); err != nil {
		t.Fatal(err)
	}
	all := g.Steps()
	for _, after := range []int64{0, 2, 5} {
		got, err := st.StepsAfter(rules, g.ID(), after)
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(got)) != 5-after {
			t.Fatalf("StepsAfter(%d) = %d steps, want %d", after, len(got), 5-after)
		}
		for i, s := range got {
			w := all[after+int64(i)]
			if s.Seq != w.Seq || s.Command != w.Command || s.Undo != w.Undo || len(s.Events) != len(w.Events) {
				t.Fatalf("StepsAfter(%d)[%d] = %+v, want %+v", after, i, s, w)
			}
		}
	}
}
