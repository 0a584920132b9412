package negoce

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"comptoir/engine"
)

func goodsOf(s *State, p engine.Seat) []string {
	var out []string
	for g, n := range s.goods(p) {
		if n > 0 {
			out = append(out, fmt.Sprintf("%s:%d", s.cat.Goods[g].Key, n))
		}
	}
	return out
}

// "Chaque joueur reçoit 8 cartes marchandise : 2 séries de 4 cartes
// marchandise identiques."
func TestDeal(t *testing.T) {
	var scans []string
	for _, g := range []string{"jade", "jewels", "perfume", "spices", "coffee", "silk", "wine", "tea"} {
		for k := 1; k <= 4; k++ {
			scans = append(scans, fmt.Sprintf("lay card=%s-%d", g, k))
		}
	}
	want := [][]string{{"jade:4", "jewels:4"}, {"perfume:4", "spices:4"}, {"coffee:4", "silk:4"}, {"wine:4", "tea:4"}}
	tests := []struct {
		name  string
		lines []string
	}{
		{"by goods", deal},
		{"the table deals to the first player short of cards", []string{"deal goods=jade,jewels", "deal goods=perfume", "deal goods=spices", "deal cards=coffee-1,coffee-2", "deal goods=silk",
			"deal cards=coffee-3,coffee-4", "deal goods=wine,tea"}},
		{"each player records his hand", []string{"David: deal goods=tea,wine", "Bruno: deal goods=spices,perfume", "Anna: deal goods=jewels,jade", "Chloé: deal goods=coffee,silk"}},
		{"scanned card by card", scans},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := script(t, tt.lines)
			for p := range Players {
				if got := goodsOf(s, engine.Seat(p)); !reflect.DeepEqual(got, want[p]) {
					t.Errorf("%s holds %v, want %v", s.player(engine.Seat(p)), got, want[p])
				}
			}
			if s.phase != PhaseAuction || s.loc[contrabandIdx] != locMarket {
				t.Errorf("after the deal: phase %s, Contraband at %d; want the auction, Contraband on the market", s.phase.Key(), s.loc[contrabandIdx])
			}
		})
	}
}

// "Un joueur, tiré au hasard, débute les enchères en disant obligatoirement
// 1. À tour de rôle et dans le sens des aiguilles d'une montre, les joueurs
// peuvent soit surenchérir d'une ou deux pièces, soit se retirer
// définitivement de la vente. [...] Les pièces qu'il a dépensé pour acquérir
// la carte Contrebande sont retirées de la partie."
func TestAuction(t *testing.T) {
	tests := []struct {
		name   string
		lines  []string
		winner engine.Seat
		price  int
	}{
		{"everyone passes on the opening", []string{"Chloé: bid price=1", "David: pass", "Anna: pass", "Bruno: pass"}, 2, 1},
		{"raises of 1 and 2", []string{"Bruno: bid price=1", "Chloé: bid price=2", "David: pass", "Anna: bid price=4", "Bruno: pass", "Chloé: pass"}, 0, 4},
		{"passed players are skipped", []string{"Anna: bid price=1", "Bruno: pass", "Chloé: bid price=3", "David: pass", "Anna: bid price=4", "Chloé: bid price=6", "Anna: pass"}, 2, 6},
		{"the table acts for whose turn it is", []string{"David: bid price=1", "bid price=2", "pass", "bid price=3", "pass", "pass"}, 2, 3},
		{"a whole purse", []string{"Anna: bid price=1", "Bruno: bid price=3", "Chloé: bid price=5", "David: bid price=7", "Anna: bid price=9",
			"Bruno: bid price=11", "Chloé: bid price=13", "David: bid price=15", "Anna: pass", "Bruno: pass", "Chloé: pass"}, 3, 15},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := script(t, cat(deal, tt.lines[:len(tt.lines)-1]...))
			if s.phase != PhaseAuction {
				t.Fatalf("the auction ended before the last pass")
			}
			s, evs := do(t, s, tt.lines[len(tt.lines)-1])
			if won, ok := evs[len(evs)-1].(AuctionWon); !ok || won.By != tt.winner || won.Price != tt.price {
				t.Fatalf("events %v, want the auction won by seat %d at %d", evs, tt.winner, tt.price)
			}
			if s.coins[tt.winner] != 15-tt.price || s.removed != tt.price {
				t.Errorf("winner has %d coins, %d removed; want %d and %d", s.coins[tt.winner], s.removed, 15-tt.price, tt.price)
			}
			total := 0
			for _, c := range s.coins {
				total += c
			}
			if total != 60-tt.price {
				t.Errorf("%d coins left in the game, want %d: the price leaves the game", total, 60-tt.price)
			}
			// "Le joueur possédant 9 cartes est le « vendeur »."
			if s.handSize(tt.winner) != 9 || s.loc[contrabandIdx] != int8(tt.winner) || s.seller != tt.winner || s.phase != PhaseLay {
				t.Errorf("winner holds %d cards, Contraband at %d, seller %d, phase %s; want 9, the winner's, the winner, lay",
					s.handSize(tt.winner), s.loc[contrabandIdx], s.seller, s.phase.Key())
			}
		})
	}
}

