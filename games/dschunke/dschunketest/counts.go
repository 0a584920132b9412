// Package dschunketest holds what Dschunke's tests share, the rules' and
// the kit's: a checker of the counts of goods in the texts players read.
// It does not import package dschunke, so that the rules' own tests may
// use it. It is for tests only.
package dschunketest

import (
	"regexp"
	"strconv"
	"strings"
)

// Counts finds the counts of goods in a text: a number, then "carte" or
// "cartes" in French, a goods name, then "card" or "cards" in English
// ("2 cartes poisson", "1 fish card"), in any case.
type Counts struct{ re *regexp.Regexp }

// NewCounts is the checker of the goods named: each good's names in both
// languages (the data's, "poisson" and "fish").
func NewCounts(names ...string) *Counts {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = regexp.QuoteMeta(n)
	}
	return &Counts{regexp.MustCompile(`(?i)(\d+) (?:(cartes?) )?(` + strings.Join(quoted, "|") + `)\b(?: (cards?)\b)?`)}
}

// Find returns the counts of goods in text.
func (c *Counts) Find(text string) []string { return c.re.FindAllString(text, -1) }

// Bad lists the counts of goods in text that are not of cards agreeing
// with their number: "1 vegetables", "2 poisson", "1 cartes riz", "2 fish
// card". French keeps 0 and 1 in the singular, English only 1; the goods
// names agree with no number by themselves.
func (c *Counts) Bad(text string) []string {
	var bad []string
	for _, m := range c.re.FindAllStringSubmatch(text, -1) {
		n, _ := strconv.Atoi(m[1])
		fr, en := strings.ToLower(m[2]), strings.ToLower(m[4])
		switch {
		case fr != "" && en == "" && (fr == "carte") == (n <= 1):
		case fr == "" && en != "" && (en == "card") == (n == 1):
		default:
			bad = append(bad, m[0])
		}
	}
	return bad
}
