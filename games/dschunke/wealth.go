package dschunke

import "comptoir/engine"

// hideWealth ends the showing of the wealth a Y announced: the text's
// "Chaque joueur compte son argent et annonce publiquement sa richesse aux
// autres joueurs. Note: durant le reste de la partie, la richesse des
// joueurs doit rester secrète", as RULES-NOTES rules it: the table view,
// every phone and the log show every player's money at that moment, and
// money is secret again afterwards. The announcement is shown until the
// first event that is not one of phase 1's square events (another Y, a
// special card taken at an S), that is until the first action of phase 2;
// the log keeps its line.
func (n *State) hideWealth(ev engine.Event) {
	switch ev.(type) {
	case WealthAnnounced, SpecialDrawn:
		if n.step == stepEvents || n.step == stepDraw {
			return
		}
	}
	for i := range n.announced {
		n.announced[i] = -1
	}
}
