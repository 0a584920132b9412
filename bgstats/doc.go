// Package bgstats exports a finished game of a table's journal as a play
// of the BG Stats app (https://www.bgstatsapp.com): a ".bgsplay" file in
// the app's backup layout, and the app's import link
// (https://app.bgstatsapp.com/createPlay.html?data=<the play as JSON>)
// that opens the play on a phone.
//
// The package names no game: what BG Stats needs to know of one (its
// BoardGameGeek entry, whether it has points, who started, how many
// rounds were played) is a [Game] given by the caller, kept with the
// game's other per-game data.
//
// # What a play holds
//
//   - The date: the journal's start of the game, written as the wall time
//     of the table's time zone ([Opts.Zone]) in the file, as the app's own
//     backups do; the link's playDate is in UTC, as the app's link
//     documentation asks (see [Link]).
//   - The duration: from the journal's start of the game to its end (not
//     to the moment of the export).
//   - The players in seating order with their seat (seatOrder), scores,
//     ranks and winners; a game without points ([Game.NoPoints]) has no
//     score and no rank, only winners.
//   - The start player: the seat that made the game's first
//     [Game.StartCommand], or the first seat.
//   - The rounds played ([Game.Rounds]) and the venue ([Opts.Location]).
//
// Ids (play, players, game, location) are name-based UUIDs, so importing
// the same game twice gives the same play, not a duplicate.
package bgstats
