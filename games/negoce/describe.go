package negoce

import (
	"fmt"
	"strings"

	"comptoir/engine"
)

// Describe tells an event in words, in "fr" or "en", for the game's log,
// which everyone sees: it never names a card dealt or laid face down.
func (s *State) Describe(ev engine.Event, lang string) string {
	fr := lang == "fr"
	say := func(frText, enText string, a ...any) string {
		if fr {
			return fmt.Sprintf(frText, a...)
		}
		return fmt.Sprintf(enText, a...)
	}
	card := func(id CardID, up bool) string {
		if !up {
			return say("une carte face cachée", "a face-down card")
		}
		i, ok := s.cat.Card(id)
		if !ok {
			return string(id)
		}
		return s.cat.Phrase(i, lang)
	}
	coins := func(n int) string {
		if n == 1 {
			return say("1 pièce", "1 coin")
		}
		return say("%d pièces", "%d coins", n)
	}
	pl := s.player
	switch e := ev.(type) {
	case Dealt:
		if len(e.Cards) == 1 {
			return say("%s reçoit 1 carte", "%s is dealt 1 card", pl(e.To))
		}
		return say("%s reçoit %d cartes", "%s is dealt %d cards", pl(e.To), len(e.Cards))
	case BidMade:
		if !s.opened {
			return say("%s ouvre les enchères de la Contrebande à 1", "%s opens the Contraband auction at 1", pl(e.By))
		}
		return say("%s surenchérit à %d", "%s raises to %d", pl(e.By), e.Price)
	case Passed:
		return say("%s se retire des enchères", "%s passes and leaves the auction", pl(e.By))
	case AuctionWon:
		return say("%s remporte la Contrebande pour %s, retirées de la partie ; %s vend le premier", "%s wins the Contraband for %s, which leave the game; %s sells first",
			pl(e.By), coins(e.Price), pl(e.By))
	case Laid:
		if e.Up {
			return say("%s met en vente %s, face visible", "%s puts %s up for sale, face up", pl(e.By), card(e.Card, true))
		}
		return say("%s met en vente une carte face cachée", "%s puts a face-down card up for sale", pl(e.By))
	case Offered:
		var parts []string
		if e.Card != "" {
			parts = append(parts, card(e.Card, e.Up))
		}
		if e.Coins > 0 {
			parts = append(parts, coins(e.Coins))
		}
		return say("%s propose %s", "%s offers %s", pl(e.By), strings.Join(parts, say(" et ", " and ")))
	case Withdrawn:
		return say("%s retire son offre", "%s takes back their offer", pl(e.By))
	case BonusSet:
		if e.Coins == 0 {
			return say("%s reprend les pièces posées sur sa carte", "%s takes back the coins on their card", pl(s.seller))
		}
		return say("%s pose %s sur sa carte", "%s lays %s on their card", pl(s.seller), coins(e.Coins))
	case Sold:
		got := []string{card(e.Card, s.up)}
		if e.Bonus > 0 {
			got = append(got, coins(e.Bonus))
		}
		var paid []string
		if e.Paid != "" {
			paid = append(paid, card(e.Paid, s.offers[e.Buyer].up))
		}
		if e.Coins > 0 {
			paid = append(paid, coins(e.Coins))
		}
		and := say(" et ", " and ")
		return say("%s accepte l'offre de %s : %s contre %s", "%s accepts %s's offer: %s for %s",
			pl(e.Seller), pl(e.Buyer), strings.Join(got, and), strings.Join(paid, and))
	case Forced:
		return say("%s force la vente : une deuxième carte face cachée, les offres sont reprises", "%s forces the sale: a second card face down, the offers are taken back", pl(s.seller))
	case Named:
		g, _ := s.cat.Good(e.Good)
		var shown []string
		for p := range Players {
			n := 0
			for _, id := range e.Revealed {
				if i, ok := s.cat.Card(id); ok && s.loc[i] == int8(p) {
					n++
				}
			}
			switch {
			case n == 1:
				shown = append(shown, say("%s en montre 1", "%s shows 1", pl(engine.Seat(p))))
			case n > 1:
				shown = append(shown, say("%s en montre %d", "%s shows %d", pl(engine.Seat(p)), n))
			}
		}
		return say("%s demande la marchandise %s (%d) : %s", "%s asks for %s (%d): %s", pl(s.seller), s.cat.GoodName(g, lang), s.cat.Goods[g].Number, strings.Join(shown, ", "))
	case ForcedSold:
		return say("%s prend %s de %s, qui reçoit les deux cartes du marché", "%s takes %s from %s, who gets the two market cards",
			pl(e.Seller), card(e.Card, true), pl(e.Buyer))
	case Won:
		return say("%s a huit marchandises différentes et au moins 10 pièces : Grand négociateur, %s gagne la partie", "%s has eight different goods and at least 10 coins: Grand negotiator, %s wins the game",
			pl(e.By), pl(e.By))
	}
	return ev.Name()
}
