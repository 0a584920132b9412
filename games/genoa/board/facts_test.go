package board

import (
	"testing"
)

// The tests of this file check, on the default layout, every fact about
// the board that the rules texts give. Each quotes its sentence.

func mustKey(t *testing.T, b *Board, key string) SquareID {
	t.Helper()
	id, ok := b.ByKey(key)
	if !ok {
		t.Fatalf("ByKey(%q) not found", key)
	}
	return id
}

func mustName(t *testing.T, b *Board, name string) SquareID {
	t.Helper()
	id, ok := b.ByName(name)
	if !ok {
		t.Fatalf("ByName(%q) not found", name)
	}
	return id
}

func TestCounts(t *testing.T) {
	// Berclaz: "Les actions ne peuvent être réalisées que dans les 18
	// bâtiments qui portent un nom." Alea box: "an 8x8-square grid with 18
	// buildings, 20 street squares and a marketplace".
	b := Default()
	var buildings, streets, markets, cells int
	for _, s := range b.Squares() {
		cells += len(s.Cells)
		switch s.Kind {
		case Building:
			buildings++
		case Street:
			streets++
		case Market:
			markets++
		}
	}
	if buildings != 18 || streets != 20 || markets != 1 || cells != 64 {
		t.Errorf("buildings, streets, markets, cells = %d, %d, %d, %d; want 18, 20, 1, 64", buildings, streets, markets, cells)
	}
	if b.Len() != NumSquares {
		t.Errorf("Len() = %d, want %d", b.Len(), NumSquares)
	}
	edge := 0
	for _, id := range b.Buildings() {
		if b.Square(id).Edge {
			edge++
		}
	}
	// Filosofia: "Chaque carte Contrat correspond à l'un des 14 bâtiments
	// situés sur le pourtour du quartier."
	if edge != 14 {
		t.Errorf("%d edge buildings, want 14", edge)
	}
}

func TestMarketCells(t *testing.T) {
	// Filosofia: "Lorsque la case départ obtenue aux dés est celle du marché
	// (case correspondant aux quatre résultats suivants; 4-4, 5-4, 4-5, 5-5)".
	b := Default()
	for x := 1; x <= 8; x++ {
		for y := 1; y <= 8; y++ {
			inCentre := (x == 4 || x == 5) && (y == 4 || y == 5)
			if got := b.SquareAt(x, y) == b.Market(); got != inCentre {
				t.Errorf("SquareAt(%d, %d) is market = %v, want %v", x, y, got, inCentre)
			}
		}
	}
}

func TestStartExampleIsStreet(t *testing.T) {
	// Filosofia: "Le marchand lance les dés et obtient 3 au dé bleu et 2 au
	// dé rouge. Les cinq disques du pion Marchand sont donc placés sur la case
	// rue vers laquelle les flèches pointent."
	b := Default()
	if k := b.Square(b.SquareAt(3, 2)).Kind; k != Street {
		t.Errorf("SquareAt(3, 2) is a %v, want a street", k)
	}
}

func TestCentreBuildingsFlankMarket(t *testing.T) {
	// RULES-NOTES: "The market is flanked on its four sides by four two-cell
	// buildings: town hall, guild hall, cathedral, post office."
	b := Default()
	for _, k := range []string{"town-hall", "guild-hall", "cathedral", "post-office"} {
		id := mustKey(t, b, k)
		s := b.Square(id)
		if len(s.Cells) != 2 || !b.Adjacent(id, b.Market()) || s.Edge {
			t.Errorf("%s: cells %v, touches market %v, edge %v; want 2 cells beside the market", k, s.Cells, b.Adjacent(id, b.Market()), s.Edge)
		}
	}
	// The market's neighbours are exactly those four.
	var nb []string
	for _, id := range b.Neighbours(b.Market()) {
		nb = append(nb, b.Square(id).Key)
	}
	if len(nb) != 4 {
		t.Errorf("market neighbours = %v, want the four centre buildings", nb)
	}
}

