package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/journal"
	session "comptoir/table"
)

const (
	renderedDir = "../../vision/testdata/rendered"
	// hardDir is the adversarial renders (the calibration pictures below
	// are among them)
	hardDir = "../../vision/testdata/rendered-hard"
	realDir = "../../vision/testdata/real"
)

// copyFile copies src to dst.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDicePicturesAndLabels(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"0001.jpg", "0002.jpg", "0003.jpg", "0004.jpg"} {
		copyFile(t, filepath.Join(renderedDir, f), filepath.Join(dir, f))
	}
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a picture"), 0o644)
	labels := filepath.Join(t.TempDir(), "labels.csv")
	os.WriteFile(labels, []byte("file,blue,red\n0001.jpg,7,5\n0002.jpg,5,7\n0003.jpg,4,1\n0004.jpg,4,3\n"), 0o644)
	out, errs, code := runCmd(t, "dice", dir, "--labels", labels)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines, want 4 pictures and the summary:\n%s", len(lines), out)
	}
	line := regexp.MustCompile(`^000[1-4]\.jpg blue=[1-8?] red=[1-8?]$`)
	for i, l := range lines[:4] {
		if !line.MatchString(l) || !strings.HasPrefix(l, []string{"0001", "0002", "0003", "0004"}[i]) {
			t.Errorf("line %d = %q, want <file> blue=<1-8 or ?> red=<1-8 or ?> in name order", i, l)
		}
	}
	sum := regexp.MustCompile(`^accuracy [0-9.]+% \(\d+ of 8 dice read right\), rejected [0-9.]+% \(\d+\), wrong [0-9.]+% \(\d+\)$`)
	if !sum.MatchString(lines[4]) {
		t.Errorf("summary %q does not match %v", lines[4], sum)
	}
}

func TestDiceSingleReal(t *testing.T) {
	out, errs, code := runCmd(t, "dice", "--single", filepath.Join(realDir, "d8_top000.jpg"), filepath.Join(realDir, "d8_top267.jpg"))
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if want := "d8_top000.jpg die=7\nd8_top267.jpg die=1\n"; out != want {
		t.Errorf("output\n%s\nwant\n%s", out, want)
	}
}

func TestDiceBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "broken.jpg")
	os.WriteFile(bad, []byte{0xff, 0xd8, 0xff, 0xe0, 1, 2, 3}, 0o644)
	out, errs, code := runCmd(t, "dice", bad)
	if code != 1 || out != "broken.jpg blue=? red=?\n" || !strings.Contains(errs, "broken.jpg: bad frame") {
		t.Errorf("corrupt picture: exit %d, out %q, err %q; want exit 1, a line of ?, and the file named", code, out, errs)
	}
	badLabels := filepath.Join(dir, "labels.csv")
	os.WriteFile(badLabels, []byte("file,blue,red\nx.jpg,9,1\n"), 0o644)
	if _, errs, code := runCmd(t, "dice", "--labels", badLabels, filepath.Join(renderedDir, "0001.jpg")); code != 1 || !strings.Contains(errs, "face \"9\"") {
		t.Errorf("bad labels: exit %d, err %q", code, errs)
	}
	for _, args := range [][]string{{"dice"}, {"dice", "--camera", "/dev/video0", "x.jpg"}, {"dice", "--video", "v.mp4", "--single"}, {"dice", "--nope"}} {
		if _, _, code := runCmd(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2 (usage)", args, code)
		}
	}
	for _, v := range []string{"-0.1", "1", "1.5"} {
		if _, errs, code := runCmd(t, "dice", "--closer-look", v, filepath.Join(renderedDir, "0001.jpg")); code != 2 || !strings.Contains(errs, "--closer-look "+v) || !strings.Contains(errs, "0.85") {
			t.Errorf("--closer-look %s: exit %d, err %q; want 2 (usage), the value named and the default shown", v, code, errs)
		}
	}
	// a pose network of another input size needs the network: the
	// committed one reads 32-pixel crops
	if _, errs, code := runCmd(t, "dice", "--pose-size", "48", filepath.Join(renderedDir, "0001.jpg")); code != 1 || !strings.Contains(errs, "--pose-size 48 without --pose-model") {
		t.Errorf("--pose-size alone: exit %d, err %q; want 1 and what is missing", code, errs)
	}
	// with one (the committed network, all convolutions, reads 48-pixel
	// crops too) the die is read
	if out, errs, code := runCmd(t, "dice", "--pose-model", "../../vision/model/posenet.onnx", "--pose-size", "48", filepath.Join(renderedDir, "0001.jpg")); code != 0 || !regexp.MustCompile(`^0001\.jpg blue=[1-8] red=[1-8]\n$`).MatchString(out) {
		t.Errorf("--pose-model with --pose-size 48: exit %d, out %q, err %q; want both dice read", code, out, errs)
	}
	if _, errs, code := runCmd(t, "dice", filepath.Join(dir, "missing")); code != 1 || !strings.Contains(errs, "missing") {
		t.Errorf("missing path: exit %d, err %q", code, errs)
	}
}

