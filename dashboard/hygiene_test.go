package dashboard

import (
	"strings"
	"testing"

	"comptoir/notation"
)

func TestCheckPlayerName(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"Anna", true}, {"Chloé", true}, {"Jean-Luc", true}, {"D'Artagnan", true}, {"Le Grand Bruno", true}, {"張偉", true},
		{"", false}, {"  ", false}, {" Anna", false}, {"Anna ", false},
		{"Eve: take", false}, {"#Eve", false}, {`Eve"`, false}, {"a,b", false}, {"from=Eve", false}, {`back\slash`, false},
		{"Eve\nx", false}, {"Eve\tx", false}, {"Eve\u2028x", false}, {"Eve\u200bx", false},
		{strings.Repeat("E", maxNameRunes), true}, {strings.Repeat("E", maxNameRunes+1), false},
		{"table", false}, {"STAFF", false},
	}
	for _, tt := range tests {
		err := checkPlayerName(tt.name)
		if (err == nil) != tt.ok {
			t.Errorf("checkPlayerName(%q) = %v, want ok=%v", tt.name, err, tt.ok)
		}
	}
}

// FuzzPlayerName: a name the dashboard accepts is read back from a game
// record's Players header as itself.
func FuzzPlayerName(f *testing.F) {
	for _, s := range []string{"Anna", "Chloé", "Eve: x", "a\nb", "Le Grand Bruno"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if checkPlayerName(name) != nil {
			return
		}
		got, err := notation.ParsePlayers(name + ", Zed")
		if err != nil || len(got) != 2 || got[0] != name {
			t.Fatalf("accepted name %q reads back as %q, %v", name, got, err)
		}
	})
}
