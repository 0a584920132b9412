package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"periph.io/x/conn/v3/gpio/gpioreg"

	"comptoir/hw/replay"
	"comptoir/input"
)

func TestHWCheckWithoutHardware(t *testing.T) {
	if len(gpioreg.All()) > 0 {
		t.Skip("this host has GPIO pins: the check would talk to real devices")
	}
	out, errs, code := runCmd(t, "hw", "check", "--config", "../../configs/tables/example-pi.yaml")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, want := range []string{
		"FAIL nfc      reset pin: no such pin on this host: GPIO25",
		"FAIL button   confirm on GPIO17",
		"FAIL sensors  I2C bus 1",
		"comptoir hw: 6 of 6 devices failed",
	} {
		if !strings.Contains(out+errs, want) {
			t.Errorf("output does not contain %q:\n%s%s", want, out, errs)
		}
	}
}

func TestHWUsageAndConfigErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("devices:\n  nfc:\n    spi: SPI0.0\n    reset: GPIO99\n"), 0o644)
	typo := filepath.Join(t.TempDir(), "typo.yaml")
	os.WriteFile(typo, []byte("version: 1\nstaf_pin: \"1234\"\ndevices:\n  buttons:\n    pins:\n      confirm: GPIO17\n"), 0o644)
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"hw"}, 2, "usage: comptoir hw check"},
		{[]string{"hw", "fix"}, 2, `unknown subcommand "fix"`},
		{[]string{"hw", "record"}, 2, "usage: comptoir hw check"},
		{[]string{"hw", "check", "--config", bad}, 1, `bad.yaml:4: key "devices.nfc.reset": bad value: bad pin name "GPIO99"`},
		{[]string{"hw", "check", "--config", typo}, 1, `typo.yaml:2: key "staf_pin": unknown key in the table configuration; expected one of`},
		{[]string{"hw", "check", "--config", typo}, 1, `(did you mean "staff_pin"?)`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out, errs, code := runCmd(t, tt.args...)
			if code != tt.code || !strings.Contains(out+errs, tt.want) {
				t.Errorf("exit %d, want %d with %q:\n%s%s", code, tt.code, tt.want, out, errs)
			}
		})
	}
}

// TestHWRecordWithoutHardware records for a moment on a host without the
// devices: the file holds their faults, in the replay format.
func TestHWRecordWithoutHardware(t *testing.T) {
	if len(gpioreg.All()) > 0 {
		t.Skip("this host has GPIO pins")
	}
	path := filepath.Join(t.TempDir(), "rec.jsonl")
	out, errs, code := runCmd(t, "hw", "record", "--for", "300ms", path)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	src, err := replay.Open(path, replay.DefaultOpts)
	if err != nil {
		t.Fatalf("the recording does not replay: %v", err)
	}
	devices := map[string]bool{}
	for _, e := range src.Events() {
		if s, ok := e.(input.DeviceStatus); ok && !s.OK {
			devices[s.Device] = true
		}
	}
	for _, d := range []string{"nfc", "buttons", "lights", "sensors"} {
		if !devices[d] {
			t.Errorf("no fault of %s recorded; got %v\n%s", d, devices, out)
		}
	}
}
