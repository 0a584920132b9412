package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"comptoir/vision"
)

const wideFramesDir = "../../vision/testdata/wide-frames"

// wideThrow is a frame of testdata/wide-frames and its labels.
type wideThrow struct {
	file      string
	blue, red int
}

// readLabels reads a labels.csv, its header first.
func readLabels(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return recs
}

func wideThrows(t *testing.T) []wideThrow {
	t.Helper()
	recs := readLabels(t, filepath.Join(wideFramesDir, "labels.csv"))
	var out []wideThrow
	for _, rec := range recs[1:] {
		b, _ := strconv.Atoi(rec[1])
		r, _ := strconv.Atoi(rec[2])
		out = append(out, wideThrow{rec[0], b, r})
	}
	return out
}

// TestCalibrateThrowsDir calibrates from the frames of a folder and their
// labels.csv (the players' confirmations): it stops after N throws, skips
// a frame whose faces are not known, prints the faces each die showed,
// and writes a partial calibration that comptoir dice reads.
func TestCalibrateThrowsDir(t *testing.T) {
	throws := wideThrows(t)
	dir := t.TempDir()
	lines := []string{"file,blue,red"}
	for i, w := range throws[:8] {
		copyFile(t, filepath.Join(wideFramesDir, w.file), filepath.Join(dir, w.file))
		if i == 1 {
			lines = append(lines, w.file+",?,3") // faces not known: skipped
			continue
		}
		lines = append(lines, fmt.Sprintf("%s,%d,%d", w.file, w.blue, w.red))
	}
	out, calib := calibrateThrowsDir(t, dir, lines, 4)
	// 4 throws are 8 dice at most: too few to learn where this camera
	// shows a flat die's numeral
	for _, want := range []string{"skipped", "throw 4 of 4", "blue die: faces", "red die: faces", "calibration saved to " + calib, "flat dice in whole pictures: too few"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, throws[5].file) {
		t.Errorf("read %s after 4 throws:\n%s", throws[5].file, out)
	}
	c, err := vision.LoadNetCalibration(calib)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, w := range []wideThrow{throws[0], throws[2], throws[3], throws[4]} {
		seen[w.blue], seen[w.red] = true, true
	}
	faces := c.Faces()
	if len(faces) == 0 {
		t.Fatalf("calibration without prototypes")
	}
	for _, f := range faces {
		if !seen[f] {
			t.Errorf("prototypes of face %d, which no throw showed (faces %v)", f, faces)
		}
	}
	out, errs, code := runCmd(t, "dice", "--calibration", calib, "--report", wideFramesDir)
	if code != 0 || !strings.Contains(out, "wide-frames (frames):") {
		t.Errorf("dice with the partial calibration: exit %d\n%s%s", code, out, errs)
	}
}

