package main

import (
	"os"
	"strings"
	"testing"
)

// TestMain lets this test binary stand in for comptoir when cafe-sim
// re-runs its program as children (--procs): with the child's mark in the
// environment it runs the command line it is given.
func TestMain(m *testing.M) {
	if os.Getenv(strings.Split(childEnv, "=")[0]) != "" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}
