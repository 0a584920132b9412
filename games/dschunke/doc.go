// Package dschunke is the rules engine of Dschunke (Michael Schacht,
// Queen Games), for 3 or 4 players: ten rounds of six phases in which the
// players load palettes of crates on five junks, earn yuans and goods
// cards for their visible crates, and sell goods in a secret, simultaneous
// bidding.
//
// The rules text is rules/dschunke-faidutti-translation-fr.txt;
// RULES-NOTES.md (section Dschunke) overrides it. The data (the junks,
// goods, helpers' track and starting position in configs/dschunke/board.yaml;
// the market, special and restock cards, with stable ids for NFC stickers,
// in configs/dschunke/cards.yaml) are decoded strictly by [Decode].
// RULES.md, beside this package, traces every paragraph of the rules text
// to the tests and records that check it; the records of the corners no
// game reaches are in testdata/corners.
//
// # A game
//
//   - Set-up ([Rules.Start]): 3 or 4 players, no money, 20 palettes each
//     (some already on the junks), 8 goods cards each from a deal of 8 (4
//     players) or 6 (3 players) cards of each goods; the rest of the 18
//     cards of each goods lie on its junk. Each player records his hand
//     from his phone ([Hand]).
//   - Phase 1: the market card is turned over ([Reveal], scanned). Holders
//     of an exchange card may exchange ([Exchange]) or not ([Pass]). Then
//     the events of the helpers' squares, once per helper on an S or a Y
//     square (two helpers on S squares: the S event twice, in turn order
//     each time): S, each player in turn takes a different pile and keeps
//     one card ([Draw]); Y, every player's money is announced
//     ([WealthAnnounced]): the table view, every phone and the log show it
//     until the first action of phase 2, then money is secret again.
//   - Phase 2: in turn, each player uses one merchant or helper not yet used
//     this round: [Load] two palettes, [Income], or [Take] goods cards, and
//     may play one extra-action card ([Play]) before or after; [Pass] ends
//     his turn when he holds one.
//   - Phase 3: in turn, each player takes one goods card of his choice per
//     restock card ([Restock]).
//   - Phase 4: every phone sends a sealed [Bid]; when all have bid, the bids
//     are revealed together ([BidsRevealed]) and each goods bid on is sold
//     ([Sold]); a single winner of an S takes a special card ([Draw]). Goods
//     not sold are bid on again ([Rebid]) while somebody bid cards.
//   - Phases 5 and 6 ([RoundEnded]): merchants to the next junk, helpers one
//     square on, the next player becomes first player. After round 10 the
//     game is scored: money, end-game cards, and 25 for visible crates on
//     all five junks or else 4 per junk with one; a tie goes to the most
//     goods cards in hand.
//
// # Crates
//
// A junk's hold is a 3x3 grid. A palette (three crates) lies in a layer of
// three: layer 1 along the rows, layer 2 across them, and so on. At= names
// the slot (1 to 3) of each palette in the layer being filled; a layer is
// begun only when the one below is full. A crate is visible when no
// palette lies above its cell. Income and goods actions count the
// player's visible crates on the junk, with a minimum of 3.
//
// # Secrets
//
// Money, the goods cards in hand, special cards other than the "always"
// ones, and a sealed bid are secret: [State.View] of a seat shows its own
// and nobody else's, the table's view none, the staff's all; at the end
// all are shown. While bids are sealed, a hand's size counts the bid's
// cards (they are still in the closed fist). [State.Describe], the log
// every phone sees, never tells a hand, a sealed bid or a secret card.
// The journal of events does hold them: it must stay on the table's box.
//
// # Randomness
//
// The engine draws nothing. The market card, a special card taken and the
// starting hands are commands, scanned or typed at a real table; for
// digital play or simulation, [State.Legal] lists every possible draw as
// an action of the table, so that no phone's list of moves tells a
// secret. A seeded uniform choice among them draws the market and special
// cards fairly (each card is listed once); a starting hand is listed once
// per composition (fish:2,rice:3...), so a uniform choice is not weighted
// as a real shuffle would be: a dealing program should shuffle the 32 (or
// 24) cards itself and send the hands.
//
// # Rulings where the text is silent
//
//   - Board data: the text sends the starting position to the German
//     rules' diagrams and does not print the helpers' squares; the junks'
//     clockwise order, the track, the starting palettes and merchants, 8 of
//     the 10 market cards and the pairs of the five 12-yuan cards in
//     configs/dschunke are stand-ins, to check against a box; the files
//     mark each (stand-ins: and stand-in: true, listed by [Data.StandIns]).
//   - Slots: the player chooses the slot of each palette in the layer being
//     filled. A player with fewer than two palettes loads what he has; with
//     none, the load action is still his action, and loads nothing.
//   - Goods actions: the cards come from the junk of the action (on the
//     grey junk, from one junk of the player's choice); when that pile runs
//     short, the rest comes from other junks of his choice. A player takes
//     all he is owed, up to the cards left on the junks.
//   - A helper acts on one of the junks without a merchant, chosen by the
//     player; a helper's goods action on the grey junk follows the grey
//     junk's rule, and so does a take-goods card played on the grey junk.
//   - Phase 1's order: the market card, then the exchanges, then the
//     square events; a card taken at an S square is first usable after.
//   - Exchange cards are "always" cards: the holder may exchange once each
//     round, right after the market card, 1 or 2 cards for as many of other
//     goods; holders act in turn order.
//   - Restock: a player takes up to one card per restock card and
//     restock-plus card he holds ("peut prendre"); Legal lists only the
//     full restocks.
//   - Special cards: piles are counts, not contents (at a real table the
//     engine cannot know which card is in which pile). A card scanned
//     without a pile comes from the largest pile the player may take. At
//     an S square, players in turn take different piles; a player who finds
//     no pile left, or no card, takes none.
//   - Bidding: all must send a bid, "nothing" included. Only goods not yet
//     sold may be bid; cards of a sold goods are refused at once (the phone
//     says so). A tie on an S gives nothing; a tie on money splits it, the
//     remainder to the bank. The win-ties card makes its holder the single
//     winner of any tie he is in. A goods with bidders is sold (its marker
//     placed) even on a tie. Rebidding goes on while goods are unsold and
//     the last bidding had a bid of cards of one goods.
//   - Hidden wealth: before the end, [State.Result] holds only the public
//     crates' bonus; money and end-game cards count once the game is over.
//   - Variant set-up (the text's "Variante de mise en place") is not
//     offered: Dschunke has no variants or options here.
package dschunke
