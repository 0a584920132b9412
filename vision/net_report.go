package vision

import (
	"encoding/csv"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gocv.io/x/gocv"
)

// Frame is a picture as the readers take it, an OpenCV matrix of BGR
// pixels (callers outside vision/ name it without importing gocv).
type Frame = gocv.Mat

// NewFrame returns an empty Frame for a Source to read into. Close it.
func NewFrame() Frame { return gocv.NewMat() }

// DiceReader reads the dice of a frame: a Reader (the hand-tuned one) or
// a NetReader (the learned one).
type DiceReader interface {
	Read(frame gocv.Mat) Roll
	ReadSingle(frame gocv.Mat) Die
}

// SetKind says what a labelled folder holds, from its labels.csv header.
type SetKind string

// The labelled folders a report reads.
const (
	SetCrops  SetKind = "crops"  // one die per crop (dicewide -kind crops): file,face,colour,...
	SetFrames SetKind = "frames" // 640x480 frames of a blue and a red die: file,blue,red,...
	SetSingle SetKind = "single" // photos of one die of any colour: file,face,die
)

// Report tallies a reader's answers on labelled sets: overall, per value
// of each labelled property (font, ink, surface, size band...), and a
// confusion matrix (rows: the label, 1 to 8; columns: the reading, 0 for
// refused, then 1 to 8).
type Report struct {
	All       Score
	Groups    map[string]map[string]*Score
	Confusion [9][9]int
	// Stages splits the labelled dice by where they were lost (see
	// Stages).
	Stages Stages
	// Misreads lists the dice counted wrong in All (read as another face
	// than the one on top, or read when they had to be refused), in the
	// order read: the pictures to look at.
	Misreads []Misread
	// Refused counts the dice labelled 1 to 8 that were refused, by the
	// reason given (Why.Code; Combined gives the hand-tuned reader's
	// where both readers refuse): what cost the right reads.
	Refused [numWhyCodes]int
}

// Misread is a die a report counted wrong.
type Misread struct {
	File, Die  string // the picture, and the die's colour or name
	Want, Got  int    // Want 0: a die to refuse
	Confidence float64
}

// StageThresholds are the confidences at which Stages tallies the
// classifier's top answer (its reliability curve).
var StageThresholds = [...]float64{0.5, 0.8, 0.9, 0.97}

// Stages splits the dice of a report (those labelled 1 to 8) by the
// stage of the reading where each was lost: not found by the locator;
// found but no crop made (at the picture's edge, too small); the
// classifier's top answer wrong; its top answer right but under the
// reader's confidence; read right. Right and Wrong per StageThresholds
// count the top answers at least that sure that are right and wrong:
// what the reader would read at that threshold.
type Stages struct {
	Dice, NotFound, NoCrop, TopWrong, TopRightUnsure, ReadRight int
	Right, Wrong                                                [len(StageThresholds)]int
}

func (s *Stages) add(want int, d Die) {
	if want < 1 || want > 8 {
		return
	}
	s.Dice++
	top := d.Face
	if top == 0 {
		top = d.Guess
	}
	switch {
	case !d.Found:
		s.NotFound++
		return
	case top == 0:
		s.NoCrop++
		return
	case top != want:
		s.TopWrong++
	case d.Face == 0:
		s.TopRightUnsure++
	default:
		s.ReadRight++
	}
	for i, t := range StageThresholds {
		if d.Confidence >= t {
			if top == want {
				s.Right[i]++
			} else {
				s.Wrong[i]++
			}
		}
	}
}

func (s *Stages) merge(o *Stages) {
	s.Dice += o.Dice
	s.NotFound += o.NotFound
	s.NoCrop += o.NoCrop
	s.TopWrong += o.TopWrong
	s.TopRightUnsure += o.TopRightUnsure
	s.ReadRight += o.ReadRight
	for i := range s.Right {
		s.Right[i] += o.Right[i]
		s.Wrong[i] += o.Wrong[i]
	}
}

