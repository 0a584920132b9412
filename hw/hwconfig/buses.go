package hwconfig

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"

	"gopkg.in/yaml.v3"
)

// pinUse is the key that uses a pin, and its node (for the line).
type pinUse struct {
	key  string
	node *yaml.Node
}

// The GPIOs (BCM numbering) the Raspberry Pi's buses take once enabled,
// so that no button, light or reset line is wired to one of them.
var (
	// spiPins are each SPI bus's clock and data lines; SPI0 enabled with
	// dtparam=spi=on also takes both chip selects, CE0 and CE1.
	spiPins = map[int]map[int]string{
		0: {11: "SCLK", 10: "MOSI", 9: "MISO", 8: "CE0", 7: "CE1"},
		1: {21: "SCLK", 20: "MOSI", 19: "MISO"},
	}
	// spi1CE are SPI1's chip selects, taken one by one (dtoverlay=spi1-Ncs).
	spi1CE = map[int]int{0: 18, 1: 17, 2: 16}
	// i2cPins are each I2C bus's data and clock lines (bus 0 is the HAT
	// ID EEPROM's).
	i2cPins = map[int]map[int]string{
		0: {0: "SDA", 1: "SCL"},
		1: {2: "SDA", 3: "SCL"},
	}
	spiBusRe = regexp.MustCompile(`([0-9]+)\.([0-9]+)$`)
	i2cBusRe = regexp.MustCompile(`([0-9]+)$`)
)

// busLine is a GPIO a bus takes: the bus's key and value, and the line.
type busLine struct {
	key, value, line string
}

// busLines returns the GPIOs the devices' buses take.
func busLines(devs Devices) map[Pin]busLine {
	out := map[Pin]busLine{}
	if devs.NFC != nil {
		if m := spiBusRe.FindStringSubmatch(devs.NFC.SPI); m != nil {
			bus, _ := strconv.Atoi(m[1])
			cs, _ := strconv.Atoi(m[2])
			lines := map[int]string{}
			for g, l := range spiPins[bus] {
				lines[g] = l
			}
			if g, ok := spi1CE[cs]; ok && bus == 1 {
				lines[g] = fmt.Sprintf("CE%d", cs)
			}
			for g, l := range lines {
				out[Pin("GPIO"+strconv.Itoa(g))] = busLine{"devices.nfc.spi", devs.NFC.SPI, fmt.Sprintf("SPI%d %s", bus, l)}
			}
		}
	}
	if devs.Sensors != nil {
		if m := i2cBusRe.FindStringSubmatch(devs.Sensors.I2C); m != nil {
			bus, _ := strconv.Atoi(m[1])
			for g, l := range i2cPins[bus] {
				out[Pin("GPIO"+strconv.Itoa(g))] = busLine{"devices.sensors.i2c", devs.Sensors.I2C, fmt.Sprintf("I2C%d %s", bus, l)}
			}
		}
	}
	return out
}

// checkBuses refuses a pin that a bus in use takes: the first in the
// file's order.
func (d *decoder) checkBuses(devs Devices) error {
	taken := busLines(devs)
	var clashes []Pin
	for p := range d.pins {
		if _, ok := taken[p]; ok {
			clashes = append(clashes, p)
		}
	}
	if len(clashes) == 0 {
		return nil
	}
	sort.Slice(clashes, func(i, j int) bool {
		a, b := d.pins[clashes[i]].node, d.pins[clashes[j]].node
		return a.Line < b.Line || a.Line == b.Line && a.Column < b.Column
	})
	p := clashes[0]
	use, bus := d.pins[p], taken[p]
	return d.Failf(use.node, use.key, ErrBadValue, "pin %s is the %s line (%s: %s); choose a free GPIO", p, bus.line, bus.key, bus.value)
}
