package main

import (
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"comptoir/input"
	"comptoir/journal"
	session "comptoir/table"
	"comptoir/vision"
)

func init() {
	commands["dice"] = command{
		summary: "read the dice in pictures, a video or the camera",
		run:     runDice,
	}
}

const diceUsage = `usage: comptoir dice [--single] [--labels FILE] [--calibration FILE] [--hand-tuned] PATH...
       comptoir dice --report [--calibration FILE] [--each-alone] FOLDER...
       comptoir dice --camera /dev/video0 | --video FILE | --frames FOLDER [--calibration FILE]
       comptoir dice --misreads JOURNAL

Reads the blue and the red die in each picture (a folder means every picture
in it, sorted by name) and prints one line per picture:
    <file name> blue=<1-8 or ?> red=<1-8 or ?>
A ? is a die the reader is not sure of; the reason goes to the error output.

--single       read the one d8 in each picture, whatever its colour, and
               print <file name> die=<1-8 or ?>
--labels FILE  a CSV of the right answers, file,blue,red (file,face with
               --single); then also print the accuracy, the rejection rate
               and the wrong-read rate
--report       read labelled folders (their labels.csv: crops of the wide
               distribution, 640x480 frames of a blue and a red die, or
               photos of one die) and print, per folder, the dice read
               right, refused and wrong per font, surface, ink, body,
               numeral style, edges, light, die and die size band, the
               confusion matrix, the reasons the dice were refused for
               (tilted, cocked, not found, numeral unclear...) and the
               pictures of the dice read wrong;
               of the real photos only the clips held out of training are
               read (see vision/train/README.md); of a folder of tables
               (dicewide -kind tables: per table, frames of each face
               alone, then throws, at one camera), each table is
               calibrated as comptoir calibrate does, face by face and
               from its first 8 throws, and its throws are read with and
               without the calibration
--stages       with --report, also print where the dice were lost: not
               found, no crop, the classifier's top answer wrong, or right
               but under the confidence; and the share of dice read right
               and wrong at confidences 0.5, 0.8, 0.9 and 0.97
--each-alone   with --report, of a folder of tables: read each throw alone;
               by default the readers learn, as a table's throws are read
               in order, where its camera shows a flat die's numeral (as
               the daemon does at each rest of the dice), and refuse a die
               whose numeral lies elsewhere (cocked against a wall)
--hue-shift blue=N,red=M
               with --report, of a folder of tables: turn the dice's hues
               of every picture by N and M hue units (2 degrees each)
               before reading it: dice of other shades (blue=+20 makes
               the blue dice violet, red=+10 the red ones orange), to
               measure what a calibration learns of the dice's colours
--calibration FILE
               the dice set's prototypes made by comptoir calibrate (or,
               with --hand-tuned, numeral templates)
--learned      read with the learned classifier alone
--trust-alone P
               the combined reader asks the hand-tuned reader only when
               the classifier is less than P sure of a die (0: always)
--misreads JOURNAL
               print, per game of a table's journal, how many of the
               camera's dice readings the players corrected (entered
               other faces while the reading stood; table.StaffDice)
--model FILE   read with this ONNX classifier instead of the committed one
               (to measure a model being trained)
--pose-model FILE
               refuse cocked dice with this ONNX pose network instead of
               the committed one
--pose-size N  with --pose-model: the side of its input in pixels, for a
               network trained on crops of another size than the
               committed one's 32 (cropexport -pose-size, posenet.py
               --size)
--max-cocked P the pose network's probability from which a die is refused
               as cocked (0: no pose network)
--flat-over-tilt P, --flat-over-touching P
               the combined reader takes the classifier's reading of a die
               the hand-tuned reader refused as tilted (touching the other
               die) when the pose network is at least P sure it lies flat
               (0, the default: never; to measure, see
               vision/train/README.md)
--closer-look S
               the combined reader cuts the numeral of a flat die the
               classifier is unsure of again over S of the usual span
               (larger in the crop), and reads it when that crop reads
               surely the face the first look found likeliest (default
               0.85; 0: never)
--hand-tuned   read with the hand-tuned reader alone (numeral templates)
               (by default both read and a face is reported when they do
               not contradict each other, as the daemon does)
--min-confidence P
               the confidence under which a die is reported as ? (default:
               the reader's, 0.97 for the learned classifier)
--camera DEV   watch the camera and print each roll as it comes to rest,
               with its latency, until interrupted
--video FILE   the same from a video file
--frames FOLDER
               the same from a folder of frame pictures (.jpg, .png, .bmp),
               read in name order
With --camera, --video and --frames, a line "reader: ..." says what the
reader learned of the camera when it changes (as the staff page does): once
it knows where the camera shows a flat die's numeral, whether it took the
camera as moved, how large the dice look and whether to bring it lower.
`