// Write prints the stages and the reliability curve.
func (s *Stages) Write(w io.Writer) {
	pc := func(n int) float64 { return 100 * float64(n) / float64(max(s.Dice, 1)) }
	fmt.Fprintf(w, "stages (%d dice labelled 1-8):\n", s.Dice)
	fmt.Fprintf(w, "  %-44s %5d %7.2f%%\n", "not found by the locator", s.NotFound, pc(s.NotFound))
	fmt.Fprintf(w, "  %-44s %5d %7.2f%%\n", "found, no crop (edge, too small)", s.NoCrop, pc(s.NoCrop))
	fmt.Fprintf(w, "  %-44s %5d %7.2f%%\n", "classifier's top answer wrong", s.TopWrong, pc(s.TopWrong))
	fmt.Fprintf(w, "  %-44s %5d %7.2f%%\n", "top answer right, under the confidence", s.TopRightUnsure, pc(s.TopRightUnsure))
	fmt.Fprintf(w, "  %-44s %5d %7.2f%%\n", "read right", s.ReadRight, pc(s.ReadRight))
	top := s.TopWrong + s.TopRightUnsure + s.ReadRight
	fmt.Fprintf(w, "  top-1 accuracy of the crops made: %.2f%% of %d\n", 100*float64(top-s.TopWrong)/float64(max(top, 1)), top)
	fmt.Fprintf(w, "  reliability (top answer at least this sure, of all dice): threshold  right  wrong\n")
	for i, t := range StageThresholds {
		fmt.Fprintf(w, "    %4.2f  %7.2f%% %7.2f%%\n", t, pc(s.Right[i]), pc(s.Wrong[i]))
	}
}

// SizeBand names the band of a die's width in pixels (at 640 wide).
func SizeBand(px float64) string {
	switch {
	case px < 40:
		return "25-40 px (camera ~55-70 cm)"
	case px < 65:
		return "40-65 px (camera ~35-55 cm)"
	case px < 100:
		return "65-100 px (camera ~25-35 cm)"
	default:
		return "100-160 px (camera ~20-25 cm)"
	}
}

// reportColumns are the labelled properties a report groups by.
var reportColumns = []string{"font", "surface", "ink", "body", "numeral", "edges", "light", "die", "size"}

func (rp *Report) add(row map[string]string, die string, want int, d Die) {
	got := d.Face
	rp.Stages.add(want, d)
	wrong := rp.All.Wrong
	rp.All.Add(want, got)
	if rp.All.Wrong > wrong {
		rp.Misreads = append(rp.Misreads, Misread{File: row["file"], Die: die, Want: want, Got: got, Confidence: d.Confidence})
	}
	if want >= 1 && want <= 8 && got >= 0 && got <= 8 {
		rp.Confusion[want][got]++
	}
	if want >= 1 && want <= 8 && got == 0 && d.Why.Code >= WhyNone && d.Why.Code < numWhyCodes {
		rp.Refused[d.Why.Code]++
	}
	if rp.Groups == nil {
		rp.Groups = map[string]map[string]*Score{}
	}
	for _, c := range reportColumns {
		v, ok := row[c]
		if c == "size" {
			px, err := strconv.ParseFloat(row["size_px"], 64)
			if err != nil {
				continue
			}
			v, ok = SizeBand(px), true
		}
		if !ok || v == "" {
			continue
		}
		if rp.Groups[c] == nil {
			rp.Groups[c] = map[string]*Score{}
		}
		if rp.Groups[c][v] == nil {
			rp.Groups[c][v] = &Score{}
		}
		rp.Groups[c][v].Add(want, got)
	}
}

