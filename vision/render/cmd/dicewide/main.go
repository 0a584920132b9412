// Command dicewide renders the wide distribution of the dice reader's
// classifier (render.Wide, render.WideFrame) with POV-Ray: crops of one
// die, 25 to 160 pixels across, or 640x480 frames of a blue and a red die,
// each picture's font and surface drawn from one split of
// vision/render/wide.yaml (train or test: the test split's fonts and
// surfaces are never in the train split).
//
// Usage:
//
//	dicewide -kind crops|frames|sets|tables -split train|test|validation [-n 1000] [-seed 1] [-out dir] [-jobs 2] [-min 25 -max 160] [-trim 2.2] [-cocked | -walled]
//
// It writes NNNNN.jpg and labels.csv: file, face (crops, sets) or blue and
// red (frames), then what was drawn (colour, font, ink, body, numeral,
// edges, surface, light, size in pixels, tilt, neighbour, wall, and the
// camera defects). Sets makes -n dice sets (render.DrawSet, one per font
// in turn), each with 16 crops to calibrate on (every face of both dice)
// then 40 to read (columns set and use). With -cocked, each frame is the
// one the same seed draws without it, one of its dice cocked against a
// tray wall beside it (render.WideCockedFrame), that die labelled ?. With
// -walled, that die lies flat against the wall instead, 0 to 3 mm from it
// (render.WideWalledFrame), and keeps its label. Tables makes -n tables
// (render.DrawTable: one dice set, surface, lamp and camera each, one
// font in turn, their cameras' die sizes in the four size bands in turn
// from -min to -max), each with 16 frames of one die alone to calibrate
// on (every face of the blue die, then of the red; the other die
// labelled -) then 20 throws of both (columns table and use; a throw's
// die cocked against a wall, one throw in seven, is labelled ?). The
// same seed gives the same pictures.
package main

import (
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"image"
	"io"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"comptoir/vision/render"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "dicewide:", err)
		}
		os.Exit(1)
	}
}

type item struct {
	scene render.Scene
	infos []render.WideInfo
	def   render.Defects
	seed  uint64
	set   int    // sets, tables: the dice set, the table
	use   string // sets, tables: calibrate or eval
}

// Per dice set (-kind sets): the calibration crops (each face of each die
// once) and the crops read after calibrating.
const (
	setCalibrate = 16
	setEval      = 40
)

// Per table (-kind tables): the calibration frames (each face of each
// die alone) and the throws read after calibrating; the share of throws
// with a die cocked against a wall.
const (
	tableCalibrate = 16
	tableEval      = 20
	tableCocked    = 1.0 / 7
)

