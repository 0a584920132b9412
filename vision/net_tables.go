package vision

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"

	"comptoir/input"

	"gocv.io/x/gocv"
)

// TablesReport is the outcome of calibrating at each table of a folder of
// tables (dicewide -kind tables: per table one dice set, surface, lamp and
// camera, 16 frames of one die alone, then throws of both) and reading
// its throws, with and without the calibration: what a café sees when it
// calibrates at a table and plays there, at that camera's height.
type TablesReport struct {
	// Plain and Calibrated read every throw; Calibrated with the
	// calibration learned face by face from the table's frames of one
	// die alone (comptoir calibrate).
	Plain, Calibrated Report
	// ThrowsPlain and ThrowsCalibrated read the throws after the first
	// TableThrows whose dice all show a face; ThrowsCalibrated with the
	// calibration learned from those throws (comptoir calibrate
	// --throws), their faces as the players would confirm them.
	ThrowsPlain, ThrowsCalibrated Report
	Tables                        []TableScore
	// Learning is set when the readers learned, as they read each
	// table's throws in order, where its camera shows a flat die's
	// numeral (LearnFlat, as the daemon does at each rest of the dice);
	// unset, each throw was read alone.
	Learning bool
	// Shift is how the dice's hues were turned (TablesOpts).
	Shift HueShift
}

// flatLearner is a reader that learns where the camera shows a flat
// die's numeral from its readings (NetReader, Combined).
type flatLearner interface{ LearnFlat(Roll) }

// TableThrows is how many free throws ReadTables calibrates each table
// from (comptoir calibrate --throws: "8 is a good number").
const TableThrows = 8