// ReadSet reads every picture of a labelled folder (its labels.csv names
// the pictures and what they show; see SetKind) and tallies the readings
// in rp. keep, when not nil, chooses the rows to read.
func ReadSet(r interface {
	DiceReader
	ReadCrop(pic gocv.Mat, colour string) Die
}, dir string, keep func(row map[string]string) bool, rp *Report) (SetKind, error) {
	head, rows, err := readLabels(dir)
	if err != nil {
		return "", err
	}
	var kind SetKind
	switch {
	case len(head) >= 3 && head[1] == "face" && head[2] == "colour":
		kind = SetCrops
	case len(head) >= 3 && head[1] == "blue" && head[2] == "red":
		kind = SetFrames
	case len(head) >= 3 && head[1] == "face" && head[2] == "die":
		kind = SetSingle
	default:
		return "", fmt.Errorf("%s: labels.csv header %q is not one of file,face,colour,... file,blue,red,... file,face,die", dir, strings.Join(head, ","))
	}
	for _, row := range rows {
		if keep != nil && !keep(row) {
			continue
		}
		file := row[head[0]]
		m, err := readPicture(filepath.Join(dir, file))
		if err != nil {
			return kind, fmt.Errorf("%s: cannot read picture %s: %w", dir, file, err)
		}
		label := func(k string) int {
			n, _ := strconv.Atoi(row[k]) // "?" is 0: must be refused
			return n
		}
		switch kind {
		case SetCrops:
			rp.add(row, row["colour"], label("face"), r.ReadCrop(m, row["colour"]))
		case SetFrames:
			roll := r.Read(m)
			rp.add(row, "blue", label("blue"), roll.Blue)
			rp.add(row, "red", label("red"), roll.Red)
		case SetSingle:
			rp.add(row, row["die"], label("face"), r.ReadSingle(m))
		}
		m.Close()
	}
	return kind, nil
}

// Write prints the report: overall, a table per property, the confusion
// matrix.
func (rp *Report) Write(w io.Writer) {
	line := func(name string, s *Score) {
		fmt.Fprintf(w, "  %-34s %5d  %7.2f%% %7.2f%% %7.2f%%\n", name, s.Total(), 100*s.Accuracy(), 100*s.RejectRate(), 100*s.WrongRate())
	}
	fmt.Fprintf(w, "  %-34s %5s  %8s %8s %8s\n", "", "dice", "right", "refused", "wrong")
	all := rp.All
	line("all", &all)
	for _, c := range reportColumns {
		g := rp.Groups[c]
		if len(g) == 0 {
			continue
		}
		fmt.Fprintf(w, "by %s:\n", c)
		var keys []string
		for k := range g {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			line(k, g[k])
		}
	}
	fmt.Fprintf(w, "confusion (rows: the face on top; columns: read as, ? refused):\n      ?    1    2    3    4    5    6    7    8\n")
	for want := 1; want <= 8; want++ {
		fmt.Fprintf(w, "  %d", want)
		for got := 0; got <= 8; got++ {
			fmt.Fprintf(w, " %4d", rp.Confusion[want][got])
		}
		fmt.Fprintln(w)
	}
	rp.writeRefused(w)
	if len(rp.Misreads) > 0 {
		fmt.Fprintf(w, "read wrong (picture, die: the face on top, ? for a die to refuse, read as another, confidence):\n")
		for _, m := range rp.Misreads {
			want := strconv.Itoa(m.Want)
			if m.Want == 0 {
				want = "?"
			}
			fmt.Fprintf(w, "  %s %s: %s read as %d (%.1f%%)\n", m.File, m.Die, want, m.Got, 100*m.Confidence)
		}
	}
}

// writeRefused prints the reasons the dice labelled 1 to 8 were refused
// for, the commonest first, each with its share of those dice.
func (rp *Report) writeRefused(w io.Writer) {
	labelled := 0
	for want := 1; want <= 8; want++ {
		for got := 0; got <= 8; got++ {
			labelled += rp.Confusion[want][got]
		}
	}
	var codes []WhyCode
	for c, n := range rp.Refused {
		if n > 0 {
			codes = append(codes, WhyCode(c))
		}
	}
	if len(codes) == 0 {
		return
	}
	sort.SliceStable(codes, func(i, j int) bool { return rp.Refused[codes[i]] > rp.Refused[codes[j]] })
	fmt.Fprintf(w, "refused, by reason (of the %d dice labelled 1-8):\n", labelled)
	for _, c := range codes {
		fmt.Fprintf(w, "  %-34s %5d  %7.2f%%\n", c.Name(), rp.Refused[c], 100*float64(rp.Refused[c])/float64(max(labelled, 1)))
	}
}

