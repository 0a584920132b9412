//go:build novision

package main

import (
	"context"
	"errors"

	"comptoir/hw/clock"
	"comptoir/input"
)

// openCamera refuses: this build has no dice reader (built with the
// novision tag, without OpenCV).
func openCamera(device string, clk clock.Clock, logf func(string, ...any)) (func(context.Context) <-chan input.Event, func() error, error) {
	return nil, nil, errors.New("camera: this comptoird was built without the dice reader (tag novision); rebuild without it, with libopencv-dev installed, or remove camera: from the configuration")
}
