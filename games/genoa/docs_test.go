package genoa

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"comptoir/notation"
)

// TestNotationDocExample replays the example of docs/notation-genoa.md and
// checks that the document lists every command of the codec.
func TestNotationDocExample(t *testing.T) {
	const path = "../../docs/notation-genoa.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, name := range codec.CommandNames() {
		row := regexp.MustCompile("(?m)^\\| `([A-Za-z]+: )?" + name + "[ `]")
		if !row.MatchString(doc) {
			t.Errorf("%s does not document the command %q in its table", path, name)
		}
	}
	_, rest, ok := strings.Cut(doc, "```genoa\n")
	example, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatalf("%s has no ```genoa example block", path)
	}
	rec, err := notation.Read(strings.NewReader(example), path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := notation.Play(realRules(t), rec)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	if got := [3]int{s.P[0].Ducats, s.P[1].Ducats, s.P[2].Ducats}; got != [3]int{157, 138, 165} {
		t.Errorf("ducats after the example %v, want the 157, 138, 165 the document says", got)
	}
	if s.Owner[s.bldIdx("cathedral")] != 0 || s.Owner[s.bldIdx("taverna")] != 0 || s.P[0].Tiles[tileTrade] != 1 || s.P[2].Goods[s.good("wine")] != 1 {
		t.Errorf("holdings after the example differ from the document's")
	}
}