// TestLegalAuction counts the legal actions of the auction, perft-style.
func TestLegalCounts(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  int
	}{
		{"start: deal jade..tea to Anna", nil, 8},
		{"Anna has one good", []string{"deal to=Anna goods=jade"}, 7},
		{"Anna has half a good", []string{"deal to=Anna cards=jade-1,jade-2"}, 8}, // the rest of jade, or 7 other goods
		{"Bruno next", deal[:1], 6},
		{"before the opening: anyone opens", deal, 4},
		{"after the opening: +1, +2, pass", cat(deal, "Bruno: bid price=1"), 3},
		{"at 14 of 15 coins: +1, pass", cat(deal, "Anna: bid price=1", "Bruno: bid price=3", "Chloé: bid price=5", "David: bid price=7", "Anna: bid price=9",
			"Bruno: bid price=11", "Chloé: bid price=13", "David: bid price=14"), 2},
		{"lay: 3 cards (jade, jewels, contraband) x 2 faces", auction, 6},
		// Each buyer: 2 goods x (face up, with a coin) + coins 1 and 3 = 6; the
		// seller: force with jade, jewels; bonus 1.
		{"negotiation without offers", laidUp, 3*6 + 2 + 1},
		// Three offers: a withdraw and an accept each.
		{"negotiation with three offers", offers, 3*6 + 3*2 + 2 + 1},
		{"force: name perfume, spices, coffee, silk, wine, tea", forced, 6},
		{"pick: David shows 4 tea cards, alike, listed once", named, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := script(t, tt.lines)
			legal := s.Legal()
			if len(legal) != tt.want {
				var txt []string
				for _, a := range legal {
					txt = append(txt, fmt.Sprintf("%s: %s", a.By, codec.FormatCommand(a.Cmd, s.setup.Players)))
				}
				t.Errorf("%d legal actions, want %d: %q", len(legal), tt.want, txt)
			}
			for _, a := range legal {
				if _, err := s.Decide(a); err != nil {
					t.Errorf("legal %v refused: %v", a, err)
				}
			}
		})
	}
}

