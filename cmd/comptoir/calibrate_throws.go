package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"comptoir/cmd/internal/dicefeed"
	"comptoir/vision"
)

// openCalibrateCamera opens the camera of a calibration by free throws
// (tests give a folder of frames instead).
var openCalibrateCamera = func(device string) (vision.Source, error) {
	return vision.OpenCamera(device, vision.DefaultCameraOpts)
}

// errThrowsDone ends the throws early (the user typed done, or the frames
// of a folder ran out).
var errThrowsDone = errors.New("no more throws")

// throwFeed gives the frames of free throws and the faces the players
// confirm for each.
type throwFeed interface {
	// next puts the next throw's frame in frame and names it;
	// errThrowsDone when there is none.
	next(frame *vision.Frame) (string, error)
	// confirm returns the faces the players confirm for the reading.
	confirm(name string, roll vision.Roll) (blue, red int, err error)
}

// calibrateThrows calibrates the learned reader from n free throws of the
// blue and the red die, from a camera or from the frames of dir.
func calibrateThrows(camera, dir, out string, n int, stdout, stderr io.Writer) error {
	var feed throwFeed
	if dir != "" {
		f, err := newDirThrows(dir, stdout)
		if err != nil {
			return err
		}
		feed = f
	} else {
		cam, err := openCalibrateCamera(camera)
		if err != nil {
			return err
		}
		defer cam.Close()
		feed = &cameraThrows{src: cam, in: bufio.NewScanner(calibrateIn), stdout: stdout, stderr: stderr}
	}
	k, err := vision.NewNetCalibrator(vision.DefaultNetOpts)
	if err != nil {
		return err
	}
	defer k.Close()
	frame := vision.NewFrame()
	defer frame.Close()
	done := 0
	for done < n && (len(k.Missing("blue")) > 0 || len(k.Missing("red")) > 0) {
		name, err := feed.next(&frame)
		if errors.Is(err, errThrowsDone) {
			break
		}
		if err != nil {
			return err
		}
		roll := k.Read(frame)
		b, r, err := feed.confirm(name, roll)
		if errors.Is(err, errThrowsDone) {
			break
		}
		if err != nil {
			return err
		}
		err = k.AddThrow(frame, b, r)
		var te *vision.ThrowError
		switch {
		case err == nil:
			done++
			fmt.Fprintf(stdout, "throw %d of %d: blue %d, red %d learned\n", done, n, b, r)
		case errors.As(err, &te):
			fmt.Fprintf(stderr, "%s: %s\n", name, te.EN())
			if len(te.Learned) > 0 {
				done++
				fmt.Fprintf(stdout, "throw %d of %d: the %s die learned\n", done, n, strings.Join(te.Learned, " and "))
			}
		default:
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	for _, die := range []string{"blue", "red"} {
		fmt.Fprintf(stdout, "%s die: faces %s seen", die, faceList(k.Shown(die)))
		if m := k.Missing(die); len(m) > 0 {
			fmt.Fprintf(stdout, ", %s not seen (read as without calibration)", faceList(m))
		}
		fmt.Fprintln(stdout)
	}
	c, err := k.PartialCalibration(1)
	if err != nil {
		return err
	}
	if err := dicefeed.WriteCalibration(out, c, time.Now()); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "calibration saved to %s: %d throws, %d dice, prototypes of faces %s\n", out, done, k.Learned(), faceList(c.Faces()))
	tiltNote(stdout, c)
	flatNote(stdout, c)
	sizeNote(stdout, k.DieAcross())
	colourNote(stdout, c)
	return nil
}

// faceList prints faces as "1 3 5" ("none" when empty).
func faceList(faces []int) string {
	if len(faces) == 0 {
		return "none"
	}
	var s []string
	for _, f := range faces {
		s = append(s, strconv.Itoa(f))
	}
	return strings.Join(s, " ")
}

// cameraThrows asks the players to throw, captures the frame and asks
// them to confirm the reading.
type cameraThrows struct {
	src            vision.Source
	in             *bufio.Scanner
	stdout, stderr io.Writer
}

func (c *cameraThrows) next(frame *vision.Frame) (string, error) {
	fmt.Fprintln(c.stdout, "throw both dice into the tray, then press Enter (or type done to finish)")
	if !c.in.Scan() {
		return "", errors.New("calibration stopped: end of input (type done to save what was learned)")
	}
	if strings.TrimSpace(strings.ToLower(c.in.Text())) == "done" {
		return "", errThrowsDone
	}
	for range vision.CaptureSkip {
		if !c.src.Read(frame) {
			err := vision.SourceErr(c.src)
			if err == nil {
				err = errors.New("the camera gave no frame")
			}
			return "", fmt.Errorf("no frame: %w", err)
		}
	}
	return "the throw", nil
}

// readFace prints a die's reading: its face, or ? when unread.
func readFace(d vision.Die) string {
	if d.Face == 0 {
		return "?"
	}
	return strconv.Itoa(d.Face)
}

func (c *cameraThrows) confirm(_ string, roll vision.Roll) (int, int, error) {
	for {
		if roll.Blue.Face != 0 && roll.Red.Face != 0 {
			fmt.Fprintf(c.stdout, "blue %d, red %d — Enter if right, or type the faces, e.g. 4 5\n", roll.Blue.Face, roll.Red.Face)
		} else {
			fmt.Fprintf(c.stdout, "blue %s, red %s — type the faces the dice show, blue first, e.g. 4 5\n", readFace(roll.Blue), readFace(roll.Red))
		}
		if !c.in.Scan() {
			return 0, 0, errors.New("calibration stopped: end of input (type done to save what was learned)")
		}
		b, r, err := parseThrowFaces(c.in.Text(), roll)
		if errors.Is(err, errThrowsDone) {
			return 0, 0, err
		}
		if err != nil {
			fmt.Fprintf(c.stderr, "%v: type the two faces, blue first, e.g. 4 5\n", err)
			continue
		}
		return b, r, nil
	}
}

// parseThrowFaces reads the players' answer to a reading: empty when the
// reading is right, else the blue and the red face ("4 5", "4,5"), or
// done.
func parseThrowFaces(line string, roll vision.Roll) (int, int, error) {
	line = strings.TrimSpace(line)
	if strings.ToLower(line) == "done" {
		return 0, 0, errThrowsDone
	}
	if line == "" {
		if roll.Blue.Face == 0 || roll.Red.Face == 0 {
			return 0, 0, errors.New("the camera could not read both dice")
		}
		return roll.Blue.Face, roll.Red.Face, nil
	}
	fields := strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' })
	if len(fields) != 2 {
		n := strconv.Itoa(len(fields)) + " numbers"
		if len(fields) == 1 {
			n = "one number"
		}
		return 0, 0, fmt.Errorf("%q: %s, want two (the blue die, then the red)", line, n)
	}
	var faces [2]int
	for i, f := range fields {
		v, err := strconv.Atoi(f)
		if err != nil || v < 1 || v > 8 {
			return 0, 0, fmt.Errorf("%q: a d8 shows 1 to 8", f)
		}
		faces[i] = v
	}
	return faces[0], faces[1], nil
}

// dirThrows takes the throws from a folder's frames in the order of its
// labels.csv (file,blue,red), the labels standing for the players'
// confirmations.
type dirThrows struct {
	dir    string
	files  []string
	labels map[string][]int
	stdout io.Writer
}

func newDirThrows(dir string, stdout io.Writer) (*dirThrows, error) {
	data, err := os.ReadFile(filepath.Join(dir, "labels.csv"))
	if err != nil {
		return nil, fmt.Errorf("%s: free throws from a folder need its labels.csv (file,blue,red): %w", dir, err)
	}
	labels, err := parseDiceLabels(bytes.NewReader(data), false)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "labels.csv"), err)
	}
	cr := csv.NewReader(bytes.NewReader(data))
	cr.FieldsPerRecord = -1
	recs, err := cr.ReadAll()
	if err != nil {
		return nil, err
	}
	d := &dirThrows{dir: dir, labels: labels, stdout: stdout}
	for _, rec := range recs[1:] {
		d.files = append(d.files, filepath.Base(strings.TrimSpace(rec[0])))
	}
	return d, nil
}

func (d *dirThrows) next(frame *vision.Frame) (string, error) {
	for len(d.files) > 0 {
		name := d.files[0]
		d.files = d.files[1:]
		if f := d.labels[name]; f[0] == 0 || f[1] == 0 {
			fmt.Fprintf(d.stdout, "%s: a face is not known (?): skipped\n", name)
			continue
		}
		data, err := os.ReadFile(filepath.Join(d.dir, name))
		if err != nil {
			return "", err
		}
		m, err := vision.DecodeImage(data)
		if err != nil {
			return "", fmt.Errorf("%s: %w", name, err)
		}
		frame.Close()
		*frame = m
		return name, nil
	}
	return "", errThrowsDone
}

func (d *dirThrows) confirm(name string, roll vision.Roll) (int, int, error) {
	f := d.labels[name]
	fmt.Fprintf(d.stdout, "%s: blue %s, red %s — confirmed blue %d, red %d (labels.csv)\n", name, readFace(roll.Blue), readFace(roll.Red), f[0], f[1])
	return f[0], f[1], nil
}