// tableBands are the die sizes, in pixels across, of the tables' cameras
// in turn (comptoir dice --report's size bands), within -min and -max.
var tableBands = [][2]float64{{25, 40}, {40, 65}, {65, 100}, {100, 160}}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("dicewide", flag.ContinueOnError)
	fs.SetOutput(stderr)
	kind := fs.String("kind", "crops", "crops (one die, resized to 25-160 px across), frames (640x480, two dice), sets (per dice set, 16 calibration crops and 40 to read) or tables (per table, 16 calibration frames and 20 throws)")
	split := fs.String("split", "train", "train, test or validation: which fonts and surfaces of wide.yaml to draw from (validation: its validation fonts on the train surfaces)")
	n := fs.Int("n", 100, "number of pictures")
	seed := fs.Uint64("seed", 1, "random seed")
	out := fs.String("out", "", "output folder (required)")
	jobs := fs.Int("jobs", 2, "povray processes at once")
	batch := fs.Int("batch", 50, "crops per povray process")
	minPx := fs.Float64("min", 25, "frames: smallest die across, pixels")
	maxPx := fs.Float64("max", 160, "frames: largest die across, pixels")
	cocked := fs.Bool("cocked", false, "frames: one die of each frame cocked against a tray wall beside it (labelled ?)")
	walled := fs.Bool("walled", false, "frames: one die of each frame flat against a tray wall beside it, 0 to 3 mm away (as -cocked, not tilted)")
	aa := fs.Float64("aa", 0.3, "povray antialias threshold, 0 for none")
	keep := fs.Bool("keep", false, "keep the pictures already in the output folder (an interrupted run goes on)")
	labelsOnly := fs.Bool("labels-only", false, "write labels.csv only, no pictures (the same draws)")
	trim := fs.Float64("trim", 0, "crops: keep only a square this many times the die's width around it (0: the whole crop)")
	shades := fs.String("shades", "usual", "tables: the dice bodies' shades, usual (the wide distribution's blues and reds) or odd (violets and teals, oranges and pinks: render.OddBlue, OddRed), for a calibration to learn")
	light := fs.String("light", "any", "tables: the lamp, any (the wide distribution's: dim, normal or harsh) or harsh (one small bright light: glare, top faces washed out)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || (*kind != "crops" && *kind != "frames" && *kind != "sets" && *kind != "tables") || (*split != "train" && *split != "test" && *split != "validation") {
		fs.Usage()
		return errors.New("need -out, -kind crops|frames|sets|tables and -split train|test|validation")
	}
	if *shades != "usual" && (*shades != "odd" || *kind != "tables") {
		return fmt.Errorf("-shades %q: usual, or odd with -kind tables", *shades)
	}
	if *light != "any" && (*light != "harsh" || *kind != "tables") {
		return fmt.Errorf("-light %q: any, or harsh with -kind tables", *light)
	}
	if *kind == "tables" && (*cocked || *walled) {
		return errors.New("-cocked and -walled are for -kind frames: a table's throws already cock a die against a wall one time in seven")
	}
	sp, err := render.DefaultSplit()
	if err != nil {
		return err
	}
	fonts, surfaces := sp.TrainFonts, sp.TrainSurfaces
	switch *split {
	case "test":
		fonts, surfaces = sp.TestFonts, sp.TestSurfaces
	case "validation":
		fonts = sp.ValidationFonts
	}
	if len(fonts) == 0 {
		return fmt.Errorf("dicewide: wide.yaml has no %s fonts", *split)
	}
	for _, f := range fonts {
		if _, err := render.FontPath(f); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	count := *n
	if *kind == "sets" {
		count = *n * (setCalibrate + setEval)
	}
	if *kind == "tables" {
		count = *n * (tableCalibrate + tableEval)
	}
	items := make([]item, count)
	var sets []render.DiceSet
	for i := 0; *kind == "sets" && i < *n; i++ {
		sets = append(sets, render.DrawSet(rand.New(rand.NewPCG(*seed, 1<<40+uint64(i))), fonts[i%len(fonts)]))
	}
	var tables []render.Table
	for i := 0; *kind == "tables" && i < *n; i++ {
		b := tableBands[i%len(tableBands)]
		lo, hi := max(b[0], *minPx), min(b[1], *maxPx)
		if lo >= hi {
			lo, hi = *minPx, *maxPx
		}
		t := render.DrawTable(rand.New(rand.NewPCG(*seed, 1<<40+uint64(i))), fonts[i%len(fonts)], surfaces, lo, hi)
		if *shades == "odd" {
			// (a stream of its own: the table's other draws are the
			// same as with the usual shades)
			t.Set = render.WithOddShades(rand.New(rand.NewPCG(*seed, 1<<41+uint64(i))), t.Set)
		}
		if *light == "harsh" {
			// (a stream of its own, as for the shades)
			t = t.WithHarshLight(rand.New(rand.NewPCG(*seed, 1<<42+uint64(i))))
		}
		tables = append(tables, t)
	}
	for i := range items {
		r := rand.New(rand.NewPCG(*seed, uint64(i)))
		if *kind == "tables" {
			k, j := i/(tableCalibrate+tableEval), i%(tableCalibrate+tableEval)
			t := tables[k]
			if j < tableCalibrate {
				colour := []string{"blue", "red"}[j/8]
				s, info := t.Alone(r, colour, 1+j%8)
				infos := []render.WideInfo{info, {Face: -1}}
				if colour == "red" {
					infos = []render.WideInfo{{Face: -1}, info}
				}
				items[i] = item{scene: s, infos: infos, use: "calibrate"}
			} else {
				s, infos := t.Throw(r, tableCocked)
				items[i] = item{scene: s, infos: infos, use: "eval"}
			}
			items[i].def, items[i].set = t.Defects(r), k
		} else if *kind == "sets" {
			k, j := i/(setCalibrate+setEval), i%(setCalibrate+setEval)
			colour, face, use := []string{"blue", "red"}[r.IntN(2)], 1+r.IntN(8), "eval"
			if j < setCalibrate {
				colour, face, use = []string{"blue", "red"}[j/8], 1+j%8, "calibrate"
			}
			s, info := render.WideOf(r, sets[k], colour, face, surfaces, *minPx, *maxPx)
			items[i] = item{scene: s, infos: []render.WideInfo{info}, def: render.DrawDefects(r, info.SizePx/render.WideCropDie), set: k, use: use}
		} else if *kind == "crops" {
			s, info := render.Wide(r, fonts, surfaces)
			items[i] = item{scene: s, infos: []render.WideInfo{info}, def: render.DrawDefects(r, info.SizePx/render.WideCropDie)}
		} else {
			frame := render.WideFrame
			if *cocked && *walled {
				return errors.New("-cocked and -walled: choose one")
			}
			if *walled {
				frame = render.WideWalledFrame
			}
			if *cocked {
				frame = render.WideCockedFrame
			}
			s, infos := frame(r, fonts, surfaces, *minPx, *maxPx)
			items[i] = item{scene: s, infos: infos, def: render.DrawDefects(r, 1)}
		}
		items[i].seed = *seed<<32 + uint64(i)
	}
	if *labelsOnly {
		return writeLabels(filepath.Join(*out, "labels.csv"), *kind, items)
	}
	o := render.DefaultOpts
	o.Antialias = *aa
	per := *batch
	if *kind == "frames" || *kind == "tables" {
		per = 1
	}
	type chunk struct{ from, to int }
	todo := make(chan chunk)
	errs := make(chan error, *jobs)
	var wg sync.WaitGroup
	start := time.Now()
	var mu sync.Mutex
	done := 0
	for w := 0; w < max(*jobs, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range todo {
				scenes := make([]render.Scene, 0, c.to-c.from)
				for _, it := range items[c.from:c.to] {
					scenes = append(scenes, it.scene)
				}
				var imgs []image.Image
				var err error
				if *kind == "frames" || *kind == "tables" {
					var img image.Image
					img, err = render.Render(ctx, scenes[0], items[c.from].seed, o)
					imgs = []image.Image{img}
				} else {
					imgs, err = render.RenderBatch(ctx, scenes, o)
				}
				if err != nil {
					errs <- err
					return
				}
				for k, img := range imgs {
					it := items[c.from+k]
					pic := it.def.Apply(img, it.seed)
					if *trim > 0 && *kind != "frames" && *kind != "tables" {
						pic = trimCrop(pic, *trim*it.infos[0].SizePx)
					}
					if err := writeJPEG(filepath.Join(*out, fmt.Sprintf("%05d.jpg", c.from+k)), pic, it.def.JPEG); err != nil {
						errs <- err
						return
					}
				}
				mu.Lock()
				done += c.to - c.from
				fmt.Fprintf(stdout, "%d/%d pictures, %.1fs\n", done, len(items), time.Since(start).Seconds())
				mu.Unlock()
			}
		}()
	}
