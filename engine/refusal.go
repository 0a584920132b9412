package engine

import (
	"errors"
	"fmt"
)

// ErrIllegal is matched by every refusal: errors.Is(err, ErrIllegal) tells
// an illegal move from a fault.
var ErrIllegal = errors.New("illegal move")

// A Rule is a sentinel error for one way a command can be illegal. Rules
// are declared once, as package variables, with NewRule.
type Rule struct {
	// Code is stable, for programs: "genoa.visited-twice".
	Code string
	// EN and FR say the rule in a few words, for players.
	EN, FR string
}

// NewRule returns a rule for a package variable.
func NewRule(code, en, fr string) *Rule { return &Rule{Code: code, EN: en, FR: fr} }

func (r *Rule) Error() string { return r.EN }

// Is makes every rule match ErrIllegal.
func (r *Rule) Is(target error) bool { return target == ErrIllegal }

// Rules that every game uses.
var (
	ErrUnknownCommand = NewRule("unknown-command", "this command does not exist in this game", "cette commande n'existe pas dans ce jeu")
	ErrNotNow         = NewRule("not-now", "this is not the moment for that", "ce n'est pas le moment")
	ErrNotYourTurn    = NewRule("not-your-turn", "it is not your turn", "ce n'est pas votre tour")
	ErrGameOver       = NewRule("game-over", "the game is over", "la partie est terminée")
	ErrBadArgument    = NewRule("bad-argument", "the command is not complete or not valid", "la commande est incomplète ou invalide")
	ErrCannotPay      = NewRule("cannot-pay", "you cannot give what you do not have", "on ne peut pas donner ce qu'on n'a pas")
)

// Refusal is an illegal command: the rule it breaks and the details of
// this case in both languages.
type Refusal struct {
	Rule *Rule
	// EN and FR are the full reason, for example "square 4-4 was already
	// visited this turn".
	EN, FR string
}

// Refuse returns a refusal of rule. en and fr are the details; when empty,
// the rule's own text is used.
func Refuse(rule *Rule, en, fr string) *Refusal {
	if en == "" {
		en = rule.EN
	}
	if fr == "" {
		fr = rule.FR
	}
	return &Refusal{Rule: rule, EN: en, FR: fr}
}

// Refusef is Refuse with the same arguments formatted into both texts.
func Refusef(rule *Rule, en, fr string, args ...any) *Refusal {
	return Refuse(rule, fmt.Sprintf(en, args...), fmt.Sprintf(fr, args...))
}

func (r *Refusal) Error() string { return r.EN }

// Unwrap returns the rule.
func (r *Refusal) Unwrap() error { return r.Rule }

// Reason returns the reason in lang ("fr" or "en"; English otherwise).
func (r *Refusal) Reason(lang string) string {
	if lang == "fr" {
		return r.FR
	}
	return r.EN
}

// Public returns the refusal's public words: the rule it breaks, without
// the details of this case (which may name the acting seat's holdings).
// They are what anyone but the seat that acted may read.
func (r *Refusal) Public() (en, fr string) {
	if r.Rule == nil {
		return "the rules refuse it", "les règles le refusent"
	}
	return r.Rule.EN, r.Rule.FR
}

// AsRefusal returns the refusal inside err, if any.
func AsRefusal(err error) (*Refusal, bool) {
	var r *Refusal
	ok := errors.As(err, &r)
	return r, ok
}
