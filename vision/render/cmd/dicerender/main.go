// Command dicerender renders labelled pictures of a blue and a red d8 with
// POV-Ray, for the tests of the dice reader and the settler.
//
// Usage:
//
//	dicerender [-kind pairs|throws|single|sequences] [-n 300] [-seed 1] [-out dir] [-jobs 2] [-reject 0.01] [-rests touching,cocked,out-of-frame]
//
// pairs writes 0000.jpg... and labels.csv (file,blue,red) plus details.csv
// (the scene of each picture: boxes, surfaces, camera, hard cases); throws
// does the same with realistic throws into a tray under a fixed camera
// (render.Throw; a die the reader must refuse is labelled "?", and
// -rests chooses the hard rests drawn at the rate -reject, "leaning" among
// them: a die leaning on the other);
// single writes one die per picture and labels.csv (file,face); sequences
// writes one folder per recorded throw (see package render's sequences).
// The same seed gives the same pictures.
package main

import (
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"comptoir/vision/render"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "dicerender:", err)
		}
		os.Exit(1)
	}
}

type job struct {
	name  string // file name, relative to the output folder
	scene render.Scene
	seed  uint64
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	fs := flag.NewFlagSet("dicerender", flag.ContinueOnError)
	fs.SetOutput(stderr)
	kind := fs.String("kind", "pairs", "what to render: pairs, throws, single or sequences")
	n := fs.Int("n", 50, "number of pictures (pairs, single)")
	seed := fs.Uint64("seed", 1, "random seed; the same seed gives the same pictures")
	out := fs.String("out", "", "output folder (required)")
	width := fs.Int("width", 640, "picture width")
	height := fs.Int("height", 480, "picture height")
	jobs := fs.Int("jobs", 2, "povray processes at once")
	hard := fs.Float64("hard", render.DefaultRandomOpts.HardRate, "probability of each hard case")
	reject := fs.Float64("reject", render.DefaultThrowOpts.RejectRate, "throws: probability of a hard rest (see -rests)")
	rests := fs.String("rests", strings.Join(render.DefaultRests, ","), "throws: the hard rests drawn at the rate -reject, comma-separated: touching (both dice flat, read), cocked (against a wall), out-of-frame, leaning (on the other die); the last three are refused")
	pov := fs.Bool("pov", false, "also write each scene's .pov file")
	only := fs.String("only", "", "sequences: render only the sequence of this name")
	from := fs.Int("from", 0, "pairs, single: render only pictures from this index on (the labels cover all)")
	keep := fs.Bool("keep", false, "keep pictures already in the output folder, render only the missing ones")
	opts := render.DefaultOpts
	fs.Float64Var(&opts.Antialias, "aa", opts.Antialias, "povray antialias threshold, 0 for none")
	fs.IntVar(&opts.Quality, "quality", opts.Quality, "JPEG quality")
	if err = fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("need -out and no other arguments")
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}

	var todo []job
	switch *kind {
	case "throws":
		to := render.DefaultThrowOpts
		to.Width, to.Height, to.RejectRate = *width, *height, *reject
		to.Rests = strings.Split(*rests, ",")
		for _, r := range to.Rests {
			if !slices.Contains([]string{render.Touching, render.RejectCocked, render.RejectOutOfFrame, render.RejectLeaning}, r) {
				return fmt.Errorf("-rests %q: %q is not a rest; give some of touching, cocked, out-of-frame, leaning, comma-separated", *rests, r)
			}
		}
		for i := 0; i < *n; i++ {
			r := rand.New(rand.NewPCG(*seed, uint64(i)))
			todo = append(todo, job{fmt.Sprintf("%04d.jpg", i), render.Throw(r, to), *seed<<32 | uint64(i)})
		}
		all := todo
		defer func() {
			if err == nil {
				err = writeLabels(*out, *kind, all)
			}
		}()
	case "pairs", "single":
		ro := render.DefaultRandomOpts
		ro.Width, ro.Height, ro.HardRate = *width, *height, *hard
		if *kind == "single" {
			ro.Dice = []string{"blue"}
		}
		for i := 0; i < *n; i++ {
			r := rand.New(rand.NewPCG(*seed, uint64(i)))
			if *kind == "single" {
				ro.Dice[0] = []string{"blue", "red"}[r.IntN(2)]
			}
			todo = append(todo, job{fmt.Sprintf("%04d.jpg", i), render.Random(r, ro), *seed<<32 | uint64(i)})
		}
		all := todo
		defer func() {
			// The labels go last, once every picture is there, so that a
			// reader of the folder never sees labels without pictures.
			if err == nil {
				err = writeLabels(*out, *kind, all)
			}
		}()
	case "sequences":
		for si, seq := range render.Sequences(*seed, *width, *height) {
			if *only != "" && seq.Name != *only {
				continue
			}
			if err := os.MkdirAll(filepath.Join(*out, seq.Name), 0o755); err != nil {
				return err
			}
			for i, f := range seq.Frames {
				todo = append(todo, job{filepath.Join(seq.Name, fmt.Sprintf("%03d.jpg", i)), f.Scene, *seed<<40 | uint64(si)<<20 | uint64(i)})
			}
			if err := seq.WriteFiles(filepath.Join(*out, seq.Name)); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("unknown -kind %q: want pairs, throws, single or sequences", *kind)
	}

	if *from > 0 && *kind != "sequences" {
		todo = todo[min(*from, len(todo)):]
	}

	if *keep {
		var missing []job
		for _, j := range todo {
			if _, err := os.Stat(filepath.Join(*out, j.name)); err != nil {
				missing = append(missing, j)
			}
		}
		todo = missing
	}

	// Render, jobs at a time.
	start := time.Now()
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex // guards firstErr and done
		firstErr error
		done     int
	)
	ch := make(chan job)
	for w := 0; w < max(*jobs, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range ch {
				err := renderOne(ctx, *out, j, opts, *pov)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				done++
				if done%25 == 0 {
					fmt.Fprintf(stdout, "%d/%d pictures, %.2fs each\n", done, len(todo), time.Since(start).Seconds()/float64(done)*float64(max(*jobs, 1)))
				}
				mu.Unlock()
			}
		}()
	}
	for _, j := range todo {
		mu.Lock()
		failed := firstErr != nil
		mu.Unlock()
		if failed || ctx.Err() != nil {
			break
		}
		ch <- j
	}
	close(ch)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	fmt.Fprintf(stdout, "%d pictures in %s\n", len(todo), time.Since(start).Round(time.Second))
	return ctx.Err()
}

