package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"periph.io/x/conn/v3/gpio/gpioreg"

	"comptoir/hw/replay"
	"comptoir/hw/tagmap"
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
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"hw"}, 2, "usage: comptoir hw check"},
		{[]string{"hw", "fix"}, 2, `unknown subcommand "fix"`},
		{[]string{"hw", "record"}, 2, "usage: comptoir hw check"},
		{[]string{"hw", "check", "--config", bad}, 1, `bad.yaml:4: key "devices.nfc.reset": bad value: bad pin name "GPIO99"`},
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

func TestEnrollCardsFromReplay(t *testing.T) {
	tags := filepath.Join(t.TempDir(), "tags.yaml")
	args := []string{"enroll", "--replay", "../../hw/testdata/enroll-taps.jsonl", "--tags", tags, "--no-squares", "--cards", "../../hw/testdata/cards-small.yaml"}
	out, errs, code := runCmd(t, args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	want := `tap card L01 (large-orders)  [1/3]
  04C00000000101 = card L01
tap card S01 (small-orders)  [2/3]
  nfc fault: nfc: SPI transfer failed
  refused: tag already enrolled: 04C00000000101 is card L01 (large-orders); remove it first to enroll it as card S01
tap card S01 (small-orders)  [2/3]
  04C00000000201 = card S01
tap card S02 (small-orders)  [3/3]
  04C00000000202 = card S02
all 3 enrolled; saved in ` + tags + "\n"
	if out != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", out, want)
	}
	m, err := tagmap.Load(tags)
	if err != nil {
		t.Fatal(err)
	}
	if tg, ok := m.Lookup("04C00000000202"); !ok || tg.ID != "S02" {
		t.Errorf("Lookup(04C00000000202) = %v, %v; want card S02", tg, ok)
	}
	// Again: nothing left to do.
	out, _, code = runCmd(t, args...)
	if code != 0 || !strings.HasPrefix(out, "every target already has a tag") {
		t.Errorf("second run: exit %d\n%s", code, out)
	}
}

func TestEnrollSquaresNamedByTheBoard(t *testing.T) {
	tags := filepath.Join(t.TempDir(), "tags.yaml")
	out, errs, code := runCmd(t, "enroll", "--replay", "../../hw/testdata/table-demo.jsonl", "--tags", tags)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	lines := strings.Split(out, "\n")
	if !strings.HasPrefix(lines[0], "tap square 1-1 (") || !strings.HasSuffix(lines[0], ")  [1/64]") {
		t.Errorf("first prompt %q, want square 1-1 named by the board, 1 of 64", lines[0])
	}
	if !strings.Contains(out, "no more taps: 5 of 64 enrolled") {
		t.Errorf("output does not end with the 5 taps of the demo enrolled:\n%s", out)
	}
	labels, err := squareLabels("")
	if err != nil {
		t.Fatal(err)
	}
	if labels["3-2"] != "Street" || labels["4-4"] != "Market" || len(labels) != 64 {
		t.Errorf("board labels: 3-2 %q, 4-4 %q, %d cells; want Street, Market, 64", labels["3-2"], labels["4-4"], len(labels))
	}
}

func TestEnrollUsage(t *testing.T) {
	for _, args := range [][]string{{"enroll"}, {"enroll", "--replay", "x.jsonl"}} {
		_, errs, code := runCmd(t, args...)
		if code != 2 || !strings.Contains(errs, "comptoir enroll:") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}