// TestCalibrateThrowsCamera plays the players at a camera (a folder of
// frames stands for it): bad answers are refused and asked again without
// losing the throw, Enter accepts a reading, typed faces correct it, and
// done saves what was learned.
func TestCalibrateThrowsCamera(t *testing.T) {
	throws := wideThrows(t)
	// a throw the reader reads right whole, for Enter
	r, err := vision.NewNetReader(vision.DefaultNetOpts)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	readRight := -1
	for i, w := range throws {
		data, err := os.ReadFile(filepath.Join(wideFramesDir, w.file))
		if err != nil {
			t.Fatal(err)
		}
		m, err := vision.DecodeImage(data)
		if err != nil {
			t.Fatal(err)
		}
		roll := r.Read(m)
		m.Close()
		if roll.Blue.Face == w.blue && roll.Red.Face == w.red && i > 0 {
			readRight = i
			break
		}
	}
	if readRight < 0 {
		t.Fatal("no frame of wide-frames read right whole")
	}
	played := []wideThrow{throws[0], throws[readRight]}
	cam := t.TempDir()
	for i, w := range played {
		for k := range vision.CaptureSkip {
			copyFile(t, filepath.Join(wideFramesDir, w.file), filepath.Join(cam, fmt.Sprintf("%02d-%d.jpg", i, k)))
		}
	}
	openCalibrateCamera = func(string) (vision.Source, error) { return vision.OpenDir(cam) }
	defer func() {
		openCalibrateCamera = func(device string) (vision.Source, error) {
			return vision.OpenCamera(device, vision.DefaultCameraOpts)
		}
	}()
	input := strings.Join([]string{
		"",                                 // throw 1
		fmt.Sprintf("9 %d", played[0].red), // a face 9
		"4",                                // one number
		"four five",                        // not numbers
		fmt.Sprintf("%d %d", played[0].blue, played[0].red),
		"", // throw 2
		"", // the reading is right
		"done",
	}, "\n") + "\n"
	calibrateIn = strings.NewReader(input)
	defer func() { calibrateIn = os.Stdin }()
	calib := filepath.Join(t.TempDir(), "dice.json")
	out, errs, code := runCmd(t, "calibrate", "--camera", "/dev/video9", "--out", calib, "--throws", "8")
	t.Logf("%s%s", out, errs)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{`"9": a d8 shows 1 to 8`, `"4": one number, want two`, `"four": a d8 shows 1 to 8`} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	for _, want := range []string{
		"throw both dice into the tray, then press Enter",
		fmt.Sprintf("blue %d, red %d — Enter if right", played[1].blue, played[1].red),
		fmt.Sprintf("throw 2 of 8: blue %d, red %d learned", played[1].blue, played[1].red),
		"calibration saved to " + calib,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	// the first throw, asked again three times, was learned as confirmed
	if want := fmt.Sprintf("blue %d, red %d learned", played[0].blue, played[0].red); !strings.Contains(out, "throw 1 of 8: "+want) {
		t.Errorf("the first throw was not learned as confirmed (%s):\n%s", want, out)
	}
	if _, err := vision.LoadNetCalibration(calib); err != nil {
		t.Error(err)
	}

	// end of input before done: nothing written, the way out said
	calibrateIn = strings.NewReader("\n")
	calib2 := filepath.Join(t.TempDir(), "dice.json")
	_, errs, code = runCmd(t, "calibrate", "--camera", "/dev/video9", "--out", calib2, "--throws", "8")
	if code != 1 || !strings.Contains(errs, "type done") {
		t.Errorf("end of input: exit %d, %q; want 1 and how to finish", code, errs)
	}
	if _, err := os.Stat(calib2); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("end of input wrote %s: %v", calib2, err)
	}
}

// TestCalibrateThrowsUsage: --throws with a single die, the hand-tuned
// reader or a negative count is a usage error; a folder without
// labels.csv says what it needs.
func TestCalibrateThrowsUsage(t *testing.T) {
	calib := filepath.Join(t.TempDir(), "dice.json")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--dir", wideFramesDir, "--throws", "4", "--dice", "die"}, 2, "blue and the red die"},
		{[]string{"--dir", wideFramesDir, "--throws", "4", "--hand-tuned"}, 2, "learned reader"},
		{[]string{"--dir", wideFramesDir, "--throws", "-1"}, 2, "at least 1"},
		{[]string{"--dir", t.TempDir(), "--throws", "4"}, 1, "labels.csv (file,blue,red)"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, errs, code := runCmd(t, append([]string{"calibrate", "--out", calib}, tc.args...)...)
			if code != tc.code || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, %q; want %d and %q", code, errs, tc.code, tc.want)
			}
		})
	}
}

