// Package hwconfig decodes the pin map of a table box: the devices: section
// of a table configuration file (configs/tables/*.yaml). It names the SPI
// port and pins of the NFC reader, the buttons and lights, the I2C bus and
// expanders of the board sensors, and the cell each sensor lies under.
//
// # Format
//
//	devices:
//	  nfc:                    # MFRC522 reader, optional section
//	    spi: SPI0.0           # required: SPI port, SPI<bus>.<cs> or /dev/spidev<bus>.<cs>
//	    reset: GPIO25         # required: the reader's RST pin
//	    irq: GPIO24           # optional: the reader's IRQ pin
//	    poll_every: 100ms     # optional, default 100ms
//	    lifted_after: 400ms   # optional, default 400ms: a tag unseen this long is lifted
//	    antenna_gain: 4       # optional, 0 to 7, default 4
//	  buttons:                # optional section
//	    debounce: 30ms        # optional, default 30ms
//	    pins:                 # required: button name -> pin (button to ground)
//	      confirm: GPIO17
//	      undo: GPIO27
//	  lights:                 # optional section, both keys optional
//	    waiting: GPIO22       # LED "waiting for you"
//	    refused: GPIO23       # LED or active buzzer for a refusal
//	  sensors:                # optional section: hall sensors through MCP23017
//	    i2c: "1"              # required: I2C bus, "1", I2C1 or /dev/i2c-1
//	    poll_every: 50ms      # optional, default 50ms
//	    settle: 150ms         # optional, default 150ms: a change must hold this long
//	    active_low: true      # optional, default true: a magnet pulls the input low
//	    expanders:            # required, at least one
//	      - address: 0x20     # required, 0x20 to 0x27
//	        pins:             # required: expander pin A0-A7, B0-B7 -> cell X-Y
//	          A0: 1-1
//
// Pins are named by their BCM GPIO number (GPIO0 to GPIO27) or by their
// place on the 40-pin header (P1_11 is GPIO17); both are normalised to the
// GPIO name, and a pin used twice is refused.
//
// # Strictness
//
// The section is decoded with comptoir/strictyaml, like every data file of
// Comptoir: an unknown key, a missing required key, a duplicate key or a
// bad value is an *Error (a strictyaml.Error) naming the file, the line
// and the key path, for example
//
//	example-pi.yaml:7: key "devices.nfc.reset": bad value: bad pin name "GPIO99": ...
//	example-pi.yaml:9: key "devices.nfc.rest": unknown key in devices.nfc; expected one of spi, reset, ...
//
// and wrapping strictyaml.ErrInvalid and one of ErrUnknownKey,
// ErrMissingKey, ErrBadValue (which are strictyaml's).
//
// DecodeDevices decodes the devices: node alone, so that the table
// configuration decoder can hand it over; LoadFile and Decode read a whole
// file and look only at its devices: and version: keys, leaving the others
// to the table configuration.
package hwconfig