// diceFlags are the flags of comptoir dice.
type diceFlags struct {
	single                         bool
	labels                         string
	calibration                    string
	camera                         string
	video                          string
	frames                         string
	verbose                        bool
	minConfident                   float64
	report                         bool
	stages                         bool
	alone                          bool
	hueShift                       string
	handTuned                      bool
	learned                        bool
	model                          string
	poseModel                      string
	poseSize                       int
	maxCocked                      float64
	trustAlone                     float64
	flatOverTilt, flatOverTouching float64
	closerLook                     float64
	misreads                       string
}

func runDice(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("dice", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f diceFlags
	fs.BoolVar(&f.single, "single", false, "read one die of any colour per picture")
	fs.StringVar(&f.labels, "labels", "", "CSV of right answers: file,blue,red (file,face with --single)")
	fs.StringVar(&f.calibration, "calibration", "", "calibration file from comptoir calibrate")
	fs.StringVar(&f.camera, "camera", "", "camera device, such as /dev/video0")
	fs.StringVar(&f.video, "video", "", "video file")
	fs.StringVar(&f.frames, "frames", "", "folder of frame pictures, read in name order")
	fs.BoolVar(&f.verbose, "v", false, "print the confidence and reason of every die")
	fs.Float64Var(&f.minConfident, "min-confidence", 0, "confidence under which a die is reported as ? (default: the reader's)")
	fs.BoolVar(&f.report, "report", false, "print right/refused/wrong per font, surface, size... of labelled folders")
	fs.BoolVar(&f.stages, "stages", false, "with --report: where the dice were lost (not found, classifier wrong, under the confidence) and the classifier's reliability at 0.5, 0.8, 0.9 and 0.97")
	fs.BoolVar(&f.alone, "each-alone", false, "with --report, of a tables folder: read each throw alone, the readers learning nothing as the table plays")
	fs.StringVar(&f.hueShift, "hue-shift", "", "with --report, of a tables folder: turn the dice's hues by blue=N,red=M hue units (2 degrees each) before reading")
	fs.BoolVar(&f.handTuned, "hand-tuned", false, "read with the hand-tuned reader alone")
	fs.BoolVar(&f.learned, "learned", false, "read with the learned classifier alone")
	fs.Float64Var(&f.trustAlone, "trust-alone", vision.DefaultTrustAlone, "combined reader: the classifier's confidence from which the hand-tuned reader is not asked (0: always asked)")
	fs.Float64Var(&f.flatOverTilt, "flat-over-tilt", vision.DefaultFlatOverTilt, "combined reader: how sure the pose network must be that a die lies flat for the classifier's reading to stand over the hand-tuned reader's \"tilted\" (0: never)")
	fs.Float64Var(&f.flatOverTouching, "flat-over-touching", vision.DefaultFlatOverTouching, "combined reader: the same for the hand-tuned reader's \"touching the other die\" (0: never)")
	fs.Float64Var(&f.closerLook, "closer-look", vision.DefaultCloserLook, "combined reader: the share of the usual span over which the numeral of a die the classifier is unsure of is cut again and read (0: never)")
	fs.StringVar(&f.misreads, "misreads", "", "a table's journal: print how many of the camera's dice readings the players corrected, per game")
	fs.StringVar(&f.model, "model", "", "an ONNX classifier to read with instead of the committed one (a model being trained)")
	fs.StringVar(&f.poseModel, "pose-model", "", "an ONNX pose network to refuse cocked dice with instead of the committed one (a model being trained)")
	fs.IntVar(&f.poseSize, "pose-size", 0, "with --pose-model: the side of its input in pixels, when it was trained on crops of another size than the committed network's (posenet.py --size)")
	fs.Float64Var(&f.maxCocked, "max-cocked", -1, "the pose network's probability from which a die is refused as cocked (0: no pose network; default: the reader's)")
	fs.Usage = func() { fmt.Fprint(stderr, diceUsage) }
	paths, err := parseInterspersed(fs, args)
	if err != nil {
		return errUsage
	}
	if f.misreads != "" {
		if len(paths) > 0 {
			fmt.Fprintln(stderr, "comptoir dice: --misreads takes a journal, no pictures")
			return errUsage
		}
		return printMisreads(f.misreads, stdout)
	}
	if f.closerLook < 0 || f.closerLook >= 1 {
		fmt.Fprintf(stderr, "comptoir dice: --closer-look %g: want a share of the usual span from 0 (never look closer) to under 1, such as %g\n", f.closerLook, vision.DefaultCloserLook)
		return errUsage
	}
	sources := 0
	for _, s := range []string{f.camera, f.video, f.frames} {
		if s != "" {
			sources++
		}
	}
	live := sources > 0
	if live == (len(paths) > 0) || sources > 1 || (live && (f.single || f.labels != "" || f.report)) {
		fmt.Fprintln(stderr, "comptoir dice: give pictures, or one of --camera, --video and --frames (without --single, --labels or --report)")
		fs.Usage()
		return errUsage
	}
	r, closeReader, err := newDiceReader(f)
	if err != nil {
		return err
	}
	defer closeReader()
	if f.report {
		rr, ok := r.(reportReader)
		if !ok {
			return errors.New("comptoir dice: --report reads crops, which the hand-tuned reader alone cannot: leave out --hand-tuned")
		}
		shift, err := vision.ParseHueShift(f.hueShift)
		if err != nil {
			fmt.Fprintf(stderr, "comptoir dice: --hue-shift: %v\n", err)
			return errUsage
		}
		return reportDice(rr, readerFor(f), paths, f.stages, vision.TablesOpts{Learn: !f.alone, Shift: shift}, stdout)
	}
	if live {
		return watchDice(r, f, stdout, stderr)
	}
	return readDicePictures(r, f, paths, stdout, stderr)
}

// newDiceReader makes the reader the flags ask for: the learned
// classifier, calibrated or not, or the hand-tuned reader.
func newDiceReader(f diceFlags) (vision.DiceReader, func(), error) {
	if f.handTuned {
		o := vision.DefaultReaderOpts
		if f.minConfident > 0 {
			o.MinConfidence = f.minConfident
		}
		if f.calibration != "" {
			m, err := vision.LoadCalibration(f.calibration)
			if err != nil {
				return nil, nil, err
			}
			o.Model = &m
		}
		r, err := vision.NewReader(o)
		return r, func() {}, err
	}
	o := vision.DefaultNetOpts
	if f.minConfident > 0 {
		o.MinConfidence = f.minConfident
	}
	if f.model != "" {
		m, err := os.ReadFile(f.model)
		if err != nil {
			return nil, nil, fmt.Errorf("comptoir dice: %w", err)
		}
		o.Model = m
	}
	if f.poseModel != "" {
		m, err := os.ReadFile(f.poseModel)
		if err != nil {
			return nil, nil, fmt.Errorf("comptoir dice: %w", err)
		}
		o.PoseModel = m
		o.PoseSize = f.poseSize
	} else if f.poseSize != 0 {
		return nil, nil, fmt.Errorf("comptoir dice: --pose-size %d without --pose-model: the committed pose network reads %d-pixel crops; give the network trained on %d-pixel ones", f.poseSize, vision.PoseSize, f.poseSize)
	}
	if f.maxCocked >= 0 {
		o.MaxCocked = f.maxCocked
	}
	if f.calibration != "" {
		c, err := vision.LoadNetCalibration(f.calibration)
		if err != nil {
			return nil, nil, err
		}
		o.Calibration = c
	}
	r, err := readerFor(f)(o)
	if err != nil {
		return nil, nil, err
	}
	return r, func() { r.Close() }, nil
}

// reportReader reads frames, single dice and crops.
type reportReader interface {
	vision.DiceReader
	ReadCrop(pic vision.Frame, colour string) vision.Die
	Options() vision.NetOpts
}

// readerFor makes the reader the flags ask for from the learned reader's
// options (a table's calibration among them, for a tables report): the
// learned reader, or the combined one.
func readerFor(f diceFlags) vision.ReaderFor {
	return func(o vision.NetOpts) (vision.TableReader, error) {
		n, err := vision.NewNetReader(o)
		if err != nil {
			return nil, err
		}
		if f.learned {
			return n, nil
		}
		h, err := vision.NewReader(vision.DefaultReaderOpts)
		if err == nil {
			var hl *vision.Reader
			if hl, err = vision.LearnedHand(o.Calibration); err == nil {
				return &vision.Combined{Hand: h, HandLearned: hl, Net: n, TrustAlone: f.trustAlone, FlatOverTilt: f.flatOverTilt, FlatOverTouching: f.flatOverTouching, CloserLook: f.closerLook}, nil
			}
		}
		n.Close()
		return nil, err
	}
}

// reportDice prints the report of each labelled folder.
func reportDice(r reportReader, newReader vision.ReaderFor, dirs []string, stages bool, to vision.TablesOpts, stdout io.Writer) error {
	for _, dir := range dirs {
		if vision.IsTablesFolder(dir) {
			tr, err := vision.ReadTables(r.Options(), newReader, dir, to)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "%s (tables, each calibrated at its camera, then its throws read):\n", dir)
			tr.Write(stdout)
			writeStages(stdout, stages, &tr.Plain, &tr.Calibrated, "calibrated face by face:")
			continue
		}
		if to.Shift != (vision.HueShift{}) {
			return fmt.Errorf("comptoir dice: --hue-shift: %s is not a folder of tables (dicewide -kind tables): the shift is measured on tables, each calibrated at its camera", dir)
		}
		if vision.IsSetsFolder(dir) {
			sr, err := vision.ReadSets(r.Options(), dir)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "%s (dice sets, each calibrated on its own crops):\n", dir)
			sr.Write(stdout)
			writeStages(stdout, stages, &sr.Plain, &sr.Calibrated, "calibrated:")
			continue
		}
		var rp vision.Report
		kind, err := vision.ReadSet(r, dir, vision.HeldOutReal, &rp)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s (%s):\n", dir, kind)
		rp.Write(stdout)
		if stages {
			rp.Stages.Write(stdout)
		}
	}
	return nil
}

