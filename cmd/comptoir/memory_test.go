package main

import (
	"bytes"
	"fmt"
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
	if !strings.Contains(out.String(), "samples): peak ") || !strings.Contains(out.String(), "with its children (peaks: none seen)") {
		t.Errorf("memory printed %q, want the peak, and no child", out.String())
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

// TestMemoryWithChildren: a process's children (comptoird's dice reader)
// are measured with it, by name, and their sum has its own budget.
func TestMemoryWithChildren(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	// sh waits for two sleep children: one started in the background, one
	// in the foreground (not exec'd, since another command follows).
	script := "sleep 3 & sleep 3; true"
	var out, errb bytes.Buffer
	if err := runMemory([]string{"--for", "400ms", "--every", "100ms", "--", sh, "-c", script}, &out, &errb); err != nil {
		t.Fatalf("memory = %v (%s)", err, errb.String())
	}
	var own, together float64
	for _, line := range strings.Split(out.String(), "\n") {
		if _, after, ok := strings.Cut(line, "samples): peak "); ok {
			fmt.Sscanf(after, "%f MB", &own)
		}
		if _, after, ok := strings.Cut(line, "peak together "); ok {
			fmt.Sscanf(after, "%f MB", &together)
		}
	}
	if !strings.Contains(out.String(), "(peaks: sleep ") || own <= 0 || together <= own {
		t.Fatalf("memory printed %q: want the sleep children's peak, and more together (%.1f MB) than the shell alone (%.1f MB)", out.String(), together, own)
	}
	out.Reset()
	err = runMemory([]string{"--for", "300ms", "--every", "100ms", "--budget", "1000", "--together-budget", fmt.Sprintf("%.3f", own), "--", sh, "-c", script}, &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "peak together with its children") || strings.Contains(err.Error(), "is over the 1000 MB") {
		t.Errorf("memory with the shell's own peak as the budget together = %v, want only the together budget broken", err)
	}
}

// TestParentOf reads the parent's pid from /proc/PID/stat lines, whose
// command name may hold spaces and parentheses.
func TestParentOf(t *testing.T) {
	for _, tc := range []struct {
		stat string
		want int
		ok   bool
	}{
		{"4242 (comptoir-dice) S 4200 4242 4200 0 -1 4194560", 4200, true},
		{"77 (a (b) c) R 1 77 77 0", 1, true},
		{"77 (odd) name)) S 12 77", 12, true},
		{"77 comptoir S 12", 0, false},
		{"77 (x) S", 0, false},
		{"77 (x) S twelve", 0, false},
	} {
		if got, ok := parentOf(tc.stat); got != tc.want || ok != tc.ok {
			t.Errorf("parentOf(%q) = %d, %v; want %d, %v", tc.stat, got, ok, tc.want, tc.ok)
		}
	}
}
