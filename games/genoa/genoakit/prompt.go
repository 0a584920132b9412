package genoakit

import (
	"fmt"
	"strings"

	"comptoir/engine"
	"comptoir/games/genoa"
	"comptoir/games/kit"
)

// prompt says what the game waits for, addressed to viewer: the waiting
// player is named to everyone else ("Anna, move the merchant (3 moves
// left)") and spoken to directly ("Move the merchant (3 moves left)").
// A player who may make an offer for the building where the pawn stands
// is asked for it. Nothing secret is said: the card being drawn is named
// by its deck only.
func prompt(s engine.State, viewer engine.Seat) kit.Text {
	g, ok := s.(*genoa.State)
	if !ok {
		return kit.Text{}
	}
	v := g.View(viewer).(genoa.View)
	players := g.Setup().Players
	if v.Result != nil && v.Result.Over {
		var w []string
		for _, x := range v.Result.Winners {
			w = append(w, players[x])
		}
		if len(w) == 1 {
			return tx("The game is over: "+w[0]+" wins", "La partie est terminée : "+w[0]+" gagne")
		}
		return tx("The game is over: "+strings.Join(w, " and ")+" win", "La partie est terminée : "+strings.Join(w, " et ")+" gagnent")
	}
	waiting := v.Waiting
	if len(waiting) == 0 {
		return kit.Text{}
	}
	w := waiting[0]
	var do kit.Text // what w must do, as an imperative
	here := genoa.Place("")
	if n := len(v.Path); n > 0 {
		here = v.Path[n-1]
	}
	switch {
	case v.Drawing != nil:
		deckEN, deckFR := genoa.DeckName(v.Drawing.Deck, "en"), genoa.DeckName(v.Drawing.Deck, "fr")
		do = tx("draw a "+deckEN+" card and say which", "piochez une carte "+deckFR+" et dites laquelle")
		if n := v.Drawing.N; n > 1 {
			do = tx(fmt.Sprintf("draw %d %s cards and say which, one by one", n, deckEN), fmt.Sprintf("piochez %d cartes %s et dites lesquelles, une à une", n, deckFR))
		}
	case v.Phase == "start":
		do = tx("roll the dice", "lancez les dés")
		if v.Players[w].Tiles["start"] > 0 {
			do = tx("roll the dice or play your start-space tile", "lancez les dés ou jouez votre tuile case départ")
		}
	case v.Phase == "move" && v.Actor >= 0:
		do = tx("take the action "+g.SquareThe(here, "en", "of"), "faites l'action "+g.SquareThe(here, "fr", "of"))
	case v.Phase == "move" && len(v.Offers) > 0 && v.Merchant == w && bound(g):
		do = tx("take the action "+g.SquareThe(here, "en", "of")+" or accept an offer", "faites l'action "+g.SquareThe(here, "fr", "of")+" ou acceptez une offre")
	case v.Phase == "move" && v.Moves == 0:
		do = tx("end the movement", "terminez le déplacement")
	case v.Phase == "move":
		do = tx("move the merchant ("+genoa.Count(v.Moves, "move", "moves", "en")+" left)",
			"déplacez le marchand ("+genoa.Count(v.Moves, "déplacement restant", "déplacements restants", "fr")+")")
	case v.Phase == "acquire":
		do = tx("acquire buildings next to the streets the merchant crossed, or pass", "acquérez des bâtiments voisins des rues traversées par le marchand, ou passez")
	}
	if viewer == w {
		return kit.Text{EN: capital(do.EN), FR: capital(do.FR)}
	}
	t := tx(players[w]+", "+do.EN, players[w]+", "+do.FR)
	if viewer >= 0 && int(viewer) < len(players) && v.Phase == "move" && v.Drawing == nil {
		for _, a := range g.Legal() {
			if _, ok := a.Cmd.(genoa.Offer); ok && a.By == viewer {
				t.EN += "; your offer for the action " + g.SquareThe(here, "en", "of") + "?"
				t.FR += " ; votre offre pour l'action " + g.SquareThe(here, "fr", "of") + " ?"
				break
			}
		}
	}
	return t
}

// bound reports whether a standing offer obliges the merchant to have the
// current building's action taken: the rules then list no move.
func bound(g *genoa.State) bool {
	for _, a := range g.Legal() {
		switch a.Cmd.(type) {
		case genoa.Move, genoa.End:
			return false
		}
	}
	return true
}

func capital(s string) string {
	for i, r := range s {
		return strings.ToUpper(string(r)) + s[i+len(string(r)):]
	}
	return s
}

// consent lists who must accept a command before it is played: a deal
// concluded by the merchant takes the other player's ducats or goods and
// binds that player to the building's action, so that player must accept
// it; a deal played as the table is the payer's proposal (only the
// payer's phone has it), which moves the merchant's pawn, so the merchant
// must accept it. An offer is the offerer's own, and accepting it pays
// what its maker offered: neither needs anyone else. The staff's
// corrections need nobody.
func consent(s engine.State, a engine.Action) []engine.Seat {
	d, ok := a.Cmd.(genoa.Deal)
	g, isGenoa := s.(*genoa.State)
	if !ok || !isGenoa || a.By == engine.Staff || d.From < 0 {
		return nil
	}
	switch {
	case a.By == engine.NoSeat && d.From != g.Merchant:
		return []engine.Seat{g.Merchant}
	case a.By != engine.NoSeat && d.From != a.By:
		return []engine.Seat{d.From}
	}
	return nil
}

// undoable reports whether the player who played a may take it back: not
// a roll (chance), not a card drawn, and nothing that showed a card (an
// order or a message delivered, a card given in a deal, an offer or a
// trade). Moves, deals, offers, actions that give goods, tiles or
// markers, and acquisitions may be taken back.
func undoable(before engine.State, a engine.Action, evs []engine.Event) bool {
	if a.By < 0 {
		return false
	}
	switch a.Cmd.(type) {
	case genoa.Roll, genoa.Draw, genoa.Correct:
		return false
	}
	for _, ev := range evs {
		switch e := ev.(type) {
		case genoa.CardDrawn, genoa.Delivered:
			return false
		case genoa.PawnPlaced:
			if e.Blue > 0 {
				return false
			}
		case genoa.Transfer:
			if len(e.Cards) > 0 {
				return false
			}
		case genoa.OfferMade:
			if len(e.Cards) > 0 {
				return false
			}
		}
	}
	return true
}
