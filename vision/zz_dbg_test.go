package vision

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

func TestZZDbg(t *testing.T) {
	c, _ := NewCombined(nil)
	defer c.Close()
	for _, f := range strings.Split(os.Getenv("F"), ",") {
		m := gocv.IMRead(f, gocv.IMReadColor)
		r := c.Net.Read(m)
		h := c.Hand.Read(m)
		for i, d := range []Die{r.Blue, r.Red} {
			hd := []Die{h.Blue, h.Red}[i]
			fmt.Printf("%s %d net face %d conf %.3f guess %d flat %.3f why %v box %v | hand %d %v box %v\n", f, i, d.Face, d.Confidence, d.Guess, d.Flat, d.Why, d.Box, hd.Face, hd.Why, hd.Box)
		}
		m.Close()
	}
}