// writeStages prints, when stages is set, where the dice of a calibrated
// report were lost, uncalibrated then calibrated (titled cal).
func writeStages(stdout io.Writer, stages bool, plain, calibrated *vision.Report, cal string) {
	if !stages {
		return
	}
	fmt.Fprintln(stdout, "uncalibrated:")
	plain.Stages.Write(stdout)
	fmt.Fprintln(stdout, cal)
	calibrated.Stages.Write(stdout)
}

// parseInterspersed parses flags found anywhere among the arguments and
// returns the others in order.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return rest, nil
		}
		if args[0] == "--" {
			return append(rest, args[1:]...), nil
		}
		rest = append(rest, args[0])
		args = args[1:]
	}
}

// pictureExts are the picture files a folder is read for.
var pictureExts = map[string]bool{".jpg": true, ".jpeg": true, ".png": true, ".bmp": true}

// expandPictures lists the files of paths, a folder standing for its
// pictures sorted by name.
func expandPictures(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, p)
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, err
		}
		var names []string
		for _, e := range entries {
			if !e.IsDir() && pictureExts[strings.ToLower(filepath.Ext(e.Name()))] {
				names = append(names, e.Name())
			}
		}
		if len(names) == 0 {
			return nil, fmt.Errorf("%s: no pictures (.jpg, .jpeg, .png, .bmp) in this folder", p)
		}
		sort.Strings(names)
		for _, n := range names {
			out = append(out, filepath.Join(p, n))
		}
	}
	return out, nil
}