// "Les acheteurs peuvent augmenter, diminuer ou retirer leur offre jusqu'à
// la fin de la négociation." "Le vendeur peut valoriser son offre en
// proposant des pièces en plus de sa carte [...] Il peut en ajouter ou en
// retirer." "Le vendeur accepte l'offre de son choix, reçoit le paiement
// convenu (carte et/ou pièces) et donne sa proposition à l'acheteur."
func TestNegotiatedSales(t *testing.T) {
	tests := []struct {
		name       string
		lines      []string
		accept     string
		coins      [4]int
		moved      map[CardID]engine.Seat
		nextSeller engine.Seat
	}{
		{"a card for the Contraband: the seller sells again", offers, "Anna: accept from=Bruno",
			[4]int{11, 15, 15, 15}, map[CardID]engine.Seat{"perfume-1": 0, "contraband": 1}, 0},
		{"coins only: the buyer sells next", offers, "Anna: accept from=Chloé",
			[4]int{14, 15, 12, 15}, map[CardID]engine.Seat{"contraband": 2}, 2},
		{"a face-down card and a coin, with the seller's 2 coins", cat(offers, "Anna: bonus coins=3", "Anna: bonus coins=2"), "Anna: accept from=David",
			[4]int{10, 15, 15, 16}, map[CardID]engine.Seat{"wine-1": 0, "contraband": 3}, 0},
		{"an offer raised", cat(offers, "Chloé: offer coins=5"), "accept from=Chloé",
			[4]int{16, 15, 10, 15}, map[CardID]engine.Seat{"contraband": 2}, 2},
		{"an offer lowered and changed", cat(offers, "Bruno: offer coins=2", "Bruno: offer card=spices-3 coins=1"), "Anna: accept from=Bruno",
			[4]int{12, 14, 15, 15}, map[CardID]engine.Seat{"spices-3": 0, "contraband": 1, "perfume-1": 1}, 0},
		{"the scanner lays a buyer's card: his offer, his coins kept", cat(offers, "Bruno: offer coins=2", "lay card=perfume-4"), "Anna: accept from=Bruno",
			[4]int{13, 13, 15, 15}, map[CardID]engine.Seat{"perfume-4": 0, "contraband": 1}, 0},
		{"the seller takes the worst offer", offers, "Anna: accept from=David",
			[4]int{12, 15, 15, 14}, map[CardID]engine.Seat{"wine-1": 0, "contraband": 3}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := script(t, tt.lines)
			s, evs := do(t, s, tt.accept)
			if len(evs) != 1 {
				t.Fatalf("events %v, want one sale", evs)
			}
			if got := s.coins; got != tt.coins {
				t.Errorf("coins %v, want %v", got, tt.coins)
			}
			for id, p := range tt.moved {
				i, _ := s.cat.Card(id)
				if s.loc[i] != int8(p) {
					t.Errorf("%s is at %d, want with seat %d", id, s.loc[i], p)
				}
			}
			// "Le joueur qui possède maintenant neuf cartes en main devient
			// le nouveau vendeur ; il peut s'agir du même joueur."
			if s.seller != tt.nextSeller || s.phase != PhaseLay {
				t.Errorf("seller %d in phase %s, want %d laying a card", s.seller, s.phase.Key(), tt.nextSeller)
			}
			for p, o := range s.offers {
				if o.active {
					t.Errorf("seat %d's offer is still on the table after the sale", p)
				}
			}
		})
	}
}

func TestOffersChange(t *testing.T) {
	s := script(t, offers)
	s, _ = do(t, s, "Bruno: offer coins=4")
	if o := s.offers[1]; !o.active || o.card != noCard || o.coins != 4 {
		t.Errorf("Bruno's offer %+v, want 4 coins and no card: a new offer replaces the last", o)
	}
	// "une carte (et une seule)": a card laid by a buyer replaces the card
	// of his offer, his coins kept.
	s, _ = do(t, s, "Bruno: offer card=perfume-1 up=true coins=4")
	s, _ = do(t, s, "lay card=spices-2")
	if o := s.offers[1]; o.card != 4*3+1 || o.coins != 4 || o.up {
		t.Errorf("Bruno's offer %+v, want spices-2 face down and 4 coins", o)
	}
	s, _ = do(t, s, "Bruno: withdraw")
	if s.offers[1].active {
		t.Errorf("Bruno's offer is still on the table after withdraw")
	}
	if _, err := s.Decide(action(t, "Anna: accept from=Bruno")); !errors.Is(err, ErrNoOffer) {
		t.Errorf("accept a withdrawn offer: %v, want %s", err, ErrNoOffer.Code)
	}
	// "Dans tous les cas, la carte ne peut plus être récupérée par le
	// vendeur": the seller's second card forces the sale, it never replaces
	// the first.
	s, evs := do(t, s, "lay card=jade-4")
	if f, ok := evs[0].(Forced); !ok || f.Card != "jade-4" || s.cat.ID(int(s.market[0])) != "contraband" {
		t.Errorf("scanning the seller's card in a negotiation: %v, want the sale forced with contraband still for sale", evs)
	}
}

