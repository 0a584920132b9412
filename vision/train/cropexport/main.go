// Command cropexport cuts the normalised numeral crops the dice classifier
// learns from (vision.NumeralCrop) out of a labelled folder of pictures:
// the wide crops of dicewide (labels.csv: file, face, colour, ...), the
// real photos (labels.csv: file, face, die), or 640x480 frames of a blue
// and a red die (labels.csv: file, blue, red; two crops per frame, none
// for a die labelled ?, nor, in throws, for dice touching: see
// touchingDice). It writes PREFIX.u8, the
// crops one after the other (CropSize x CropSize grey levels each, zeros
// when no die was found), and PREFIX.csv, one line per crop: the picture's
// labels with a found column first.
//
// With -unsure it cuts the numerals of the dice labelled ? too: the
// crops of cocked dice, which the classifier learns to be unsure of
// (dicenet.py --unsure-weight).
//
// With -pose it cuts the pose network's crops instead (vision.PoseCrop:
// PoseSize x PoseSize BGR pixels of the whole die, or -pose-size N for a
// network of another input size, posenet.py --size N), for every die
// found: a die labelled ? (cocked, leaning, showing no roll) is what that
// network learns to refuse.
//
// Usage:
//
//	cropexport -dir DIR -out PREFIX [-colour any] [-pose [-pose-size N] | -unsure]
package main

import (
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"comptoir/vision"

	"gocv.io/x/gocv"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "cropexport:", err)
		os.Exit(1)
	}
}

func run() error {
	dir := flag.String("dir", "", "folder of pictures with labels.csv")
	out := flag.String("out", "", "output prefix")
	limit := flag.Int("limit", 0, "read only the first N pictures (0: all)")
	colour := flag.String("colour", "", "die colour to look for: blue, red or any; default: the labels' colour column")
	pose := flag.Bool("pose", false, "cut the pose network's crops (vision.PoseCrop: the whole die in colour) instead of the numerals, for every die found, those labelled ? too")
	poseSize := flag.Int("pose-size", vision.PoseSize, "with -pose: the crops' side in pixels (posenet.py --size)")
	unsure := flag.Bool("unsure", false, "cut the numerals of the dice labelled ? too (cocked: the classifier learns to be unsure of them, dicenet.py --unsure-weight)")
	flag.Parse()
	if *dir == "" || *out == "" {
		flag.Usage()
		return fmt.Errorf("need -dir and -out")
	}
	if *poseSize < vision.MinPoseSize || *poseSize > vision.MaxPoseSize || *poseSize != vision.PoseSize && !*pose {
		return fmt.Errorf("-pose-size %d: give %d to %d pixels, with -pose (the numeral crops are %d pixels, fixed)", *poseSize, vision.MinPoseSize, vision.MaxPoseSize, vision.CropSize)
	}
	f, err := os.Open(filepath.Join(*dir, "labels.csv"))
	if err != nil {
		return err
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		return err
	}
	if len(rows) < 2 {
		return fmt.Errorf("%s: no labels", *dir)
	}
	head := rows[0]
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	u8, err := os.Create(*out + ".u8")
	if err != nil {
		return err
	}
	defer u8.Close()
	cf, err := os.Create(*out + ".csv")
	if err != nil {
		return err
	}
	w := csv.NewWriter(cf)
	blank := make([]byte, vision.CropSize*vision.CropSize)
	if *pose {
		blank = make([]byte, *poseSize**poseSize*3)
	}
	found := 0
	if *limit > 0 && len(rows) > *limit+1 {
		rows = rows[:*limit+1]
	}
	pairs := len(head) >= 3 && head[1] == "blue" && head[2] == "red"
	touching := map[string]bool{}
	if pairs {
		if touching, err = touchingDice(*dir); err != nil {
			return err
		}
	}
	if pairs {
		_ = w.Write([]string{"found", "file", "face", "colour"})
	} else {
		_ = w.Write(append([]string{"found"}, head...))
	}
	n := 0
	for _, row := range rows[1:] {
		m := gocv.IMRead(filepath.Join(*dir, row[0]), gocv.IMReadColor)
		if m.Empty() {
			m.Close()
			return fmt.Errorf("%s: cannot read %s", *dir, row[0])
		}
		type want struct{ colour, face string }
		var wants []want
		if pairs {
			wants = []want{{"blue", row[1]}, {"red", row[2]}}
		} else {
			c := *colour
			if c == "" {
				if i, ok := col["colour"]; ok {
					c = row[i]
				} else {
					c = "any"
				}
			}
			wants = []want{{c, ""}}
		}
		for _, wt := range wants {
			px := 1.0
			if pairs {
				px = float64(m.Cols()) / 640
			}
			var crop []byte
			var ok bool
			if *pose {
				crop, ok = vision.PoseCropSized(m, wt.colour, px, vision.DefaultNetOpts, *poseSize)
			} else {
				crop, ok = vision.NumeralCrop(m, wt.colour, px, vision.DefaultNetOpts)
			}
			if !*pose && !numeralKept(wt.face, *unsure, touching[row[0]+" "+wt.colour]) {
				ok = false
			}
			if !ok {
				crop = blank
			} else {
				found++
			}
			if _, err := u8.Write(crop); err != nil {
				m.Close()
				return err
			}
			if pairs {
				_ = w.Write([]string{fmt.Sprint(ok), row[0], wt.face, wt.colour})
			} else {
				_ = w.Write(append([]string{fmt.Sprint(ok)}, row...))
			}
			n++
		}
		m.Close()
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	fmt.Printf("%s: %d pictures, %d dice, %d crops (%s)\n", *dir, len(rows)-1, n, found, strings.TrimSuffix(*out, "/"))
	return cf.Close()
}

// numeralKept says whether the numeral crop of a die labelled face is
// learned from: not when the die touches the other (the crop may show the
// other's numeral), nor when it is labelled ? (a die the reader must
// refuse), unless unsure (-unsure: the classifier learns to be unsure of
// it).
func numeralKept(face string, unsure, touching bool) bool {
	return !touching && (face != "?" || unsure)
}

// touchingDice reads dir's details.csv, if any (dicerender's: file, die,
// ..., hard, ...), and returns, for throws (details with a must_reject
// column), the dice of pictures whose hard cases name touching, as "file
// die": dice at their contact distance. (In pictures of -kind pairs,
// touching is dice 1 to 6 mm apart, whose numerals are learned.)
func touchingDice(dir string) (map[string]bool, error) {
	f, err := os.Open(filepath.Join(dir, "details.csv"))
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]bool{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s/details.csv: %w", dir, err)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s/details.csv: empty, want a header (file, die, and the rest as dicerender writes it)", dir)
	}
	if len(rows[0]) < 2 || rows[0][0] != "file" || rows[0][1] != "die" {
		return nil, fmt.Errorf("%s/details.csv: header %q, want file, die first (as dicerender writes it)", dir, rows[0])
	}
	hard := slices.Index(rows[0], "hard")
	if hard < 0 {
		return nil, fmt.Errorf("%s/details.csv: no hard column", dir)
	}
	out := map[string]bool{}
	if !slices.Contains(rows[0], "must_reject") {
		return out, nil
	}
	for _, r := range rows[1:] {
		if slices.Contains(strings.Fields(r[hard]), "touching") {
			out[r[0]+" "+r[1]] = true
		}
	}
	return out, nil
}