// errBadLabels is returned for a labels file that does not parse.
var errBadLabels = errors.New("bad labels file")

// parseDiceLabels reads a labels CSV: header file,blue,red (or file,face
// when single), then one line per picture; a face is 1 to 8, or ? or
// empty for a die that cannot be read.
func parseDiceLabels(r io.Reader, single bool) (map[string][]int, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	recs, err := cr.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errBadLabels, err)
	}
	want := []string{"file", "blue", "red"}
	if single {
		want = []string{"file", "face"}
	}
	if len(recs) == 0 || len(recs[0]) < len(want) {
		return nil, fmt.Errorf("%w: the first line must be the header %s", errBadLabels, strings.Join(want, ","))
	}
	for i, h := range want {
		if strings.TrimSpace(strings.ToLower(recs[0][i])) != h {
			return nil, fmt.Errorf("%w: the first line must be the header %s, not %s", errBadLabels, strings.Join(want, ","), strings.Join(recs[0], ","))
		}
	}
	out := map[string][]int{}
	for n, rec := range recs[1:] {
		if len(rec) < len(want) {
			return nil, fmt.Errorf("%w: line %d: %d fields, want %d (%s)", errBadLabels, n+2, len(rec), len(want), strings.Join(want, ","))
		}
		var faces []int
		for _, s := range rec[1:len(want)] {
			s = strings.TrimSpace(s)
			if s == "?" || s == "" {
				faces = append(faces, 0)
				continue
			}
			v, err := strconv.Atoi(s)
			if err != nil || v < 1 || v > 8 {
				return nil, fmt.Errorf("%w: line %d: face %q, want 1 to 8 or ?", errBadLabels, n+2, s)
			}
			faces = append(faces, v)
		}
		out[filepath.Base(strings.TrimSpace(rec[0]))] = faces
	}
	return out, nil
}