// calibrationRenders is one render of hardDir per face of each die, among
// those the built-in model reads right (so the die is findable in them).
var calibrationRenders = map[string]string{
	"blue-1": "0000.jpg", "blue-2": "0130.jpg", "blue-3": "0041.jpg", "blue-4": "0058.jpg",
	"blue-5": "0239.jpg", "blue-6": "0128.jpg", "blue-7": "0026.jpg", "blue-8": "0126.jpg",
	"red-1": "0000.jpg", "red-2": "0026.jpg", "red-3": "0058.jpg", "red-4": "0041.jpg",
	"red-5": "0163.jpg", "red-6": "0151.jpg", "red-7": "0061.jpg", "red-8": "0046.jpg",
}

// TestCalibrateDirThenDice calibrates from one render per face of each die
// (comptoir calibrate --dir) and reads other renders with the calibration.
func TestCalibrateDirThenDice(t *testing.T) {
	dir := t.TempDir()
	for key, file := range calibrationRenders {
		copyFile(t, filepath.Join(hardDir, file), filepath.Join(dir, key+".jpg"))
	}
	calib := filepath.Join(t.TempDir(), "calibration.json")
	out, errs, code := runCmd(t, "calibrate", "--dir", dir, "--out", calib)
	if code != 0 {
		t.Fatalf("calibrate: exit %d\n%s%s", code, out, errs)
	}
	if !strings.Contains(out, "calibration saved to") || strings.Count(out, "learned from") != 16 {
		t.Errorf("calibrate output:\n%s", out)
	}
	labels := filepath.Join(renderedDir, "labels.csv")
	paths := []string{filepath.Join(renderedDir, "0010.jpg"), filepath.Join(renderedDir, "0020.jpg"), filepath.Join(renderedDir, "0030.jpg")}
	out, errs, code = runCmd(t, append([]string{"dice", "--calibration", calib, "--labels", labels}, paths...)...)
	if code != 0 || strings.Count(out, "\n") != len(paths)+1 || !strings.Contains(out, "accuracy") {
		t.Errorf("dice with calibration: exit %d\n%s%s", code, out, errs)
	}
	if _, errs, code := runCmd(t, "calibrate", "--dir", t.TempDir(), "--out", calib); code != 1 || !strings.Contains(errs, "blue-1.jpg") {
		t.Errorf("empty folder: exit %d, err %q; want the missing picture named", code, errs)
	}
	os.WriteFile(calib, []byte("{not json"), 0o644)
	if _, errs, code := runCmd(t, "dice", "--calibration", calib, paths[0]); code != 1 || !strings.Contains(errs, "bad calibration") {
		t.Errorf("corrupt calibration: exit %d, err %q", code, errs)
	}
}

