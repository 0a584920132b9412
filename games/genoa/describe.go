package genoa

import (
	"fmt"
	"sort"
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
		return fmt.Sprintf(pick("%s draws %d %s card(s)", "%s pioche %d carte(s) %s"), who(e.Seat), e.N, deck)
	case PawnPlaced:
		if e.Blue == 0 {
			return fmt.Sprintf(pick("the pawn starts on %s (start-space tile)", "le pion part de %s (tuile case départ)"), s.placeName(e.Square, lang))
		}
		return fmt.Sprintf(pick("blue %d, red %d: the pawn starts on %s", "bleu %d, rouge %d : le pion part de %s"), e.Blue, e.Red, s.placeName(e.Square, lang))
	case TrackAdvanced:
		return fmt.Sprintf(pick("start on the market: the round marker advances to %d of %d", "départ au marché : le marqueur de manche avance à %d sur %d"), e.Track, s.rounds)
	case PawnMoved:
		return fmt.Sprintf(pick("the pawn moves to %s", "le pion va sur %s"), s.placeName(e.To, lang))
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
		return fmt.Sprintf(pick("%s takes the action of %s%s", "%s fait l'action de %s%s"), who(e.Seat), s.placeName(e.Building, lang), how)
	case ActionEnded:
		return pick("the action is over", "l'action est terminée")
	case TilePlayed:
		t := e.Tile
		if k := tileIndex(t); fr && k >= 0 {
			t = tileFR[k]
		}
		return fmt.Sprintf(pick("%s plays the %s tile", "%s joue la tuile %s"), who(e.Seat), t)
	case Delivered:
		// A delivered card is shown: it goes face up under its deck.
		deck := "?"
		if c, ok := s.d.cardByID[e.Card]; ok {
			deck = deckName(s.d.cards[c].Deck, fr)
		}
		return fmt.Sprintf(pick("%s delivers the %s card %s", "%s livre la carte %s %s"), who(e.Seat), deck, e.Card)
	case MovementEnded:
		return pick("the merchant ends the movement: acquisition of buildings", "le marchand termine le déplacement : acquisition de bâtiments")
	case Acquired:
		var parts []string
		for _, p := range e.Removed {
			parts = append(parts, pick("removes the marker on ", "retire le marqueur de ")+s.placeName(p, lang))
		}
		for _, p := range e.Placed {
			parts = append(parts, pick("places a marker on ", "pose un marqueur sur ")+s.placeName(p, lang))
		}
		return fmt.Sprintf(pick("%s, from %s, %s", "%s, depuis %s, %s"), who(e.Seat), e.Street, strings.Join(parts, ", "))
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
		return "la rue " + string(s.d.place(sq))
	}
	return "street " + string(s.d.place(sq))
}

func (s *State) describeTransfer(e Transfer, fr bool) string {
	var items []string
	if e.Ducats != 0 {
		items = append(items, fmt.Sprintf("%d ducats", e.Ducats))
	}
	keys := make([]string, 0, len(e.Goods))
	for k := range e.Goods {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		name := k
		if g, ok := s.d.goodByK[k]; ok && fr {
			name = s.d.prof.GoodsFR[g]
		}
		items = append(items, fmt.Sprintf("%d %s", e.Goods[k], name))
	}
	// Cards that change hands are secret (a deal, a trade) or about to be
	// shown by a Delivered event: the log counts them by deck, never
	// naming one.
	var byDeck [nDecks]int
	for _, id := range e.Cards {
		if c, ok := s.d.cardByID[id]; ok {
			byDeck[s.d.cards[c].Deck]++
		}
	}
	for k, n := range byDeck {
		if n > 0 {
			if fr {
				items = append(items, fmt.Sprintf("%d carte(s) %s", n, deckFR[k]))
			} else {
				items = append(items, fmt.Sprintf("%d %s card(s)", n, deckEN[k]))
			}
		}
	}
	for k, n := range e.Tiles {
		name := k
		if t := tileIndex(k); fr && t >= 0 {
			name = tileFR[t]
		}
		if fr {
			items = append(items, fmt.Sprintf("%d tuile(s) %s", n, name))
		} else {
			items = append(items, fmt.Sprintf("%d %s tile(s)", n, name))
		}
	}
	if e.Markers != 0 {
		if fr {
			items = append(items, fmt.Sprintf("%d marqueur(s)", e.Markers))
		} else {
			items = append(items, fmt.Sprintf("%d marker(s)", e.Markers))
		}
	}
	what := strings.Join(items, ", ")
	bank := "the bank"
	if fr {
		bank = "la banque"
	}
	from, to := bank, bank
	if e.From != engine.NoSeat {
		from = s.name(e.From)
	}
	if e.To != engine.NoSeat {
		to = s.name(e.To)
	}
	if fr {
		return fmt.Sprintf("%s → %s : %s (%s)", from, to, what, e.Reason)
	}
	return fmt.Sprintf("%s → %s: %s (%s)", from, to, what, e.Reason)
}
