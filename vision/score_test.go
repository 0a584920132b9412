package vision

import "testing"

func TestScore(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		adds                  [][2]int // want, got
		right, wrong, rejectd int
		readable              Score
	}{
		{"read right", [][2]int{{3, 3}}, 1, 0, 0, Score{Right: 1}},
		{"read wrong", [][2]int{{3, 5}}, 0, 1, 0, Score{Wrong: 1}},
		{"rejected", [][2]int{{3, 0}}, 0, 0, 1, Score{Rejected: 1}},
		{"must be refused, refused", [][2]int{{0, 0}}, 1, 0, 0, Score{}},
		{"must be refused, read", [][2]int{{0, 4}}, 0, 1, 0, Score{}},
		{"mixed", [][2]int{{1, 1}, {2, 0}, {0, 0}, {0, 7}, {8, 6}}, 2, 2, 1, Score{Right: 1, Wrong: 1, Rejected: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s Score
			for _, a := range tc.adds {
				s.Add(a[0], a[1])
			}
			if s.Right != tc.right || s.Wrong != tc.wrong || s.Rejected != tc.rejectd || s.Total() != len(tc.adds) {
				t.Errorf("score %+v, want right %d wrong %d rejected %d of %d", s, tc.right, tc.wrong, tc.rejectd, len(tc.adds))
			}
			if rd := s.Readable(); rd != tc.readable {
				t.Errorf("readable %+v, want %+v", rd, tc.readable)
			}
		})
	}
}

// TestDiceTooSmall: the one test of "bring the camera lower" that the
// staff page, comptoir calibrate and the tables report share.
func TestDiceTooSmall(t *testing.T) {
	for _, tc := range []struct {
		across float64
		want   bool
	}{
		{0, false}, // not known yet
		{-3, false},
		{25, true},
		{39.9, true},
		{SmallDieAcross, false},
		{120, false},
	} {
		if got := DiceTooSmall(tc.across); got != tc.want {
			t.Errorf("DiceTooSmall(%g) = %v, want %v", tc.across, got, tc.want)
		}
	}
}

// TestScoreMerge: merging two Scores counts every die of both.
func TestScoreMerge(t *testing.T) {
	var a, b, both Score
	for i, d := range [][2]int{{3, 3}, {0, 0}, {4, 0}, {5, 6}, {0, 2}} {
		s := &a
		if i%2 == 1 {
			s = &b
		}
		s.Add(d[0], d[1])
		both.Add(d[0], d[1])
	}
	a.merge(&b)
	if a != both {
		t.Errorf("merged %+v, want %+v", a, both)
	}
}