// The rules text's own description of a forced sale: "Si aucune offre
// n'intéresse le vendeur, il peut forcer une vente. Pour cela, il pose une
// deuxième carte face cachée sur le marché. Les acheteurs doivent alors
// reprendre leur offre. Le vendeur annonce quelle marchandise il recherche
// (ou appelle le numéro correspondant). Il ne peut pas demander une
// marchandise qu'il a déjà dans sa main. Les acheteurs possédant une ou
// plusieurs cartes de cette marchandise doivent les poser face visible
// devant eux. Il y aura donc 4 cartes face visible sur la table. Le vendeur
// choisit l'une des cartes et donne à son propriétaire les 2 cartes posées
// sur le marché. Enfin, les acheteurs peuvent remettre leurs cartes dans
// leur main. Le joueur qui possède maintenant neuf cartes en main devient
// le nouveau vendeur."
func TestForcedSaleFromTheText(t *testing.T) {
	// Anna sells the Contraband; three offers, none she likes; she has laid
	// 2 coins on her card.
	s := script(t, cat(offers, "Anna: bonus coins=2"))

	// "il pose une deuxième carte face cachée sur le marché. Les acheteurs
	// doivent alors reprendre leur offre."
	s, _ = do(t, s, "Anna: force card=jade-2")
	if s.phase != PhaseForceName || s.market[1] == noCard {
		t.Fatalf("phase %s, second market card %d: want the sale forced", s.phase.Key(), s.market[1])
	}
	for p, o := range s.offers {
		if o.active {
			t.Errorf("seat %d still has an offer after the forced sale", p)
		}
	}
	if s.bonus != 0 || s.coins[0] != 11 {
		t.Errorf("bonus %d, Anna's coins %d: want her 2 coins back in her purse (11)", s.bonus, s.coins[0])
	}
	pub := s.View(engine.NoSeat).(View)
	if len(pub.Market) != 2 || pub.Market[1].Up || pub.Market[1].Card != "" {
		t.Errorf("the table sees the market as %+v, want the second card face down, unnamed", pub.Market)
	}

	// "Il ne peut pas demander une marchandise qu'il a déjà dans sa main."
	if _, err := s.Decide(action(t, "Anna: name good=1")); !errors.Is(err, ErrNameHeld) {
		t.Errorf("Anna names jade (number 1), which she holds: %v, want %s", err, ErrNameHeld.Code)
	}
	// "(ou appelle le numéro correspondant)": 8 is tea.
	s, evs := do(t, s, "Anna: name good=8")
	// "Les acheteurs possédant une ou plusieurs cartes de cette
	// marchandise doivent les poser face visible devant eux. Il y aura
	// donc 4 cartes face visible sur la table."
	want := Named{Good: "tea", Revealed: []CardID{"tea-1", "tea-2", "tea-3", "tea-4"}}
	if !reflect.DeepEqual(evs, []engine.Event{want}) {
		t.Errorf("events %v, want %v", evs, want)
	}
	pub = s.View(engine.NoSeat).(View)
	if len(pub.Revealed) != 4 || pub.Revealed[2].By != 3 || !pub.Revealed[2].Card.Up || pub.Revealed[2].Card.Card != "tea-3" {
		t.Errorf("the table sees revealed %+v, want David's 4 tea cards face up", pub.Revealed)
	}

	// "Le vendeur choisit l'une des cartes et donne à son propriétaire les
	// 2 cartes posées sur le marché."
	s, evs = do(t, s, "Anna: pick card=tea-3")
	wantSale := ForcedSold{Seller: 0, Buyer: 3, Card: "tea-3", Market: []CardID{"contraband", "jade-2"}}
	if !reflect.DeepEqual(evs, []engine.Event{wantSale}) {
		t.Errorf("events %v, want %v", evs, wantSale)
	}
	for id, p := range map[CardID]engine.Seat{"tea-3": 0, "contraband": 3, "jade-2": 3, "tea-1": 3} {
		i, _ := s.cat.Card(id)
		if s.loc[i] != int8(p) {
			t.Errorf("%s at %d, want seat %d", id, s.loc[i], p)
		}
	}
	// "Le joueur qui possède maintenant neuf cartes en main devient le
	// nouveau vendeur."
	if s.handSize(0) != 8 || s.handSize(3) != 9 || s.seller != 3 || s.phase != PhaseLay {
		t.Errorf("Anna %d cards, David %d, seller %d, phase %s; want 8, 9, David laying", s.handSize(0), s.handSize(3), s.seller, s.phase.Key())
	}
	if s.coins != [4]int{11, 15, 15, 15} {
		t.Errorf("coins %v: a forced sale moves no coin", s.coins)
	}
	if got := s.View(engine.NoSeat).(View); len(got.Market) != 0 || len(got.Revealed) != 0 {
		t.Errorf("after the sale the table shows market %v, revealed %v; want both empty", got.Market, got.Revealed)
	}
}

// The cards on the market are no longer in the seller's hand: he may name
// the good of the card he laid when his hand holds no other, and the
// buyers' cards are revealed from several hands.
func TestForcedSaleMarketGood(t *testing.T) {
	s := script(t, cat(offers, "Anna: accept from=Bruno", // Anna now holds perfume-1
		"Anna: lay card=perfume-1 up=true",
		"Chloé: offer card=silk-1",
		"Anna: force card=jade-1",
		"Anna: name good=parfum",
	))
	if got := s.holdersOf(s.named); !reflect.DeepEqual(got, []CardID{"perfume-2", "perfume-3", "perfume-4"}) {
		t.Fatalf("revealed %v, want Bruno's three perfume cards", got)
	}
	s, _ = do(t, s, "lay card=perfume-3") // the seller shows his pick on the reader
	if s.seller != 1 || !slices.Contains(s.Hand(1), "perfume-1") || !slices.Contains(s.Hand(1), "jade-1") || !slices.Contains(s.Hand(0), "perfume-3") {
		t.Errorf("after the pick: seller %d, Bruno %v, Anna %v", s.seller, s.Hand(1), s.Hand(0))
	}
}