func FuzzParseDiceLabels(f *testing.F) {
	f.Add([]byte("file,blue,red\n0001.jpg,7,5\n0002.jpg,?,3\n"), false)
	f.Add([]byte("file,face\nx.jpg,8\n"), true)
	f.Add([]byte("file,blue\n\"unterminated"), false)
	f.Fuzz(func(t *testing.T, data []byte, single bool) {
		labels, err := parseDiceLabels(strings.NewReader(string(data)), single)
		if err != nil {
			return
		}
		n := 2
		if single {
			n = 1
		}
		for file, faces := range labels {
			if len(faces) != n {
				t.Fatalf("%s: %d faces, want %d", file, len(faces), n)
			}
			for _, v := range faces {
				if v < 0 || v > 8 {
					t.Fatalf("%s: face %d", file, v)
				}
			}
		}
	})
}

// TestDiceReport prints the tables of a labelled folder of held-out frames
// and of the real photos' held-out clips.
func TestDiceReport(t *testing.T) {
	out, errs, code := runCmd(t, "dice", "--report", "../../vision/testdata/wide-frames", realDir)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{"wide-frames (frames):", "by font:", "by surface:", "by size:", "25-40 px", "confusion", "real (single):",
		"lavender pearl with white numerals", "black with red numerals"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "navy with gold numerals") {
		t.Errorf("the report reads the real clips training learned from:\n%s", out)
	}
	out, errs, code = runCmd(t, "dice", "--report", "--stages", "--learned", realDir)
	for _, want := range []string{"stages (45 dice labelled 1-8)", "not found by the locator", "top answer right, under the confidence", "top-1 accuracy", "0.97"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("--stages: exit %d, output lacks %q:\n%s%s", code, want, out, errs)
		}
	}
	if _, errs, code := runCmd(t, "dice", "--report", "--hand-tuned", realDir); code != 1 || !strings.Contains(errs, "crops") {
		t.Errorf("--report --hand-tuned: exit %d, err %q; want 1 and why", code, errs)
	}
}