feed:
	for i := 0; i < len(items); i += per {
		if *keep && allExist(*out, i, min(i+per, len(items))) {
			continue
		}
		select {
		case todo <- chunk{i, min(i+per, len(items))}:
		case err := <-errs:
			close(todo)
			wg.Wait()
			return err
		case <-ctx.Done():
			break feed
		}
	}
	close(todo)
	wg.Wait()
	select {
	case err := <-errs:
		return err
	default:
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return writeLabels(filepath.Join(*out, "labels.csv"), *kind, items)
}

// allExist says whether the pictures from to to-1 are in dir.
func allExist(dir string, from, to int) bool {
	for i := from; i < to; i++ {
		if _, err := os.Stat(filepath.Join(dir, fmt.Sprintf("%05d.jpg", i))); err != nil {
			return false
		}
	}
	return true
}

// trimCrop keeps the middle side x side square of a crop (the die is in
// its middle).
func trimCrop(img *image.RGBA, side float64) *image.RGBA {
	b := img.Bounds()
	s := min(int(side+0.5), b.Dx(), b.Dy())
	x0, y0 := (b.Dx()-s)/2, (b.Dy()-s)/2
	return img.SubImage(image.Rect(x0, y0, x0+s, y0+s)).(*image.RGBA)
}

func writeJPEG(path string, img image.Image, q int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := render.WriteJPEG(f, img, q); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// faceLabel is a die's label: its face, ? for a die that shows none
// (cocked against a wall), - for a die not in the picture (-1).
func faceLabel(face int) string {
	switch face {
	case 0:
		return "?"
	case -1:
		return "-"
	}
	return strconv.Itoa(face)
}

func writeLabels(path, kind string, items []item) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	head := []string{"file", "face"}
	frames := kind == "frames" || kind == "tables"
	if frames {
		head = []string{"file", "blue", "red"}
	}
	head = append(head, "colour", "font", "ink", "body", "numeral", "edges", "surface", "light", "size_px", "tilt", "neighbour", "wall", "blur", "exposure", "noise", "jpeg")
	if kind == "sets" {
		head = append(head, "set", "use")
	}
	if kind == "tables" {
		head = append(head, "table", "use")
	}
	_ = w.Write(head)
	for i, it := range items {
		in := it.infos[0]
		row := []string{fmt.Sprintf("%05d.jpg", i), faceLabel(in.Face)}
		colour := in.Colour
		if in.Face == -1 { // a table's red die alone: its info tells the rest
			in = it.infos[1]
		}
		if frames {
			row = append(row, faceLabel(it.infos[1].Face))
			colour = "blue+red"
			if it.infos[0].Face == -1 || it.infos[1].Face == -1 {
				colour = in.Colour // a table's die alone
			}
		}
		row = append(row, colour, in.Font, in.Ink, in.Body, in.Numeral, in.Edges, in.Surface, in.Light,
			strconv.FormatFloat(in.SizePx, 'f', 1, 64), strconv.FormatFloat(in.Tilt, 'f', 1, 64),
			strconv.FormatBool(in.Neighbor), strconv.FormatBool(in.Wall),
			strconv.FormatFloat(it.def.Blur, 'f', 1, 64), strconv.FormatFloat(it.def.Exposure, 'f', 2, 64),
			strconv.FormatFloat(it.def.Noise, 'f', 1, 64), strconv.Itoa(it.def.JPEG))
		if kind == "sets" || kind == "tables" {
			row = append(row, strconv.Itoa(it.set), it.use)
		}
		_ = w.Write(row)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
