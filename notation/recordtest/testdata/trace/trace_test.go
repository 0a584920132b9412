package trace

import "testing"

func TestTraceFixture(t *testing.T) {}
