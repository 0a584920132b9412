package hwconfig

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"time"

	"gopkg.in/yaml.v3"

	"comptoir/input"
	"comptoir/strictyaml"
)

// Sentinel errors: every decoding error wraps one of them, and
// strictyaml.ErrInvalid. They are strictyaml's, so that a table
// configuration's errors and its devices: section's are alike.
var (
	ErrUnknownKey = strictyaml.ErrUnknownKey
	ErrMissingKey = strictyaml.ErrMissingKey
	ErrBadValue   = strictyaml.ErrBadValue
)

// Error is a configuration error at a place in a file.
type Error = strictyaml.Error

// Pin is a host GPIO pin name normalised to "GPIOn" (BCM numbering).
type Pin string

// Devices is the decoded devices: section. A nil section is not fitted.
type Devices struct {
	File    string // the file it came from, for messages
	NFC     *NFC
	Buttons *Buttons
	Lights  *Lights
	Sensors *Sensors
}

// NFC is the MFRC522 reader.
type NFC struct {
	SPI         string // as given: "SPI0.0" or "/dev/spidev0.0"
	Reset       Pin
	IRQ         Pin // "" when not wired
	PollEvery   time.Duration
	LiftedAfter time.Duration
	AntennaGain int
}

// Buttons are push buttons between a GPIO input and ground.
type Buttons struct {
	Debounce time.Duration
	Pins     []NamedPin // in file order
}

// NamedPin is a button's name and pin.
type NamedPin struct {
	Name string
	Pin  Pin
}

// Lights are the daemon's outputs.
type Lights struct {
	Waiting Pin // "" when not fitted
	Refused Pin // "" when not fitted
}

// Sensors are hall sensors under the squares read through MCP23017s.
type Sensors struct {
	I2C       string
	PollEvery time.Duration
	Settle    time.Duration
	ActiveLow bool
	Expanders []Expander
}

// Expander is one MCP23017 and the cells its pins sense.
type Expander struct {
	Address uint16
	// Cells maps an input number, 0-7 for A0-A7 and 8-15 for B0-B7, to a
	// board cell. Unlisted inputs are not connected.
	Cells map[int]input.Cell
}

// Defaults of optional keys.
const (
	DefaultNFCPoll       = 100 * time.Millisecond
	DefaultLiftedAfter   = 400 * time.Millisecond
	DefaultAntennaGain   = 4
	DefaultDebounce      = 30 * time.Millisecond
	DefaultSensorPoll    = 50 * time.Millisecond
	DefaultSensorSettle  = 150 * time.Millisecond
	supportedFileVersion = 1
)

// LoadFile reads a table configuration file and decodes its devices:
// section.
func LoadFile(path string) (Devices, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Devices{}, fmt.Errorf("hwconfig: %w", err)
	}
	return Decode(data, filepath.Base(path))
}

// Decode decodes the devices: section of a whole table configuration file.
// file names the file in errors. A version: key, when present, must be 1;
// keys other than devices: and version: belong to the table configuration
// and are not looked at here.
func Decode(data []byte, file string) (Devices, error) {
	f := strictyaml.File{Name: file}
	root, err := f.Parse(data)
	if err != nil {
		return Devices{}, err
	}
	var devices *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "version":
			if err := f.Version(map[string]*yaml.Node{"version": v}, supportedFileVersion); err != nil {
				return Devices{}, err
			}
		case "devices":
			if devices != nil {
				return Devices{}, f.Errorf(k, "devices", "given twice; keep one")
			}
			devices = v
		}
	}
	if devices == nil {
		return Devices{}, f.Failf(root, "devices", ErrMissingKey, "the table configuration has no devices: section")
	}
	return DecodeDevices(devices, file)
}

// DecodeDevices decodes the value of a devices: key. file names the file
// in errors.
func DecodeDevices(node *yaml.Node, file string) (Devices, error) {
	d := &decoder{File: strictyaml.File{Name: file}, pins: map[Pin]pinUse{}}
	out := Devices{File: file}
	m, err := d.Section(node, "devices", nil, []string{"nfc", "buttons", "lights", "sensors"})
	if err != nil {
		return Devices{}, err
	}
	if n := m["nfc"]; n != nil {
		if out.NFC, err = d.nfc(n); err != nil {
			return Devices{}, err
		}
	}
	if n := m["buttons"]; n != nil {
		if out.Buttons, err = d.buttons(n); err != nil {
			return Devices{}, err
		}
	}
	if n := m["lights"]; n != nil {
		if out.Lights, err = d.lights(n); err != nil {
			return Devices{}, err
		}
	}
	if n := m["sensors"]; n != nil {
		if out.Sensors, err = d.sensors(n); err != nil {
			return Devices{}, err
		}
	}
	if err := d.checkBuses(out); err != nil {
		return Devices{}, err
	}
	return out, nil
}