// TestDiceMisreads: comptoir dice --misreads counts, per game of a
// journal, the undos of dice readings the players corrected
// (table.StaffDice), and no other undo.
func TestDiceMisreads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	st, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	rules := enginetest.Rules{}
	setup := engine.Setup{Game: "tally", Players: []string{"A", "B"}}
	g, err := st.Begin(rules, setup, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	state, err := rules.Start(setup)
	if err != nil {
		t.Fatal(err)
	}
	take := func(n int) {
		t.Helper()
		a := engine.Action{By: 0, Cmd: enginetest.Take{N: n}}
		evs, err := state.Decide(a)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Append(time.Now(), a, evs); err != nil {
			t.Fatal(err)
		}
	}
	for _, reason := range []string{session.MisreadPrefix + "read blue=2 red=3, the players saw blue=3 red=3", "staff: wrong tap", session.MisreadPrefix + "read blue=1 red=1, the players saw blue=7 red=1"} {
		take(2)
		if _, err := g.Undo(time.Now(), engine.Staff, reason); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	out, errs, code := runCmd(t, "dice", "--misreads", path)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{"game 1 (tally): 2 dice readings corrected", "all 1 games: 2 dice readings corrected"} {
		if !strings.Contains(out, want) {
			t.Errorf("output %q, want %q", out, want)
		}
	}
}

// TestDiceReportTables: a folder of tables (here one table of
// vision/testdata/val-tables) is reported table by table, calibrated face
// by face and from its first throws, by both readers.
func TestDiceReportTables(t *testing.T) {
	src := "../../vision/testdata/val-tables"
	data, err := os.ReadFile(filepath.Join(src, "labels.csv"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	keep := []string{lines[0]}
	for _, l := range lines[1:] {
		if f := strings.Split(l, ","); f[len(f)-2] == "5" {
			keep = append(keep, l)
			copyFile(t, filepath.Join(src, f[0]), filepath.Join(dir, f[0]))
		}
	}
	if len(keep) != 37 {
		t.Fatalf("table 5 of val-tables: %d frames, want 36", len(keep)-1)
	}
	if err := os.WriteFile(filepath.Join(dir, "labels.csv"), []byte(strings.Join(keep, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"dice", "--report", dir}, {"dice", "--report", "--learned", dir}} {
		out, errs, code := runCmd(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, errs)
		}
		for _, want := range []string{"(tables, each calibrated at its camera, then its throws read):", "table 5 (LiberationSansNarrow-Bold.ttf, 40-65 px",
			"after 8 throws", "uncalibrated, every throw:", "calibrated at each table, face by face:", "calibrated at each table from its first 8 throws:", "by size:"} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: the report lacks %q:\n%s", args, want, out)
			}
		}
	}
}

// TestDiceFramesView: comptoir dice --frames watches a folder of frames
// as a camera, prints each roll, and says in a "reader:" line what the
// reader learned of the camera when it changes, as the staff page does.
// The frames are the flat throws of two tuning tables of val-tables, each
// picture held 10 frames: table 3 (dice 110 pixels across), where the
// reader comes to refuse a die whose numeral is off where a flat die's
// lies, and table 0 (34 pixels), where it asks for the camera lower; and
// the held-out table 6 of wide-tables, whose harsh lamp washes the dice's
// top faces out, where it says to move the lamp.
func TestDiceFramesView(t *testing.T) {
	frames := func(set, table string) string {
		src, err := filepath.Abs("../../vision/testdata/" + set)
		if err != nil {
			t.Fatal(err)
		}
		rows := readLabels(t, filepath.Join(src, "labels.csv"))
		dir := t.TempDir()
		n := 0
		for _, row := range rows[1:] {
			// file, blue, red, ..., wall (14), ..., table, use
			if row[len(row)-2] != table || row[len(row)-1] != "eval" || row[14] != "false" {
				continue
			}
			for range 10 {
				n++
				if err := os.Symlink(filepath.Join(src, row[0]), filepath.Join(dir, fmt.Sprintf("f%05d.jpg", n))); err != nil {
					t.Fatal(err)
				}
			}
		}
		if n < 100 {
			t.Fatalf("table %s: %d frames, want its flat throws", table, n)
		}
		return dir
	}
	for _, tc := range []struct {
		set, table string
		want, not  []string
	}{
		{"val-tables", "3", []string{
			"reader: learning where this camera shows a flat die's numeral",
			"reader: knows where this camera shows a flat die's numeral",
			"the dice look about 10", // 106, 107 pixels
			"reader, at the end: knows"},
			[]string{"bring the camera lower", "moved", "the lamp washes the dice out"}},
		{"val-tables", "0", []string{"the dice look about 3", "bring the camera lower (or zoom in) until a die is at least 40 pixels across",
			"reader, at the end: learning"}, []string{"knows where", "moved", "the lamp washes the dice out"}},
		{"wide-tables", "6", []string{"the lamp washes the dice out, their top faces show no numeral: move the lamp aside from the tray or dim it"}, []string{"moved", "bring the camera lower"}},
	} {
		t.Run(tc.set+" table "+tc.table, func(t *testing.T) {
			out, errs, code := runCmd(t, "dice", "--frames", frames(tc.set, tc.table))
			if code != 0 {
				t.Fatalf("exit %d\n%s%s", code, out, errs)
			}
			rolls := regexp.MustCompile(`(?m)^\d\d:\d\d:\d\d\.\d{3} blue=[1-8?] red=[1-8?]`).FindAllString(out, -1)
			if len(rolls) < 10 {
				t.Errorf("%d rolls printed, want one a throw:\n%s", len(rolls), out)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("no %q in:\n%s", w, out)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(out, w) {
					t.Errorf("%q in:\n%s", w, out)
				}
			}
		})
	}
}
