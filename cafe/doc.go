// Package cafe is the table's side of the café floor: the wire format a
// table sends to the café's hub over NATS JetStream, and the Publisher
// that follows the table's journal and sends the public side of every
// step.
//
// # Subjects
//
// A table named t publishes its steps on
//
//	comptoir.table.t.step     (JetStream stream COMPTOIR)
//
// with Nats-Msg-Id "t/game/seq" (and "t/game/end" for the end of a game)
// so a resent step is dropped by the stream's deduplication, and its
// presence (state, devices, a call for staff, how its dice camera fared:
// DiceHealth) as the key t of the key-value bucket comptoir-presence,
// refreshed every few seconds. The hub answers a call for staff on
// comptoir.floor.t.answer. The hub's NATS permissions let table t publish
// only under comptoir.table.t. and its own presence key.
//
// # The journal is the outbox
//
// The Publisher never sits between the session and its journal: the
// session writes its steps as before, and the Publisher reads them from the
// journal after the cursor the journal keeps for it (journal.Cursor), and
// moves the cursor only once JetStream acknowledged them. A table that
// loses the café's network plays on; when it comes back the Publisher
// sends what it missed, in order, and the stream drops what it already
// has. Only the public side of a step leaves the table, what the table's
// own screen shows: it is built in one place, PublicStep, from the table's
// view (engine.NoSeat), the step's lines of the table's log (the rules'
// public words, table.StepLog) and the result once the game is over. No
// text is filtered: secrets are kept by construction, and the tests check
// every published message with an independent scan for the seats' secrets
// (package cafetest).
//
// # Concurrency
//
// Publisher.Run owns the connection and the cursor; Notify and SetStatus
// may be called from any goroutine and never block.
package cafe
