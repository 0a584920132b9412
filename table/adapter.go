package table

import (
	"comptoir/engine"
	"comptoir/games/kit"
)

// Target is what an enrolled tag stands for (kit.Target).
type Target = kit.Target

// TagLookup finds the target of an enrolled tag's UID.
type TagLookup = kit.TagLookup

// An Adapter turns the table box's inputs into one game's commands; each
// game's kit gives its own (kit.Adapter).
type Adapter = kit.Adapter

// ErrNoCommand is wrapped by an Adapter's error for an input that means
// nothing to the game (kit.ErrNoCommand).
var ErrNoCommand = kit.ErrNoCommand

// Refusals of the table itself, apart from any game's rules.
var (
	ErrDiceUnreadable  = engine.NewRule("table.dice-unreadable", "the dice could not be read: look again, roll again or enter the roll", "les dés n'ont pas pu être lus : regardez à nouveau, relancez ou saisissez le tirage")
	ErrLateCorrection  = engine.NewRule("table.late-correction", "a die moved after the game went on; ask the staff to correct the roll", "un dé a bougé alors que la partie a continué ; demandez au personnel de corriger le tirage")
	ErrUndoStaff       = engine.NewRule("table.undo-staff", "only the staff can undo this step", "seul le personnel peut annuler cette étape")
	ErrNothingToUndo   = engine.NewRule("table.nothing-to-undo", "there is nothing to undo", "il n'y a rien à annuler")
	ErrNothingToDo     = kit.ErrNothingToDo
	ErrTagNotForGame   = kit.ErrTagNotForGame
	ErrSensors         = kit.ErrSensors
	ErrRulesMismatch   = engine.NewRule("table.rules-mismatch", "the game so far does not fit the new rules", "la partie jouée ne s'accorde pas aux nouvelles règles")
	ErrGameFinished    = engine.NewRule("table.game-finished", "this game is finished; start a new one from the staff page", "cette partie est terminée ; commencez-en une nouvelle depuis la page du personnel")
	ErrStaffNotAllowed = engine.NewRule("table.staff-only", "only the staff may do this", "seul le personnel peut faire cela")
)
