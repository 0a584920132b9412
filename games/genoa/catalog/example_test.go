package catalog_test

import (
	"fmt"

	"comptoir/games/genoa/catalog"
)

func ExampleLoad() {
	e, c, err := catalog.Load("filosofia-2008")
	if err != nil {
		panic(err)
	}
	l01, _ := c.ByID("L01")
	fmt.Print(l01.ID, " ", l01.Villa, ":")
	for _, g := range l01.Goods {
		fmt.Print(" ", e.Goods[g].NameFR)
	}
	fmt.Println()
	r, _ := e.RoundsFor(5)
	fmt.Println("rounds for 5 players:", r, "- markers from one street:", e.MaxMarkersPerStreet)
	fmt.Println("contracts, 3 adjacent buildings:", e.ContractScore(3))
	// Output:
	// L01 villa-monetti: safran bière lin
	// rounds for 5 players: 6 - markers from one street: 2
	// contracts, 3 adjacent buildings: 60
}
