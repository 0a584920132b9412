package vision

import (
	"reflect"
	"strings"
	"testing"
)

// TestStages: each die is counted at the stage where it was lost, and
// the reliability curve counts the classifier's top answers at least as
// sure as each threshold, right and wrong.
func TestStages(t *testing.T) {
	for _, tc := range []struct {
		name       string
		want       int
		die        Die
		stage      func(*Stages) int
		right, bad [len(StageThresholds)]int
	}{
		{"not found", 3, Die{Why: Why{Code: WhyNotFound}}, func(s *Stages) int { return s.NotFound }, [4]int{}, [4]int{}},
		{"no crop", 3, Die{Found: true, Why: Why{Code: WhyTooSmall}}, func(s *Stages) int { return s.NoCrop }, [4]int{}, [4]int{}},
		{"read right", 3, Die{Found: true, Face: 3, Confidence: 0.99}, func(s *Stages) int { return s.ReadRight }, [4]int{1, 1, 1, 1}, [4]int{}},
		{"read wrong", 3, Die{Found: true, Face: 5, Confidence: 0.98}, func(s *Stages) int { return s.TopWrong }, [4]int{}, [4]int{1, 1, 1, 1}},
		{"unsure, right guess", 3, Die{Found: true, Guess: 3, Confidence: 0.85}, func(s *Stages) int { return s.TopRightUnsure }, [4]int{1, 1, 0, 0}, [4]int{}},
		{"unsure, wrong guess", 3, Die{Found: true, Guess: 4, Confidence: 0.6}, func(s *Stages) int { return s.TopWrong }, [4]int{}, [4]int{1, 0, 0, 0}},
		{"unlabelled", 0, Die{Found: true, Face: 2, Confidence: 1}, func(s *Stages) int { return s.Dice + 1 }, [4]int{}, [4]int{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s Stages
			s.add(tc.want, tc.die)
			if got := tc.stage(&s); got != 1 {
				t.Errorf("stage count %d, want 1 (%+v)", got, s)
			}
			if s.Right != tc.right || s.Wrong != tc.bad {
				t.Errorf("reliability right %v wrong %v, want %v and %v", s.Right, s.Wrong, tc.right, tc.bad)
			}
			var m Stages
			m.merge(&s)
			m.merge(&s)
			if m.Dice != 2*s.Dice || m.Right[0] != 2*s.Right[0] {
				t.Errorf("merged twice: %+v from %+v", m, s)
			}
			var b strings.Builder
			s.Write(&b)
			if !strings.Contains(b.String(), "top-1 accuracy") || !strings.Contains(b.String(), "0.97") {
				t.Errorf("Write:\n%s", b.String())
			}
		})
	}
}

// TestReportMisreads: a report lists the dice it counts wrong (read as
// another face, or read when they had to be refused; not those read right
// or refused), keeps them when merged, and prints them with their
// picture, die and confidence.
func TestReportMisreads(t *testing.T) {
	var rp Report
	rp.add(map[string]string{"file": "a.jpg"}, "blue", 3, Die{Found: true, Face: 3, Confidence: 0.99})
	rp.add(map[string]string{"file": "b.jpg"}, "red", 1, Die{Found: true, Face: 2, Confidence: 0.9965})
	rp.add(map[string]string{"file": "c.jpg"}, "red", 4, Die{Found: true, Guess: 7, Confidence: 0.6})
	rp.add(map[string]string{"file": "d.jpg"}, "blue", 0, Die{Found: true, Face: 5, Confidence: 1})
	want := []Misread{{File: "b.jpg", Die: "red", Want: 1, Got: 2, Confidence: 0.9965}, {File: "d.jpg", Die: "blue", Want: 0, Got: 5, Confidence: 1}}
	if !reflect.DeepEqual(rp.Misreads, want) || len(rp.Misreads) != rp.All.Wrong {
		t.Errorf("misreads %+v (%d counted wrong), want %+v", rp.Misreads, rp.All.Wrong, want)
	}
	var m Report
	m.merge(&rp)
	m.merge(&rp)
	if len(m.Misreads) != 4 {
		t.Errorf("merged twice: %d misreads, want 4", len(m.Misreads))
	}
	var b strings.Builder
	rp.Write(&b)
	if !strings.Contains(b.String(), "b.jpg red: 1 read as 2 (99.7%)") || !strings.Contains(b.String(), "d.jpg blue: ? read as 5 (100.0%)") || strings.Contains(b.String(), "a.jpg") {
		t.Errorf("Write:\n%s", b.String())
	}
	var right Report
	right.add(map[string]string{"file": "a.jpg"}, "blue", 3, Die{Found: true, Face: 3, Confidence: 0.99})
	b.Reset()
	right.Write(&b)
	if strings.Contains(b.String(), "read wrong") {
		t.Errorf("a report with no misread prints a list:\n%s", b.String())
	}
}

// TestReportRefused: a report counts the dice labelled 1 to 8 that were
// refused by their reason (not those read, nor the dice to refuse),
// keeps the counts when merged, and prints them the commonest first.
func TestReportRefused(t *testing.T) {
	var rp Report
	rp.add(map[string]string{"file": "a.jpg"}, "blue", 3, Die{Found: true, Why: Why{Code: WhyTilted, Face: 3}})
	rp.add(map[string]string{"file": "a.jpg"}, "red", 5, Die{Found: true, Why: Why{Code: WhyCocked, Pct: 70}})
	rp.add(map[string]string{"file": "b.jpg"}, "blue", 6, Die{Found: true, Why: Why{Code: WhyCocked, Pct: 90}})
	rp.add(map[string]string{"file": "b.jpg"}, "red", 2, Die{Found: true, Face: 2, Confidence: 1})
	rp.add(map[string]string{"file": "c.jpg"}, "blue", 0, Die{Found: true, Why: Why{Code: WhyTouching}})
	var want [numWhyCodes]int
	want[WhyTilted], want[WhyCocked] = 1, 2
	if rp.Refused != want {
		t.Errorf("refused %v, want %v", rp.Refused, want)
	}
	var m Report
	m.merge(&rp)
	m.merge(&rp)
	if m.Refused[WhyCocked] != 4 || m.Refused[WhyTilted] != 2 {
		t.Errorf("merged twice: refused %v", m.Refused)
	}
	var b strings.Builder
	rp.Write(&b)
	out := b.String()
	cocked, tilted := strings.Index(out, WhyCocked.Name()), strings.Index(out, WhyTilted.Name())
	if !strings.Contains(out, "refused, by reason (of the 4 dice labelled 1-8):") || cocked < 0 || tilted < cocked || !strings.Contains(out, "50.00%") {
		t.Errorf("Write, want the reasons, cocked (2 of 4) before tilted:\n%s", out)
	}
	if strings.Contains(out, WhyTouching.Name()) {
		t.Errorf("Write counts a die to refuse as refused:\n%s", out)
	}
}
