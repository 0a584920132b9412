package table

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/games/dschunke"
	"comptoir/games/negoce"
	"comptoir/hw/replay"
	"comptoir/hw/tagmap"
	"comptoir/input"
	"comptoir/tableconfig"
)

var updateDemo = flag.Bool("update-demo", false, "write the card games' demo recordings and tag maps (configs/demo) again")

// demoCards are the card games' demo tables: the stickers of every card,
// and a recording of what the table's reader sees.
var demoCards = []struct {
	config string // configs/tables/...
	prefix string // the stickers' UIDs
	cards  func(t *testing.T) []tagmap.Target
	taps   func(t *testing.T) []string // the cards scanned, in order
	check  func(t *testing.T, st engine.State)
}{
	{
		config: "demo-negoce.yaml", prefix: "04AE",
		cards: func(t *testing.T) []tagmap.Target {
			cat, err := negoce.DefaultCatalog()
			if err != nil {
				t.Fatal(err)
			}
			var out []tagmap.Target
			for i, id := range cat.IDs() {
				out = append(out, tagmap.Target{Kind: tagmap.KindCard, ID: string(id), Label: cat.CardName(i, "fr")})
			}
			return out
		},
		// The deal: each player lays his eight cards on the reader in seat
		// order, two whole goods each.
		taps: func(t *testing.T) []string {
			cat, err := negoce.DefaultCatalog()
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, id := range cat.IDs()[:32] {
				out = append(out, string(id))
			}
			return out
		},
		check: func(t *testing.T, st engine.State) {
			if v := st.View(engine.NoSeat).(negoce.View); v.Phase != "auction" {
				t.Errorf("after the recording the phase is %q, want the auction (the deal scanned)", v.Phase)
			}
		},
	},
	{
		config: "demo-dschunke.yaml", prefix: "04D5",
		cards: func(t *testing.T) []tagmap.Target {
			d, err := dschunke.LoadData()
			if err != nil {
				t.Fatal(err)
			}
			var out []tagmap.Target
			for _, m := range d.Market {
				out = append(out, tagmap.Target{Kind: tagmap.KindCard, ID: m.ID, Label: "marché " + m.ID})
			}
			for i, s := range d.Special {
				out = append(out, tagmap.Target{Kind: tagmap.KindCard, ID: s.ID, Label: d.CardName(i, "fr")})
			}
			return out
		},
		// Nothing is scanned before the phones record the hands: the
		// recording only says the reader is there.
		taps: func(t *testing.T) []string { return nil },
		check: func(t *testing.T, st engine.State) {
			if v := st.View(engine.NoSeat).(dschunke.View); v.Phase != "hands" {
				t.Errorf("after the recording the phase is %q, want hands", v.Phase)
			}
		},
	},
}

// TestDemoCardTables writes (with -update-demo) and checks the card games'
// demo tables: the configuration decodes, the tag map enrolls every card
// once, and the recording played through the tag map into a real session
// is accepted step by step, with no unknown tag and no refusal.
func TestDemoCardTables(t *testing.T) {
	for _, demo := range demoCards {
		t.Run(demo.config, func(t *testing.T) {
			checkLeaks(t)
			cfg, err := tableconfig.Load(filepath.Join("..", "configs", "tables", demo.config))
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Replay == nil || cfg.Tags == "" {
				t.Fatalf("%s has no replay or no tags", demo.config)
			}
			// The tag map and the recording, as written.
			tags := tagmap.New()
			uid := map[string]string{}
			for i, tg := range demo.cards(t) {
				u := fmt.Sprintf("%s%010d", demo.prefix, i+1)
				if err := tags.Add(u, tg); err != nil {
					t.Fatal(err)
				}
				uid[tg.ID] = u
			}
			t0 := time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC)
			var rec bytes.Buffer
			fmt.Fprintf(&rec, "# The %s demo's recorded inputs: what the table's card reader sees.\n", cfg.Game)
			rec.WriteString("# Written by `go test ./table -run TestDemoCardTables -update-demo`.\n")
			w := replay.NewWriter(&rec)
			if err := w.Write(input.DeviceStatus{At: t0, Device: "nfc", OK: true, Detail: "replay"}); err != nil {
				t.Fatal(err)
			}
			for i, id := range demo.taps(t) {
				if err := w.Write(input.TagTapped{At: t0.Add(2*time.Second + time.Duration(i)*1500*time.Millisecond), UID: uid[id]}); err != nil {
					t.Fatal(err)
				}
			}
			header := fmt.Sprintf("# The %s demo's stickers: one per card (configs/tables/%s).\n", cfg.Game, demo.config)
			files := map[string][]byte{cfg.Tags: append([]byte(header), tags.Encode()...), cfg.Replay.Inputs: rec.Bytes()}
			for path, want := range files {
				if *updateDemo {
					if err := os.WriteFile(path, want, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				got, err := os.ReadFile(path)
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("%s differs from what the test writes (%v): go test ./table -run TestDemoCardTables -update-demo", path, err)
				}
			}

			// Play it: the recording through the tag map into a session.
			m, err := tagmap.Load(cfg.Tags)
			if err != nil {
				t.Fatal(err)
			}
			src, err := replay.Open(cfg.Replay.Inputs, replay.Opts{Speed: math.Inf(1), KeepTimes: true})
			if err != nil {
				t.Fatal(err)
			}
			rules, setup := demoRules(t, cfg)
			r := newRigWith(t, "", rules, setup, func(u string) (Target, bool) {
				tg, ok := m.Lookup(u)
				return Target{Kind: tg.Kind, ID: tg.ID}, ok
			})
			n := 0
			for e := range src.Run(context.Background()) {
				before := r.latest().Seq
				r.input(e)
				u := r.latest()
				if _, tap := e.(input.TagTapped); tap {
					n++
					if u.Seq != before+1 || len(u.Unknown) > 0 {
						t.Fatalf("tap %d (%v): step %d → %d, refusal %+v, unknown %v", n, e, before, u.Seq, u.Refusal, u.Unknown)
					}
				}
			}
			if n != len(demo.taps(t)) {
				t.Errorf("the recording taps %d cards, want %d", n, len(demo.taps(t)))
			}
			demo.check(t, r.latest().State)
		})
	}
}

func demoRules(t *testing.T, cfg *tableconfig.Config) (engine.Rules, engine.Setup) {
	t.Helper()
	setup := engine.Setup{Game: cfg.Game, Variant: cfg.Variant, Players: cfg.Players, Options: cfg.Options}
	switch cfg.Game {
	case negoce.Name:
		return negoce.New(), setup
	case dschunke.Name:
		return dschunke.New(), setup
	}
	t.Fatalf("%s: game %q is not a card game", cfg.File, cfg.Game)
	return nil, setup
}
