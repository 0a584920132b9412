//go:build !novision

package main

import (
	"context"
	"fmt"
	"sync"

	"comptoir/hw/clock"
	"comptoir/input"
	"comptoir/vision"
)

// openCamera opens the dice camera (reconnecting when it is unplugged)
// and returns the source of its settled rolls, and a function that closes
// the camera once the source has stopped.
func openCamera(device string, clk clock.Clock, logf func(string, ...any)) (func(context.Context) <-chan input.Event, func() error, error) {
	reader, err := vision.NewReader(vision.DefaultReaderOpts)
	if err != nil {
		return nil, nil, fmt.Errorf("dice reader: %w", err)
	}
	// A camera missing at start does not stop the table: it is reported
	// on the dashboard and tried again, like a camera unplugged later.
	if cam, err := vision.OpenCamera(device, vision.DefaultCameraOpts); err != nil {
		logf("camera: %v (trying again in the background)", err)
	} else {
		cam.Close()
	}
	var mu sync.Mutex
	var src *vision.Reconnecting // guarded by mu
	run := func(ctx context.Context) <-chan input.Event {
		mu.Lock()
		defer mu.Unlock()
		src = vision.Reconnect(ctx, func() (vision.Source, error) {
			return vision.OpenCamera(device, vision.DefaultCameraOpts)
		}, vision.DefaultReconnectOpts)
		wo := vision.DefaultWatchOpts
		wo.Clock = clk
		return vision.Watch(ctx, src, reader.Read, wo)
	}
	closeCam := func() error {
		mu.Lock()
		defer mu.Unlock()
		if src == nil {
			return nil
		}
		return src.Close()
	}
	return run, closeCam, nil
}
