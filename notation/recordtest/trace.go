package recordtest

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// A rules trace is a Markdown file beside a game's engine (RULES.md) that
// lists every paragraph of the game's rules texts with what checks it.
// Each text is a section whose heading names the text's file:
//
//	## genoa-alea-berclaz-translation-fr.txt
//
//	| § | paragraph | checked by |
//	|---|---|---|
//	| 3 | the pawn placed at the dice's crossing | `TestDiceStartSquare`, `testdata/corners/x.txt` |
//	| 4.2.4 | promises on top of money | ruling: RULES-NOTES, promises |
//	| 8 | the richest wins | no test |
//
// The last cell holds, in backquotes, test functions of the package
// (`TestName`, or `board.TestName` for a test of the subdirectory board,
// a subtest's path after a slash) and records (`testdata/...`, relative
// to the package directory); or, with none, the word "ruling" (settled by
// a ruling that no test checks) or "no test" (a gap). A section
// "## Summary" holds one row per text: | text | paragraphs | with a test |
// ruling only | no test |.

// TraceCount is what a trace says of one rules text.
type TraceCount struct {
	Text                            string
	Paragraphs, Tested, Ruling, Gap int
}

var (
	backquoted = regexp.MustCompile("`([^`]+)`")
	testName   = regexp.MustCompile(`^(?:([a-z][a-z0-9]*)\.)?((?:Test|Example|Fuzz)[A-Za-z0-9_]*)(?:/.*)?$`)
)

// CheckTrace reads the trace file (a path relative to the package
// directory, where go test runs), checks that every test and record it
// names exists and that its summary counts what its tables hold, and
// returns the counts per text.
func CheckTrace(t testing.TB, file string) []TraceCount {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dir := filepath.Dir(file)
	funcs := map[string]map[string]bool{} // subdirectory → test functions
	testsOf := func(sub string) map[string]bool {
		if m, ok := funcs[sub]; ok {
			return m
		}
		m, err := testFuncs(filepath.Join(dir, sub))
		if err != nil {
			t.Fatal(err)
		}
		funcs[sub] = m
		return m
	}
	var (
		counts  []TraceCount
		summary = map[string][4]int{}
		cur     *TraceCount
		inSum   bool
	)
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if h, ok := strings.CutPrefix(line, "## "); ok {
			cur, inSum = nil, strings.HasPrefix(h, "Summary")
			if name := strings.Fields(h); len(name) > 0 && strings.HasSuffix(name[0], ".txt") {
				counts = append(counts, TraceCount{Text: name[0]})
				cur = &counts[len(counts)-1]
			}
			continue
		}
		if !strings.HasPrefix(line, "|") || strings.HasPrefix(line, "|---") || strings.HasPrefix(line, "| --") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		switch {
		case inSum:
			if len(cells) != 5 || !strings.HasSuffix(cells[0], ".txt") {
				continue // the header
			}
			var v [4]int
			for i := range v {
				if v[i], err = strconv.Atoi(cells[i+1]); err != nil {
					t.Errorf("%s:%d: %q is not a count", file, n, cells[i+1])
				}
			}
			summary[cells[0]] = v
		case cur != nil:
			if len(cells) < 3 || cells[0] == "§" {
				continue // the header
			}
			last := cells[len(cells)-1]
			cur.Paragraphs++
			refs := 0
			for _, m := range backquoted.FindAllStringSubmatch(last, -1) {
				ref := m[1]
				if tm := testName.FindStringSubmatch(ref); tm != nil {
					refs++
					if !testsOf(tm[1])[tm[2]] {
						t.Errorf("%s:%d: %s names %s, which no _test.go file of %s declares", file, n, cur.Text, ref, filepath.Join(dir, tm[1]))
					} else if _, sub, ok := strings.Cut(ref, "/"); ok && !hasSubtest(testsOf(tm[1]), sub) {
						t.Errorf("%s:%d: %s names the subtest %s, whose name no _test.go file of %s holds", file, n, cur.Text, ref, filepath.Join(dir, tm[1]))
					}
				} else if strings.HasPrefix(ref, "testdata/") {
					refs++
					if _, err := os.Stat(filepath.Join(dir, ref)); err != nil {
						t.Errorf("%s:%d: %s names the record %s: %v", file, n, cur.Text, ref, err)
					}
				}
			}
			low := strings.ToLower(last)
			switch {
			case refs > 0:
				cur.Tested++
			case strings.Contains(low, "ruling"):
				cur.Ruling++
			case strings.Contains(low, "no test"):
				cur.Gap++
			default:
				t.Errorf("%s:%d: the row names no test or record, no ruling and does not say \"no test\": %q", file, n, last)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(counts) == 0 {
		t.Fatalf("%s: no section names a rules text (## file.txt)", file)
	}
	for _, c := range counts {
		want := [4]int{c.Paragraphs, c.Tested, c.Ruling, c.Gap}
		got, ok := summary[c.Text]
		if !ok {
			t.Errorf("%s: the summary has no row for %s; it should read | %s | %d | %d | %d | %d |", file, c.Text, c.Text, want[0], want[1], want[2], want[3])
		} else if got != want {
			t.Errorf("%s: the summary says %s has %v (paragraphs, with a test, ruling only, no test); the tables hold %v", file, c.Text, got, want)
		}
		if c.Tested+c.Ruling+c.Gap != c.Paragraphs {
			t.Errorf("%s: %s: counts do not add up", file, c.Text)
		}
	}
	return counts
}

// testFuncs lists the Test, Example and Fuzz functions that the _test.go
// files of dir declare, and (each behind a '"') the string literals they
// hold.
func testFuncs(dir string) (map[string]bool, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no _test.go file in %s", dir)
	}
	decl := regexp.MustCompile(`(?m)^func ((?:Test|Example|Fuzz)[A-Za-z0-9_]*)\(`)
	lit := regexp.MustCompile(`"((?:[^"\\\n]|\\.)*)"`)
	out := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		for _, m := range decl.FindAllSubmatch(b, -1) {
			out[string(m[1])] = true
		}
		for _, m := range lit.FindAllSubmatch(b, -1) {
			out[`"`+string(m[1])] = true // string literals: subtests' names
		}
	}
	return out, nil
}

// hasSubtest reports whether the name of a subtest, as go test writes it
// (spaces as underscores), is a string literal of the test files.
func hasSubtest(funcs map[string]bool, sub string) bool {
	return funcs[`"`+sub] || funcs[`"`+strings.ReplaceAll(sub, "_", " ")]
}