// SetsReport is the outcome of calibrating on each dice set of a folder of
// sets (dicewide -kind sets) and reading its other crops, with and
// without the calibration.
type SetsReport struct {
	Plain, Calibrated Report
	// Sets holds, per set, its font and both scores.
	Sets []SetScore
	// Throws holds, per number of free throws (FreeThrows), the outcome
	// of calibrating each set from that many throws instead.
	Throws []ThrowsScore
}

// FreeThrows are the numbers of free throws ReadSets also calibrates
// each set from, ThrowDraws times each with other throws drawn at random.
var FreeThrows = []int{4, 8, 16}

// ThrowDraws is how many draws of throws ReadSets makes per set and
// number of throws.
const ThrowDraws = 5

// ThrowsScore is the outcome of calibrating each set of a folder from K
// free throws and reading the set's other crops, with and without the
// calibration. A sets folder holds crops of one die, not frames: a throw
// is a blue and a red crop of the set drawn at random (their faces as
// random as a throw's), each learned as AddThrow learns the die of a
// frame, and the dice read are the set's crops not drawn.
type ThrowsScore struct {
	Throws            int
	Plain, Calibrated Report
	// Lost counts the dice the uncalibrated reader read right and the
	// calibrated one did not; NewWrong the dice the calibrated reader
	// read wrong and the uncalibrated one did not. Both must be 0.
	Lost, NewWrong int
	// Draws is the number of calibrations made (sets times draws), Faces
	// the faces with prototypes summed over them, NotLearned the dice
	// of the throws that could not be learned.
	Draws, Faces, NotLearned int
}

// SetScore is one set's outcome.
type SetScore struct {
	Set, Font         string
	Plain, Calibrated Report
	// Skipped lists the calibration crops that could not be learned.
	Skipped []string
}

// readLabels reads dir's labels.csv: its header, and its rows keyed by
// column.
func readLabels(dir string) ([]string, []map[string]string, error) {
	f, err := os.Open(filepath.Join(dir, "labels.csv"))
	if err != nil {
		return nil, nil, err
	}
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", dir, err)
	}
	if len(recs) < 2 {
		return nil, nil, fmt.Errorf("%s: labels.csv has no pictures", dir)
	}
	var rows []map[string]string
	for _, rec := range recs[1:] {
		row := map[string]string{}
		for i, h := range recs[0] {
			if i < len(rec) {
				row[h] = rec[i]
			}
		}
		rows = append(rows, row)
	}
	return recs[0], rows, nil
}

// hasColumns says whether dir's labels.csv has every one of cols in its
// header (only the header is read).
func hasColumns(dir string, cols ...string) bool {
	f, err := os.Open(filepath.Join(dir, "labels.csv"))
	if err != nil {
		return false
	}
	defer f.Close()
	head, err := csv.NewReader(f).Read()
	return err == nil && headHas(head, cols...)
}

// headHas says whether head names every one of cols.
func headHas(head []string, cols ...string) bool {
	for _, c := range cols {
		if !slices.Contains(head, c) {
			return false
		}
	}
	return true
}

// IsSetsFolder says whether dir's labels.csv is of dice sets (dicewide
// -kind sets: set and use columns), for ReadSets.
func IsSetsFolder(dir string) bool { return hasColumns(dir, "set", "use") }

