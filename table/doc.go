// Package table runs one table's game: the session that joins the table
// box's inputs (a settled dice roll, a tag tapped on the NFC reader, the
// board sensors, the confirm and undo buttons), the commands sent from the
// players' phones and the staff page, the rules engine that judges them,
// and the journal that records every accepted step before anyone sees it.
//
// # Flow
//
// An input is turned into an engine command by the game's [Adapter], from
// its kit ([Opts.Kit], kit.Game.Adapter; in Genoa a settled roll places
// the pawn, a square's tag moves it, a card's tag records the card drawn,
// the confirm button ends the current step); the kit also says which dice
// faces the game reads. The session names no game: it knows one through
// its kit and the list of games (package games). A phone's command arrives through [Session.Submit], the staff's
// through [Session.Staff]. Either way the engine decides; an accepted step
// is appended to the journal, which syncs it to disk, and only then does
// the session's state move on and an [Update] go out to the subscribers. A
// refused step changes nothing: the reason, in French and English, goes to
// the caller, to the [Indicator] (buzzer or red LED) when it came from the
// table, and to every subscriber in [Update.Refusal].
//
// On start the session rebuilds its state and the game's log from the
// journal, so a restart, even after a power cut, resumes where the game
// stood, and a phone that reconnects gets the same view back.
//
// # Undo
//
// The staff undo the last standing step with a reason ([StaffUndo]). The
// table's undo button undoes the last step only when it came from the
// table's own devices (a misread die, a wrong tap) less than
// [Opts.UndoWindow] ago; anything else is refused with the advice to ask
// the staff. A dice reading flagged as a correction (a die knocked after the
// roll was reported) replaces the roll when nothing happened since; after
// that, it is refused and the staff decide. The player who threw may
// also enter the faces they see while the camera's reading is still the
// last step ([Session.CorrectDice], offered by [Update.Reading]); like
// the staff's [StaffDice], the reading is then undone as a misread
// ([MisreadPrefix]), which [Misreads] counts.
//
// # Concurrency
//
// One goroutine, the one that calls [Session.Run], owns the game: the
// state, the rules, the log, the journal. Every [Update] carries the rules
// and codec its state was built with, so a reader formats and parses
// commands with them and never reads the session's rules (a staff board
// edit swaps them on Run's goroutine). [Session.Submit] and [Session.Staff] send a
// request to it and wait for its answer (or for their context to end), so
// they are safe to call from any goroutine, for example one per phone
// connection; they block until Run picks them up. Updates go out through
// [Session.Subscribe]: each subscriber has a channel of capacity one, and
// the session replaces an unread update with the newer one instead of
// waiting, so a slow subscriber never holds the game up and always reads
// the latest state. The subscriber set and the latest update are guarded by
// a mutex that is never held while waiting for anything. The states in
// updates are immutable values: subscribers may read them (View, Legal,
// Result) from any goroutine.
package table