// TestParseThrowFaces: the players' answers to a reading.
func TestParseThrowFaces(t *testing.T) {
	read := vision.Roll{Blue: vision.Die{Face: 3}, Red: vision.Die{Face: 5}}
	half := vision.Roll{Blue: vision.Die{Face: 3}}
	for _, tc := range []struct {
		line       string
		roll       vision.Roll
		blue, red  int
		err        string
		throwsDone bool
	}{
		{"", read, 3, 5, "", false},
		{"  ", read, 3, 5, "", false},
		{"4 5", read, 4, 5, "", false},
		{"4,6", half, 4, 6, "", false},
		{"8\t1", read, 8, 1, "", false},
		{"", half, 0, 0, "could not read both", false},
		{"4", read, 0, 0, "want two", false},
		{"4 5 6", read, 0, 0, "want two", false},
		{"9 5", read, 0, 0, "1 to 8", false},
		{"0 5", read, 0, 0, "1 to 8", false},
		{"x 5", read, 0, 0, "1 to 8", false},
		{"Done", read, 0, 0, "", true},
	} {
		t.Run(tc.line, func(t *testing.T) {
			b, r, err := parseThrowFaces(tc.line, tc.roll)
			switch {
			case tc.throwsDone:
				if !errors.Is(err, errThrowsDone) {
					t.Errorf("err %v, want done", err)
				}
			case tc.err != "":
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("err %v, want %q", err, tc.err)
				}
			case err != nil || b != tc.blue || r != tc.red:
				t.Errorf("%d %d %v, want %d %d", b, r, err, tc.blue, tc.red)
			}
		})
	}
}

// TestCalibrateThrowsLeaningCamera calibrates from the first 8 throws of
// a table whose camera leans 18.5 degrees (table 0 of
// vision/testdata/val-tables): some of those dice, lying flat, look
// tilted to the hand-tuned reader; the calibration says so and keeps the
// count, so that the reader lets the pose network judge them there.
func TestCalibrateThrowsLeaningCamera(t *testing.T) {
	dir, lines := valTableThrows(t, "0")
	out, calib := calibrateThrowsDir(t, dir, lines, 8)
	if !strings.Contains(out, "the camera leans") {
		t.Errorf("output does not say the camera leans:\n%s", out)
	}
	// the dice are 34 pixels across: the camera is too far
	if !strings.Contains(out, "the dice are about 3") || !strings.Contains(out, "bring the camera lower") {
		t.Errorf("output does not say the dice are small, and to bring the camera lower:\n%s", out)
	}
	c, err := vision.LoadNetCalibration(calib)
	if err != nil {
		t.Fatal(err)
	}
	if !c.TiltMisleads() || c.HandChecked < 8 {
		t.Errorf("calibration: %d of %d dice tilted, want some of at least 8", c.HandTilted, c.HandChecked)
	}
	// and where this camera shows a flat die's numeral: 8 throws are
	// enough dice to refuse those whose numeral lies elsewhere
	n, used := c.FlatDice()
	if n < 12 || !used {
		t.Errorf("calibration: %d flat dice, used %v; want at least 12, used", n, used)
	}
	if want := fmt.Sprintf("%d flat dice showed where this camera shows a flat die's numeral", n); !strings.Contains(out, want) {
		t.Errorf("output lacks %q:\n%s", want, out)
	}
}

// TestCalibrateThrowsDiceSize: dice 72 and 110 pixels across (tables 2
// and 3 of val-tables) are not said to be small.
func TestCalibrateThrowsDiceSize(t *testing.T) {
	for _, table := range []string{"2", "3"} {
		t.Run("table "+table, func(t *testing.T) {
			dir, lines := valTableThrows(t, table)
			out, _ := calibrateThrowsDir(t, dir, lines, 8)
			if strings.Contains(out, "pixels across") || strings.Contains(out, "bring the camera lower") {
				t.Errorf("output says the dice are small:\n%s", out)
			}
		})
	}
}

// valTableThrows copies the first 8 throws of a table of the dice
// reader's tuning tables (vision/testdata/val-tables) whose faces are
// both known into a folder, and returns it with the lines of its
// labels.csv.
func valTableThrows(t *testing.T, table string) (dir string, lines []string) {
	t.Helper()
	const tables = "../../vision/testdata/val-tables"
	dir = t.TempDir()
	lines = []string{"file,blue,red"}
	for _, f := range readLabels(t, filepath.Join(tables, "labels.csv"))[1:] {
		// file, blue, red, ..., table, use
		if f[len(f)-2] != table || f[len(f)-1] != "eval" || f[1] == "?" || f[2] == "?" || len(lines) > 8 {
			continue
		}
		copyFile(t, filepath.Join(tables, f[0]), filepath.Join(dir, f[0]))
		lines = append(lines, strings.Join(f[:3], ","))
	}
	return dir, lines
}