// ReadSets calibrates a NetReader with options o on each set's
// calibration crops (rows with use=calibrate) and reads the set's other
// crops (use=eval) with and without the calibration.
func ReadSets(o NetOpts, dir string) (*SetsReport, error) {
	_, rows, err := readLabels(dir)
	if err != nil {
		return nil, err
	}
	var sets []string
	seen := map[string]bool{}
	for _, row := range rows {
		if row["set"] == "" || (row["use"] != "calibrate" && row["use"] != "eval") {
			return nil, fmt.Errorf("%s: labels.csv needs set and use (calibrate or eval) columns", dir)
		}
		if !seen[row["set"]] {
			seen[row["set"]] = true
			sets = append(sets, row["set"])
		}
	}
	o.Calibration = nil
	plain, err := NewNetReader(o)
	if err != nil {
		return nil, err
	}
	defer plain.Close()
	out := &SetsReport{}
	for _, set := range sets {
		k, err := NewNetCalibrator(o)
		if err != nil {
			return nil, err
		}
		ss := SetScore{Set: set}
		for _, row := range rows {
			if row["set"] != set || row["use"] != "calibrate" {
				continue
			}
			ss.Font = row["font"]
			m, err := readPicture(filepath.Join(dir, row["file"]))
			if err != nil {
				ss.Skipped = append(ss.Skipped, row["file"]+": "+err.Error())
				continue
			}
			face, _ := strconv.Atoi(row["face"])
			if err := k.AddCrop(m, row["colour"], face); err != nil {
				ss.Skipped = append(ss.Skipped, row["file"]+": "+err.Error())
			}
			m.Close()
		}
		c := k.c.withField() // a face that could not be learned has no prototype
		k.Close()
		co := o
		co.Calibration = c
		cal, err := NewNetReader(co)
		if err != nil {
			return nil, err
		}
		keep := func(row map[string]string) bool { return row["set"] == set && row["use"] == "eval" }
		if _, err := ReadSet(plain, dir, keep, &ss.Plain); err != nil {
			cal.Close()
			return nil, err
		}
		if _, err := ReadSet(cal, dir, keep, &ss.Calibrated); err != nil {
			cal.Close()
			return nil, err
		}
		cal.Close()
		out.Plain.merge(&ss.Plain)
		out.Calibrated.merge(&ss.Calibrated)
		out.Sets = append(out.Sets, ss)
	}
	for _, n := range FreeThrows {
		ts, err := readThrows(o, plain, dir, rows, sets, n, ThrowDraws)
		if err != nil {
			return nil, err
		}
		out.Throws = append(out.Throws, *ts)
	}
	return out, nil
}

// readThrows calibrates each set from n free throws, draws times with
// throws drawn at random (from a seed of the set, n and the draw: the
// same every run), and reads the set's crops not drawn with plain and
// with the partial calibration.
func readThrows(o NetOpts, plain *NetReader, dir string, rows []map[string]string, sets []string, n, draws int) (*ThrowsScore, error) {
	k, err := NewNetCalibrator(o)
	if err != nil {
		return nil, err
	}
	defer k.Close()
	cal, err := NewNetReader(o)
	if err != nil {
		return nil, err
	}
	defer cal.Close()
	ts := &ThrowsScore{Throws: n}
	for si, set := range sets {
		var blue, red []map[string]string
		for _, row := range rows {
			if row["set"] != set {
				continue
			}
			switch row["colour"] {
			case "blue":
				blue = append(blue, row)
			case "red":
				red = append(red, row)
			}
		}
		if len(blue) <= n || len(red) <= n {
			continue // not enough crops left to read
		}
		for d := range draws {
			rng := rand.New(rand.NewPCG(uint64(si), uint64(n)<<16|uint64(d)))
			rng.Shuffle(len(blue), func(i, j int) { blue[i], blue[j] = blue[j], blue[i] })
			rng.Shuffle(len(red), func(i, j int) { red[i], red[j] = red[j], red[i] })
			k.reset()
			for i := range n {
				for _, row := range []map[string]string{blue[i], red[i]} {
					m, err := readPicture(filepath.Join(dir, row["file"]))
					if err != nil {
						ts.NotLearned++
						continue
					}
					face, _ := strconv.Atoi(row["face"])
					if err := k.AddCrop(m, row["colour"], face); err != nil {
						ts.NotLearned++
					}
					m.Close()
				}
			}
			ts.Draws++
			cal.opts.Calibration = nil
			if c, err := k.PartialCalibration(1); err == nil {
				cal.opts.Calibration = c
				ts.Faces += len(c.Faces())
			}
			for _, row := range append(append([]map[string]string(nil), blue[n:]...), red[n:]...) {
				m, err := readPicture(filepath.Join(dir, row["file"]))
				if err != nil {
					return nil, fmt.Errorf("%s: cannot read picture %s: %w", dir, row["file"], err)
				}
				want, _ := strconv.Atoi(row["face"])
				dp, dc := plain.ReadCrop(m, row["colour"]), cal.ReadCrop(m, row["colour"])
				m.Close()
				ts.Plain.add(row, row["colour"], want, dp)
				ts.Calibrated.add(row, row["colour"], want, dc)
				if dp.Face == want && dc.Face != want {
					ts.Lost++
				}
				if dc.Face != 0 && dc.Face != want && dc.Face != dp.Face {
					ts.NewWrong++
				}
			}
		}
	}
	return ts, nil
}

