// Package hw is the physical side of a Comptoir table box: the inputs that
// follow the merchant pawn and the cards without anyone typing, and the
// lights that answer. It holds no code of its own; its packages are:
//
//   - hwconfig: the devices: section of a table configuration (pins, SPI
//     port, I2C bus, expander addresses), decoded strictly.
//   - nfc: the MFRC522 reader on SPI and the poller that makes one
//     input.TagTapped per tap.
//   - tagmap: the enrolled map from tag UIDs to squares and cards, the
//     Resolver (known target or input.UnknownTag) and enrollment sessions.
//   - buttons: confirm and undo on GPIO, debounced into input.Button.
//   - lights: the "waiting for you" LED and the refusal buzzer or LED.
//   - sensors: hall sensors under the squares through MCP23017 expanders,
//     settled into input.SquareSensed.
//   - replay: the JSON-lines recording of inputs, its player and writer.
//   - wiring: opens what a configuration names and merges the events; the
//     only package that calls host.Init and the periph registries.
//   - clock: the injectable clock every loop is timed by.
//   - backoff: the health of a polled device (the NFC reader, the
//     sensors): its status events and the back-off of its retries.
//
// Every driver is tested without hardware through periph's fakes
// (spitest and conntest playback for the MFRC522, i2ctest for the
// MCP23017, gpiotest pins for buttons and lights), so go test ./hw/...
// passes on any machine. testdata/ holds a recorded demo turn and the tag
// map that goes with it.
package hw
