// Package diceprog finds the program that runs a table's dice reader
// (PROGRAM dicefeed ...), in the one order comptoird starts it and
// comptoir check checks it: comptoir-dice, the reader alone, then
// comptoir, whose dicefeed command is the same reader in a program about
// 25 MB bigger in memory (kept for tables installed before comptoir-dice);
// each beside the program looking, then in PATH.
package diceprog

import (
	"os"
	"os/exec"
	"path/filepath"
)

// Programs are the dice reader's programs, in the order Search tries them.
var Programs = []string{"comptoir-dice", "comptoir"}

// Search returns the first of Programs found in dir (the folder of the
// program looking; empty: none) or in PATH, or ok false and the places
// tried, to name in an error.
func Search(dir string) (path string, tried []string, ok bool) {
	for _, name := range Programs {
		if dir != "" {
			p := filepath.Join(dir, name)
			if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
				return p, nil, true
			}
			tried = append(tried, p)
		}
		if p, err := exec.LookPath(name); err == nil {
			return p, nil, true
		}
		tried = append(tried, name+" in PATH")
	}
	return "", tried, false
}