func faceText(f int) string {
	if f == 0 {
		return "?"
	}
	return strconv.Itoa(f)
}

func readDicePictures(r vision.DiceReader, f diceFlags, paths []string, stdout, stderr io.Writer) error {
	files, err := expandPictures(paths)
	if err != nil {
		return err
	}
	var labels map[string][]int
	if f.labels != "" {
		lf, err := os.Open(f.labels)
		if err != nil {
			return err
		}
		labels, err = parseDiceLabels(lf, f.single)
		lf.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", f.labels, err)
		}
	}
	var score vision.Score
	bad, unlabelled := 0, 0
	for _, path := range files {
		name := filepath.Base(path)
		dice, err := readPicture(r, path, f.single)
		if err != nil {
			fmt.Fprintf(stderr, "comptoir dice: %v\n", err)
			bad++
		}
		var line []string
		names := []string{"blue", "red"}
		if f.single {
			names = []string{"die"}
		}
		for i, d := range dice {
			line = append(line, names[i]+"="+faceText(d.Face))
			if d.Face == 0 && err == nil || f.verbose {
				fmt.Fprintf(stderr, "%s %s: confidence %.2f %s\n", name, names[i], d.Confidence, d.Reason())
			}
		}
		fmt.Fprintf(stdout, "%s %s\n", name, strings.Join(line, " "))
		if labels != nil {
			want, ok := labels[name]
			if !ok {
				unlabelled++
				continue
			}
			for i, d := range dice {
				score.Add(want[i], d.Face)
			}
		}
	}
	if labels != nil {
		fmt.Fprintf(stdout, "accuracy %.2f%% (%d of %d dice read right), rejected %.2f%% (%d), wrong %.2f%% (%d)\n",
			100*score.Accuracy(), score.Right, score.Total(), 100*score.RejectRate(), score.Rejected, 100*score.WrongRate(), score.Wrong)
		if score.MustReject > 0 {
			rd := score.Readable()
			fmt.Fprintf(stdout, "must be refused (labelled ?): %d of %d refused; readable dice: %.2f%% (%d of %d) read right, %.2f%% rejected, %.2f%% wrong\n",
				score.Refused, score.MustReject, 100*rd.Accuracy(), rd.Right, rd.Total(), 100*rd.RejectRate(), 100*rd.WrongRate())
		}
		if unlabelled > 0 {
			fmt.Fprintf(stderr, "comptoir dice: %d pictures have no label in %s and are not counted\n", unlabelled, f.labels)
		}
	}
	if bad > 0 {
		return fmt.Errorf("%d of %d pictures could not be read as images", bad, len(files))
	}
	return nil
}