type decoder struct {
	strictyaml.File
	pins map[Pin]pinUse // pin -> the key that uses it
}

// duration reads an optional duration from 1ms to 1m.
func (d *decoder) duration(n *yaml.Node, key string, def time.Duration) (time.Duration, error) {
	if n == nil {
		return def, nil
	}
	v, err := d.Duration(n, key)
	if err != nil {
		return 0, err
	}
	if v <= 0 || v > time.Minute {
		return 0, d.Failf(n, key, ErrBadValue, "%v is not a duration between 1ms and 1m; write it like 100ms", v)
	}
	return v, nil
}

var (
	spiName = regexp.MustCompile(`^(SPI[0-9]+\.[0-9]+|/dev/spidev[0-9]+\.[0-9]+)$`)
	i2cName = regexp.MustCompile(`^([0-9]+|I2C[0-9]+|/dev/i2c-[0-9]+)$`)
	gpioRe  = regexp.MustCompile(`^GPIO([0-9]+)$`)
	headRe  = regexp.MustCompile(`^P1_([0-9]+)$`)
	cellRe  = regexp.MustCompile(`^([1-8])-([1-8])$`)
	nameRe  = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)
)

// header maps the GPIO-capable pins of the Raspberry Pi 40-pin header to
// their BCM number.
var header = map[int]int{
	3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23,
	18: 24, 19: 10, 21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5,
	31: 6, 32: 12, 33: 13, 35: 19, 36: 16, 37: 26, 38: 20, 40: 21,
}

// ParsePin normalises a pin name to "GPIOn", or says why it is not one.
func ParsePin(s string) (Pin, error) {
	if m := gpioRe.FindStringSubmatch(s); m != nil {
		n, _ := strconv.Atoi(m[1])
		if n <= 27 && (len(m[1]) == 1 || m[1][0] != '0') {
			return Pin("GPIO" + strconv.Itoa(n)), nil
		}
	}
	if m := headRe.FindStringSubmatch(s); m != nil {
		n, _ := strconv.Atoi(m[1])
		if bcm, ok := header[n]; ok {
			return Pin("GPIO" + strconv.Itoa(bcm)), nil
		}
		return "", fmt.Errorf("header pin %d is not a GPIO (power, ground or ID pin)", n)
	}
	return "", errors.New("want GPIOn with n from 0 to 27 (BCM numbering), or a header pin like P1_11")
}

// pin reads a pin name; a missing key (n nil) is no pin, "". Every pin
// is used once.
func (d *decoder) pin(n *yaml.Node, key string) (Pin, error) {
	if n == nil {
		return "", nil
	}
	s, err := d.Scalar(n, key)
	if err != nil {
		return "", err
	}
	p, err := ParsePin(s)
	if err != nil {
		return "", d.Failf(n, key, ErrBadValue, "bad pin name %q: %v", s, err)
	}
	if other, used := d.pins[p]; used {
		return "", d.Failf(n, key, ErrBadValue, "pin %s is already used by %s", p, other.key)
	}
	d.pins[p] = pinUse{key, n}
	return p, nil
}

