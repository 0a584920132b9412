package sub

import "testing"

func TestInSub(t *testing.T) { t.Run("a case", func(t *testing.T) {}) }