// readPicture decodes one picture and reads its dice: blue and red, or the
// single die. A picture that does not decode gives unknown dice and an
// error that names it.
func readPicture(r vision.DiceReader, path string, single bool) ([]vision.Die, error) {
	n := 2
	if single {
		n = 1
	}
	unknown := make([]vision.Die, n)
	data, err := os.ReadFile(path)
	if err != nil {
		return unknown, err
	}
	m, err := vision.DecodeImage(data)
	if err != nil {
		return unknown, fmt.Errorf("%s: %w", path, err)
	}
	defer m.Close()
	if single {
		return []vision.Die{r.ReadSingle(m)}, nil
	}
	roll := r.Read(m)
	return []vision.Die{roll.Blue, roll.Red}, nil
}

// watchDice prints the rolls of a camera or a video as they settle.
func watchDice(r vision.DiceReader, f diceFlags, stdout, stderr io.Writer) error {
	var src vision.Source
	var err error
	switch {
	case f.camera != "":
		src, err = vision.OpenCamera(f.camera, vision.DefaultCameraOpts)
	case f.frames != "":
		src, err = vision.OpenDir(f.frames)
	default:
		src, err = vision.OpenVideo(f.video)
	}
	if err != nil {
		return err
	}
	defer src.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	// Watch reads and learns in its goroutine while this one asks the
	// reader's view: mu guards the reader
	var mu sync.Mutex
	read := func(m vision.Frame) vision.Roll {
		mu.Lock()
		defer mu.Unlock()
		return r.Read(m)
	}
	wo := vision.DefaultWatchOpts
	if l, ok := r.(interface{ LearnFlat(vision.Roll) }); ok {
		// where this camera shows a flat die's numeral
		wo.Learn = func(roll vision.Roll) {
			mu.Lock()
			defer mu.Unlock()
			l.LearnFlat(roll)
		}
	}
	var view func() input.ReaderView
	if v, ok := r.(interface{ View() input.ReaderView }); ok {
		view = func() input.ReaderView {
			mu.Lock()
			defer mu.Unlock()
			return v.View()
		}
	}
	var told viewNews
	for ev := range vision.Watch(ctx, src, read, wo) {
		switch e := ev.(type) {
		case input.DiceRolled:
			fmt.Fprintf(stdout, "%s blue=%d red=%d confidence=%.2f latency=%s\n", e.At.Format("15:04:05.000"), e.Blue, e.Red, e.Confidence, e.Latency.Round(1e6))
		case input.DiceUnreadable:
			fmt.Fprintf(stdout, "%s blue=? red=? (%s)\n", e.At.Format("15:04:05.000"), e.Reason)
		case input.DeviceStatus:
			fmt.Fprintf(stderr, "comptoir dice: %v\n", e)
			continue
		}
		// what the reader learned of the camera at this rest, when it
		// says something new (the staff page says the same)
		if view != nil {
			if v := view(); newsOf(v) != told {
				told = newsOf(v)
				fmt.Fprintf(stdout, "reader: %s\n", viewWords(v))
			}
		}
	}
	if view != nil {
		fmt.Fprintf(stdout, "reader, at the end: %s\n", viewWords(view()))
	}
	return vision.SourceErr(src)
}