func TestScanned(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		card  CardID
		want  engine.Event
		await bool
	}{
		{"a card dealt", nil, "silk-1", Dealt{To: 0, Cards: []CardID{"silk-1"}}, true},
		{"the seller's card for sale, face down", auction, "jewels-3", Laid{By: 0, Card: "jewels-3"}, true},
		{"a buyer's card is his offer", laidUp, "tea-2", Offered{By: 3, Card: "tea-2"}, false},
		{"the seller's second card forces the sale", laidUp, "jade-3", Forced{Card: "jade-3"}, false},
		{"the seller's pick", named, "tea-4", ForcedSold{Seller: 0, Buyer: 3, Card: "tea-4", Market: []CardID{"contraband", "jade-2"}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := script(t, tt.lines)
			if s.AwaitsCard() != tt.await {
				t.Errorf("AwaitsCard() = %v, want %v", s.AwaitsCard(), tt.await)
			}
			evs, err := s.Decide(Scanned(tt.card))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(evs[0], tt.want) {
				t.Errorf("scanning %s: %#v, want %#v", tt.card, evs[0], tt.want)
			}
		})
	}
}

// Phones send commands as JSON: the same commands as the record's lines.
func TestPhoneJSON(t *testing.T) {
	tests := []struct {
		base []string
		by   engine.Seat
		name string
		json string
		want engine.Event
	}{
		{nil, engine.NoSeat, "deal", `{"goods":["jade","Bijoux"]}`, Dealt{To: 0, Cards: []CardID{"jade-1", "jade-2", "jade-3", "jade-4", "jewels-1", "jewels-2", "jewels-3", "jewels-4"}}},
		{nil, 2, "deal", `{"goods":["5","soie"]}`, Dealt{To: 2, Cards: []CardID{"coffee-1", "coffee-2", "coffee-3", "coffee-4", "silk-1", "silk-2", "silk-3", "silk-4"}}},
		{deal, 1, "bid", `{"price":1}`, BidMade{By: 1, Price: 1}},
		{cat(deal, "Bruno: bid price=1"), 2, "pass", ``, Passed{By: 2}},
		{auction, 0, "lay", `{"card":"jade-1","up":true}`, Laid{By: 0, Card: "jade-1", Up: true}},
		{laidUp, 3, "offer", `{"card":"wine-2","coins":2}`, Offered{By: 3, Card: "wine-2", Coins: 2}},
		{laidUp, 0, "bonus", `{"coins":3}`, BonusSet{Coins: 3}},
		{offers, 0, "accept", `{"from":2}`, Sold{Seller: 0, Buyer: 2, Card: "contraband", Coins: 3}},
		{offers, 1, "withdraw", `{}`, Withdrawn{By: 1}},
		{offers, 0, "force", `{"card":"jewels-2"}`, Forced{Card: "jewels-2"}},
		{forced, 0, "name", `{"good":"Thé"}`, Named{Good: "tea", Revealed: []CardID{"tea-1", "tea-2", "tea-3", "tea-4"}}},
		{named, 0, "pick", `{"card":"tea-1"}`, ForcedSold{Seller: 0, Buyer: 3, Card: "tea-1", Market: []CardID{"contraband", "jade-2"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name+tt.json, func(t *testing.T) {
			cmd, err := codec.DecodeCommand(tt.name, []byte(tt.json))
			if err != nil {
				t.Fatal(err)
			}
			evs, err := script(t, tt.base).Decide(engine.Action{By: tt.by, Cmd: cmd})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(evs[0], tt.want) {
				t.Errorf("%s %s: %#v, want %#v", tt.name, tt.json, evs[0], tt.want)
			}
		})
	}
	if _, err := codec.DecodeCommand("offer", []byte(`{"card":"wine-2","price":3}`)); !errors.Is(err, engine.ErrBadArgument) {
		t.Errorf("an unknown field: %v, want %s", err, engine.ErrBadArgument.Code)
	}
}
