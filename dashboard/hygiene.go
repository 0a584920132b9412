package dashboard

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"comptoir/engine"
)

// Input hygiene: what a phone or the staff page types goes into the
// journal and the game record (docs/notation.md), so a player's name or a
// free text that would break a record line, or a restart that reads it
// back, is refused with a message saying what to change.

// Limits of the free texts.
const (
	// maxNameRunes is the longest player name, in characters.
	maxNameRunes = 24
	// maxReasonRunes is the longest staff reason.
	maxReasonRunes = 200
)

// checkPlayerName refuses a name the record cannot hold: empty, too long,
// a control character (a newline…), a character of the notation (':' ends
// a line's player prefix, '#' starts a comment, '"' closes a header tag,
// ',' separates the players, '=' a command's arguments), or a reserved
// word.
func checkPlayerName(name string) error {
	bad := func(en, fr string) error { return engine.Refuse(engine.ErrBadArgument, en, fr) }
	n := utf8.RuneCountInString(name)
	switch {
	case strings.TrimSpace(name) == "":
		return bad("a player's name is empty", "le nom d'un joueur est vide")
	case n > maxNameRunes:
		return bad(fmt.Sprintf("the name %.24q… is %d characters long: at most %d", name, n, maxNameRunes), fmt.Sprintf("le nom %.24q… fait %d caractères : %d au plus", name, n, maxNameRunes))
	case strings.TrimSpace(name) != name:
		return bad(fmt.Sprintf("the name %q starts or ends with a space", name), fmt.Sprintf("le nom %q commence ou finit par une espace", name))
	}
	for _, r := range name {
		if unicode.IsControl(r) || !unicode.IsPrint(r) && r != ' ' {
			return bad(fmt.Sprintf("the name %q holds an invisible or control character (a newline?): use letters, digits, spaces", name), fmt.Sprintf("le nom %q contient un caractère invisible ou de contrôle (un retour à la ligne ?) : utilisez des lettres, chiffres, espaces", name))
		}
		if strings.ContainsRune(`:#",=\`, r) {
			return bad(fmt.Sprintf("the name %q holds %q, which the game record uses: use letters, digits, spaces, - or '", name, r), fmt.Sprintf("le nom %q contient %q, que la feuille de partie utilise : utilisez des lettres, chiffres, espaces, - ou '", name, r))
		}
	}
	if low := strings.ToLower(name); low == "table" || low == "staff" {
		return bad(fmt.Sprintf("the name %q is reserved: choose another", name), fmt.Sprintf("le nom %q est réservé : choisissez-en un autre", name))
	}
	return nil
}

// checkFreeText refuses a free text (a staff reason, a board square's
// name) that is too long or is not one line of printable text.
func checkFreeText(field, text string, maxRunes int) error {
	bad := func(en, fr string) error { return engine.Refuse(engine.ErrBadArgument, en, fr) }
	if n := utf8.RuneCountInString(text); n > maxRunes {
		return bad(fmt.Sprintf("the %s is %d characters long: at most %d", field, n, maxRunes), fmt.Sprintf("le champ %s fait %d caractères : %d au plus", field, n, maxRunes))
	}
	for _, r := range text {
		if unicode.IsControl(r) || !unicode.IsPrint(r) && r != ' ' {
			return bad(fmt.Sprintf("the %s holds a control or invisible character (a newline?): write one line of text", field), fmt.Sprintf("le champ %s contient un caractère de contrôle ou invisible (un retour à la ligne ?) : écrivez une ligne de texte", field))
		}
	}
	return nil
}
