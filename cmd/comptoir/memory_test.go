package main

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

func TestParseStatus(t *testing.T) {
	tests := []struct {
		name, in string
		want     rss
		err      string
	}{
		{"daemon", "Name:\tcomptoird\nVmPeak:\t  900000 kB\nVmRSS:\t   17848 kB\nRssAnon:\t    5488 kB\nRssFile:\t   12360 kB\n", rss{17848, 5488, 12360}, ""},
		{"no rss", "Name:\tzombie\nState:\tZ (zombie)\n", rss{}, "no VmRSS"},
		{"bad unit", "VmRSS:\t17 MB\n", rss{}, "want a size in kB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseStatus(strings.NewReader(tt.in))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("parseStatus = %v, want an error with %q", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("parseStatus = %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

func TestMemoryOfAProcess(t *testing.T) {
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep command")
	}
	var out, errb bytes.Buffer
	if err := runMemory([]string{"--for", "300ms", "--every", "100ms", "--", sleep, "10"}, &out, &errb); err != nil {
		t.Fatalf("memory = %v (%s)", err, errb.String())
	}
	if !strings.Contains(out.String(), "samples): peak ") {
		t.Errorf("memory printed %q, want the peak", out.String())
	}
	// A budget nobody meets fails.
	out.Reset()
	if err := runMemory([]string{"--for", "200ms", "--every", "100ms", "--budget", "0.001", "--", sleep, "10"}, &out, &errb); err == nil || !strings.Contains(err.Error(), "over the") {
		t.Errorf("memory with a tiny budget = %v, want over the budget", err)
	}
	if err := runMemory([]string{"--for", "1s"}, &out, &errb); err != errUsage {
		t.Errorf("memory without a process = %v, want errUsage", err)
	}
}
