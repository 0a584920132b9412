//go:build novision

package main

import (
	"context"
	"errors"

	"comptoir/hw/clock"
	"comptoir/input"
)

// openPictureDice refuses: this build has no dice reader.
func openPictureDice(dir string, clk clock.Clock, logf func(string, ...any)) (func(context.Context) <-chan input.Event, func(input.DiceRolled) bool, func() error, error) {
	return nil, nil, nil, errors.New("replay.frames: this comptoird was built without the dice reader (tag novision); rebuild without it, with libopencv-dev installed, or remove frames: from the configuration")
}
