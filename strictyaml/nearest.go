package strictyaml

import "strings"

// Nearest returns the candidate closest to a mistyped word, for a "did
// you mean" hint: one within an edit distance of 2 (1 for words of up to
// 4 letters, none for shorter ones), or a candidate the word is a
// plural, a singular or a prefix of; "" when none is near enough or two
// are equally near.
func Nearest(word string, candidates []string) string {
	w := strings.ToLower(word)
	if len(w) < 3 {
		return ""
	}
	maxDist := 2
	if len(w) <= 4 {
		maxDist = 1
	}
	best, bestDist, tie := "", maxDist+1, false
	for _, c := range candidates {
		d := editDistance(w, strings.ToLower(c))
		switch {
		case d < bestDist:
			best, bestDist, tie = c, d, false
		case d == bestDist && c != best:
			tie = true
		}
	}
	if best == "" || tie {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, counted in
// runes, with a swap of two neighbours counted as one edit.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// d[i][j] is the distance between ra[:i] and rb[:j].
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
