package hwconfig

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"comptoir/input"
	"comptoir/strictyaml"
)

func TestExampleFile(t *testing.T) {
	d, err := LoadFile("../../configs/tables/example-pi.yaml")
	if err != nil {
		t.Fatalf("LoadFile(example-pi.yaml) = %v", err)
	}
	if d.NFC == nil || d.NFC.SPI != "SPI0.0" || d.NFC.Reset != "GPIO25" || d.NFC.IRQ != "GPIO24" {
		t.Errorf("NFC = %+v, want SPI0.0 reset GPIO25 irq GPIO24", d.NFC)
	}
	if d.NFC.PollEvery != 100*time.Millisecond || d.NFC.LiftedAfter != 400*time.Millisecond {
		t.Errorf("NFC timing = %v/%v, want 100ms/400ms", d.NFC.PollEvery, d.NFC.LiftedAfter)
	}
	if got := len(d.Buttons.Pins); got != 2 || d.Buttons.Pins[0] != (NamedPin{"confirm", "GPIO17"}) {
		t.Errorf("Buttons.Pins = %v, want confirm GPIO17 then undo", d.Buttons.Pins)
	}
	if d.Lights.Waiting != "GPIO22" || d.Lights.Refused != "GPIO23" {
		t.Errorf("Lights = %+v", d.Lights)
	}
	if got := len(d.Sensors.Expanders); got != 4 {
		t.Fatalf("%d expanders, want 4", got)
	}
	seen := map[input.Cell]bool{}
	for _, e := range d.Sensors.Expanders {
		for _, c := range e.Cells {
			seen[c] = true
		}
	}
	if len(seen) != 64 {
		t.Errorf("the example senses %d cells, want all 64", len(seen))
	}
	if c := d.Sensors.Expanders[1].Cells[8+2]; c != (input.Cell{X: 3, Y: 4}) {
		t.Errorf("expander 0x21 B2 = %v, want 3-4", c)
	}
}

// TestErrors checks that each bad file is refused with a message naming the
// file, the line and the key.
func TestErrors(t *testing.T) {
	tests := []struct {
		name, yaml string
		sentinel   error
		want       string
	}{
		{"missing key", `
devices:
  nfc:
    spi: SPI0.0
    irq: GPIO24
`, ErrMissingKey, `t.yaml:4: key "devices.nfc.reset": missing in devices.nfc; it is required`},
		{"unknown key", `
devices:
  nfc:
    spi: SPI0.0
    reset: GPIO25
    rest: GPIO24
`, ErrUnknownKey, `t.yaml:6: key "devices.nfc.rest": unknown key in devices.nfc; expected one of spi, reset, irq, poll_every, lifted_after, antenna_gain`},
		{"bad pin name", `
devices:
  buttons:
    pins:
      confirm: GPIO99
`, ErrBadValue, `t.yaml:5: key "devices.buttons.pins.confirm": bad value: bad pin name "GPIO99": want GPIOn with n from 0 to 27 (BCM numbering), or a header pin like P1_11`},
		{"header power pin", `
devices:
  lights:
    waiting: P1_2
`, ErrBadValue, `t.yaml:4: key "devices.lights.waiting": bad value: bad pin name "P1_2": header pin 2 is not a GPIO (power, ground or ID pin)`},
		{"pin used twice", `
devices:
  buttons:
    pins:
      confirm: GPIO17
  lights:
    waiting: P1_11
`, ErrBadValue, `t.yaml:7: key "devices.lights.waiting": bad value: pin GPIO17 is already used by devices.buttons.pins.confirm`},
		{"no devices", `
version: 1
game: genoa
`, ErrMissingKey, `t.yaml:2: key "devices": missing key: the table configuration has no devices: section`},
		{"bad version", `
version: 3
devices: {}
`, ErrBadValue, `t.yaml:2: key "version": version 3 is not supported; this Comptoir reads version 1`},
		{"unknown section", `
devices:
  camera: {}
`, ErrUnknownKey, `t.yaml:3: key "devices.camera": unknown key in devices; expected one of nfc, buttons, lights, sensors`},
		{"bad spi", `
devices:
  nfc: {spi: spi0, reset: GPIO25}
`, ErrBadValue, `t.yaml:3: key "devices.nfc.spi": bad value: bad SPI port "spi0": want SPI0.0 or /dev/spidev0.0 (bus 0, chip select 0)`},
		{"bad duration", `
devices:
  buttons:
    debounce: 30
    pins: {confirm: GPIO17}
`, ErrBadValue, `t.yaml:4: key "devices.buttons.debounce": "30" is not a duration; write it with its unit, like 100ms or 5s`},
		{"duration too long", `
devices:
  buttons:
    debounce: 2m
    pins: {confirm: GPIO17}
`, ErrBadValue, `t.yaml:4: key "devices.buttons.debounce": bad value: 2m0s is not a duration between 1ms and 1m; write it like 100ms`},
		{"antenna gain text", `
devices:
  nfc: {spi: SPI0.0, reset: GPIO25, antenna_gain: high}
`, ErrBadValue, `t.yaml:3: key "devices.nfc.antenna_gain": is a text "high"; expected a whole number`},
		{"antenna gain 9", `
devices:
  nfc: {spi: SPI0.0, reset: GPIO25, antenna_gain: 9}
`, ErrBadValue, `t.yaml:3: key "devices.nfc.antenna_gain": bad value: 9: want a whole number from 0 to 7`},
		{"active low yes", `
devices:
  sensors:
    i2c: 1
    active_low: yes
    expanders: [{address: 0x20, pins: {A0: 1-1}}]
`, ErrBadValue, `t.yaml:5: key "devices.sensors.active_low": is a text "yes"; expected true or false`},
		{"pin a list", `
devices:
  lights:
    waiting: [GPIO4]
`, ErrBadValue, `t.yaml:4: key "devices.lights.waiting": is a list; expected a single value`},
		{"devices twice", `
devices: {}
devices: {}
`, ErrBadValue, `t.yaml:3: key "devices": given twice; keep one`},
		{"empty file", ``, ErrMissingKey, `t.yaml:1: empty file`},
		{"not a mapping", `
devices: 3
`, ErrBadValue, `t.yaml:2: key "devices": devices is a number; expected a mapping`},
		{"lifted before poll", `
devices:
  nfc: {spi: SPI0.0, reset: GPIO25, poll_every: 200ms, lifted_after: 100ms}
`, ErrBadValue, `t.yaml:3: key "devices.nfc.lifted_after": bad value: 100ms is shorter than poll_every 200ms`},
		{"bad expander address", `
devices:
  sensors:
    i2c: "1"
    expanders:
      - address: 0x40
        pins: {A0: 1-1}
`, ErrBadValue, `t.yaml:6: key "devices.sensors.expanders[0].address": bad value: "0x40": an MCP23017 answers at 0x20 to 0x27`},
		{"bad expander pin", `
devices:
  sensors:
    i2c: "1"
    expanders:
      - address: 0x20
        pins: {C0: 1-1}
`, ErrBadValue, `t.yaml:7: key "devices.sensors.expanders[0].pins.C0": bad value: bad expander pin "C0": want A0 to A7 or B0 to B7`},
		{"bad cell", `
devices:
  sensors:
    i2c: "1"
    expanders:
      - address: 0x20
        pins:
          A0: 9-1
`, ErrBadValue, `t.yaml:8: key "devices.sensors.expanders[0].pins.A0": bad value: bad cell "9-1"`},
		{"cell twice", `
devices:
  sensors:
    i2c: "1"
    expanders:
      - address: 0x20
        pins: {A0: 1-1}
      - address: 0x21
        pins: {B7: 1-1}
`, ErrBadValue, `t.yaml:9: key "devices.sensors.expanders[1].pins.B7": bad value: cell 1-1 is already sensed by devices.sensors.expanders[0].pins.A0`},
		{"missing expanders", `
devices:
  sensors:
    i2c: "1"
`, ErrMissingKey, `t.yaml:4: key "devices.sensors.expanders": missing in devices.sensors; it is required`},
		{"duplicate key", `
devices:
  nfc:
    spi: SPI0.0
    reset: GPIO25
    reset: GPIO26
`, ErrBadValue, `t.yaml:6: key "devices.nfc.reset": given twice in devices.nfc; keep one`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode([]byte(tt.yaml), "t.yaml")
			if err == nil {
				t.Fatalf("Decode = nil error, want %q", tt.want)
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("Decode error = %q, want it to start with %q", err, tt.want)
			}
			if !errors.Is(err, tt.sentinel) || !errors.Is(err, strictyaml.ErrInvalid) {
				t.Errorf("errors.Is(%v, %v and strictyaml.ErrInvalid) = false", err, tt.sentinel)
			}
		})
	}
}

