package hwconfig

import (
	"errors"
	"strings"
	"testing"
)

// TestBusPins refuses a button, light or reset line on a GPIO that the
// NFC reader's SPI bus or the sensors' I2C bus takes.
func TestBusPins(t *testing.T) {
	const nfc = "  nfc:\n    spi: %s\n    reset: GPIO25\n"
	const sensors = "  sensors:\n    i2c: \"1\"\n    expanders:\n      - address: 0x20\n        pins:\n          A0: 1-1\n"
	for _, tc := range []struct {
		name, devices, want string
	}{
		{"button on MOSI", strings.Replace(nfc, "%s", "SPI0.0", 1) + "  buttons:\n    pins:\n      confirm: GPIO10\n",
			`t.yaml:8: key "devices.buttons.pins.confirm": bad value: pin GPIO10 is the SPI0 MOSI line (devices.nfc.spi: SPI0.0); choose a free GPIO`},
		{"light on CE1 of SPI0", strings.Replace(nfc, "%s", "/dev/spidev0.0", 1) + "  lights:\n    waiting: P1_26\n",
			`t.yaml:7: key "devices.lights.waiting": bad value: pin GPIO7 is the SPI0 CE1 line (devices.nfc.spi: /dev/spidev0.0); choose a free GPIO`},
		{"reset on SPI1's chip select", "  nfc:\n    spi: SPI1.2\n    reset: GPIO16\n",
			`t.yaml:5: key "devices.nfc.reset": bad value: pin GPIO16 is the SPI1 CE2 line (devices.nfc.spi: SPI1.2); choose a free GPIO`},
		{"button on SDA", sensors + "  buttons:\n    pins:\n      undo: GPIO2\n",
			`t.yaml:11: key "devices.buttons.pins.undo": bad value: pin GPIO2 is the I2C1 SDA line (devices.sensors.i2c: 1); choose a free GPIO`},
		{"the first clash in the file", strings.Replace(nfc, "%s", "SPI0.0", 1) + "  lights:\n    waiting: GPIO9\n    refused: GPIO11\n",
			`t.yaml:7: key "devices.lights.waiting": bad value: pin GPIO9 is the SPI0 MISO line`},
		{"SPI1 leaves SPI0's pins free", strings.Replace(nfc, "%s", "SPI1.0", 1) + "  buttons:\n    pins:\n      confirm: GPIO10\n", ""},
		{"no bus, every pin free", "  buttons:\n    pins:\n      a: GPIO10\n      b: GPIO2\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode([]byte("version: 1\ndevices:\n"+tc.devices), "t.yaml")
			if tc.want == "" {
				if err != nil {
					t.Errorf("Decode = %v, want no error", err)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) || !errors.Is(err, ErrBadValue) {
				t.Errorf("Decode = %v,\nwant %s", err, tc.want)
			}
		})
	}
}
