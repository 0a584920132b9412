package main

import (
	"encoding/json"
	"fmt"
	"os"

	"comptoir/engine"
	"comptoir/engine/genoa"
)

func main() {
	r := genoa.New()
	st, err := r.Start(engine.Setup{Game: "genoa", Variant: "alea-2001", Players: []string{"Anna", "Bruno", "Chloé"}})
	if err != nil {
		panic(err)
	}
	c := r.Codec()
	for i := 0; i < 30; i++ {
		l := st.Legal()
		if i == 12 || i == 14 || i == 16 {
			for _, a := range l {
				fmt.Println("  legal", a.By, c.FormatCommand(a.Cmd, st.Setup().Players))
			}
		}
		a := l[len(l)/2]
		fmt.Println(i, a.By, c.FormatCommand(a.Cmd, st.Setup().Players))
		next, evs, err := engine.Play(st, a)
		if err != nil {
			panic(err)
		}
		for _, ev := range evs {
			fmt.Println("    ", st.(engine.Describer).Describe(ev, "en"))
		}
		st = next
	}
	b, _ := json.MarshalIndent(st.View(0), "", " ")
	os.Stdout.Write(b)
}
