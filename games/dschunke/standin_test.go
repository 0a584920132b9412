package dschunke

import (
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"comptoir/engine"
	"comptoir/notation"
)

// TestStandIns checks that the data say which of their values are
// stand-ins (RULES-NOTES: "where the rules text does not give the
// helpers' track or all market cards, the data in configs/ says which
// values are stand-ins"): the board file's parts the text does not give,
// the eight market cards it does not print, the pairs of the five 12-yuan
// cards; and that a mark is decoded strictly.
func TestStandIns(t *testing.T) {
	d, err := LoadData()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"junk-order", "track", "setup",
		"market-03", "market-04", "market-05", "market-06", "market-07", "market-08", "market-09", "market-10",
		"bonus-brown-orange", "bonus-white-purple", "bonus-orange-grey", "bonus-purple-brown", "bonus-grey-white"}
	if got := d.StandIns(); !slices.Equal(got, want) {
		t.Errorf("StandIns() = %v, want %v", got, want)
	}
	// The two market cards the text prints are not stand-ins.
	for _, id := range []string{"market-01", "market-02"} {
		if i, _ := d.MarketIndex(id); d.Market[i].StandIn {
			t.Errorf("%s, printed in the rules text, is marked a stand-in", id)
		}
	}

	board, cards := embedded(t)
	for _, tt := range []struct {
		name, file, old, new, want string
	}{
		{"unknown part", "board", "stand-ins: [junk-order, track, setup]", "stand-ins: [junk-order, goods]", `"goods" is not a part of the board file`},
		{"mark not a bool", "cards", "vegetables: 5}, stand-in: true}", "vegetables: 5}, stand-in: maybe}", "stand-in"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, c := string(board), string(cards)
			target := &b
			if tt.file == "cards" {
				target = &c
			}
			if !strings.Contains(*target, tt.old) {
				t.Fatalf("the %s file has no %q", tt.file, tt.old)
			}
			*target = strings.Replace(*target, tt.old, tt.new, 1)
			_, err := Decode([]byte(b), "board.yaml", []byte(c), "cards.yaml")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Decode = %v, want an error with %q", err, tt.want)
			}
		})
	}
	// Without any mark the data still decode: every value checked.
	b := strings.Replace(string(board), "stand-ins: [junk-order, track, setup]\n", "", 1)
	c := strings.ReplaceAll(string(cards), ", stand-in: true}", "}")
	d2, err := Decode([]byte(b), "board.yaml", []byte(c), "cards.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := d2.StandIns(); len(got) != 0 {
		t.Errorf("StandIns() of unmarked data = %v, want none", got)
	}
}

// TestNewWithData plays a record on data where the staff corrected a
// stand-in: market-05's prices, checked against a box. The record
// replays, and the corrected card is the one in play.
func TestNewWithData(t *testing.T) {
	board, cards := embedded(t)
	c := strings.Replace(string(cards), "{id: market-05, prices: {fish: 4, rice: 2, spices: 5, vegetables: S}, stand-in: true}", "{id: market-05, prices: {fish: 1, rice: S, spices: 3, vegetables: 6}}", 1)
	d, err := Decode(board, "board.yaml", []byte(c), "cards.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(d.StandIns(), "market-05") {
		t.Errorf("market-05 is still a stand-in")
	}
	rules := NewWithData(d)
	f, err := os.Open("testdata/bidding-example.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := notation.Read(f, "bidding-example.txt")
	if err != nil {
		t.Fatal(err)
	}
	st, err := notation.Play(rules, rec)
	if err != nil {
		t.Fatal(err)
	}
	v := st.(*State).View(engine.NoSeat).(View)
	if want := map[string]string{"fish": "1", "rice": "S", "spices": "3", "vegetables": "6"}; v.Market != "market-05" || !maps.Equal(v.Prices, want) {
		t.Errorf("market %s, prices %v; want market-05 at %v", v.Market, v.Prices, want)
	}
	def, err := notation.Play(New(), rec)
	if err != nil {
		t.Fatal(err)
	}
	if p := def.(*State).View(engine.NoSeat).(View).Prices; p["fish"] != "4" {
		t.Errorf("the embedded data's market-05: %v, want fish 4", p)
	}
}
