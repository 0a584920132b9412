package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"comptoir/cmd/internal/dicefeed"
	"comptoir/vision"
)

func init() {
	commands["calibrate"] = command{
		summary: "learn the numerals of the dice from the camera, one face at a time",
		run:     runCalibrate,
	}
}

const calibrateUsage = `usage: comptoir calibrate --camera /dev/video0 --out FILE --throws N
       comptoir calibrate --dir DIR --out FILE --throws N
       comptoir calibrate --camera /dev/video0 --out FILE [--dice blue,red] [--hand-tuned]
       comptoir calibrate --dir DIR --out FILE [--dice blue,red] [--hand-tuned]

Teaches the reader this table's dice and stores what it learns in FILE
(JSON, in the table configuration): the classifier's view of this set's
numerals (prototypes), which lets it read numerals it hesitated on and
refuse the ones this set's numerals contradict; comptoir dice and the
daemon use it with --calibration FILE. Calibrate at the camera's own
height: the dice may be 25 to 160 pixels across.

With --throws N (8 is a good number), the players make N ordinary throws
of the blue and the red die: for each, throw both dice into the tray and
press Enter; the reader's reading is printed ("blue 3, red 5 — Enter if
right, or type the faces, e.g. 4 5"); press Enter if it is right, or type
the faces the dice show (blue first), then the confirmed faces are
learned. It stops after N throws, when every face of both dice was seen,
or when you type done; it prints the faces each die has shown and writes
FILE. The faces never seen keep the uncalibrated reading: a calibration
from a few throws only ever helps, and more throws help more.
With --dir DIR --throws N, the throws are the frames listed in
DIR/labels.csv (file,blue,red: what the players confirmed), for testing
without a camera.

Without --throws, it asks for each face of each die in turn (--camera): lay
the die alone in the tray with that face up, then press Enter; or takes
the pictures DIR/<die>-<face>.<ext> (--dir; for example blue-1.jpg ...
red-8.png).

--throws N
         calibrate from N free throws of both dice (blue and red)
--dice   the dice to calibrate one face at a time: blue and red (default),
         or die for a single die of any colour
--hand-tuned
         learn numeral templates for the former hand-tuned reader instead
`

// calibrateIn is where the camera calibration reads the presses of Enter.
var calibrateIn io.Reader = os.Stdin

func runCalibrate(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("calibrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	camera := fs.String("camera", "", "camera device, such as /dev/video0")
	dir := fs.String("dir", "", "folder of pictures <die>-<face>.<ext>")
	out := fs.String("out", "", "calibration file to write")
	diceList := fs.String("dice", "blue,red", "dice to calibrate: blue,red or die")
	handTuned := fs.Bool("hand-tuned", false, "learn templates for the former hand-tuned reader")
	throws := fs.Int("throws", 0, "calibrate from this many free throws of both dice (8 is a good number)")
	fs.Usage = func() { fmt.Fprint(stderr, calibrateUsage) }
	if err := fs.Parse(args); err != nil || fs.NArg() != 0 {
		if err == nil {
			fs.Usage()
		}
		return errUsage
	}
	if (*camera == "") == (*dir == "") || *out == "" {
		fmt.Fprintln(stderr, "comptoir calibrate: give --out and one of --camera and --dir")
		fs.Usage()
		return errUsage
	}
	if *throws < 0 || (*throws > 0 && (*handTuned || *diceList != "blue,red")) {
		fmt.Fprintln(stderr, "comptoir calibrate: --throws N wants N at least 1, the blue and the red die, and the learned reader (no --dice, no --hand-tuned)")
		return errUsage
	}
	if *throws > 0 {
		return calibrateThrows(*camera, *dir, *out, *throws, stdout, stderr)
	}
	var dice []string
	for _, d := range strings.Split(*diceList, ",") {
		d = strings.TrimSpace(d)
		if d != "blue" && d != "red" && d != "die" {
			fmt.Fprintf(stderr, "comptoir calibrate: --dice %q: each die is blue, red or die\n", d)
			return errUsage
		}
		dice = append(dice, d)
	}
	if !*handTuned {
		return calibrateNet(*camera, *dir, *out, dice, stdout, stderr)
	}
	c, err := vision.NewCalibration(vision.DefaultReaderOpts)
	if err != nil {
		return err
	}
	if *dir != "" {
		err = calibrateFromDir(c, *dir, dice, stdout)
	} else {
		err = calibrateFromCamera(c, *camera, dice, stdout, stderr)
	}
	if err != nil {
		return err
	}
	m, err := c.Model()
	if err != nil {
		return err
	}
	if err := vision.SaveCalibration(*out, dice, m, time.Now()); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "calibration saved to %s: %d numeral templates\n", *out, len(m.Templates))
	return nil
}

// calibrateNet makes the learned reader's calibration.
func calibrateNet(camera, dir, out string, dice []string, stdout, stderr io.Writer) error {
	k, err := vision.NewNetCalibrator(vision.DefaultNetOpts)
	if err != nil {
		return err
	}
	defer k.Close()
	if dir != "" {
		err = calibrateFromDir(k, dir, dice, stdout)
	} else {
		err = calibrateFromCamera(k, camera, dice, stdout, stderr)
	}
	if err != nil {
		return err
	}
	c, err := k.Calibration()
	if err != nil {
		return err
	}
	if err := dicefeed.WriteCalibration(out, c, time.Now()); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "calibration saved to %s: prototypes of %d dice\n", out, len(dice))
	tiltNote(stdout, c)
	flatNote(stdout, c)
	sizeNote(stdout, k.DieAcross())
	colourNote(stdout, c)
	return nil
}