// calibrateThrowsDir writes lines as dir's labels.csv (the players'
// confirmations of the frames in dir) and runs comptoir calibrate
// --throws n on it; it returns the output and the calibration file.
func calibrateThrowsDir(t *testing.T, dir string, lines []string, n int) (out, calib string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "labels.csv"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	calib = filepath.Join(t.TempDir(), "dice.json")
	out, errs, code := runCmd(t, "calibrate", "--dir", dir, "--out", calib, "--throws", strconv.Itoa(n))
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	t.Logf("%s%s", out, errs)
	return out, calib
}

// TestCalibrateLearnsColours: at a tuning table whose blue die is turned
// violet (vision.HueShift, hue +25: 50 degrees), comptoir calibrate
// --throws learns the die's colour, says so, and comptoir dice with the
// calibration reads the blue dice of the throws after, which it does not
// find without it.
func TestCalibrateLearnsColours(t *testing.T) {
	const tables = "../../vision/testdata/val-tables"
	recs := readLabels(t, filepath.Join(tables, "labels.csv"))
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	shift := vision.HueShift{Blue: 25}
	dir, rest := t.TempDir(), t.TempDir()
	lines := []string{"file,blue,red"}
	want := map[string]string{} // picture: blue face, in the throws after the first 8
	for _, rec := range recs[1:] {
		// table 7: LiberationSansNarrow-BoldItalic, 133 px, a striped
		// green cloth
		if rec[col["table"]] != "7" || rec[col["use"]] != "eval" || rec[col["blue"]] == "?" || rec[col["red"]] == "?" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(tables, rec[0]))
		if err != nil {
			t.Fatal(err)
		}
		png, err := shift.Picture(data)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(rec[0], ".jpg") + ".png"
		to := dir
		if len(lines) > 8 {
			to, want[name] = rest, rec[col["blue"]]
		} else {
			lines = append(lines, fmt.Sprintf("%s,%s,%s", name, rec[col["blue"]], rec[col["red"]]))
		}
		if err := os.WriteFile(filepath.Join(to, name), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, calib := calibrateThrowsDir(t, dir, lines, 8)
	if !strings.Contains(out, "learned the colour of these dice: blue die 190-") {
		t.Errorf("calibrate does not say it learned the blue die's colour:\n%s", out)
	}
	// blue dice read right, and wrong, by comptoir dice
	read := func(args ...string) (right, wrong int) {
		t.Helper()
		out, errs, code := runCmd(t, append([]string{"dice"}, append(args, rest)...)...)
		if code != 0 {
			t.Fatalf("dice %v: exit %d\n%s%s", args, code, out, errs)
		}
		for _, line := range strings.Split(out, "\n") {
			name, rolls, ok := strings.Cut(line, " ")
			if !ok || want[name] == "" {
				continue
			}
			blue, _, _ := strings.Cut(strings.TrimPrefix(rolls, "blue="), " ")
			switch blue {
			case want[name]:
				right++
			case "?":
			default:
				wrong++
				t.Errorf("dice %v: %s: blue %s read as %s", args, name, want[name], blue)
			}
		}
		return right, wrong
	}
	plainRight, _ := read()
	calRight, _ := read("--calibration", calib)
	t.Logf("%d throws after the calibration's: blue dice read right %d uncalibrated, %d calibrated", len(want), plainRight, calRight)
	if calRight < plainRight+3 {
		t.Errorf("calibrated, %d blue dice read right, uncalibrated %d: want at least 3 more", calRight, plainRight)
	}
}
