package dschunkekit

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"comptoir/engine"
	"comptoir/games/dschunke"
	"comptoir/games/kit"
)

func data(t *testing.T, r engine.Rules) *dschunke.Data {
	t.Helper()
	d, err := dataOf(r)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestEditorRoundTrip writes the embedded data as a table's data file:
// it loads back to the same data, and writing that again gives the same
// bytes.
func TestEditorRoundTrip(t *testing.T) {
	e := Game().Edit
	rules, err := e.Load(nil, "")
	if err != nil {
		t.Fatal(err)
	}
	file := e.Encode(rules)
	again, err := e.Load(file, "dschunke.yaml")
	if err != nil {
		t.Fatalf("the encoded data do not load: %v\n%s", err, file)
	}
	if d0, d1 := data(t, rules), data(t, again); !reflect.DeepEqual(d0, d1) {
		t.Errorf("the data loaded back differ from the embedded data")
	}
	if b := e.Encode(again); !bytes.Equal(b, file) {
		t.Errorf("encoding the loaded data again differs:\n%s\nwant\n%s", b, file)
	}
}

// TestEditorLoadErrors: a table's data file is read strictly; errors
// name the file, the line and the key.
func TestEditorLoadErrors(t *testing.T) {
	e := Game().Edit
	rules, _ := e.Load(nil, "")
	file := string(e.Encode(rules))
	for _, tt := range []struct{ name, old, new, want string }{
		{"unknown top key", "version: 1\nboard:", "version: 1\nboards: {}\nboard:", "dschunke.yaml:"},
		{"bad price", "fish: 4, rice: 2, spices: 5, vegetables: S", "fish: four, rice: 2, spices: 5, vegetables: S", "prices.fish"},
		{"unknown junk in track", "action: goods", "action: sail", "action"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(file, tt.old) {
				t.Fatalf("the encoded file has no %q:\n%s", tt.old, file)
			}
			_, err := e.Load([]byte(strings.Replace(file, tt.old, tt.new, 1)), "dschunke.yaml")
			if err == nil || !errors.Is(err, dschunke.ErrData) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "dschunke.yaml:") {
				t.Errorf("Load = %v, want an ErrData naming dschunke.yaml, its line and %q", err, tt.want)
			}
		})
	}
}