func TestEdgeBuildings(t *testing.T) {
	// RULES-NOTES: "The other 14 buildings [...] lie on the edge of the
	// board, 2 or 3 cells each, harbour and park larger; the villas are at
	// the corners."
	b := Default()
	corners := map[Cell]string{}
	for _, k := range append(append(append([]string{}, VillaKeys...), WarehouseKeys...), OtherEdgeKeys...) {
		s := b.Square(mustKey(t, b, k))
		if !s.Edge {
			t.Errorf("%s is not on the edge", k)
		}
		n := len(s.Cells)
		switch k {
		case "harbour", "park":
			if n <= 3 {
				t.Errorf("%s has %d cells; want more than the others", k, n)
			}
		default:
			if n < 2 || n > 3 {
				t.Errorf("%s has %d cells; want 2 or 3", k, n)
			}
		}
		for _, c := range s.Cells {
			if (c.X == 1 || c.X == 8) && (c.Y == 1 || c.Y == 8) {
				corners[c] = k
			}
		}
	}
	for _, c := range []Cell{{X: 1, Y: 1}, {X: 8, Y: 1}, {X: 1, Y: 8}, {X: 8, Y: 8}} {
		if k := corners[c]; len(k) < 6 || k[:6] != "villa-" {
			t.Errorf("corner %v holds %q, want a villa", c, k)
		}
	}
}

func TestMovementExample(t *testing.T) {
	// Filosofia: "Le pion Marchand débute le tour sur la Guilde. [...] Dans
	// l'option A le marchand utilise tous ses déplacements (4) pour terminer
	// son tour sur la Villa Collini. Dans l'option B le marchand n'utilise
	// que 3 déplacements et termine son tour sur les Métaux."
	// The metal warehouse is warehouse-nw in both editions (editions.yaml).
	b := Default()
	guild := mustName(t, b, "Guilde")
	colini := mustName(t, b, "Villa Collini")
	metal := mustKey(t, b, "warehouse-nw")
	if d := b.Distance(guild, colini); d != 4 {
		t.Errorf("Distance(guild hall, Villa Colini) = %d, want 4", d)
	}
	if d := b.Distance(guild, metal); d != 3 {
		t.Errorf("Distance(guild hall, metal warehouse) = %d, want 3", d)
	}
}

