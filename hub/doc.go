// Package hub is the café's hub: it consumes the steps every table
// publishes (package cafe) from NATS JetStream with a durable consumer,
// keeps the live floor in memory (a Card per table, the Alerts) and the
// history in SQLite, and serves the floor's web app.
//
// # NATS
//
// StartServer runs an embedded NATS server with JetStream (a file store
// under the hub's state folder, memory and disk limits for a Raspberry
// Pi), where each table logs in with its own credentials and may publish
// only its own subjects (TablePermissions); the hub can use an existing
// server or cluster instead. The stream deduplicates on Nats-Msg-Id, the
// history on (table, game, step): a step sent twice, or delivered again
// after the hub restarted, is recorded once. A table's presence is a key
// of a key-value bucket the table refreshes every few seconds; a table
// silent for OfflineAfter shows offline.
//
// # Chains of cafés
//
// A café's server may join a central NATS cluster as a leaf node
// (ServerOpts.LeafRemotes): the tables keep talking to their café's
// server, which works on when the link to the centre is down, and the
// centre sees the cafés' subjects through the leaf connections.
//
// # Concurrency
//
// Hub.Run owns the consumer and the presence watch; the Floor is guarded
// by its mutex and may be read from the web handlers; each floor page
// has one writer goroutine and one reader.
package hub