func renderOne(ctx context.Context, out string, j job, o render.Opts, pov bool) error {
	path := filepath.Join(out, j.name)
	if pov {
		f, err := os.Create(strings.TrimSuffix(path, ".jpg") + ".pov")
		if err != nil {
			return err
		}
		if err := j.scene.WritePOV(f); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	img, err := render.Render(ctx, j.scene, j.seed, o)
	if err != nil {
		return fmt.Errorf("%s: %w", j.name, err)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := render.WriteJPEG(f, img, o.Quality); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeLabels writes labels.csv and details.csv for pictures of dice at
// rest.
func writeLabels(out, kind string, todo []job) error {
	labels := [][]string{{"file", "blue", "red"}}
	if kind == "single" {
		labels = [][]string{{"file", "face"}}
	}
	details := [][]string{{"file", "die", "face", "x0", "y0", "x1", "y1", "size_mm", "font", "table", "floor", "camera_height_mm", "fov", "hard"}}
	if kind == "throws" {
		details[0] = append(details[0], "must_reject")
	}
	for _, j := range todo {
		row := []string{j.name}
		for i, d := range j.scene.Dice {
			face, flat := d.Face()
			label := strconv.Itoa(face)
			switch {
			case d.Reject != "":
				label = "?"
			case !flat:
				return fmt.Errorf("%s: %s die is not lying flat", j.name, d.Name)
			}
			row = append(row, label)
			b := j.scene.DieBox(i)
			floor := ""
			if j.scene.Tray != nil {
				floor = j.scene.Tray.Floor.Name
			}
			dr := []string{j.name, d.Name, label,
				strconv.Itoa(b.X0), strconv.Itoa(b.Y0), strconv.Itoa(b.X1), strconv.Itoa(b.Y1),
				strconv.FormatFloat(d.Size, 'f', 1, 64), d.Font, j.scene.Table.Name, floor,
				strconv.FormatFloat(j.scene.Camera.Loc.Y, 'f', 0, 64), strconv.FormatFloat(j.scene.Camera.FOV, 'f', 1, 64),
				strings.Join(j.scene.Hard, " ")}
			if kind == "throws" {
				dr = append(dr, d.Reject)
			}
			details = append(details, dr)
		}
		labels = append(labels, row)
	}
	if err := writeCSV(filepath.Join(out, "labels.csv"), labels); err != nil {
		return err
	}
	return writeCSV(filepath.Join(out, "details.csv"), details)
}

func writeCSV(path string, rows [][]string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	if err := w.WriteAll(rows); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