func (d *decoder) nfc(n *yaml.Node) (*NFC, error) {
	const path = "devices.nfc"
	m, err := d.Section(n, path, []string{"spi", "reset"}, []string{"irq", "poll_every", "lifted_after", "antenna_gain"})
	if err != nil {
		return nil, err
	}
	out := &NFC{AntennaGain: DefaultAntennaGain}
	if out.SPI, err = d.Scalar(m["spi"], path+".spi"); err != nil {
		return nil, err
	}
	if !spiName.MatchString(out.SPI) {
		return nil, d.Failf(m["spi"], path+".spi", ErrBadValue, "bad SPI port %q: want SPI0.0 or /dev/spidev0.0 (bus 0, chip select 0)", out.SPI)
	}
	if out.Reset, err = d.pin(m["reset"], path+".reset"); err != nil {
		return nil, err
	}
	if out.IRQ, err = d.pin(m["irq"], path+".irq"); err != nil {
		return nil, err
	}
	if out.PollEvery, err = d.duration(m["poll_every"], path+".poll_every", DefaultNFCPoll); err != nil {
		return nil, err
	}
	if out.LiftedAfter, err = d.duration(m["lifted_after"], path+".lifted_after", DefaultLiftedAfter); err != nil {
		return nil, err
	}
	if out.LiftedAfter < out.PollEvery {
		return nil, d.Failf(m["lifted_after"], path+".lifted_after", ErrBadValue, "%v is shorter than poll_every %v: a tag resting on the reader would be seen lifted between two polls", out.LiftedAfter, out.PollEvery)
	}
	if g := m["antenna_gain"]; g != nil {
		v, err := d.Int(g, path+".antenna_gain")
		if err != nil {
			return nil, err
		}
		if v < 0 || v > 7 {
			return nil, d.Failf(g, path+".antenna_gain", ErrBadValue, "%d: want a whole number from 0 to 7", v)
		}
		out.AntennaGain = v
	}
	return out, nil
}

