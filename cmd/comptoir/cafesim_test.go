package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestCafeSimSmall runs a small café (the hub in process): every step
// and play reaches the history once, and the figures are printed.
func TestCafeSimSmall(t *testing.T) {
	var out, errb bytes.Buffer
	err := cafeSim([]string{"--tables", "4", "--duration", "3s", "--rate", "4", "--catchup", "300", "--hub-in-process", "--dir", t.TempDir()}, &out, &errb)
	if err != nil {
		t.Fatalf("cafe-sim: %v\n%s\n%s", err, out.String(), errb.String())
	}
	for _, want := range []string{"p99", "catch-up: 300 steps", "lost: 0,", "plays finished:"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("cafe-sim printed no %q:\n%s", want, out.String())
		}
	}
	t.Log("\n" + out.String())
}