// TestEditorApply corrects each kind of stand-in through the kit's
// editor: the rules returned play on the corrected values, and the file
// written loads back to them.
func TestEditorApply(t *testing.T) {
	e := Game().Edit
	rules, _ := e.Load(nil, "")
	next, err := e.Apply(rules, []kit.Edit{
		{Key: "market-05.fish", Value: "1"},
		{Key: "market-05.rice", Value: "S"},
		{Key: "market-05.vegetables", Value: "6"},
		{Key: "bonus-brown-orange.need", Value: "white 5, grey 2"},
		{Key: "track.bottom.1", Value: "income Y"},
		{Key: "track.top.3", Value: "load"},
		{Key: "setup.palettes.3.purple", Value: "green blue"},
		{Key: "junk-order", Value: "white brown orange purple grey"},
		{Key: "checked", Value: "market-05"},
	})
	if err != nil {
		t.Fatal(err)
	}
	again, err := e.Load(e.Encode(next), "dschunke.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for name, r := range map[string]engine.Rules{"applied": next, "loaded back": again} {
		d := data(t, r)
		i, _ := d.MarketIndex("market-05")
		if got, want := d.Market[i].Prices, [4]int{1, dschunke.PriceSpecial, 5, 6}; got != want || d.Market[i].StandIn {
			t.Errorf("%s: market-05 %v stand-in %v, want %v checked", name, got, d.Market[i].StandIn, want)
		}
		s, _ := d.SpecialIndex("bonus-brown-orange")
		white, _ := d.JunkIndex("white")
		grey, _ := d.JunkIndex("grey")
		var need [dschunke.NumJunks]int
		need[white], need[grey] = 5, 2
		if d.Special[s].Need != need || !d.Special[s].StandIn {
			t.Errorf("%s: bonus-brown-orange needs %v (stand-in %v), want %v, still a stand-in", name, d.Special[s].Need, d.Special[s].StandIn, need)
		}
		if sq := d.Track[0][0]; sq.Action != dschunke.ActIncome || sq.Event != dschunke.EvWealth {
			t.Errorf("%s: bottom square 1 is %v", name, sq)
		}
		if sq := d.Track[1][2]; sq.Action != dschunke.ActLoad || sq.Event != dschunke.EvNone {
			t.Errorf("%s: top square 3 is %v", name, sq)
		}
		if d.Junks[0].Key != "white" || d.Junks[1].Key != "brown" || d.Goods[0].Junk != 1 {
			t.Errorf("%s: junks %v %v, goods fish on %d; want white, brown and fish on brown", name, d.Junks[0].Key, d.Junks[1].Key, d.Goods[0].Junk)
		}
		purple, _ := d.JunkIndex("purple")
		if got := d.StartPalettes[3][purple]; !slices.Equal(got, []int{1, 0}) {
			t.Errorf("%s: 3-player palettes on purple %v, want green blue", name, got)
		}
		if slices.Contains(d.StandIns(), "market-05") {
			t.Errorf("%s: market-05 checked is still a stand-in", name)
		}
	}
	// The default rules are untouched.
	if i, _ := data(t, rules).MarketIndex("market-05"); data(t, rules).Market[i].Prices[0] != 4 {
		t.Errorf("the default data changed")
	}
	// Checked, market-05 is no longer corrected here.
	if _, err := e.Apply(next, []kit.Edit{{Key: "market-05.fish", Value: "2"}}); !errors.Is(err, dschunke.ErrNotStandIn) {
		t.Errorf("correcting market-05 once checked: %v, want ErrNotStandIn", err)
	}
}

// TestEditorRefusals: what is not a stand-in, and a value that cannot
// be, are refused in both languages, naming what is wrong.
func TestEditorRefusals(t *testing.T) {
	e := Game().Edit
	rules, _ := e.Load(nil, "")
	for _, tt := range []struct {
		key, value string
		rule       *engine.Rule
		want       string
	}{
		{"market-01.fish", "3", dschunke.ErrNotStandIn, "market-01"},
		{"bonus-brown.need", "brown 3", dschunke.ErrNotStandIn, "bonus-brown"},
		{"checked", "market-02", dschunke.ErrNotStandIn, "market-02"},
		{"market-05.fish", "-1", dschunke.ErrCorrection, "yuans"},
		{"market-05.fish", "lots", dschunke.ErrCorrection, "yuans"},
		{"market-05.gold", "3", dschunke.ErrCorrection, "fish, rice, spices, vegetables"},
		{"bonus-brown-orange.need", "brown", dschunke.ErrCorrection, "brown 5, orange 2"},
		{"bonus-brown-orange.need", "brown 5, brown 2", dschunke.ErrCorrection, "each junk once"},
		{"bonus-brown-orange.need", "blue 5", dschunke.ErrCorrection, "each junk once"},
		{"bonus-brown-orange.points", "14", dschunke.ErrCorrection, "need"},
		{"track.bottom.11", "load", dschunke.ErrCorrection, "1 to 10"},
		{"track.middle.1", "load", dschunke.ErrCorrection, "bottom and top"},
		{"track.bottom.3", "fly S", dschunke.ErrCorrection, "load, income or goods"},
		{"track.bottom.3", "load X", dschunke.ErrCorrection, "load, income or goods"},
		{"setup.merchants.sail", "brown", dschunke.ErrCorrection, "load, income and goods"},
		{"setup.merchants.load", "pink", dschunke.ErrCorrection, "not a junk"},
		{"setup.palettes.3.brown", "yellow", dschunke.ErrCorrection, "3 players"},
		{"setup.palettes.5.brown", "blue", dschunke.ErrCorrection, "3 and 4 players"},
		{"junk-order", "brown white", dschunke.ErrCorrection, "each once"},
		{"colours", "red", dschunke.ErrCorrection, "the stand-ins are"},
	} {
		t.Run(tt.key+"="+tt.value, func(t *testing.T) {
			_, err := e.Apply(rules, []kit.Edit{{Key: tt.key, Value: tt.value}})
			r, ok := engine.AsRefusal(err)
			if !ok || r.Rule != tt.rule || !strings.Contains(r.EN, tt.want) || r.FR == "" || r.FR == r.EN {
				t.Errorf("Apply = %v, want a %v refusal in both languages with %q", err, tt.rule.Code, tt.want)
			}
		})
	}
}

