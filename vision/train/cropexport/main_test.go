package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNumeralKept: a die labelled ? is learned from with -unsure only, a
// die touching the other never.
func TestNumeralKept(t *testing.T) {
	for _, tc := range []struct {
		face             string
		unsure, touching bool
		want             bool
	}{
		{"3", false, false, true},
		{"3", true, false, true},
		{"?", false, false, false},
		{"?", true, false, true},
		{"3", false, true, false},
		{"?", true, true, false},
	} {
		t.Run(fmt.Sprintf("%s unsure=%v touching=%v", tc.face, tc.unsure, tc.touching), func(t *testing.T) {
			if got := numeralKept(tc.face, tc.unsure, tc.touching); got != tc.want {
				t.Errorf("numeralKept = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestTouchingDice: the dice of throws touching the other (at contact) are
// not learned from; those of pairs "touching" (1 to 6 mm apart) are.
func TestTouchingDice(t *testing.T) {
	for _, tc := range []struct {
		name, details string
		want          []string
		err           string
	}{
		{"no details", "", nil, ""},
		{"throws", "file,die,face,hard,must_reject\n0001.jpg,blue,3,touching noise,\n0001.jpg,red,2,touching noise,\n0002.jpg,blue,?,cocked,cocked\n",
			[]string{"0001.jpg blue", "0001.jpg red"}, ""},
		{"pairs", "file,die,face,hard\n0001.jpg,blue,3,touching\n", nil, ""},
		{"no hard column", "file,die,face,must_reject\n", nil, "no hard column"},
		{"not details", "name,colour\n", nil, "want file, die first"},
		{"empty", "\n", nil, "empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.details != "" {
				if err := os.WriteFile(filepath.Join(dir, "details.csv"), []byte(tc.details), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := touchingDice(dir)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			for _, k := range tc.want {
				if !got[k] {
					t.Errorf("got %v, want %q in it", got, k)
				}
			}
		})
	}
}
