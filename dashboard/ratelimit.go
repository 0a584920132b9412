package dashboard

import "time"

// Clock tells the time; tests give a fake one.
type Clock interface {
	Now() time.Time
}

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

// SystemClock is the real clock.
var SystemClock Clock = systemClock{}

// bucket is a token bucket: burst messages at once, then rate a second.
// It belongs to one connection's reader goroutine: not safe for concurrent
// use.
type bucket struct {
	clock  Clock
	rate   float64 // tokens added per second
	burst  float64 // most tokens held
	tokens float64
	last   time.Time
}

func newBucket(c Clock, rate float64, burst int) *bucket {
	return &bucket{clock: c, rate: rate, burst: float64(burst), tokens: float64(burst), last: c.Now()}
}

// allow takes a token if there is one.
func (b *bucket) allow() bool {
	now := b.clock.Now()
	if d := now.Sub(b.last); d > 0 {
		b.tokens += d.Seconds() * b.rate
		if b.tokens > b.burst {
			b.tokens = b.burst
		}
	}
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
