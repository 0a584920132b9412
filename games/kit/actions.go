package kit

import (
	"errors"

	"comptoir/engine"
)

// Text is a text for people in both languages, each with its own
// typography ("Offer 5 ducats to Bruno" / "Offrir 5 ducats à Bruno").
type Text struct {
	FR string `json:"fr"`
	EN string `json:"en"`
}

// Play is how a game is played from a phone without its notation: what
// each seat may do now, described for people, and what the table waits
// for, in the game's own words. The notation stays for the record, the
// staff's advanced corrections and the command line; a seat's page never
// shows it.
//
// Everything here is built for one viewer from what that viewer may see:
// Actions(s, seat) describes seat's own choices only, Prompt(s, viewer)
// names no secret of another seat.
type Play struct {
	// Actions describes every action seat may take now in s, the steps
	// the table box would do for it included (a card drawn without a
	// reader, the dice without a camera): each legal action of s by seat,
	// and each action of the table (engine.NoSeat) that seat's phone may
	// do in its stead, is reachable through exactly one Action (a choice
	// of amounts or cards counts as one). Nil or empty: nothing to do.
	Actions func(s engine.State, seat engine.Seat) []Action
	// Prompt says what the game waits for now, addressed to viewer:
	// "Anna, move the merchant (3 moves left)" to everyone, "Your offer
	// for the Inn?" to Bruno. viewer is a seat, engine.NoSeat (the table's
	// screen) or engine.Staff.
	Prompt func(s engine.State, viewer engine.Seat) Text
	// Consent lists the seats, other than the one playing it, that must
	// accept the command before it is played: a deal that takes Bruno's
	// ducats needs Bruno. The dashboard turns such a command, however it
	// arrives from a phone, into a proposal to those seats. Nil: no
	// command needs anyone's consent.
	Consent func(s engine.State, a engine.Action) []engine.Seat
	// Undoable reports whether the player who played a may take the step
	// back: no hidden information was revealed and no chance was involved
	// (before is the state the step was played on, evs its events). The
	// session adds the rest: it must be the table's last step and by that
	// player. Nil: no step can be taken back by its player (the staff
	// still can).
	Undoable func(before engine.State, a engine.Action, evs []engine.Event) bool
}

// Action is one thing a seat may do, described for people.
type Action struct {
	// ID is stable within a state and unique among the seat's actions
	// ("move:inn", "roll", "draw", "sell:perfume-1"); the phone sends it
	// back with the fields' values.
	ID string `json:"id"`
	// Group is what kind of action it is, to group the buttons: "move",
	// "offer", "deal", "build", "sell", "buy", "roll", "draw", "bid",
	// "pass", "end", ...
	Group string `json:"group"`
	// Label is the button's text. A "{name}" in it stands for the value
	// chosen for the field of that Key ("Offer {ducats} to move the
	// merchant to the Inn"); the page writes a number with its field's
	// unit, singular or plural.
	Label Text `json:"label"`
	// Target is the board square's key or the card's ID the action is
	// about, so that the page can make that square or card tappable; ""
	// when none.
	Target string `json:"target,omitempty"`
	// Fields are the values the player chooses before the action is sent:
	// an amount with its legal range (a stepper), a choice among options
	// (a card by name, a die's face). None: one tap sends it.
	Fields []Field `json:"fields,omitempty"`
	// By is the seat the command is played as: the phone's seat, or
	// engine.NoSeat for a step of the table box the phone does in its
	// stead (a card drawn, the dice rolled).
	By engine.Seat `json:"-"`
	// Build returns the command for the fields' values (by Key; every
	// field has one). An error says which value is wrong, in both
	// languages (a *engine.Refusal). The engine still judges the command.
	Build func(values map[string]string) (engine.Command, error) `json:"-"`
	// Confirm asks the player to confirm before sending (a step that
	// cannot be taken back: ending the game, a sale).
	Confirm bool `json:"confirm,omitempty"`
}

// Field is one value a player chooses for an action.
type Field struct {
	Key   string `json:"key"`
	Label Text   `json:"label"`
	// A number between Min and Max (a stepper) starting at Value, with
	// its unit in the singular and plural ("ducat", "ducats").
	Min   int  `json:"min,omitempty"`
	Max   int  `json:"max,omitempty"`
	Value int  `json:"value,omitempty"`
	Unit  Text `json:"unit,omitempty"`
	Units Text `json:"units,omitempty"`
	// Options, when any, make it a choice among them instead of a
	// number: a card by name, a face of a die.
	Options []Option `json:"options,omitempty"`
	// Colour colours the picker ("blue", "red" dice).
	Colour string `json:"colour,omitempty"`
	// Deck says the options are a whole deck of the catalog less the
	// cards this viewer holds or sees played: the cards a player may have
	// drawn. They name cards in other hands too, and tell nothing of
	// where those are, the list being the same wherever they are. The
	// tests' scan for leaked secrets skips the values of such a list.
	Deck bool `json:"deck,omitempty"`
}

// Option is one choice of a Field: its value and its name for people,
// with a picture's path under /static/ where the catalog has one.
type Option struct {
	Value   string `json:"value"`
	Label   Text   `json:"label"`
	Picture string `json:"picture,omitempty"`
}

// ErrNoAction is wrapped by the error for an action ID the seat does not
// have now (the state moved on since the page was drawn).
var ErrNoAction = errors.New("no such action now")

// Find returns the action of acts with the given ID.
func Find(acts []Action, id string) (Action, error) {
	for _, a := range acts {
		if a.ID == id {
			return a, nil
		}
	}
	return Action{}, ErrNoAction
}
