package dashboard

import (
	"strings"
	"testing"

	"comptoir/engine"
	"comptoir/engine/negoce"
)

// TestNegoceLogWords checks what the log masks in Négoce: another
// player's card ids always; the goods' names and the Contraband card,
// which are the game's public vocabulary, never.
func TestNegoceLogWords(t *testing.T) {
	rules := negoce.New()
	setup := engine.Setup{Game: negoce.Name, Players: []string{"Anna", "Bruno", "Chloé", "David"}}
	st, err := rules.Start(setup)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{
		"deal to=Anna goods=jade,jewels", "deal to=Bruno goods=perfume,spices", "deal to=Chloé goods=coffee,silk", "deal to=David goods=wine,tea",
		"Chloé: bid price=1", "David: pass", "Anna: bid price=2", "Bruno: pass", "Chloé: pass",
	} {
		by, line := engine.NoSeat, l
		if name, rest, ok := strings.Cut(l, ": "); ok {
			for i, p := range setup.Players {
				if p == name {
					by = engine.Seat(i)
				}
			}
			line = rest
		}
		cmd, err := rules.Codec().ParseCommand(line, setup.Players)
		if err != nil {
			t.Fatal(err)
		}
		evs, err := st.Decide(engine.Action{By: by, Cmd: cmd})
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		for _, ev := range evs {
			if st, err = st.Apply(ev); err != nil {
				t.Fatal(err)
			}
		}
	}
	sec := secretsOf(st)
	tests := []struct {
		text   string
		viewer engine.Seat
		want   string
	}{
		{"Anna wins the Contraband for 2 coins", 1, "Anna wins the Contraband for 2 coins"},
		{"Anna remporte la Contrebande pour 2 pièces", engine.NoSeat, "Anna remporte la Contrebande pour 2 pièces"},
		{"Chloé offers Perfume", 0, "Chloé offers Perfume"},
		{"Bruno holds perfume-1", 0, "Bruno holds " + mask},
		{"Bruno holds perfume-1", engine.NoSeat, "Bruno holds " + mask},
		{"Bruno holds perfume-1", 1, "Bruno holds perfume-1"},
		{"Anna holds jade-2 and contraband", 3, "Anna holds " + mask + " and contraband"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			if got := sec.redact(tt.text, tt.viewer); got != tt.want {
				t.Errorf("redact(%q) for %v = %q, want %q", tt.text, tt.viewer, got, tt.want)
			}
		})
	}
}
