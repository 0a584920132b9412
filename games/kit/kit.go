// Package kit says what a game brings to Comptoir: its pure rules, its
// table adapter (how the table box's dice, tags and buttons become its
// commands), the fixed data and texts its pages show, its web renderer
// and styles, its card catalog for enrolment, its BG Stats metadata, its
// demo configuration and its notation document. Each game's directory
// (games/<game>) holds all of them and gives a [Game]; the list in
// package games names the games. The session, the dashboard and the
// command line know a game only through its Game: none of them names one.
package kit

import (
	"errors"
	"fmt"
	"io/fs"

	"comptoir/engine"
	"comptoir/input"
)

// Game is everything Comptoir needs of one game. Rules, Play, Web and BGStats
// are required (Check says what is missing); the other parts are optional,
// and their zero value says the game does without them.
type Game struct {
	// Name is the name the rules give the game ("genoa").
	Name string
	// Rules returns the game's rules over its embedded data.
	Rules func() engine.Rules
	// Adapter returns the table adapter for rules (a Genoa board edit
	// makes new rules, and the adapter follows their board). Nil: the
	// game is played from the phones only.
	Adapter func(engine.Rules) Adapter
	// Dice reports whether the game's dice may show blue and red; a
	// reading outside is refused as unreadable. Nil: the game has no dice.
	Dice func(blue, red int) bool
	// Info returns the fixed data its pages draw the game with (served
	// once at /api/game). Nil: just the game's name and variant.
	Info func(setup engine.Setup, rules engine.Rules) (Info, error)
	// Announce reports whether the accepted command is announced by name
	// to every screen ("Bruno plays a card"). Nil: nothing is announced,
	// so a new game's commands stay quiet until it says otherwise.
	Announce func(cmd engine.Command) bool
	// Play is how the game is played from a phone without its notation
	// (actions described for people, the turn prompt, consent, undo);
	// required: its Actions and Prompt.
	Play *Play
	// Edit is the staff's edit of the game's fixed data, one item at a
	// time (Genoa's board, cell by cell). Nil: the game has nothing to
	// edit.
	Edit *Editor
	// Vocabulary are words a seat's view may hold that are never a secret
	// (Négoce's goods, named by anyone): the tests' independent scan for
	// leaked secrets does not count them.
	Vocabulary func() []string
	// Web holds the game's renderer, Name+".js", and optionally its
	// styles, Name+".css", served under /static/ and loaded by the page.
	Web fs.FS
	// Cards is the card catalog the enrolment reads. Nil: no cards.
	Cards *Cards
	// BGStats is the game's entry in a BG Stats export.
	BGStats BGStats
	// Demo is the demo table's configuration file, from the repository's
	// root ("configs/tables/demo-negoce.yaml"); "" when it has none.
	Demo string
	// Notation is the game record notation's document, from the
	// repository's root ("docs/notation-genoa.md").
	Notation string
}

// Check reports the parts a game must have and lacks, and the parts that
// disagree with each other, so a forgotten part fails at start-up.
func (g Game) Check() error {
	var errs []error
	if g.Name == "" {
		errs = append(errs, errors.New("no name"))
	}
	if g.Rules == nil {
		errs = append(errs, errors.New("no rules"))
	} else if r := g.Rules(); r == nil || r.Name() != g.Name {
		errs = append(errs, fmt.Errorf("the rules are not those of %q", g.Name))
	}
	if g.Web == nil {
		errs = append(errs, errors.New("no web renderer"))
	} else if _, err := fs.Stat(g.Web, g.Name+".js"); err != nil {
		errs = append(errs, fmt.Errorf("no web renderer %s.js: %w", g.Name, err))
	}
	if g.Play == nil || g.Play.Actions == nil || g.Play.Prompt == nil {
		errs = append(errs, errors.New("no Play (actions and prompt): the phones could not play it"))
	}
	if g.BGStats.Name == "" {
		errs = append(errs, errors.New("no BG Stats name"))
	}
	if g.Edit != nil && (g.Edit.Load == nil || g.Edit.Apply == nil || g.Edit.Encode == nil) {
		errs = append(errs, errors.New("an editor without Load, Apply or Encode"))
	}
	if g.Cards != nil && (len(g.Cards.Keys) == 0 || g.Cards.Decode == nil) {
		errs = append(errs, errors.New("a card catalog without keys or decoder"))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("game %q: %w", g.Name, err)
	}
	return nil
}

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

// Refusals an adapter gives for the table's inputs.
var (
	ErrTagNotForGame = engine.NewRule("table.tag-not-for-game", "this tag means nothing in this game", "ce badge ne veut rien dire dans ce jeu")
	ErrNothingToDo   = engine.NewRule("table.nothing-to-do", "this button does nothing now", "ce bouton ne fait rien maintenant")
	ErrSensors       = engine.NewRule("table.sensors", "the board sensors do not show one move of the pawn", "les capteurs du plateau ne montrent pas un seul déplacement du pion")
)

// Cards is a game's card catalog as the enrolment reads it.
type Cards struct {
	// Keys are top-level keys found only in this game's cards file: they
	// tell it apart from the other games'.
	Keys []string
	// Decode reads a cards file (path names it in errors) with the game's
	// own strict decoder: every card to enroll, in catalog order.
	Decode func(data []byte, path string) ([]CatalogCard, error)
}

// CatalogCard is one card of a catalog to enroll: its ID and a label for
// people (its deck or name).
type CatalogCard struct {
	ID    string
	Label string
}

// BGStats is a game's entry in a BG Stats export (the app's game fields;
// package bgstats makes the play).
type BGStats struct {
	// Name is the game's name as the app shows it; required.
	Name string
	// BGGID is the game's BoardGameGeek id, 0 when none can be cited:
	// the app then matches the game by Name.
	BGGID int
	// BGGName and BGGYear are the BoardGameGeek name and year, if known.
	BGGName string
	BGGYear int
	// NoPoints is true for a game with a winner and no points (no scores
	// or ranks in the play, only the winners).
	NoPoints bool
	// StartCommand is the command (its verb in the notation) whose first
	// standing step names the start player, for a game where the table
	// decides at the start who begins; "": the first seat starts.
	StartCommand string
	// Rounds counts the rounds played in a final state; nil: no rounds.
	Rounds func(engine.State) int
}

// Editor is the staff's edit of a game's fixed data (Genoa's board
// layout). The data lives in a file the table's configuration names; an
// edit names one item and what it becomes. Edits gather in a draft until
// the data they make is whole; then the session replays the game with the
// rules over it, and the file is written.
type Editor struct {
	// Load returns rules over a data file; nil data: the game's default.
	// file names it in errors.
	Load func(data []byte, file string) (engine.Rules, error)
	// Apply applies the edits in order to the rules' data and returns
	// rules over the result. An error wrapping ErrIncomplete says the
	// data is not whole yet (the edits wait for more); a *engine.Refusal
	// says an edit is wrong.
	Apply func(rules engine.Rules, edits []Edit) (engine.Rules, error)
	// Encode writes the rules' data as a file Load reads.
	Encode func(rules engine.Rules) []byte
	// File is the default data's file, from the repository's root
	// ("configs/genoa/board.yaml"): a table's own copy starts from it.
	File string
}

// Edit is one item of a game's fixed data set by the staff: Genoa's cell
// "3-4" (Key) given to the square "market" (Value).
type Edit struct {
	Key, Value string
}

// ErrIncomplete is wrapped by an Editor's error when the edited data is
// not whole yet.
var ErrIncomplete = errors.New("the edited data is not whole yet")
