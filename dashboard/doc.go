// Package dashboard is a table's live dashboard: an HTTP server and a
// websocket hub that push the game to the table's screen, to each
// player's phone and to the staff page, with a web app embedded in the
// binary (plain HTML, CSS and JavaScript under web/, no build step, nothing
// loaded from the internet), readable on a phone, in French and English.
//
// # Views
//
//   - / is the table's screen (a tablet or the café's screen): the game as
//     everyone sees it (for Genoa the board with the pawn's path this turn
//     and the squares it can still reach, the round track, whose turn and
//     which step, every player's public holdings), the game's log in words,
//     and, on the table's screen only (see Security), a QR code per free
//     seat.
//   - /seat is a player's phone, played without the notation (a game's
//     kit.Play): on top the prompt, what the game waits for addressed to
//     that player, with the seat's actions as buttons described in the
//     game's words (steppers for amounts, option pickers for cards and
//     dice faces, the board's squares and the hand's cards tappable), the
//     proposals waiting for its answer and "Take back" for its own last
//     step; below, the board, the public holdings, the players and the
//     log. The phone is told its turn (vibration, a short sound it may
//     mute, the page's title), and told when its seat is freed or a new
//     game begins. A game without kit.Play still shows its legal commands
//     and a free command line.
//   - The table's screen on a TV (1280x800 and wider) is a grid that needs
//     no scrolling: the prompt on top, the board large, beside it the
//     game's moment of truth, the holdings, the players and the last lines
//     of the log in the players' colours; at the end a winner banner, the
//     score breakdown and how a tie was broken.
//   - /staff, behind the staff secret: undo the last step with a reason,
//     correct a holding (a game command played as the staff), free a seat
//     for another phone, edit a board cell (Genoa) or a stand-in value
//     (Dschunke), end or abandon the game.
//   - /join?seat=N&code=C is what a seat's QR code holds: the phone gets a
//     random token, keeps it in its local storage (a reload keeps the seat)
//     and becomes that seat. The dashboard keeps only the tokens' SHA-256,
//     in Opts.TokenFile, so a restart keeps the seats too.
//   - /download/record and /download/bgsplay give the game record (the
//     engine's notation) and, once the game is over, a BG Stats import
//     file; /api/game the game's fixed data (board layout, card texts).
//   - /bgstats sends a phone to the BG Stats app's import link of the
//     finished game (package comptoir/bgstats), and /qr/bgstats.png is the
//     end screen's QR code of it; ?game=N asks /download/bgsplay and
//     /bgstats for an earlier game of the journal (staff, with the PIN),
//     and /api/plays lists the journal's games for the staff page.
//
// # Secrets
//
// Frames are built on the server, once per audience (the table, each
// seat, the staff) for every update: a seat's frame holds State.View(seat),
// that seat's actions and refusals and proposals, and nothing of another
// seat's. The game's log is public, but a game may name a secret in it
// ("Anna draws L09"): words that appear in a seat's view and not in the
// table's are masked in everyone else's log. The staff see everything.
//
// # Messages
//
// Phones send small JSON messages (see [Message] and [DecodeMessage]),
// decoded strictly. A seat's frame carries its actions (kit.Play.Actions,
// without their commands) and the prompt, and no notation; the phone sends
// back an action's ID and its fields' values ("act"): the server finds the
// ID among the seat's actions on the latest state (a stale one is refused:
// the game moved on) and builds the command itself. A typed command is
// decoded by the game's codec. Either way the seat comes from the
// connection's token, never from the message, and a command that needs
// other seats' consent (kit.Play.Consent) becomes a proposal to them,
// played once they all accept. "takeback" takes back the seat's own last
// step when the game allows it. Every message gets a reply: "welcome",
// "accepted", "proposed", "refused" (the rules' reason in both languages)
// or "error" (what is wrong with the message); a bad message changes
// nothing and the connection goes on. A "notice" tells a phone its seat
// was freed or a new game began. Messages larger than 4 KiB get an error; frames larger than 1 MiB
// close the connection. Each connection is rate limited (Opts.Burst, then
// Opts.RatePerSecond). Websockets from another origin are refused.
//
// # Security
//
// A table sits on a shared network (the café's Wi-Fi); attack_test.go is
// the attack suite that proves each point against a table on loopback.
//
//   - Staff: one guard (staffauth.go) checks the staff secret on every
//     route (the websocket's hello and staff messages, the download's
//     header, the screen pairing); wrong secrets are counted across all
//     connections, and after three each further attempt waits twice as
//     long, up to a 15-minute lockout shown on the table's screen (the
//     screen itself is never made to wait). A staff login lasts
//     Opts.StaffSession; staff messages carry a nonce and a replayed one
//     is refused. The daemon makes a random secret at the first start
//     when the configuration sets no PIN.
//   - Seats (joincode.go): join codes go only to the table's screen (Opts.
//     ScreenAddrs, loopback by default, or a device paired with the staff
//     secret), serve once, expire (Opts.JoinCodeTTL); /qr/N draws only the
//     code its caller has.
//   - Origin (origin.go): the Host must be an address, localhost or a
//     configured name (DNS rebinding); websockets and state-changing
//     requests need a matching Origin; no directory listings.
//   - Limits (limits.go): websockets capped in all and per address, a rate
//     limit over all connections, and for the daemon a capped listener and
//     an HTTP server with read, write and idle timeouts.
//   - Input (hygiene.go): player names and free texts that would break
//     the game record are refused with a message.
//
// # Concurrency
//
// One goroutine, the hub (run, started by [Server.Run]), owns the set of
// connections: it follows the session's updates (Session.Subscribe, which
// keeps only the latest for a slow reader), builds each audience's frame
// once and queues it on every connection's bounded send channel; a
// connection whose queue is full is closed, never waited for. Connections
// register, unregister and change audience by messages to the hub. Each
// connection has exactly one reader (the HTTP handler's goroutine, which
// also submits its commands to the session and waits for the answer) and
// one writer goroutine (frames from the hub, replies from the reader,
// pings every pingPeriod; a peer silent for pongWait is dropped). Seat
// tokens and proposals are guarded by their own mutexes, never held while
// waiting. When Run's context ends the hub closes every connection and Run
// waits for all their goroutines before it returns.
package dashboard
