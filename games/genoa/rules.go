package genoa

import (
	"fmt"

	"comptoir/engine"
)

// Refusals: every way a command can break the rules of Genoa.
var (
	ErrDrawFirst      = engine.NewRule("genoa.draw-first", "a card must be drawn first", "il faut d'abord piocher une carte")
	ErrNotMerchant    = engine.NewRule("genoa.not-merchant", "only the merchant may do that", "seul le marchand peut faire cela")
	ErrBadDice        = engine.NewRule("genoa.bad-dice", "each die reads 1 to 8", "chaque dé donne 1 à 8")
	ErrNoTile         = engine.NewRule("genoa.no-tile", "you do not hold that special tile", "vous n'avez pas cette tuile")
	ErrUnknownSquare  = engine.NewRule("genoa.unknown-square", "there is no such square on the board", "cette case n'existe pas sur le plateau")
	ErrNotAdjacent    = engine.NewRule("genoa.not-adjacent", "the pawn moves to a square next to it, not diagonally", "le pion se déplace sur une case voisine, pas en diagonale")
	ErrVisited        = engine.NewRule("genoa.visited", "a square cannot be visited twice in a turn", "une case ne peut pas être visitée deux fois dans un même tour")
	ErrNoMovesLeft    = engine.NewRule("genoa.no-moves-left", "the pawn has made its 4 moves", "le pion a fait ses 4 déplacements")
	ErrPending        = engine.NewRule("genoa.action-pending", "the action of this building must be taken first", "l'action de ce bâtiment doit d'abord être faite")
	ErrNoActionLeft   = engine.NewRule("genoa.no-action-left", "one action per player per turn", "une seule action par joueur et par tour")
	ErrNoBuilding     = engine.NewRule("genoa.no-building", "there is no action here", "il n'y a pas d'action ici")
	ErrActionTaken    = engine.NewRule("genoa.action-taken", "this building's action was already taken this turn", "l'action de ce bâtiment a déjà été faite ce tour-ci")
	ErrNotYourAction  = engine.NewRule("genoa.not-your-action", "this action is not yours to take", "cette action ne vous revient pas")
	ErrEmptyDeal      = engine.NewRule("genoa.empty-deal", "a deal must give something", "un marché doit donner quelque chose")
	ErrMoneyOnly      = engine.NewRule("genoa.money-only", "with two players an offer must hold something other than money", "à deux joueurs, une offre doit contenir autre chose que de l'argent")
	ErrPromise        = engine.NewRule("genoa.promise", "promises are not allowed in this offer", "les promesses ne sont pas permises dans cette offre")
	ErrNoOffer        = engine.NewRule("genoa.no-offer", "that player made no offer", "ce joueur n'a pas fait d'offre")
	ErrDealByMerchant = engine.NewRule("genoa.deal-by-merchant", "only the merchant concludes a deal: send it as an offer (a proposal) to the merchant", "seul le marchand conclut un marché : envoyez-le comme offre (une proposition) au marchand")
	ErrMerchantOffer  = engine.NewRule("genoa.merchant-offer", "the merchant does not make offers to themselves", "le marchand ne se fait pas d'offre à lui-même")
	ErrAfter          = engine.NewRule("genoa.after", "only what the action gives can be paid after it", "seul ce que l'action rapporte peut être payé après elle")
	ErrCard           = engine.NewRule("genoa.card", "that card cannot be used here", "cette carte ne peut pas servir ici")
	ErrSmallOrder     = engine.NewRule("genoa.small-order", "a small order is delivered right after one's own action at its building, once per turn", "une petite commande se livre juste après sa propre action dans son bâtiment, une fois par tour")
	ErrTileTiming     = engine.NewRule("genoa.tile-timing", "this tile is played at the start, during or at the end of one's own action", "cette tuile se joue au début, pendant ou à la fin de sa propre action")
	ErrNotOwner       = engine.NewRule("genoa.not-owner", "you have no ownership marker on that building", "vous n'avez pas de marqueur de propriété sur ce bâtiment")
	ErrSupplyEmpty    = engine.NewRule("genoa.supply-empty", "the supply has none left", "la réserve n'en a plus")
	ErrNoDisc         = engine.NewRule("genoa.no-disc", "acquire from a street that still carries a disc of the pawn", "on acquiert depuis une rue qui porte encore un disque du pion")
	ErrNotTouching    = engine.NewRule("genoa.not-touching", "the building must touch the street", "le bâtiment doit toucher la rue")
	ErrTooMany        = engine.NewRule("genoa.too-many", "too many buildings for one acquisition", "trop de bâtiments pour une acquisition")
	ErrOwnMarker      = engine.NewRule("genoa.own-marker", "that marker is already yours", "ce marqueur est déjà le vôtre")
	ErrNoMarker       = engine.NewRule("genoa.no-marker", "there is no opponent's marker to remove there", "il n'y a pas de marqueur adverse à retirer ici")
	ErrBadItem        = engine.NewRule("genoa.bad-item", "that item cannot be traded", "cet élément ne peut pas être échangé")
)

// refuse begins a refusal under rule, in both languages: its English
// text formatted by enf, then its French by frf, each with its own
// arguments, so that go vet checks each format against its arguments:
//
//	refuse(ErrNoTile).enf("%s holds no tile", name).frf("%s n'a pas de tuile", name)
func refuse(rule *engine.Rule) refusalEN { return refusalEN{rule: rule} }

// refusalEN is a refusal waiting for its English text.
type refusalEN struct{ rule *engine.Rule }

// enf sets the English text, formatted as by fmt.Sprintf.
func (r refusalEN) enf(format string, args ...any) refusalFR {
	return refusalFR{rule: r.rule, en: fmt.Sprintf(format, args...)}
}

// refusalFR is a refusal waiting for its French text.
type refusalFR struct {
	rule *engine.Rule
	en   string
}

// frf sets the French text, formatted as by fmt.Sprintf, and returns the
// refusal.
func (r refusalFR) frf(format string, args ...any) *engine.Refusal {
	return engine.Refuse(r.rule, r.en, fmt.Sprintf(format, args...))
}
