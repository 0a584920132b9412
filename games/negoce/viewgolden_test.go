package negoce

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"comptoir/engine"
)

// TestViewGolden keeps the JSON the dashboard gets at a few positions, for
// each kind of viewer, in testdata/views/ (go test -update rewrites them):
// the contract between the engine and the dashboard's Négoce renderer.
func TestViewGolden(t *testing.T) {
	positions := map[string][]string{
		"auction":     cat(deal, "Bruno: bid price=1", "Chloé: bid price=2", "David: pass"),
		"negotiation": cat(laidDown, "Bruno: offer card=perfume-1 up=true coins=2", "David: offer card=wine-1", "Anna: bonus coins=1"),
		"forced-pick": named,
	}
	viewers := map[string]engine.Seat{"table": engine.NoSeat, "anna": 0, "david": 3}
	for pos, lines := range positions {
		s := script(t, lines)
		for who, seat := range viewers {
			name := pos + "-" + who + ".json"
			t.Run(name, func(t *testing.T) {
				got, err := json.MarshalIndent(s.View(seat), "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, '\n')
				file := filepath.Join("testdata", "views", name)
				if *update {
					if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(file, got, 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(file)
				if err != nil {
					t.Fatalf("%v (go test -update writes it)", err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("View(%v) at %s differs from %s; got:\n%s", seat, pos, file, got)
				}
			})
		}
	}
}
