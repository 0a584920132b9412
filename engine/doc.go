// Package engine is the game-agnostic core of Comptoir's rules engines:
// actions in, events out, state rebuilt from events.
//
// # Model
//
// A game is described by its [Rules]: they start a [State] from a [Setup]
// (game, variant, players, options). A player or a device proposes an
// [Action] (a [Command] and the [Seat] it comes from); the state decides
// whether it is legal and answers the [Event] values that record what
// happens, or a [*Refusal] that says, in French and English, why not.
// Applying the events gives the next state; the old one is left as it was.
// Replaying the events of a journal from the setup rebuilds the state
// exactly, so a journal of events is the whole truth of a game.
//
// The engine is pure: no I/O, no clock, no randomness, no global state.
// Randomness in digital-only play (a deck shuffled, a simulated player's
// choice) comes from outside, as commands.
//
// # Refusals
//
// Every way a command can be illegal is a [*Rule]: a sentinel error with a
// stable code and a short text in both languages. A [*Refusal] wraps the
// rule with the details of this case, so errors.Is(err, genoa.ErrVisited)
// tells refusals apart and errors.Is(err, ErrIllegal) tells a refusal from
// a fault.
//
// # Encoding
//
// Events and commands are Go structs. A [Codec] gives each its name and
// encodes it as JSON (the journal, the phones) or as a line of text (the
// game record notation, see package comptoir/notation), with no code per
// type.
package engine