// viewNews is what, of a reader's view of its camera, is worth a line
// when it changes: whether it refuses the dice whose numeral lies off
// where a flat die's lies, how many times it took the camera as moved,
// whether it knows the dice's size and finds them too small.
type viewNews struct {
	guard, sized, small bool
	moved               int
}

func newsOf(v input.ReaderView) viewNews {
	return viewNews{guard: v.FlatNeed == 0, sized: v.Across > 0, small: v.Small, moved: v.Moved}
}

// flatDice is "1 flat die" or "n flat dice".
func flatDice(n int) string {
	if n == 1 {
		return "1 flat die"
	}
	return fmt.Sprintf("%d flat dice", n)
}

// viewWords is what the reader learned of its camera, in the staff
// page's English words (dashboard/web/dicelog.js).
func viewWords(v input.ReaderView) string {
	var b strings.Builder
	if v.FlatNeed > 0 {
		fmt.Fprintf(&b, "learning where this camera shows a flat die's numeral (%s); after %d more read flat it will refuse a die whose numeral lies elsewhere, cocked against the tray's wall", flatDice(v.Flat), v.FlatNeed)
	} else {
		fmt.Fprintf(&b, "knows where this camera shows a flat die's numeral (%s) and refuses a die whose numeral lies elsewhere, cocked against the tray's wall", flatDice(v.Flat))
	}
	if v.Moved > 0 {
		times := "once"
		if v.Moved > 1 {
			times = fmt.Sprintf("%d times", v.Moved)
		}
		fmt.Fprintf(&b, "; took the camera as moved %s and learned it afresh", times)
	}
	switch {
	case v.Small:
		fmt.Fprintf(&b, "; the dice look about %d pixels across: under %d the reader reads far fewer of them, bring the camera lower (or zoom in) until a die is at least %d pixels across", v.Across, v.SmallUnder, v.SmallUnder)
	case v.Across > 0:
		fmt.Fprintf(&b, "; the dice look about %d pixels across", v.Across)
	}
	if v.Glare {
		// (without the counts, which change at every rest: the line is
		// printed when the words change)
		b.WriteString("; the lamp washes the dice out, their top faces show no numeral: move the lamp aside from the tray or dim it")
	}
	return b.String()
}

// printMisreads prints, per game of the journal at path, the camera's dice
// readings the players corrected, and their total.
func printMisreads(path string, stdout io.Writer) error {
	st, err := journal.Open(path)
	if err != nil {
		return err
	}
	defer st.Close()
	infos, err := st.Games()
	if err != nil {
		return err
	}
	total, rolls := 0, 0
	for _, in := range infos {
		rules, err := rulesOf(in.Setup.Game)
		if err != nil {
			return fmt.Errorf("game %d: %w", in.ID, err)
		}
		g, err := st.Load(rules, in.ID)
		if err != nil {
			return err
		}
		n := session.Misreads(g.Steps())
		total += n
		rolls++
		fmt.Fprintf(stdout, "game %d (%s): %d dice readings corrected by the players\n", in.ID, in.Setup.Game, n)
	}
	fmt.Fprintf(stdout, "all %d games: %d dice readings corrected by the players\n", rolls, total)
	return nil
}
