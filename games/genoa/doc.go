// Package genoa is the rules engine of The Traders of Genoa (Alea 2001)
// and Genoa (Filosofia 2008), 2 to 5 players: one engine, two edition
// profiles. Every difference between the editions is asked of the profile
// (configs/genoa/editions.yaml, through package catalog), never of the
// edition's name; the board is data (configs/genoa/board.yaml, package
// board) and so are the cards (cards.yaml).
//
// The rules followed are the texts in /work/shared/rules (Berclaz's
// translation and the quick reference for Alea, the Filosofia rulebook),
// as settled by RULES-NOTES.md. Where they are silent the rulings below
// apply; each is tested. RULES.md, beside this package, traces every
// paragraph of the three texts to the tests and records that check it;
// the records of the corners no game reaches are in testdata/corners.
//
// # A game in commands
//
// Setup.Variant is the edition ("alea-2001", "filosofia-2008"; Filosofia
// when empty); Setup.Players in seating order, the first player first and
// fixed for the game. Option "market-advance=off" is the Alea translator's
// house rule (a start on the market does not advance the round track),
// only where the profile allows it.
//
//	draw card=L03                 the starting hands, then every card drawn
//	roll blue=3 red=2             the merchant's roll (or the dice camera)
//	start square=market           a start-space tile instead of the roll
//	move to=guild-hall            a move without a deal
//	deal from=Bruno to=harbour ducats=5 goods=silk:1   a deal for a move
//	Bruno: offer ducats=5         an offer for the building the pawn is on
//	accept from=Bruno             the merchant accepts it
//	Anna: act                     the action of the building (villa: order=L03 tile=extra)
//	Anna: deliver card=S07        a small order, right after one's own action
//	Anna: extra | take good=silk | trade give=silk get=wine | build building=park
//	end                           the merchant ends the movement
//	Anna: acquire street=6-3 place=guild-hall,coach-house remove=park
//	Bruno: pass
//	staff: correct player=Anna ducats=+10 goods=silk:2 reason="paid twice"
//
// Every command, its arguments and an example game are in
// docs/notation-genoa.md (its example is replayed by the tests).
//
// A square is written as a building key ("guild-hall"), "market", or its
// blue-red cell ("3-2"). Drawing is a command: the engine accepts any card
// still in the deck, so the real order of a shuffled deck never needs to be
// known (at the table the NFC scan of the card sends it; a simulator picks
// among the legal draws). Legal lists the draws as the table's, never as
// the drawer's: a phone may not choose its card, nor learn from the list
// which cards are not in the deck. Messages are delivered by the engine itself, as
// soon as the pawn has visited both buildings of a card in the turn.
//
// # Rulings
//
// Where the texts leave a point open, a careful referee's choice:
//
//   - Decks. A deck is the set of its cards not in a hand; a card used goes
//     back to it. A draw from an empty deck gives nothing and the action
//     still counts; a draw of two from a deck of one gives one.
//   - Deals. A deal is concluded by the merchant (his line, or his phone
//     accepting the offerer's proposal), the table or the staff, never by
//     the offerer alone. A deal is recorded once the handshake is made: the offerer
//     pays at once (ducats, goods, cards, tiles, ownership markers; the
//     merchant may give ducats and goods back), the pawn moves to the
//     square named, and if it is a building the offerer must take its action
//     before the pawn moves on. A deal must move something. The offerer
//     must still have an action for a building (an extra-action tile can be
//     played first). Goods to be paid "from the action" (After) are limited
//     to what that building's action surely gives now: a warehouse's goods
//     or a tile building's tile; they are paid right after the action.
//     Cards drawn by the action cannot be promised (unknown until drawn).
//     Until they are paid, the offerer may not play a trade 1:1 tile.
//   - Markers in a deal: the offerer's go back to the common supply and
//     the merchant takes as many of his colour (Filosofia's note), so the
//     merchant's colour must have them.
//   - A deal is made only for a square next to the pawn; an offer for a
//     farther square is a suggestion the engine does not record (Filosofia
//     "Case non-adjacente", Berclaz 4.2.3), and the refusal says so.
//   - Offers for the building the pawn stands on: a player's new offer
//     replaces the old; offers stand until the action is taken (no
//     withdrawal), and an offerer must have an action left. Offers are
//     cleared when the pawn moves on.
//   - Promises (Alea only): words recorded with a deal or an offer, never
//     enforced, and only on top of something given.
//   - Action windows. The tiles "commodity of choice", "trade 1:1" and
//     "building action" are played by the player who holds the right to the
//     current building's action before taking it, or by the player who just
//     took an action until the next command that is not theirs (a move, a
//     deal, the end of the movement). The merchant holds that right on a
//     building whose action is open and that no deal gave away. A tile
//     played at the start of the action binds its player to take the
//     action before the pawn moves on ("il peut jouer cette carte avant
//     même d'effectuer l'action", Berclaz 6.5.3): a merchant cannot play
//     tiles at every building and take none of their actions.
//   - The extra-action tile may be played by anyone during the movement, on
//     anyone's turn; it gives one more action this turn.
//   - The building-action tile performs the building's action for its owner
//     without using the building's action of the turn, without ownership
//     income (the owner is the player) and without a small order; at a
//     villa it gives either villa option, a contract drawn or a large order
//     for that villa delivered (RULES-NOTES ruling: only a small order is
//     excluded, "cette carte n'autorise pas à remplir un petit contrat",
//     Berclaz 6.5.5). The tile played goes back to its supply first, so
//     the large order's tile of choice may be that building-action tile.
//   - Trade 1:1 gives a good, a tile, a card or one's own marker, and takes
//     a good, a tile, one's own marker from the common supply or the next
//     card of a deck (drawn like any card).
//   - A large order's tile of choice must be named when any tile is left,
//     among the kinds left; with none left, the 100 ducats are paid and no
//     tile (RULES-NOTES ruling).
//   - Messages are delivered also when the card is drawn or received while
//     both its buildings are already visited this turn.
//   - The 2-player second action of Filosofia counts actions taken at
//     buildings, not by a building-action tile.
//   - Acquisition: one marker per building. Alea: any number of the
//     buildings touching the street; Filosofia: one or two, a building
//     whose marker is removed counting as one. A player with no marker in
//     reserve, or when no street keeps a disc, is skipped without a
//     command.
//   - Round track: the marker starts on space 1; each round played
//     advances it; a start on the market advances it once more (Filosofia:
//     not in the last round). The game ends at the end of the round
//     during which it stands on or past the last space for the player
//     count, so the last round is always played in full.
//   - Score: money, then contract groups (10, 30, 60, 100, +50 each beyond;
//     a building counts once however many of its cards are held), then 10
//     per marker on the board. Ties: most goods (Alea), most goods, tiles
//     and cards (Filosofia); a tie that remains is shared.
//
// # Views, log and invariants
//
// View(seat) shows the table and that seat's money and cards; others'
// money and cards stay hidden (only counts). The game log (Describe) never
// names a card in a hand: a draw says the deck, a deal or a trade counts
// cards by deck; a delivered card, shown face up, is named. A refusal
// never tells how much money a player holds. A seat's legal actions name
// only its own cards (draws are the table's). Check verifies after any
// event that no ducat was made but by the bank's payments and the staff's
// corrections (counted apart), that the 40
// goods, the tiles, the 7 markers of each colour and the 60 cards are all
// accounted for.
//
// # Staff
//
// The staff (engine.Staff) alone may correct a holding (Correct): set or
// change a player's ducats, goods, tiles or reserve markers, with a
// reason. Goods, tiles and markers come from or go back to their supplies;
// money is made or destroyed and counted apart (State.StaffMoney). The
// log tells what was corrected, never the money; the player's own view
// lists their money corrections. Any other command from the staff is
// played as the table's.
package genoa
