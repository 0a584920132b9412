// Package catalog is the Genoa data that is not the board: the edition
// profiles (configs/genoa/editions.yaml) and the card catalog
// (configs/genoa/cards.yaml), decoded strictly and checked against the
// board.
//
// # Editions
//
// An Edition holds every difference between the Alea 2001 edition (Berclaz
// translation and quick reference) and the Filosofia 2008 edition, as in
// the table of RULES-NOTES.md: goods and their warehouses, rounds per
// player count, the market-start rule, how many ownership markers go down
// from one street, the 2-player rules, the tie-break, promises in offers;
// and the numbers both share: 130 ducats to start, 7 markers per colour, 5
// goods of each kind, special tiles 5/5/5/7/5, decks 16/16/14/14, rewards.
// The rules engine asks the Edition, never the edition's name. What each
// building's action gives (which deck, which tile, which goods) is data
// too: Edition.Actions.
//
// # Goods by slot
//
// The two editions name their goods differently (Alea: wheat, rice, salt;
// Filosofia: ale, wine, saffron), so cards and the engine use
// edition-neutral goods: Good is a slot of a warehouse, named by the
// warehouse's board position and 1 or 2 ("nw-1" is silver in both
// editions). The Edition maps slots to names. One catalog serves both
// editions.
//
// # Cards
//
// Each of the 60 cards has a stable id (L01-L16 large orders, S01-S16
// small orders, M01-M14 messages, C01-C14 contracts) that the NFC layer
// maps tags to. Sourced: the deck sizes, four large orders per villa with
// none of the goods of the warehouse next to the villa (Berclaz 6.1), which
// buildings have small orders and how many (Berclaz 6.2: none for villas,
// warehouses and town hall, one for taverna and trattoria, two for the
// others), one contract per edge building. Inferred, since no text lists
// them: the goods on each order and the buildings of each message, chosen
// balanced (every good on 6 large and 2 small orders; every building on one
// or two messages, their two buildings 2 moves apart). A café that enrolls
// its real cards corrects cards.yaml.
//
// Counts for the Alea edition's special tiles other than the 7 trade tiles
// are the Filosofia box's (inferred: the same game).
package catalog