func (rp *Report) merge(o *Report) {
	rp.All.merge(&o.All)
	rp.Stages.merge(&o.Stages)
	rp.Misreads = append(rp.Misreads, o.Misreads...)
	for c := range rp.Refused {
		rp.Refused[c] += o.Refused[c]
	}
	for i := range rp.Confusion {
		for j := range rp.Confusion[i] {
			rp.Confusion[i][j] += o.Confusion[i][j]
		}
	}
	if rp.Groups == nil {
		rp.Groups = map[string]map[string]*Score{}
	}
	for c, g := range o.Groups {
		if rp.Groups[c] == nil {
			rp.Groups[c] = map[string]*Score{}
		}
		for k, s := range g {
			if rp.Groups[c][k] == nil {
				rp.Groups[c][k] = &Score{}
			}
			rp.Groups[c][k].merge(s)
		}
	}
}

// Write prints each set's scores, then both reports.
func (sr *SetsReport) Write(w io.Writer) {
	for _, s := range sr.Sets {
		fmt.Fprintf(w, "set %s (%s): uncalibrated %v\n    calibrated %v\n", s.Set, s.Font, s.Plain.All, s.Calibrated.All)
		for _, sk := range s.Skipped {
			fmt.Fprintf(w, "    not learned: %s\n", sk)
		}
	}
	fmt.Fprintln(w, "uncalibrated:")
	sr.Plain.Write(w)
	fmt.Fprintln(w, "calibrated on each set:")
	sr.Calibrated.Write(w)
	if len(sr.Throws) == 0 {
		return
	}
	fmt.Fprintf(w, "calibrated from free throws (per set, %d draws of K throws of both dice; read: the set's crops not thrown):\n", ThrowDraws)
	fmt.Fprintf(w, "  %6s %6s %6s  %-17s %-17s %5s %9s\n", "throws", "faces", "dice", "uncalibrated", "calibrated", "lost", "new wrong")
	fmt.Fprintf(w, "  %6s %6s %6s  %8s %8s %8s %8s\n", "", "(mean)", "", "right", "wrong", "right", "wrong")
	for _, t := range sr.Throws {
		fmt.Fprintf(w, "  %6d %6.1f %6d  %7.2f%% %7.2f%% %7.2f%% %7.2f%% %5d %9d\n", t.Throws, float64(t.Faces)/float64(max(t.Draws, 1)), t.Plain.All.Total(),
			100*t.Plain.All.Accuracy(), 100*t.Plain.All.WrongRate(), 100*t.Calibrated.All.Accuracy(), 100*t.Calibrated.All.WrongRate(), t.Lost, t.NewWrong)
	}
}
