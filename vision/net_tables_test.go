package vision

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadTablesBadLabels: a tables folder whose labels.csv lacks a
// column or names an unknown use is refused, saying which.
func TestReadTablesBadLabels(t *testing.T) {
	for _, tc := range []struct {
		name, labels, want string
	}{
		{"no use column", "file,blue,red,table\n00000.jpg,1,-,0\n", "needs file, blue, red, table and use columns"},
		{"unknown use", "file,blue,red,table,use\n00000.jpg,1,-,0,calibrate\n00001.jpg,2,3,0,play\n", `line 3: use "play", want calibrate or eval`},
		{"no pictures", "file,blue,red,table,use\n", "labels.csv has no pictures"},
		{"missing picture", "file,blue,red,table,use\n00000.jpg,1,-,0,calibrate\n", "cannot read picture 00000.jpg"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "labels.csv"), []byte(tc.labels), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadTables(DefaultNetOpts, learnedFor, dir, TablesOpts{Learn: true})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// learnedFor makes learned readers for ReadTables.
func learnedFor(o NetOpts) (TableReader, error) {
	r, err := NewNetReader(o)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// combinedFor makes combined readers (the daemon's) for ReadTables.
func combinedFor(o NetOpts) (TableReader, error) {
	c, err := NewCombined(o.Calibration)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// tablesFloors are what TestCombinedTables holds a folder of tables to.
type tablesFloors struct {
	dir                  string
	right, wrong         float64 // uncalibrated, every throw
	calRight, calWrong   float64 // calibrated face by face
	thrRight, thrWrong   float64 // calibrated from the first throws, the throws after them
	bandRight, bandWrong float64 // uncalibrated, each camera height (size band)
	// worse is how many dice, over all tables, the calibration loses or
	// reads wrong that the uncalibrated reader did not: the issue asks
	// for none.
	worse int
}

// The floors measured on 2026-11-27 (vision/train/README.md, fourteenth,
// fifteenth and seventeenth stops): right and wrong shares, uncalibrated (every
// throw), calibrated face by face, calibrated from the first 8 throws (the
// throws after them), and the lowest right and highest wrong share of a
// size band. The calibrated floors are over the uncalibrated figures:
// where the calibration saw the hand-tuned reader's "tilted" test refuse
// flat dice (NetCalibration.TiltMisleads), the pose network overrules it
// (CalibratedFlatOverTilt), and without that the calibration reads no
// more than the uncalibrated reader.
var (
	// measured (the readers learning where the camera shows a flat
	// die's numeral as they read each table's throws, as the daemon
	// does; a die whose numeral lies where a flat die's does, 99% flat,
	// read over the hand-tuned "tilted" test) 65.00% and 0.31% (64.06%
	// and 0.94% each throw read alone, before); calibrated face by face
	// 66.25% and 0.31% (64.38% and 0.94% before the calibration learned
	// where the camera shows a flat die's numeral, WhyNotFlatHere;
	// 64.06% before the tilted test was overruled); 69.79% and 0.52% the
	// throws after 8 (68.23% and 1.56%), 71.35% and 0.52% calibrated
	// from them (69.79% and 1.56%, then 68.23%); bands 46.25% (65-100
	// px) to 85%, at most 2.5% wrong (25-40 px). Since Combined looks
	// closer at a flat die the classifier is unsure of (CloserLook,
	// twenty-fourth stop, chosen here and on the other tuning sets):
	// 65.62%, 66.88% face by face, wrong and from throws unchanged; bands
	// from 47.5%. Since the pose network trained on three times as
	// many cocked frames, with Combined's and the flat field's changes
	// of the thirtieth stop: 65.94%, 67.50%, 71.88% from throws, none
	// wrong anywhere (00172.jpg red, cocked, read as an 8, is refused); bands
	// from 48.75%.
	tablesVal = tablesFloors{"testdata/val-tables", 0.655, 0.0015, 0.67, 0.0015, 0.715, 0.0015, 0.48, 0.0065, 0}
	// measured 44.69% and 1.88%; calibrated face by face 45.62% and
	// 1.88% since a die whose numeral lies where a flat die's does is
	// read over the hand-tuned "tilted" test (44.69% before; before
	// protoMinFlat, 44.38% and 2.19%: at table 1 the prototypes read a
	// die cocked against a wall, 00062.jpg blue, the pose network 65%
	// sure it lies flat, as the 2 its side face shows); 47.40% and 2.08%
	// the throws after 8, 47.92% calibrated from them (47.40% before the
	// tilted test was overruled); bands 35% (25-40 px) to 56.25% (65-100
	// px, 6.25% wrong: NotoSerif-Bold dice whose top face a harsh lamp
	// washes out, read as 1 by both readers). Since the locator leaves
	// out a blob whose filled rows make it wider than a die (the rim of
	// table 5's red tray was taken for the red die): 46.25%, 47.19%
	// calibrated face by face, 48.44% and 48.96% the throws after 8,
	// wrong unchanged. Since a die whose top face is washed out and shows
	// no numeral is refused (WhyBlankFace, twenty-first stop: table 6's
	// 1s, which motivated it; wide-tables is no longer unseen for it),
	// wrong 0.94%, 0.94% and 1.56%, bands at most 2.5% wrong (65-100 px),
	// right unchanged. Since a refusal of the learned reader away from
	// the die the hand-tuned reader read no longer stands over its
	// reading (sameDie, twenty-second stop): 46.56%, 48.44%, 49.48%.
	// Since the pose network looks again at a die it is unsure of
	// (PoseSecondLook, twenty-third stop): wrong 0.62%, 0.62% and 1.04%
	// (table 6's 3 read as a 5, 00136.jpg red, refused as cocked), from
	// throws 50.00%. Since Combined looks closer at a flat die the
	// classifier is unsure of (CloserLook, chosen on the tuning sets,
	// then read here once): 46.88%, 48.75%, 50.52%, wrong unchanged.
	// Since the thirtieth stop (the classifier's doubt of something away
	// from the die no longer vetoes it; the pose network of more cocked
	// frames): 48.75%, 50.62%, 52.60%, wrong unchanged; bands from
	// 36.25%.
	tablesHeldOut = tablesFloors{"testdata/wide-tables", 0.485, 0.0065, 0.505, 0.0065, 0.525, 0.011, 0.36, 0.026, 0}
	// tables under a harsh lamp (dicewide -light harsh): the tuning
	// ones (validation fonts, train surfaces), measured 60.94% and
	// 1.25%, 63.75% and 1.56% calibrated face by face, 63.02% and 2.08%
	// calibrated from 8 throws; bands 42.50% (65-100 px) to 86.25%, at
	// most 3.75% wrong (100-160 px, cocked dice read). At table 0
	// (FreeMono, 35 px) the calibration face by face reads a 6 as a 5
	// (00016.jpg red, 97%) that the uncalibrated reader refused: worse 1.
	// Since the pose network looks again at a die it is unsure of
	// (PoseSecondLook, chosen here and on the other tuning sets):
	// 61.25% and 0.94%, 64.06% and 1.25%, 64.06% and 1.04% (two cocked
	// dice refused, 00279.jpg blue and 00053.jpg red), at most 2.5% wrong
	// in a band. Since Combined looks closer at a flat die the
	// classifier is unsure of (CloserLook): 62.50%, 65.31%, 65.10%,
	// wrong unchanged; bands from 45%. With the pose network of more
	// cocked frames (thirtieth stop): 63.12%, 66.25%, 66.67%, wrong
	// unchanged; bands from 43.75% (65-100 px: one die fewer).
	tablesHarshVal = tablesFloors{"testdata/val-harsh", 0.63, 0.010, 0.66, 0.013, 0.665, 0.011, 0.435, 0.026, 1}
	// and the held-out ones (test fonts and surfaces, read once after
	// the choices): 63.44% and 0.94%, 65.00% and 0.94%, 67.19% and
	// 1.04%; bands 51.25% (40-65 px) to 75%, at most 1.25% wrong. Since
	// sameDie guards every refusal of the learned reader (twenty-second
	// stop): 64.69%, 65.94%, 68.75%, wrong unchanged. Since the pose
	// network looks again at a die it is unsure of (PoseSecondLook,
	// chosen on the tuning sets, then read here once): 63.44%, 64.69%,
	// 67.19%, wrong unchanged: four flat dice refused as cocked. With
	// the pose network of more cocked frames, chosen on the tuning sets
	// (thirtieth stop), then read here once: 64.06%, 65.94%, 69.27%;
	// wrong 0.94%, 0.94%, and 1.56% from throws (one more: 00070.jpg
	// red, cocked, read as a 1 by both readers; 00024.jpg blue, read
	// before, is refused); bands from 52.50%, at most 2.5% wrong (40-65
	// px).
	tablesHarshHeldOut = tablesFloors{"testdata/wide-harsh", 0.64, 0.010, 0.655, 0.010, 0.69, 0.016, 0.52, 0.026, 0}
)

// TestCombinedTables calibrates the daemon's reader at each table of the
// tuning tables (testdata/val-tables) and of the held-out ones
// (testdata/wide-tables: fonts and surfaces training never saw), face by
// face and from the first throws, as comptoir calibrate does, and reads
// each table's throws with and without the calibration. At no table does
// the calibration lose a die the uncalibrated reader read right, nor read
// one wrong that it did not; the floors are what the reader reaches (far
// under the 97% and 0.5%: see doc.go, Accuracy), so that it gets
// no worse unnoticed.
func TestCombinedTables(t *testing.T) {
	checkLeaks(t)
	for _, tc := range []tablesFloors{tablesVal, tablesHeldOut, tablesHarshVal, tablesHarshHeldOut} {
		t.Run(tc.dir, func(t *testing.T) {
			tr, err := ReadTables(DefaultNetOpts, combinedFor, tc.dir, TablesOpts{Learn: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(tr.Tables) != 8 {
				t.Errorf("%d tables, want 8", len(tr.Tables))
			}
			worse := 0
			for _, s := range tr.Tables {
				t.Logf("table %s (%s, %s): uncalibrated %v; calibrated %v; after %d throws %v, calibrated from them %v", s.Table, s.Font, s.Size, s.Plain.All, s.Calibrated.All, TableThrows, s.ThrowsPlain.All, s.ThrowsCalibrated.All)
				if n := s.Lost + s.NewWrong + s.ThrowsLost + s.ThrowsNewWrong; n > 0 {
					worse += n
					t.Logf("table %s: the calibration loses %d dice and reads %d wrong (from throws: %d and %d)", s.Table, s.Lost, s.NewWrong, s.ThrowsLost, s.ThrowsNewWrong)
				}
				// a face the lamp washes out is not learned, and the
				// calibration says to move the lamp (WhyBlankFace): the
				// refusals that say what to change at such a table are
				// not counted
				blank := 0
				for _, sk := range s.Skipped {
					if strings.Contains(sk, Why{Code: WhyBlankFace}.EN()) {
						blank++
					}
				}
				if n := len(s.Skipped) - blank; n > 16 {
					t.Errorf("table %s: %d calibration frames or thrown dice not learned", s.Table, n)
				}
				washed := tc.dir == tablesHeldOut.dir && s.Table == "6"
				if washed && blank < 8 {
					t.Errorf("table 6 (a harsh lamp washes its dice's top faces out): %d dice refused as blank in the calibration, want at least 8 (it says to move the lamp)", blank)
				}
				t.Logf("table %s: %d of the last %d dice at rest blank", s.Table, s.View.Blank, s.View.BlankOf)
				if s.View.Glare != washed {
					t.Errorf("table %s: %d of the last %d dice at rest blank, glare %v; want the lamp said to wash the faces out at wide-tables table 6 only", s.Table, s.View.Blank, s.View.BlankOf, s.View.Glare)
				}
				// a table's camera is fixed: taken as moved, the reader
				// would forget what it learned of it
				if s.View.Moved != 0 {
					t.Errorf("table %s: the reader took its fixed camera as moved %d times", s.Table, s.View.Moved)
				}
				// the staff page and the calibration ask for the
				// camera lower at the tables whose dice are 25 to 40
				// pixels across, and only there (at the tuning tables;
				// the held-out ones have a table at 39.8 and one at
				// 41.4, which go either way: never at 65 pixels or
				// more, and the far tables' dice measured under 45)
				far := strings.HasPrefix(s.Size, "25-40")
				small := s.View.Small || s.CalibAcross < SmallDieAcross
				switch {
				case tc.dir == tablesVal.dir && (s.View.Small != far || (s.CalibAcross < SmallDieAcross) != far):
					t.Errorf("table %s (%s): dice %d pixels across at rest (small %v), %d in the calibration; want small exactly when the camera is far", s.Table, s.Size, s.View.Across, s.View.Small, s.CalibAcross)
				case small && (strings.HasPrefix(s.Size, "65") || strings.HasPrefix(s.Size, "100")):
					t.Errorf("table %s (%s): dice %d pixels across at rest, %d in the calibration: said small", s.Table, s.Size, s.View.Across, s.CalibAcross)
				case far && (s.View.Across > 45 || s.CalibAcross > 45):
					t.Errorf("table %s (%s): dice %d pixels across at rest, %d in the calibration; want under 45", s.Table, s.Size, s.View.Across, s.CalibAcross)
				}
			}
			if worse > tc.worse {
				t.Errorf("the calibration loses or reads wrong %d dice the uncalibrated reader did not, want at most %d", worse, tc.worse)
			}
			checkScore(t, "uncalibrated", &tr.Plain.All, tc.right, tc.wrong)
			checkScore(t, "calibrated face by face", &tr.Calibrated.All, tc.calRight, tc.calWrong)
			checkScore(t, "calibrated from throws", &tr.ThrowsCalibrated.All, tc.thrRight, tc.thrWrong)
			if n := len(tr.Plain.Groups["size"]); n != 4 {
				t.Errorf("%d size bands, want 4", n)
			}
			for band, s := range tr.Plain.Groups["size"] {
				checkScore(t, band, s, tc.bandRight, tc.bandWrong)
			}
		})
	}
}
