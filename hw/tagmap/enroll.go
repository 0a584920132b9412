package tagmap

import (
	"fmt"
	"sync"
)

// Session walks a person through enrolling a list of targets, one tap per
// target, in order. Targets that already have a tag are passed over, so an
// interrupted enrollment resumes where it stopped.
type Session struct {
	m       *Map
	targets []Target

	mu   sync.Mutex // guards next
	next int        // index in targets of the next target to tap
}

// NewSession starts enrolling targets into m.
func NewSession(m *Map, targets []Target) *Session {
	s := &Session{m: m, targets: targets}
	s.skipDoneLocked()
	return s
}

func (s *Session) skipDoneLocked() {
	for s.next < len(s.targets) && s.m.Has(s.targets[s.next]) {
		s.next++
	}
}

// Next returns the target to tap now; ok is false when every target has a
// tag.
func (s *Session) Next() (t Target, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.next >= len(s.targets) {
		return Target{}, false
	}
	return s.targets[s.next], true
}

// Tap enrolls uid as the current target and moves to the next. A UID that
// is already enrolled is refused (errors.Is ErrEnrolled) with the entry it
// has, and the session stays on the same target.
func (s *Session) Tap(uid string) (Target, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.next >= len(s.targets) {
		return Target{}, fmt.Errorf("tagmap: every target is enrolled; nothing waits for tag %s", uid)
	}
	t := s.targets[s.next]
	if err := s.m.Add(uid, t); err != nil {
		return t, err
	}
	s.next++
	s.skipDoneLocked()
	return t, nil
}

// Skip passes over the current target without enrolling it.
func (s *Session) Skip() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.next < len(s.targets) {
		s.next++
		s.skipDoneLocked()
	}
}

// Progress returns how many targets have a tag, of how many.
func (s *Session) Progress() (done, total int) {
	for _, t := range s.targets {
		if s.m.Has(t) {
			done++
		}
	}
	return done, len(s.targets)
}

// BoardSquares returns the 64 cells of an 8x8 board as square targets, row
// by row (red 1 to 8), column by column (blue 1 to 8) within a row. label,
// when not nil, names the cell (for example "Street" or "Harbour").
func BoardSquares(label func(x, y int) string) []Target {
	out := make([]Target, 0, 64)
	for y := 1; y <= 8; y++ {
		for x := 1; x <= 8; x++ {
			t := Target{Kind: KindSquare, ID: fmt.Sprintf("%d-%d", x, y)}
			if label != nil {
				t.Label = label(x, y)
			}
			out = append(out, t)
		}
	}
	return out
}