// adder learns a face from a picture or from a camera: the hand-tuned
// reader's Calibration or the learned reader's NetCalibrator.
type adder interface {
	Add(frame vision.Frame, die string, face int) error
	AddFrom(src vision.Source, die string, face int) error
}

// calibrateFromDir adds the pictures DIR/<die>-<face>.<ext>.
func calibrateFromDir(c adder, dir string, dice []string, stdout io.Writer) error {
	for _, die := range dice {
		for face := 1; face <= 8; face++ {
			var path string
			for ext := range pictureExts {
				p := filepath.Join(dir, fmt.Sprintf("%s-%d%s", die, face, ext))
				if _, err := os.Stat(p); err == nil {
					path = p
					break
				}
			}
			if path == "" {
				return fmt.Errorf("%s: no picture %s-%d.jpg (or .png, .jpeg, .bmp) of the %s die with face %d up", dir, die, face, die, face)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			m, err := vision.DecodeImage(data)
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			err = c.Add(m, die, face)
			m.Close()
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			fmt.Fprintf(stdout, "%s die, face %d: learned from %s\n", die, face, filepath.Base(path))
		}
	}
	return nil
}

// calibrateFromCamera asks for each face in turn and captures it.
func calibrateFromCamera(c adder, device string, dice []string, stdout, stderr io.Writer) error {
	cam, err := vision.OpenCamera(device, vision.DefaultCameraOpts)
	if err != nil {
		return err
	}
	defer cam.Close()
	in := bufio.NewScanner(calibrateIn)
	for _, die := range dice {
		for face := 1; face <= 8; face++ {
			for {
				name := die + " die"
				if die == "die" {
					name = "die"
				}
				fmt.Fprintf(stdout, "show the %s with face %d up, then press Enter\n", name, face)
				if !in.Scan() {
					return fmt.Errorf("calibration stopped at the %s, face %d (end of input)", name, face)
				}
				if err := c.AddFrom(cam, die, face); err != nil {
					if !errors.Is(err, vision.ErrCalibration) {
						return fmt.Errorf("%s: %w", device, err)
					}
					fmt.Fprintf(stderr, "%v\n", err)
					continue
				}
				fmt.Fprintf(stdout, "%s, face %d: learned\n", name, face)
				break
			}
		}
	}
	return nil
}

// tiltNote says, when the calibration saw it, that the hand-tuned
// reader's "tilted" test refused flat dice at this camera, and what the
// reader does about it (vision.NetCalibration.TiltMisleads).
func tiltNote(w io.Writer, c *vision.NetCalibration) {
	if c.TiltMisleads() {
		fmt.Fprintf(w, "the camera leans: %d of the %d dice shown, lying flat, looked tilted to the hand-tuned reader; at this table a die it finds tilted is read when the pose network is at least %.0f%% sure it lies flat\n",
			c.HandTilted, c.HandChecked, 100*vision.CalibratedFlatOverTilt)
	}
}

// colourNote says, when the calibration learned the colour of a die its
// reader's own range did not find (a violet "blue", an orange "red"),
// the hues it now finds that die by.
func colourNote(w io.Writer, c *vision.NetCalibration) {
	if s := c.ColourWords(); s != "" {
		o := vision.DefaultNetOpts
		fmt.Fprintf(w, "learned the colour of these dice: %s (the reader's own: blue die %d-%d, red die %d-%d degrees); the reader finds them so with this calibration\n",
			s, 2*o.Blue.HMin, 2*o.Blue.HMax, 2*o.Red.HMin, 2*o.Red.HMax)
	}
}

// sizeNote says, when the dice learned are under vision.SmallDieAcross
// pixels across (their median, in a picture 640 wide; 0: none learned),
// that the camera is too far for the reader to read most of them, and
// what to change.
func sizeNote(w io.Writer, across float64) {
	if vision.DiceTooSmall(across) {
		fmt.Fprintf(w, "the dice are about %.0f pixels across (in a picture 640 wide): under %d the reader reads far fewer of them; bring the camera lower (or zoom in) until a die is at least %d pixels across, then calibrate again\n",
			across, vision.SmallDieAcross, vision.SmallDieAcross)
	}
}

// flatNote says how many flat dice showed where this camera shows a flat
// die's numeral, and whether the reader now refuses the dice whose
// numeral strays from it (vision.NetCalibration.FlatDice).
func flatNote(w io.Writer, c *vision.NetCalibration) {
	switch n, used := c.FlatDice(); {
	case used:
		fmt.Fprintf(w, "%d flat dice showed where this camera shows a flat die's numeral: a die whose numeral lies elsewhere is refused as cocked\n", n)
	default:
		fmt.Fprintf(w, "only %d flat dice in whole pictures: too few to tell where this camera shows a flat die's numeral; the reader learns it as the table plays (calibrate with more throws for it to refuse a die cocked against a wall from the first throw)\n", n)
	}
}