// TableScore is one table's outcome.
type TableScore struct {
	Table, Font, Size string
	Plain, Calibrated Report
	// ThrowsPlain and ThrowsCalibrated: see TablesReport.
	ThrowsPlain, ThrowsCalibrated Report
	// Skipped lists the calibration frames and thrown dice that could not
	// be learned, and why (what comptoir calibrate told the user).
	Skipped []string
	// Lost counts the dice read right uncalibrated and not calibrated,
	// NewWrong those read wrong calibrated and not uncalibrated: face by
	// face, then from throws (both must be 0).
	Lost, NewWrong, ThrowsLost, ThrowsNewWrong int
	// Tilted and ThrowsTilted are "k of n": the calibration dice the
	// hand-tuned reader's "tilted" test refused, of those it was shown
	// (NetCalibration.HandTilted): face by face, then from throws.
	Tilted, ThrowsTilted string
	// CalibAcross is the median width of the dice the calibration face by
	// face learned (NetCalibrator.DieAcross), View what the uncalibrated
	// reader learned of the camera once it had read every throw (the
	// staff page's words; learning only): both say whether the dice look
	// small enough for the reader to ask for the camera lower.
	CalibAcross int
	View        input.ReaderView
	// Colours and ThrowsColours say the colours each calibration learned
	// (NetCalibration.ColourWords; "" when none).
	Colours, ThrowsColours string
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// viewer is a reader that says what it learned of its camera
// (NetReader, Combined).
type viewer interface{ View() input.ReaderView }

// TableReader is a reader a tables report reads with.
type TableReader interface {
	DiceReader
	Close() error
}

// ReaderFor makes the reader a tables report reads with from the learned
// reader's options, the table's calibration among them (nil:
// uncalibrated).
type ReaderFor func(o NetOpts) (TableReader, error)

// IsTablesFolder says whether dir's labels.csv is of tables (dicewide
// -kind tables: table and use columns), for ReadTables.
func IsTablesFolder(dir string) bool { return hasColumns(dir, tablesColumns...) }

// tablesColumns are the columns of a tables folder's labels.csv that
// ReadTables needs (with file).
var tablesColumns = []string{"blue", "red", "table", "use"}

// TablesOpts are how ReadTables reads a folder of tables.
type TablesOpts struct {
	// Learn: each reader made for a table learns from its readings as
	// it reads the throws in order, as the daemon does during a game;
	// unset, each throw is read alone.
	Learn bool
	// Shift turns the dice's hues of every picture (calibration frames
	// and throws alike) before it is read: dice sets of other shades.
	Shift HueShift
}

// ReadTables calibrates at each table of dir with the learned reader's
// options o, as comptoir calibrate does (each face of each die alone;
// then, anew, from the first TableThrows throws), and reads the table's
// throws with readers made by newReader, uncalibrated and calibrated.
// With learn, each reader made for a table learns from its readings as
// it reads the throws in order, as the daemon does during a game (the
// uncalibrated reader of the throws after the first TableThrows has
// read those first: the table played them); without it, each throw is
// read alone.
func ReadTables(o NetOpts, newReader ReaderFor, dir string, to TablesOpts) (*TablesReport, error) {
	head, rows, err := readLabels(dir)
	if err != nil {
		return nil, err
	}
	if !headHas(head, tablesColumns...) {
		return nil, fmt.Errorf("%s: labels.csv needs file, blue, red, table and use columns (dicewide -kind tables)", dir)
	}
	var tables []string
	byTable := map[string][]map[string]string{}
	for i, row := range rows {
		if row["use"] != "calibrate" && row["use"] != "eval" {
			return nil, fmt.Errorf("%s: labels.csv line %d: use %q, want calibrate or eval", dir, i+2, row["use"])
		}
		t := row["table"]
		if byTable[t] == nil {
			tables = append(tables, t)
		}
		byTable[t] = append(byTable[t], row)
	}
	o.Calibration = nil
	out := &TablesReport{Learning: to.Learn, Shift: to.Shift}
	for _, t := range tables {
		ts, err := readTable(o, newReader, to, dir, t, byTable[t])
		if err != nil {
			return nil, err
		}
		out.Plain.merge(&ts.Plain)
		out.Calibrated.merge(&ts.Calibrated)
		out.ThrowsPlain.merge(&ts.ThrowsPlain)
		out.ThrowsCalibrated.merge(&ts.ThrowsCalibrated)
		out.Tables = append(out.Tables, *ts)
	}
	return out, nil
}

// tableFrame is a labelled frame of a table.
type tableFrame struct {
	row       map[string]string
	pic       gocv.Mat
	blue, red int // -1: not in the picture; 0: cocked, to refuse
}

// tableLabel is a die's label: its face, 0 for ? (to refuse), -1 for -.
func tableLabel(s string) int {
	switch s {
	case "-":
		return -1
	case "?":
		return 0
	}
	n, _ := strconv.Atoi(s)
	return n
}

// readTable calibrates at one table and reads its throws.
func readTable(o NetOpts, newReader ReaderFor, to TablesOpts, dir, table string, rows []map[string]string) (*TableScore, error) {
	learn := to.Learn
	ts := &TableScore{Table: table}
	var frames []tableFrame
	defer func() {
		for _, f := range frames {
			f.pic.Close()
		}
	}()
	for _, row := range rows {
		m, err := readPicture(filepath.Join(dir, row["file"]))
		if err != nil {
			return nil, fmt.Errorf("%s: cannot read picture %s: %w", dir, row["file"], err)
		}
		if err := to.Shift.Apply(m); err != nil {
			m.Close()
			return nil, fmt.Errorf("%s: %s: %w", dir, row["file"], err)
		}
		frames = append(frames, tableFrame{row: row, pic: m, blue: tableLabel(row["blue"]), red: tableLabel(row["red"])})
		ts.Font = row["font"]
		if px, err := strconv.ParseFloat(row["size_px"], 64); err == nil {
			ts.Size = SizeBand(px)
		}
	}
	// face by face
	k, err := NewNetCalibrator(o)
	if err != nil {
		return nil, err
	}
	defer k.Close()
	var throws []tableFrame
	for _, f := range frames {
		if f.row["use"] == "eval" {
			throws = append(throws, f)
			continue
		}
		die, face := "blue", f.blue
		if f.blue < 1 {
			die, face = "red", f.red
		}
		if err := k.Add(f.pic, die, face); err != nil {
			ts.Skipped = append(ts.Skipped, f.row["file"]+": "+err.Error())
		}
	}
	c := k.c.withField() // a face that could not be learned has no prototype
	ts.Tilted = fmt.Sprintf("%d of %d", c.HandTilted, c.HandChecked)
	ts.Colours = c.ColourWords()
	ts.CalibAcross = int(math.Round(k.DieAcross()))
	lost, wrong, err := readThrowsAt(o, newReader, learn, c, nil, throws, &ts.Plain, &ts.Calibrated, &ts.View)
	if err != nil {
		return nil, err
	}
	ts.Lost, ts.NewWrong = lost, wrong
	// from free throws
	k.reset()
	n := 0
	var rest, played []tableFrame
	for _, f := range throws {
		if n == TableThrows || f.blue < 1 || f.red < 1 {
			rest = append(rest, f)
			continue
		}
		n++
		played = append(played, f)
		if err := k.AddThrow(f.pic, f.blue, f.red); err != nil {
			ts.Skipped = append(ts.Skipped, f.row["file"]+" (a throw): "+err.Error())
		}
	}
	var tc *NetCalibration
	if p, err := k.PartialCalibration(1); err == nil {
		tc = p
		ts.ThrowsTilted = fmt.Sprintf("%d of %d", p.HandTilted, p.HandChecked)
		ts.ThrowsColours = p.ColourWords()
	}
	lost, wrong, err = readThrowsAt(o, newReader, learn, tc, played, rest, &ts.ThrowsPlain, &ts.ThrowsCalibrated, nil)
	if err != nil {
		return nil, err
	}
	ts.ThrowsLost, ts.ThrowsNewWrong = lost, wrong
	return ts, nil
}

// readThrowsAt reads the throws with an uncalibrated reader and with a
// reader calibrated with c (nil: nothing learned, the uncalibrated
// reader), tallies both, and counts the dice lost and newly read wrong.
// With learn, both learn from each throw they read (LearnFlat), and the
// uncalibrated one has first read and learned from played (throws the
// calibration learned from: c has them). When view is not nil, it is
// set to what the uncalibrated reader learned of the camera by the end.
func readThrowsAt(o NetOpts, newReader ReaderFor, learn bool, c *NetCalibration, played, throws []tableFrame, rp, rc *Report, view *input.ReaderView) (lost, wrong int, err error) {
	o.Calibration = nil
	plain, err := newReader(o)
	if err != nil {
		return 0, 0, err
	}
	defer plain.Close()
	o.Calibration = c
	cal, err := newReader(o)
	if err != nil {
		return 0, 0, err
	}
	defer cal.Close()
	learnFrom := func(r TableReader, roll Roll) {
		if l, ok := r.(flatLearner); ok && learn {
			l.LearnFlat(roll)
		}
	}
	for _, f := range played {
		learnFrom(plain, plain.Read(f.pic))
	}
	for _, f := range throws {
		p, q := plain.Read(f.pic), cal.Read(f.pic)
		learnFrom(plain, p)
		learnFrom(cal, q)
		for _, d := range []struct {
			die        string
			want       int
			plain, cal Die
		}{{"blue", f.blue, p.Blue, q.Blue}, {"red", f.red, p.Red, q.Red}} {
			rp.add(f.row, d.die, d.want, d.plain)
			rc.add(f.row, d.die, d.want, d.cal)
			if d.plain.Face == d.want && d.cal.Face != d.want {
				lost++
			}
			if d.cal.Face != 0 && d.cal.Face != d.want && d.cal.Face != d.plain.Face {
				wrong++
			}
		}
	}
	if v, ok := plain.(viewer); ok && view != nil {
		*view = v.View()
	}
	return lost, wrong, nil
}

// Write prints each table's scores, then the reports: uncalibrated and
// calibrated face by face over every throw, then the throws after the
// free throws, uncalibrated and calibrated from them.
func (tr *TablesReport) Write(w io.Writer) {
	if tr.Shift != (HueShift{}) {
		fmt.Fprintf(w, "(the dice's hues turned: %s, in hue units of 2 degrees)\n", tr.Shift)
	}
	if tr.Learning {
		fmt.Fprintln(w, "(the readers learn, as each table's throws are read in order, where its camera shows a flat die's numeral, as the daemon does)")
	} else {
		fmt.Fprintln(w, "(each throw read alone: the readers learn nothing as the table plays)")
	}
	for _, t := range tr.Tables {
		fmt.Fprintf(w, "table %s (%s, %s):\n    uncalibrated %v\n    calibrated   %v (lost %d, new wrong %d)\n", t.Table, t.Font, t.Size, t.Plain.All, t.Calibrated.All, t.Lost, t.NewWrong)
		fmt.Fprintf(w, "    after %d throws: uncalibrated %v\n    calibrated from them  %v (lost %d, new wrong %d)\n", TableThrows, t.ThrowsPlain.All, t.ThrowsCalibrated.All, t.ThrowsLost, t.ThrowsNewWrong)
		fmt.Fprintf(w, "    calibration dice refused as tilted by the hand-tuned reader: face by face %s, from throws %s\n", t.Tilted, t.ThrowsTilted)
		if t.Colours != "" || t.ThrowsColours != "" {
			fmt.Fprintf(w, "    colours learned: face by face %s; from throws %s\n", orNone(t.Colours), orNone(t.ThrowsColours))
		}
		for _, sk := range t.Skipped {
			fmt.Fprintf(w, "    not learned: %s\n", sk)
		}
		if v := t.View; v.Across > 0 || t.CalibAcross > 0 {
			fmt.Fprintf(w, "    dice across: %d pixels at rest, %d in the calibration%s\n", v.Across, t.CalibAcross, smallWords(v, t.CalibAcross))
		}
		if t.View.Moved > 0 {
			// the camera does not move at a table of the set: a false alarm
			fmt.Fprintf(w, "    the reader took the camera as moved %d times\n", t.View.Moved)
		}
		if v := t.View; v.Blank > 0 {
			glare := ""
			if v.Glare {
				glare = ": the staff page says the lamp washes the dice out"
			}
			fmt.Fprintf(w, "    top faces washed out at the last rests: %d of the last %d dice found%s\n", v.Blank, v.BlankOf, glare)
		}
	}
	tr.writeSmall(w)
	fmt.Fprintln(w, "uncalibrated, every throw:")
	tr.Plain.Write(w)
	fmt.Fprintln(w, "calibrated at each table, face by face:")
	tr.Calibrated.Write(w)
	fmt.Fprintf(w, "uncalibrated, the throws after the first %d:\n", TableThrows)
	tr.ThrowsPlain.Write(w)
	fmt.Fprintf(w, "calibrated at each table from its first %d throws:\n", TableThrows)
	tr.ThrowsCalibrated.Write(w)
}

// smallWords says what the staff page and comptoir calibrate would say
// of dice that wide.
func smallWords(v input.ReaderView, calib int) string {
	switch cs := DiceTooSmall(float64(calib)); {
	case v.Small && cs:
		return ": both say to bring the camera lower"
	case v.Small:
		return ": the staff page says to bring the camera lower"
	case cs:
		return ": the calibration says to bring the camera lower"
	}
	return ""
}

// writeSmall tallies the tables where the reader asks for the camera
// lower (the staff page, from the dice at rest) against the others: the
// dice read right there uncalibrated, so that the advice is measured
// where it fires.
func (tr *TablesReport) writeSmall(w io.Writer) {
	if !tr.Learning {
		return
	}
	var small, other Score
	ns, no := 0, 0
	for _, t := range tr.Tables {
		s := t.Plain.All
		if t.View.Small {
			ns++
			small.merge(&s)
		} else {
			no++
			other.merge(&s)
		}
	}
	fmt.Fprintf(w, "tables where the staff page asks for the camera lower (dice under %d pixels across): %d, their dice read right uncalibrated %.2f%%; the other %d tables %.2f%%\n",
		SmallDieAcross, ns, 100*small.Accuracy(), no, 100*other.Accuracy())
}
