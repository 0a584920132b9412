package table

import (
	"errors"

	"comptoir/engine"
	"comptoir/input"
)

// Target is what an enrolled tag stands for: a board square or a card.
type Target struct {
	// Kind is "square" or "card" (the hw tag map's kinds); a game's
	// adapter may know others.
	Kind string
	// ID is the square ("3-4", blue column then red row) or the card's
	// catalog ID ("M12").
	ID string
}

// TagLookup finds the target of an enrolled tag's UID.
type TagLookup func(uid string) (Target, bool)

// An Adapter turns the table box's inputs into one game's commands. It
// keeps the engine free of inputs: the engine only sees commands. An
// adapter is stateless and pure; the session calls it from its own
// goroutine.
type Adapter interface {
	// Translate returns the action that ev stands for in state s. t is the
	// target of a TagTapped of an enrolled tag, the zero Target otherwise.
	// It returns an error wrapping ErrNoCommand when the input means
	// nothing to this game (it is then ignored), or a *engine.Refusal
	// when the input cannot be used now, with the reason for the players.
	Translate(s engine.State, ev input.Event, t Target) (engine.Action, error)
	// AwaitsTable reports whether the game now waits for an input from
	// the table box (a roll, a tap, a card scanned): it lights the
	// "waiting for you" LED.
	AwaitsTable(s engine.State) bool
}

// ErrNoCommand is wrapped by an Adapter's error for an input that means
// nothing to the game: a button it does not use, a reading it ignores.
var ErrNoCommand = errors.New("input is not a command of this game")

// Refusals of the table itself, apart from any game's rules.
var (
	ErrDiceUnreadable  = engine.NewRule("table.dice-unreadable", "the dice could not be read: look again, roll again or enter the roll", "les dés n'ont pas pu être lus : regardez à nouveau, relancez ou saisissez le tirage")
	ErrLateCorrection  = engine.NewRule("table.late-correction", "a die moved after the game went on; ask the staff to correct the roll", "un dé a bougé alors que la partie a continué ; demandez au personnel de corriger le tirage")
	ErrUndoStaff       = engine.NewRule("table.undo-staff", "only the staff can undo this step", "seul le personnel peut annuler cette étape")
	ErrNothingToUndo   = engine.NewRule("table.nothing-to-undo", "there is nothing to undo", "il n'y a rien à annuler")
	ErrNothingToDo     = engine.NewRule("table.nothing-to-do", "this button does nothing now", "ce bouton ne fait rien maintenant")
	ErrTagNotForGame   = engine.NewRule("table.tag-not-for-game", "this tag means nothing in this game", "ce badge ne veut rien dire dans ce jeu")
	ErrSensors         = engine.NewRule("table.sensors", "the board sensors do not show one move of the pawn", "les capteurs du plateau ne montrent pas un seul déplacement du pion")
	ErrRulesMismatch   = engine.NewRule("table.rules-mismatch", "the game so far does not fit the new rules", "la partie jouée ne s'accorde pas aux nouvelles règles")
	ErrGameFinished    = engine.NewRule("table.game-finished", "this game is finished; start a new one from the staff page", "cette partie est terminée ; commencez-en une nouvelle depuis la page du personnel")
	ErrStaffNotAllowed = engine.NewRule("table.staff-only", "only the staff may do this", "seul le personnel peut faire cela")
)

var adapters = map[string]Adapter{
	"tally": tallyAdapter{},
}

// AdapterFor returns the adapter of the named game, or false when the game
// is played from the phones only.
func AdapterFor(game string) (Adapter, bool) {
	a, ok := adapters[game]
	return a, ok
}
