package vision

import "fmt"

// Score tallies readings against labels. A die read as its label is
// right, one read as another face is wrong, one reported uncertain is
// rejected. A label of 0 ("?" in labels.csv) means the die must not be
// read (two dice touching, a die cocked against a wall or partly out of
// the picture): refusing it is its right answer (the output "?" is its
// label), so it counts as right, and in Refused; a face read for it is
// wrong.
//
// Readable says how the dice that can be read fared, apart from those
// that must be refused.
type Score struct {
	Right, Wrong, Rejected int
	// MustReject counts the dice labelled 0, Refused those of them that
	// were rejected (they are among Right).
	MustReject, Refused int
}

// Add counts one die labelled want and read as got (0: uncertain).
func (s *Score) Add(want, got int) {
	switch {
	case want == 0 && got == 0:
		s.MustReject++
		s.Refused++
		s.Right++
	case want == 0:
		s.MustReject++
		s.Wrong++
	case got == 0:
		s.Rejected++
	case got == want:
		s.Right++
	default:
		s.Wrong++
	}
}

// merge adds o's counts to s.
func (s *Score) merge(o *Score) {
	s.Right += o.Right
	s.Wrong += o.Wrong
	s.Rejected += o.Rejected
	s.MustReject += o.MustReject
	s.Refused += o.Refused
}

// Total is the number of dice counted.
func (s Score) Total() int { return s.Right + s.Wrong + s.Rejected }

func (s Score) rate(n int) float64 {
	if s.Total() == 0 {
		return 0
	}
	return float64(n) / float64(s.Total())
}

// Accuracy is the fraction of dice read right (a die that must be refused
// is right when refused).
func (s Score) Accuracy() float64 { return s.rate(s.Right) }

// WrongRate is the fraction of dice read as another face (or read at all
// when they must be refused).
func (s Score) WrongRate() float64 { return s.rate(s.Wrong) }

// RejectRate is the fraction of readable dice reported uncertain, over
// all the dice.
func (s Score) RejectRate() float64 { return s.rate(s.Rejected) }

// Readable is the score of the dice that can be read: those that must be
// refused left out.
func (s Score) Readable() Score {
	wrongRefused := s.MustReject - s.Refused
	return Score{Right: s.Right - s.Refused, Wrong: s.Wrong - wrongRefused, Rejected: s.Rejected}
}

func (s Score) String() string {
	str := fmt.Sprintf("%d dice: accuracy %.2f%%, rejected %.2f%%, wrong %.2f%%",
		s.Total(), 100*s.Accuracy(), 100*s.RejectRate(), 100*s.WrongRate())
	if s.MustReject > 0 {
		rd := s.Readable()
		str += fmt.Sprintf(" (%d of the %d dice that must be refused were; the %d readable dice: %.2f%% right, %.2f%% rejected, %.2f%% wrong)",
			s.Refused, s.MustReject, rd.Total(), 100*rd.Accuracy(), 100*rd.RejectRate(), 100*rd.WrongRate())
	}
	return str
}