// TestEditorIncomplete: moving one merchant onto another's junk leaves
// the data incomplete (one merchant per junk) until the other moves too.
func TestEditorIncomplete(t *testing.T) {
	e := Game().Edit
	rules, _ := e.Load(nil, "")
	draft := []kit.Edit{{Key: "setup.merchants.load", Value: "orange"}}
	if _, err := e.Apply(rules, draft); !errors.Is(err, kit.ErrIncomplete) || !strings.Contains(err.Error(), "two merchants") {
		t.Fatalf("load onto the income merchant's junk: %v, want ErrIncomplete saying why", err)
	}
	draft = append(draft, kit.Edit{Key: "setup.merchants.income", Value: "brown"})
	next, err := e.Apply(rules, draft)
	if err != nil {
		t.Fatal(err)
	}
	d := data(t, next)
	if d.Junks[d.Merchants[dschunke.ActLoad]].Key != "orange" || d.Junks[d.Merchants[dschunke.ActIncome]].Key != "brown" {
		t.Errorf("merchants %v, want load on orange and income on brown", d.Merchants)
	}
}

// TestInfoEdit: the page data list every stand-in value with what it is
// now, from the rules' data, and no value that is not a stand-in.
func TestInfoEdit(t *testing.T) {
	e := Game().Edit
	rules, _ := e.Load(nil, "")
	setup := engine.Setup{Game: dschunke.Name, Players: []string{"A", "B", "C"}}
	info, err := Info(setup, rules)
	if err != nil {
		t.Fatal(err)
	}
	items := map[string]string{}
	for _, it := range info.Edit {
		if it.Key != "checked" {
			items[it.Key] = it.Value
		}
	}
	for key, want := range map[string]string{"market-05.fish": "4", "market-05.vegetables": "S", "bonus-brown-orange.need": "brown 5, orange 2",
		"track.bottom.3": "income S", "track.bottom.1": "goods", "setup.merchants.load": "brown", "setup.palettes.4.white": "yellow blue",
		"junk-order": "brown white orange purple grey"} {
		if items[key] != want {
			t.Errorf("item %s = %q, want %q", key, items[key], want)
		}
	}
	for key := range items {
		if strings.HasPrefix(key, "market-01.") || strings.HasPrefix(key, "bonus-brown.") {
			t.Errorf("item %s is not a stand-in", key)
		}
	}
	next, err := e.Apply(rules, []kit.Edit{{Key: "market-05.fish", Value: "1"}})
	if err != nil {
		t.Fatal(err)
	}
	info, err = Info(setup, next)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(info.Edit, kit.EditItem{Key: "market-05.fish", Value: "1"}) {
		t.Errorf("the page data do not show the corrected market-05.fish")
	}
}

var update = flag.Bool("update", false, "write configs/dschunke/table.yaml from the embedded data files")

// TestDefaultTableFile: the table data file to copy (the editor's File)
// is the embedded board and cards files as they are; -update writes it.
func TestDefaultTableFile(t *testing.T) {
	d, err := dschunke.LoadData()
	if err != nil {
		t.Fatal(err)
	}
	want := dschunke.EncodeTable(d)
	path := filepath.Join("..", "..", "..", Game().Edit.File)
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run TestDefaultTableFile -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from configs/dschunke's board and cards files: go test ./games/dschunke/dschunkekit -run TestDefaultTableFile -update", path)
	}
	if _, err := Game().Edit.Load(got, "table.yaml"); err != nil {
		t.Error(err)
	}
}
