package dschunke_test

import (
	"encoding/json"
	"fmt"

	"comptoir/engine"
	"comptoir/games/dschunke"
)

// A round played from the phones and the card reader, up to the sealed
// bidding: nobody sees a bid before all are in, then everything is
// revealed and sold at once.
func Example() {
	rules := dschunke.New()
	s, err := rules.Start(engine.Setup{Game: "dschunke", Players: []string{"Anna", "Bruno", "Chloé"}})
	if err != nil {
		panic(err)
	}
	play := func(by engine.Seat, line string) []engine.Event {
		cmd, err := rules.Codec().ParseCommand(line, s.Setup().Players)
		if err != nil {
			panic(err)
		}
		var evs []engine.Event
		if s, evs, err = engine.Play(s, engine.Action{By: by, Cmd: cmd}); err != nil {
			panic(fmt.Sprint(line, ": ", err))
		}
		return evs
	}
	play(0, "hand goods=fish:2,rice:2,spices:2,vegetables:2")
	play(1, "hand goods=fish:2,rice:2,spices:2,vegetables:2")
	play(2, "hand goods=fish:2,rice:2,spices:2,vegetables:2")
	play(engine.NoSeat, "reveal market=market-01") // fish 2, rice 1, spices 4, vegetables S
	play(0, "income with=merchant")
	play(1, "take with=merchant goods=spices:3")
	play(2, "take with=helper junk=white goods=rice:3")
	play(0, "restock goods=fish:2")
	play(1, "restock goods=rice:2")
	play(2, "restock goods=vegetables:2")
	play(0, "bid goods=fish:3")
	play(1, "bid goods=spices:4")

	// Chloé's phone sees that Anna and Bruno have bid, not what.
	view, _ := json.Marshal(s.View(2).(dschunke.View).Players[0])
	fmt.Println(string(view))

	// Chloé's bid, the last: the game reveals and sells by itself.
	evs, err := s.Decide(engine.Action{By: 2, Cmd: dschunke.Bid{}})
	if err != nil {
		panic(err)
	}
	for _, ev := range evs {
		fmt.Println(s.(engine.Describer).Describe(ev, "en"))
		if s, err = s.Apply(ev); err != nil {
			panic(err)
		}
	}
	fmt.Println("waiting for", s.Waiting())
	// Output:
	// {"seat":0,"name":"Anna","colour":"blue","palettes":17,"cards":10,"restock":2,"secret":0,"bid":"sealed"}
	// Chloé has bid
	// The bids are revealed: Anna 3 fish cards; Bruno 4 spices cards; Chloé nothing
	// fish: Anna receives 2 yuans
	// spices: Bruno receives 4 yuans
	// New bidding for: rice, vegetables
	// waiting for [seat 1 seat 2 seat 3]
}
