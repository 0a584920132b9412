package vision

import "fmt"

// Score tallies readings against labels: a die read as its label is right,
// one read as another face is wrong, one reported uncertain is rejected. A
// label of 0 means the die must not be read (two dice touching, a die
// cocked against a wall or partly out of the picture): its rejection is
// what must happen, and is counted among the rejections (and in Refused),
// so that such dice never count as read right; a face read for it is
// wrong.
type Score struct {
	Right, Wrong, Rejected int
	// MustReject counts the dice labelled 0, Refused those of them that
	// were rejected.
	MustReject, Refused int
}

// Add counts one die labelled want and read as got (0: uncertain).
func (s *Score) Add(want, got int) {
	if want == 0 {
		s.MustReject++
		if got == 0 {
			s.Refused++
		}
	}
	switch {
	case got == 0:
		s.Rejected++
	case got == want:
		s.Right++
	default:
		s.Wrong++
	}
}

// Total is the number of dice counted.
func (s Score) Total() int { return s.Right + s.Wrong + s.Rejected }

func (s Score) rate(n int) float64 {
	if s.Total() == 0 {
		return 0
	}
	return float64(n) / float64(s.Total())
}

// Accuracy is the fraction of dice read right.
func (s Score) Accuracy() float64 { return s.rate(s.Right) }

// WrongRate is the fraction of dice read as another face.
func (s Score) WrongRate() float64 { return s.rate(s.Wrong) }

// RejectRate is the fraction of dice reported uncertain.
func (s Score) RejectRate() float64 { return s.rate(s.Rejected) }

func (s Score) String() string {
	str := fmt.Sprintf("%d dice: accuracy %.2f%%, rejected %.2f%%, wrong %.2f%%",
		s.Total(), 100*s.Accuracy(), 100*s.RejectRate(), 100*s.WrongRate())
	if s.MustReject > 0 {
		str += fmt.Sprintf(" (%d of the %d dice that must be rejected were)", s.Refused, s.MustReject)
	}
	return str
}
