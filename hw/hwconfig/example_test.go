package hwconfig_test

import (
	"fmt"

	"comptoir/hw/hwconfig"
)

func ExampleDecode() {
	src := `
devices:
  nfc:
    spi: SPI0.0
    reset: P1_22
  buttons:
    pins:
      confirm: GPIO17
      undo: GPIO17
`
	_, err := hwconfig.Decode([]byte(src), "table.yaml")
	fmt.Println(err)
	// Output:
	// table.yaml:9: key "devices.buttons.pins.undo": bad value: pin GPIO17 is already used by devices.buttons.pins.confirm
}
