package genoa

import (
	"fmt"
	"strings"

	"comptoir/engine"
)

var _ engine.Describer = (*State)(nil)

// Describe tells an event in words, in French ("fr") or English, for the
// game's log. s is the state the event applies to.
func (s *State) Describe(ev engine.Event, lang string) string {
	fr := lang == "fr"
	pick := func(en, f string) string {
		if fr {
			return f
		}
		return en
	}
	who := s.name
	switch e := ev.(type) {
	case CardDrawn:
		// The card is secret: the log says only which deck it came from.
		deck := "?"
		if c, ok := s.d.cardByID[e.Card]; ok {
			deck = deckName(s.d.cards[c].Deck, fr)
		}
		return fmt.Sprintf(pick("%s draws a %s card", "%s pioche une carte %s"), who(e.Seat), deck)
	case DrawsDue:
		deck := e.Deck
		if k := deckIndex(e.Deck); k >= 0 {
			deck = deckName(k, fr)
		}
		if fr {
			return fmt.Sprintf("%s pioche %s %s", who(e.Seat), Count(e.N, "carte", "cartes", lang), deck)
		}
		return fmt.Sprintf("%s draws %d %s %s", who(e.Seat), e.N, deck, either(e.N == 1, "card", "cards"))
	case PawnPlaced:
		if e.Blue == 0 {
			return fmt.Sprintf(either(fr, "le pion part %s (tuile case départ)", "the pawn starts on %s (start-space tile)"), s.SquareThe(e.Square, lang, either(fr, "of", "")))
		}
		return fmt.Sprintf(either(fr, "bleu %d, rouge %d : le pion part %s", "blue %d, red %d: the pawn starts on %s"), e.Blue, e.Red, s.SquareThe(e.Square, lang, either(fr, "of", "")))
	case TrackAdvanced:
		return fmt.Sprintf(either(fr, "départ au marché : le marqueur de manche avance à %d sur %d", "start on the market: the round marker advances to %d of %d"), e.Track, s.rounds)
	case PawnMoved:
		return fmt.Sprintf(either(fr, "le pion va %s", "the pawn moves %s"), s.SquareThe(e.To, lang, "to"))
	case Transfer:
		return s.describeTransfer(e, fr)
	case OfferMade:
		return fmt.Sprintf(pick("%s makes an offer for the action", "%s fait une offre pour l'action"), who(e.Seat))
	case ActorChosen:
		return fmt.Sprintf(pick("%s will take the action", "%s fera l'action"), who(e.Seat))
	case ActionTaken:
		how := ""
		if e.ByTile {
			how = pick(" (building-action tile)", " (tuile action bâtiment)")
		}
		return fmt.Sprintf(pick("%s takes the action %s%s", "%s fait l'action %s%s"), who(e.Seat), s.SquareThe(e.Building, lang, "of"), how)
	case ActionEnded:
		return pick("the action is over", "l'action est terminée")
	case TilePlayed:
		return fmt.Sprintf(pick("%s plays the %s tile", "%s joue la tuile %s"), who(e.Seat), TileName(e.Tile, lang))
	case Delivered:
		// A delivered card is shown: it goes face up under its deck.
		return fmt.Sprintf(pick("%s delivers: %s", "%s livre : %s"), who(e.Seat), s.CardName(e.Card, lang))
	case MovementEnded:
		return pick("the merchant ends the movement: acquisition of buildings", "le marchand termine le déplacement : acquisition de bâtiments")
	case Acquired:
		var parts []string
		for _, p := range e.Removed {
			parts = append(parts, pick("removes the marker on ", "retire le marqueur ")+s.SquareThe(p, lang, either(fr, "of", "")))
		}
		for _, p := range e.Placed {
			parts = append(parts, pick("places a marker on ", "pose un marqueur sur ")+s.SquareThe(p, lang, ""))
		}
		return fmt.Sprintf(pick("%s, from %s, %s", "%s, depuis %s, %s"), who(e.Seat), s.SquareThe(e.Street, lang, ""), strings.Join(parts, ", "))
	case Corrected:
		return s.describeCorrected(e, fr)
	case Passed:
		return fmt.Sprintf(pick("%s acquires nothing", "%s n'acquiert rien"), who(e.Seat))
	}
	return ev.Name()
}

// deckName is a deck's name for the log.
func deckName(k int, fr bool) string {
	if fr {
		return deckFR[k]
	}
	return deckEN[k]
}

func (s *State) placeName(p Place, lang string) string {
	sq, ok := s.d.squareOf(p)
	if !ok {
		return string(p)
	}
	if b := s.d.squares[sq].Bld; b >= 0 {
		return s.d.bldName(b, lang)
	}
	if sq == s.d.market {
		if lang == "fr" {
			return "le marché"
		}
		return "the market"
	}
	if lang == "fr" {
		return "la " + streetName(s.d.squares[sq].Cells[0], lang)
	}
	return "the " + streetName(s.d.squares[sq].Cells[0], lang)
}

// reasons are the transfers' reasons for people, by key.
var reasons = map[string][2]string{ // en, fr
	"deal":        {"deal", "marché"},
	"tile":        {"tile", "tuile"},
	"warehouse":   {"warehouse", "entrepôt"},
	"income":      {"owner's income", "revenu du propriétaire"},
	"cathedral":   {"cathedral", "cathédrale"},
	"message":     {"message", "message"},
	"small-order": {"small order", "petite commande"},
	"large-order": {"large order", "grosse commande"},
	"trade":       {"trade 1:1", "échange 1:1"},
}

func (s *State) describeTransfer(e Transfer, fr bool) string {
	lang := either(fr, "fr", "en")
	// Cards that change hands are secret (a deal, a trade) or about to be
	// shown by a Delivered event: PayWords counts them by deck, never
	// naming one.
	what := s.PayWords(e.Ducats, e.Goods, e.Cards, e.Tiles, e.Markers, lang)
	why := e.Reason
	if r, ok := reasons[e.Reason]; ok {
		why = r[0]
		if fr {
			why = r[1]
		}
	}
	bank := either(fr, "la banque", "the bank")
	from, to := bank, bank
	if e.From != engine.NoSeat {
		from = s.name(e.From)
	}
	if e.To != engine.NoSeat {
		to = s.name(e.To)
	}
	if fr {
		return fmt.Sprintf("%s → %s : %s (%s)", from, to, what, why)
	}
	return fmt.Sprintf("%s → %s: %s (%s)", from, to, what, why)
}