func TestOwnershipExample(t *testing.T) {
	// Filosofia: "Il désigne la case de rue adjacente à la Guilde et au
	// Hangar [...] Il désigne la seule case de rue toujours occupée par un
	// disque. [...] Il place ensuite l'un de ses marqueurs sur le Hangar et
	// un autre sur l'entrepôt des Épices". The spice warehouse is
	// warehouse-ne in both editions (editions.yaml).
	b := Default()
	guild := mustName(t, b, "Guilde")
	hangar := mustName(t, b, "Hangar")
	spice := mustKey(t, b, "warehouse-ne")
	touches := func(street, bld SquareID) bool {
		for _, x := range b.BuildingsTouching(street) {
			if x == bld {
				return true
			}
		}
		return false
	}
	var s1, s2 []SquareID
	for _, s := range b.Squares() {
		if s.Kind != Street {
			continue
		}
		if touches(s.ID, guild) && touches(s.ID, hangar) {
			s1 = append(s1, s.ID)
		}
		if touches(s.ID, hangar) && touches(s.ID, spice) {
			s2 = append(s2, s.ID)
		}
	}
	if len(s1) == 0 || len(s2) == 0 {
		t.Fatalf("streets touching guild+Hangar %v, Hangar+spice %v; want one of each", s1, s2)
	}
	// Both streets are visited in one turn of at most 4 moves, and they are
	// the only streets visited ("la seule case de rue toujours occupée").
	found := false
	for _, a := range s1 {
		for _, c := range s2 {
			if a == c {
				continue
			}
			path := []SquareID{guild, a, hangar, c, spice}
			ok := true
			for i := 1; i < len(path); i++ {
				if !b.Adjacent(path[i-1], path[i]) {
					ok = false
				}
			}
			if ok {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("no turn guild hall, street, Hangar, street, spice warehouse with streets from %v and %v", s1, s2)
	}
	if k := b.Square(hangar).Key; k != "coach-house" {
		t.Errorf("Hangar is %s, want coach-house", k)
	}
}

func TestSpiceWarehouseNeighbours(t *testing.T) {
	// RULES-NOTES: "A villa on the right edge touches the spice warehouse,
	// which touches the trattoria ("Restaurant") and streets."
	b := Default()
	spice := mustKey(t, b, "warehouse-ne")
	villaRight := false
	for _, k := range VillaKeys {
		v := mustKey(t, b, k)
		onRight := false
		for _, c := range b.Square(v).Cells {
			if c.X == 8 {
				onRight = true
			}
		}
		if onRight && b.BuildingsAdjacent(v, spice) {
			villaRight = true
		}
	}
	if !villaRight {
		t.Error("no villa on the right edge touches the spice warehouse")
	}
	if !b.BuildingsAdjacent(spice, mustName(t, b, "Restaurant")) {
		t.Error("the spice warehouse does not touch the trattoria")
	}
	if len(b.StreetsTouching(spice)) == 0 {
		t.Error("the spice warehouse touches no street")
	}
}

// groups returns the sizes of the groups of adjacent buildings in held.
func groups(b *Board, held []SquareID) []int {
	seen := map[SquareID]bool{}
	var sizes []int
	for _, h := range held {
		if seen[h] {
			continue
		}
		n := 0
		stack := []SquareID{h}
		seen[h] = true
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			n++
			for _, y := range held {
				if !seen[y] && b.BuildingsAdjacent(x, y) {
					seen[y] = true
					stack = append(stack, y)
				}
			}
		}
		sizes = append(sizes, n)
	}
	return sizes
}

func TestPrivilegeExample(t *testing.T) {
	// Berclaz: "Max possède 6 cartes Privilège: Metallager, Park, Kutscherei,
	// Villa Ricci, Hafen, Villa Zasteri. Il a ainsi des privilèges pour trois
	// bâtiment qui ne sont pas adjacents: Metallager, Hafen, Villa Zasteri)
	// et reçoit 3 × 10 = 30 ducats. Il a aussi des privilèges pour trois
	// bâtiment adjacents: Park, Kutscherei, Villa Ricci et reçoit encore
	// 1 × 60 = 60 ducats." Metallager is warehouse-nw.
	b := Default()
	held := []SquareID{mustKey(t, b, "warehouse-nw"), mustName(t, b, "Park"), mustName(t, b, "Kutscherei"),
		mustName(t, b, "Villa Ricci"), mustName(t, b, "Hafen"), mustName(t, b, "Villa Zasteri")}
	score := map[int]int{1: 10, 2: 30, 3: 60, 4: 100}
	total := 0
	for _, n := range groups(b, held) {
		total += score[n]
	}
	if total != 90 {
		t.Errorf("Max's privileges score %d (groups %v), want 90", total, groups(b, held))
	}
	chain := groups(b, held[1:4])
	if len(chain) != 1 {
		t.Errorf("Park, Kutscherei, Villa Ricci form groups %v, want one chain", chain)
	}
}

func TestVillasTouchOneWarehouse(t *testing.T) {
	// Berclaz: "il y a 4 gros contrat pour chacune des 4 villas qui sont
	// ainsi placées qu'il n'y a pas de marchandise correspondante dans le
	// dépôt adjacent." Each villa has an adjacent warehouse (one, so that the
	// sentence's "le dépôt adjacent" names it).
	b := Default()
	for _, v := range VillaKeys {
		n := 0
		for _, w := range WarehouseKeys {
			if b.BuildingsAdjacent(mustKey(t, b, v), mustKey(t, b, w)) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s touches %d warehouses, want 1", v, n)
		}
	}
}

func TestPortThenVillaMonetti(t *testing.T) {
	// Filosofia: "Le marchand déplace le pion sur le Port [...] Puisque
	// l'action qui l'intéresse est celle de la Villa Monetti, le marchand
	// doit se contenter de cette offre". Having moved at least once to reach
	// the port, the merchant still reaches Villa Monetti: at most 3 moves.
	b := Default()
	if d := b.Distance(mustName(t, b, "Port"), mustName(t, b, "Villa Monetti")); d > 3 {
		t.Errorf("Distance(port, Villa Monetti) = %d, want at most 3", d)
	}
}

func TestEveryBuildingTouchesAStreet(t *testing.T) {
	// Filosofia: "les rues permettent aux joueurs d'acquérir des bâtiments"
	// from an adjacent street; every building can be acquired.
	b := Default()
	for _, id := range b.Buildings() {
		if len(b.StreetsTouching(id)) == 0 {
			t.Errorf("%s touches no street: no ownership marker could ever be placed on it", b.Square(id).Key)
		}
	}
}