func TestDecodeDevicesNode(t *testing.T) {
	// The table configuration decoder hands over the devices: node alone.
	var doc yaml.Node
	src := "game: genoa\ndevices:\n  lights:\n    refused: GPIO5\n"
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	node := doc.Content[0].Content[3]
	d, err := DecodeDevices(node, "table.yaml")
	if err != nil {
		t.Fatalf("DecodeDevices = %v", err)
	}
	if d.NFC != nil || d.Buttons != nil || d.Sensors != nil || d.Lights.Refused != "GPIO5" || d.Lights.Waiting != "" {
		t.Errorf("DecodeDevices = %+v, want only lights.refused GPIO5", d)
	}
	if got := d.Pins(); len(got) != 1 || got[0].Pin != "GPIO5" {
		t.Errorf("Pins() = %v", got)
	}
}

func TestParsePin(t *testing.T) {
	tests := []struct {
		in   string
		want Pin
		ok   bool
	}{
		{"GPIO0", "GPIO0", true}, {"GPIO27", "GPIO27", true}, {"P1_40", "GPIO21", true},
		{"GPIO28", "", false}, {"GPIO017", "", false}, {"gpio17", "", false}, {"P1_1", "", false}, {"", "", false},
	}
	for _, tt := range tests {
		got, err := ParsePin(tt.in)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("ParsePin(%q) = %q, %v; want %q, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func FuzzDecode(f *testing.F) {
	seed, err := os.ReadFile("../../configs/tables/example-pi.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte("devices:\n  nfc: {spi: SPI0.0, reset: GPIO25}\n"))
	f.Add([]byte("devices: [1, 2]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Decode(data, "fuzz.yaml")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.yaml") {
				t.Errorf("error %q does not name the file", err)
			}
			if !errors.Is(err, strictyaml.ErrInvalid) {
				t.Errorf("error %q does not wrap strictyaml.ErrInvalid", err)
			}
			return
		}
		for _, p := range d.Pins() {
			if _, err := ParsePin(string(p.Pin)); err != nil {
				t.Errorf("decoded pin %q does not parse: %v", p.Pin, err)
			}
		}
	})
}