func (d *decoder) buttons(n *yaml.Node) (*Buttons, error) {
	const path = "devices.buttons"
	m, err := d.Section(n, path, []string{"pins"}, []string{"debounce"})
	if err != nil {
		return nil, err
	}
	out := &Buttons{}
	if out.Debounce, err = d.duration(m["debounce"], path+".debounce", DefaultDebounce); err != nil {
		return nil, err
	}
	pins := m["pins"]
	if pins.Kind != yaml.MappingNode || len(pins.Content) == 0 {
		return nil, d.Failf(pins, path+".pins", ErrBadValue, "want a mapping of button name to pin, like confirm: GPIO17")
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(pins.Content); i += 2 {
		k, v := pins.Content[i], pins.Content[i+1]
		key := path + ".pins." + k.Value
		if !nameRe.MatchString(k.Value) {
			return nil, d.Failf(k, key, ErrBadValue, "button names are lower-case words, like confirm")
		}
		if seen[k.Value] {
			return nil, d.Failf(k, key, ErrBadValue, "given twice; keep one")
		}
		seen[k.Value] = true
		p, err := d.pin(v, key)
		if err != nil {
			return nil, err
		}
		out.Pins = append(out.Pins, NamedPin{Name: k.Value, Pin: p})
	}
	return out, nil
}

func (d *decoder) lights(n *yaml.Node) (*Lights, error) {
	const path = "devices.lights"
	m, err := d.Section(n, path, nil, []string{"waiting", "refused"})
	if err != nil {
		return nil, err
	}
	out := &Lights{}
	if out.Waiting, err = d.pin(m["waiting"], path+".waiting"); err != nil {
		return nil, err
	}
	if out.Refused, err = d.pin(m["refused"], path+".refused"); err != nil {
		return nil, err
	}
	return out, nil
}

func (d *decoder) sensors(n *yaml.Node) (*Sensors, error) {
	const path = "devices.sensors"
	m, err := d.Section(n, path, []string{"i2c", "expanders"}, []string{"poll_every", "settle", "active_low"})
	if err != nil {
		return nil, err
	}
	out := &Sensors{ActiveLow: true}
	if out.I2C, err = d.Scalar(m["i2c"], path+".i2c"); err != nil {
		return nil, err
	}
	if !i2cName.MatchString(out.I2C) {
		return nil, d.Failf(m["i2c"], path+".i2c", ErrBadValue, "bad I2C bus %q: want 1, I2C1 or /dev/i2c-1", out.I2C)
	}
	if out.PollEvery, err = d.duration(m["poll_every"], path+".poll_every", DefaultSensorPoll); err != nil {
		return nil, err
	}
	if out.Settle, err = d.duration(m["settle"], path+".settle", DefaultSensorSettle); err != nil {
		return nil, err
	}
	if a := m["active_low"]; a != nil {
		if out.ActiveLow, err = d.Bool(a, path+".active_low"); err != nil {
			return nil, err
		}
	}
	ex := m["expanders"]
	if ex.Kind != yaml.SequenceNode || len(ex.Content) == 0 {
		return nil, d.Failf(ex, path+".expanders", ErrBadValue, "want a list of expanders, each with address: and pins:")
	}
	addrs := map[uint16]bool{}
	cells := map[input.Cell]string{}
	for i, e := range ex.Content {
		epath := fmt.Sprintf("%s.expanders[%d]", path, i)
		em, err := d.Section(e, epath, []string{"address", "pins"}, nil)
		if err != nil {
			return nil, err
		}
		s, err := d.Scalar(em["address"], epath+".address")
		if err != nil {
			return nil, err
		}
		a, err := strconv.ParseUint(s, 0, 16)
		if err != nil || a < 0x20 || a > 0x27 {
			return nil, d.Failf(em["address"], epath+".address", ErrBadValue, "%q: an MCP23017 answers at 0x20 to 0x27 (set by its A0-A2 pins)", s)
		}
		if addrs[uint16(a)] {
			return nil, d.Failf(em["address"], epath+".address", ErrBadValue, "address %#x is given to two expanders", a)
		}
		addrs[uint16(a)] = true
		exp := Expander{Address: uint16(a), Cells: map[int]input.Cell{}}
		pins := em["pins"]
		if pins.Kind != yaml.MappingNode || len(pins.Content) == 0 {
			return nil, d.Failf(pins, epath+".pins", ErrBadValue, "want a mapping of expander pin to cell, like A0: 1-1")
		}
		for j := 0; j+1 < len(pins.Content); j += 2 {
			k, v := pins.Content[j], pins.Content[j+1]
			key := epath + ".pins." + k.Value
			idx, ok := expanderPin(k.Value)
			if !ok {
				return nil, d.Failf(k, key, ErrBadValue, "bad expander pin %q: want A0 to A7 or B0 to B7", k.Value)
			}
			if _, dup := exp.Cells[idx]; dup {
				return nil, d.Failf(k, key, ErrBadValue, "given twice; keep one")
			}
			cs, err := d.Scalar(v, key)
			if err != nil {
				return nil, err
			}
			c, err := ParseCell(cs)
			if err != nil {
				return nil, d.Failf(v, key, ErrBadValue, "%v", err)
			}
			if other, dup := cells[c]; dup {
				return nil, d.Failf(v, key, ErrBadValue, "cell %s is already sensed by %s", c, other)
			}
			cells[c] = key
			exp.Cells[idx] = c
		}
		out.Expanders = append(out.Expanders, exp)
	}
	return out, nil
}

func expanderPin(s string) (int, bool) {
	if len(s) != 2 || s[1] < '0' || s[1] > '7' {
		return 0, false
	}
	switch s[0] {
	case 'A':
		return int(s[1] - '0'), true
	case 'B':
		return 8 + int(s[1]-'0'), true
	}
	return 0, false
}

// ExpanderPinName returns the name, A0 to B7, of an expander input number.
func ExpanderPinName(i int) string {
	return fmt.Sprintf("%c%d", "AB"[i/8], i%8)
}

// ParseCell parses a cell written "X-Y", X the blue column and Y the red
// row, each from 1 to 8.
func ParseCell(s string) (input.Cell, error) {
	m := cellRe.FindStringSubmatch(s)
	if m == nil {
		return input.Cell{}, fmt.Errorf("bad cell %q: write a board cell as X-Y, blue column then red row, each 1 to 8, like 3-2", s)
	}
	x, _ := strconv.Atoi(m[1])
	y, _ := strconv.Atoi(m[2])
	return input.Cell{X: x, Y: y}, nil
}

// Pins returns every host pin the configuration uses, sorted, with the key
// that uses it.
func (d Devices) Pins() []NamedPin {
	var out []NamedPin
	if d.NFC != nil {
		out = append(out, NamedPin{"devices.nfc.reset", d.NFC.Reset})
		if d.NFC.IRQ != "" {
			out = append(out, NamedPin{"devices.nfc.irq", d.NFC.IRQ})
		}
	}
	if d.Buttons != nil {
		for _, p := range d.Buttons.Pins {
			out = append(out, NamedPin{"devices.buttons.pins." + p.Name, p.Pin})
		}
	}
	if d.Lights != nil {
		if d.Lights.Waiting != "" {
			out = append(out, NamedPin{"devices.lights.waiting", d.Lights.Waiting})
		}
		if d.Lights.Refused != "" {
			out = append(out, NamedPin{"devices.lights.refused", d.Lights.Refused})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
