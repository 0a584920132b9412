package negoce_test

import (
	"fmt"

	"comptoir/engine"
	"comptoir/games/negoce"
)

// A game from the set-up to the first sale, with the game's log in English.
func Example() {
	rules := negoce.New()
	players := []string{"Anna", "Bruno", "Chloé", "David"}
	st, err := rules.Start(engine.Setup{Game: "negoce", Players: players})
	if err != nil {
		fmt.Println(err)
		return
	}
	lines := []struct {
		by   engine.Seat
		line string
	}{
		{engine.NoSeat, "deal to=Anna goods=jade,jewels"},
		{engine.NoSeat, "deal to=Bruno goods=perfume,spices"},
		{engine.NoSeat, "deal to=Chloé goods=coffee,silk"},
		{engine.NoSeat, "deal to=David goods=wine,tea"},
		{1, "bid price=1"},
		{2, "bid price=3"},
		{3, "pass"},
		{0, "pass"},
		{1, "pass"},
		{2, "lay card=silk-1 up=true"},
		{0, "offer card=jade-2"},
		{3, "offer coins=2"},
		{2, "bid price=5"}, // refused: the auction is over
		{2, "accept from=David"},
	}
	for _, l := range lines {
		cmd, err := rules.Codec().ParseCommand(l.line, players)
		if err != nil {
			fmt.Println(err)
			return
		}
		next, evs, err := engine.Play(st, engine.Action{By: l.by, Cmd: cmd})
		if err != nil {
			fmt.Println("refused:", err)
			continue
		}
		for _, ev := range evs {
			fmt.Println(st.(engine.Describer).Describe(ev, "en"))
		}
		st = next
	}
	v := st.View(engine.NoSeat).(negoce.View)
	fmt.Println("next seller:", players[v.Seller], "- coins:", v.Players[0].Coins, v.Players[1].Coins, v.Players[2].Coins, v.Players[3].Coins)
	// Output:
	// Anna is dealt 8 cards
	// Bruno is dealt 8 cards
	// Chloé is dealt 8 cards
	// David is dealt 8 cards
	// Bruno opens the Contraband auction at 1
	// Chloé raises to 3
	// David passes and leaves the auction
	// Anna passes and leaves the auction
	// Bruno passes and leaves the auction
	// Chloé wins the Contraband for 3 coins, which leave the game; Chloé sells first
	// Chloé puts a Silk card up for sale, face up
	// Anna offers a face-down card
	// David offers 2 coins
	// refused: bid: not now, the negotiation is on: offers, then the seller accepts one or forces the sale
	// Chloé accepts David's offer: a Silk card for 2 coins
	// next seller: David - coins: 15 15 14 13
}
