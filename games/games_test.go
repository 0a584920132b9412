package games

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/games/kit"
	"comptoir/games/tally"
	"comptoir/input"
	"comptoir/tableconfig"
)

// TestKits checks every game of the list has its parts, and that they
// fit: its rules start a game for its demo table, its page data builds,
// its adapter is there, its card catalog decodes the game's cards file,
// its notation document exists.
func TestKits(t *testing.T) {
	if err := Check(All()); err != nil {
		t.Fatal(err)
	}
	for _, g := range All() {
		t.Run(g.Name, func(t *testing.T) {
			if g.Demo == "" || g.Notation == "" {
				t.Fatalf("no demo table (%q) or notation document (%q)", g.Demo, g.Notation)
			}
			cfg, err := tableconfig.Load(filepath.Join("..", g.Demo))
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Game != g.Name {
				t.Errorf("the demo table %s plays %q", g.Demo, cfg.Game)
			}
			setup := engine.Setup{Game: cfg.Game, Variant: cfg.Variant, Players: cfg.Players, Options: cfg.Options}
			st, err := g.Rules().Start(setup)
			if err != nil {
				t.Fatalf("the demo table's game does not start: %v", err)
			}
			if _, err := os.Stat(filepath.Join("..", g.Notation)); err != nil {
				t.Error(err)
			}
			if g.Info != nil {
				info, err := g.Info(setup, g.Rules())
				if err != nil || info.Game != g.Name {
					t.Errorf("Info = %+v, %v", info, err)
				}
			}
			if g.Adapter == nil {
				t.Fatal("no table adapter")
			}
			if _, err := g.Adapter(g.Rules()).Translate(st, input.Button{Name: "no-such-button"}, kit.Target{}); err == nil {
				t.Error("the adapter makes a command of a button that does not exist")
			}
			if g.Cards != nil {
				data, err := os.ReadFile(filepath.Join("..", "configs", g.Name, "cards.yaml"))
				if err != nil {
					t.Fatal(err)
				}
				cards, err := g.Cards.Decode(data, "cards.yaml")
				if err != nil || len(cards) == 0 {
					t.Errorf("the cards file decodes to %d cards, %v", len(cards), err)
				}
			}
		})
	}
}

// TestTallyIsNotListed: Tally, the test game, is not a game of the list.
func TestTallyIsNotListed(t *testing.T) {
	if _, err := Lookup("tally"); err == nil {
		t.Error("tally is in the production list")
	}
	if err := tally.Game().Check(); err != nil {
		t.Errorf("Tally's kit: %v", err)
	}
}

// TestCheckSaysWhatIsMissing: a game without its parts fails Check,
// naming them, so a forgotten part fails at start-up.
func TestCheckSaysWhatIsMissing(t *testing.T) {
	web := fstest.MapFS{"tally.js": {Data: []byte("//")}}
	tests := []struct {
		name string
		g    kit.Game
		want string
	}{
		{"no rules", kit.Game{Name: "tally", Web: web, BGStats: kit.BGStats{Name: "Tally"}}, "no rules"},
		{"no renderer", kit.Game{Name: "tally", Rules: func() engine.Rules { return enginetest.Rules{} }, BGStats: kit.BGStats{Name: "Tally"}}, "no web renderer"},
		{"renderer misnamed", kit.Game{Name: "tally", Rules: func() engine.Rules { return enginetest.Rules{} }, Web: fstest.MapFS{"x.js": {}}, BGStats: kit.BGStats{Name: "Tally"}}, "tally.js"},
		{"no BG Stats", kit.Game{Name: "tally", Rules: func() engine.Rules { return enginetest.Rules{} }, Web: web}, "BG Stats"},
		{"other rules", kit.Game{Name: "race", Rules: func() engine.Rules { return enginetest.Rules{} }, Web: fstest.MapFS{"race.js": {}}, BGStats: kit.BGStats{Name: "Race"}}, "not those of"},
		{"cards without decoder", kit.Game{Name: "tally", Rules: func() engine.Rules { return enginetest.Rules{} }, Web: web, BGStats: kit.BGStats{Name: "Tally"}, Cards: &kit.Cards{Keys: []string{"x"}}}, "card catalog"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.g.Check()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Check() = %v, want %q", err, tt.want)
			}
		})
	}
	if err := Check([]kit.Game{tally.Game(), tally.Game()}); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("a game listed twice: %v", err)
	}
}
