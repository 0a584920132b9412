package genoa

import (
	"testing"

	"comptoir/notation/recordtest"
)

// TestRulesTrace checks RULES.md, the paragraph-by-paragraph trace of the
// rules texts: every test and record it names exists, and its summary
// counts what its tables hold. -v prints the counts.
func TestRulesTrace(t *testing.T) {
	for _, c := range recordtest.CheckTrace(t, "RULES.md") {
		t.Logf("%s: %d paragraphs, %d with a test or record, %d settled by a ruling only, %d without a test", c.Text, c.Paragraphs, c.Tested, c.Ruling, c.Gap)
	}
}
