// Package negoce is the rules engine of Négoce 2 (v2.5, François Tréca):
// four merchants trade cards until one holds eight different goods and at
// least ten coins.
//
// The rules text is rules/negoce2-v2.5-fr.txt; RULES-NOTES.md (section
// Négoce 2) overrides it. The card catalog (8 goods × 4 cards and the
// Contraband card, with stable ids for NFC stickers) is data, in
// configs/negoce/cards.yaml, decoded strictly by [DecodeCatalog] through
// comptoir/strictyaml. RULES.md, beside this package, traces every
// paragraph of the rules text to the tests and records that check it; the
// records of the corners no game reaches are in testdata/corners.
//
// # A game
//
//   - Set-up ([Start]): exactly four players, 15 coins each (public), the
//     Contraband card on the market. Each player is then dealt two whole
//     goods ([Deal]): the cards are recorded from the scanner or dealt by a
//     seeded shuffle outside the engine, and the engine checks the deal:
//     every goods card once, the four cards of a good to one player, two
//     goods per player.
//   - The Contraband auction ([Bid], [Pass]): it opens at 1, each raise is
//     of 1 or 2 coins, clockwise (seat order), passing is final. The winner
//     pays the price, which leaves the game, takes the Contraband card and,
//     holding 9 cards, sells first.
//   - Sales by negotiation: the seller lays a card face up or face down
//     ([Lay]); buyers make offers of one card (face up or down) and/or
//     coins ([Offer], [Withdraw]); the seller may lay coins on his card
//     ([Bonus]) and accepts one offer ([Accept]).
//   - The forced sale: the seller lays a second card face down ([Force]),
//     every offer is taken back, he names a good he does not hold
//     ([NameGood]); the buyers' cards of it are shown, he picks one
//     ([Pick]) and its holder takes the two market cards.
//   - The player who now holds 9 cards sells next. After every sale, a
//     player with eight different goods (Contraband excluded) and at least
//     10 coins wins; if both the seller and the buyer do, the buyer wins.
//
// # Rulings where the text is silent
//
//   - Dealing: a deal names its cards or whole goods. From the table (the
//     scanner, a dealing program) without to=, the cards go to the first
//     player still short of cards, so scanning each player's eight cards in
//     seat order records the deal. A player may record only their own
//     hand, which is how the phones record it without a scanner (package
//     negocekit): each player names the goods they were dealt.
//     The engine takes no randomness: Legal lists, for the first player
//     short of cards, each good he may still be dealt, and a seeded random
//     choice among them is a seeded shuffle of whole goods.
//   - The auction's first bidder is drawn at random at the table: whoever
//     bids 1 first opens (the table cannot open for him), and nobody may
//     pass before the opening. A bid may not exceed the bidder's coins,
//     since the price is paid. The auction ends when all but one player
//     have passed; that player is always the highest bidder.
//   - An offer is a promise backed by the buyer's hand and purse: the card
//     and coins stay his until the sale, so hands and purses always add up
//     to 33 cards and 60 coins less the auction's price. A new offer
//     replaces the buyer's last one. An empty offer is refused (withdraw
//     instead). The Contraband card may be laid for sale and offered like
//     any card.
//   - A card laid face down, for sale or in an offer, is hidden from every
//     view but its owner's (and the staff's), the seller included: he
//     accepts it blind. A face-up card cannot be laid again face down, nor
//     a face-down one turned up.
//   - The seller's coins on his card are his until the sale; in a forced
//     sale they return to him, since only the two cards change hands.
//   - A seller with no offer he likes, or none at all, must force: the card
//     for sale cannot be taken back.
//   - "Une marchandise qu'il a déjà dans sa main": the cards on the market
//     are no longer in his hand, so the seller may name the good of a card
//     he laid if his hand holds no other. The revealed cards are every
//     buyer's cards of the good, shown without a command (the engine knows
//     the hands); if no buyer holds it the seller names another
//     (RULES-NOTES). With four cards per good and at most two on the
//     market, a good the seller's hand lacks always has a card with a
//     buyer, so that refusal ([ErrNameNobody]) is a safeguard: the
//     simulation tests check that some good can always be named.
//   - The win is checked after every sale only; a sale changes only the
//     seller's and the buyer's holdings, so at most those two can qualify,
//     and the buyer is checked first.
//
// # The table and the phones
//
// The scanner sends [Lay] from the table (engine.NoSeat) for every card
// laid: the engine knows who holds which card, so a card from the seller's
// hand is the card for sale (or, during a negotiation, the forced sale's
// second card), a buyer's card is his offer, and during a forced sale's
// pick the card shown is the one picked; while dealing it deals the card.
// A scanned card lies face down unless the phone said otherwise, which
// never shows a secret. Phones send everything else: bids, passes,
// offers, the seller's accept, bonus, force, name and pick, and without a
// scanner each player's own hand. Legal lists a card once per good it
// stands for, the revealed cards of a forced sale once per buyer: a
// player chooses a good, never one of four alike cards.
//
// Log lines and refusals name cards as printed ("a Silk card", "the
// Contraband card"), never by id: ids are for records, scanners and
// the staff.
//
// [State.View] shows coins and card counts to all, a player's own hand to
// him alone, offers as their owners laid them, and every hand to the staff.
// [State.Describe] never names a hidden card.
//
// # Score
//
// [State.Result] gives the winner 1 point and the others 0, coins as the
// tie-break between the others: Négoce 2 has a winner, not points.
package negoce
