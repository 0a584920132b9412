// Package dicefeed is the dice reader's process: it reads the dice from a
// camera, a video, a folder of frames or pictured rolls, and writes each
// roll as a recording line (comptoir/hw/replay) on stdout for comptoird,
// its parent. It answers the staff page's requests on stdin (the reader's
// verdicts, a frame for inspection, a calibration learned from throws).
//
// It runs as `comptoir-dice dicefeed` (cmd/comptoir-dice, which holds
// only this command and so maps far less memory than the whole command
// line) or as `comptoir dicefeed`.
package dicefeed

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"image"
	"io"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"comptoir/cmd/internal/libpages"
	"comptoir/hw/clock"
	"comptoir/hw/replay"
	"comptoir/input"
	"comptoir/vision"
	"comptoir/vision/stills"
)

// Summary is the one-line help of the dicefeed command.
const Summary = "read the dice (camera, video, frames or pictured rolls) and write the rolls as recording lines on stdout"

// ErrUsage is returned by Run when its arguments are wrong, after it
// printed its usage.
var ErrUsage = errors.New("usage")

// pictureHandTimeout replaces the settler's hand timeout for pictured
// rolls: a roll is a new picture at once, not dice tumbling then resting,
// so the settler takes the changed tray as a new look after this many
// still frames (a third of a second at 30 frames a second) instead of
// waiting for a hand to leave.
const pictureHandTimeout = 10

// feedOpts says where dicefeed takes its frames.
type feedOpts struct {
	Camera   string  // a camera device, /dev/video0 or an index
	Video    string  // a video file
	Frames   string  // a folder of frames, read in name order
	Pictures string  // a folder of labelled pictures (labels.csv), shown on request
	FPS      float64 // the pace of a video, frames or pictures
	Loop     bool    // play the video or the frames again at their end
	// KeepOnEOF keeps running when stdin ends (otherwise the end of stdin
	// stops dicefeed: its parent has gone).
	KeepOnEOF bool
	Clock     clock.Clock
	// Calibration is a file of comptoir calibrate for this table's dice
	// (empty: the classifier alone).
	Calibration string
	// Learned is a file where the reader keeps what it learned of its
	// camera across restarts (empty: none; dicefeed_learned.go).
	Learned string
	// Readings also writes the reader's verdict die by die before each
	// roll reported, and answers inspect requests (dicefeed_tap.go).
	Readings bool
	// GiveBack gives the process's library pages back to the kernel once
	// the reader is made (package libpages): Run sets it, the tests, which
	// run dicefeed inside the test process, do not.
	GiveBack bool
}

// Run runs the dicefeed command with the arguments after its name, until
// SIGTERM, SIGINT, the end of stdin (unless --keep-on-eof) or the end of
// its frames.
func Run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("dicefeed", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := feedOpts{GiveBack: true}
	fs.StringVar(&o.Camera, "camera", "", "read the dice camera `device` (/dev/video0, or an index like 0); reopened when it goes away")
	fs.StringVar(&o.Video, "video", "", "read a video `file`")
	fs.StringVar(&o.Frames, "frames", "", "read a `folder` of frame pictures (.jpg, .png, .bmp) in name order")
	fs.StringVar(&o.Pictures, "pictures", "", "show labelled pictures from a `folder` (labels.csv: file,blue,red): each line read on stdin, a recording line of type dice, shows a picture of that roll to the reader")
	fs.Float64Var(&o.FPS, "fps", 30, "frames a second of --video, --frames and --pictures")
	fs.BoolVar(&o.Loop, "loop", false, "play --video or --frames again when they end")
	fs.StringVar(&o.Calibration, "calibration", "", "the dice set's calibration `file` (comptoir calibrate)")
	fs.StringVar(&o.Learned, "learned", "", "keep what the reader learns of its camera during play (where it shows a flat die's numeral, how large the dice look) in this `file`, read at start and written after each rest of the dice: a restart does not forget it")
	fs.BoolVar(&o.KeepOnEOF, "keep-on-eof", false, "keep running when stdin ends (by default the end of stdin stops dicefeed)")
	fs.BoolVar(&o.Readings, "readings", false, `also write the reader's verdict die by die before each roll (a line of type "reading"), answer {"type":"inspect","file":PATH} on stdin with the last frame read, and learn it as a throw ({"type":"learn","id":N,"blue":B,"red":R}), save and use the calibration learned ({"type":"calibrate","id":N,"file":PATH}), which keeps the --calibration file's, start again from nothing ({"type":"reset","id":N}), or forget the camera, moved ({"type":"forget-camera","id":N})`)
	fs.Usage = func() {
		// comptoir-dice dicefeed, or comptoir dicefeed
		fmt.Fprintf(stderr, "usage: %s dicefeed (--camera DEVICE | --video FILE | --frames DIR [--fps 30] [--loop] | --pictures DIR)\n", filepath.Base(os.Args[0]))
		fmt.Fprintln(stderr, "Reads the dice and writes each roll, unreadable roll and camera status as a")
		fmt.Fprintln(stderr, "JSON line of package comptoir/hw/replay on stdout. Stops on SIGTERM, SIGINT")
		fmt.Fprintln(stderr, "or the end of stdin (comptoird starts it this way as its dice reader).")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return ErrUsage
	}
	n := 0
	for _, s := range []string{o.Camera, o.Video, o.Frames, o.Pictures} {
		if s != "" {
			n++
		}
	}
	if n != 1 || fs.NArg() > 0 || o.FPS <= 0 || o.FPS > 1000 {
		fs.Usage()
		if n != 1 {
			return fmt.Errorf("dicefeed: give one of --camera, --video, --frames or --pictures: %w", ErrUsage)
		}
		return ErrUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// the reader's process: OpenCV on one thread costs less CPU a frame
	vision.SetThreads(1)
	return dicefeed(ctx, o, os.Stdin, stdout, stderr)
}

// dicefeed reads the dice until ctx ends, stdin ends or the frames end,
// and writes every event on stdout, one line each.
func dicefeed(ctx context.Context, o feedOpts, stdin io.Reader, stdout, stderr io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if o.Clock == nil {
		o.Clock = clock.Real()
	}
	logger := log.New(stderr, "dicefeed: ", 0)
	var calib *vision.NetCalibration
	if o.Calibration != "" {
		var err error
		if calib, err = vision.LoadNetCalibration(o.Calibration); err != nil {
			return fmt.Errorf("dicefeed: %w", err)
		}
	}
	first, err := vision.NewCombined(calib)
	if err != nil {
		return fmt.Errorf("dicefeed: dice reader: %w", err)
	}
	// The reader is made: the libraries' pages touched at start go back
	// to the kernel, what the reader uses comes back (package libpages).
	if o.GiveBack {
		if n, err := libpages.Drop(); err != nil {
			logger.Printf("memory: %v (the libraries' pages stay resident until the kernel needs them)", err)
		} else {
			logger.Printf("memory: gave back the pages of %d read-only file mappings; those the reader uses come back", n)
		}
	}
	// a calibration from the table's throws replaces it (dicefeed_calib.go)
	reader := &swapReader{r: first}
	var learned *learnedFile
	if o.Learned != "" {
		learned = &learnedFile{path: o.Learned, now: o.Clock.Now, logger: logger}
		learned.restore(reader)
	}
	// closed after Watch's goroutine is done with it (deferred below,
	// so it runs after the events are drained)
	defer reader.Close()
	stdout = &lineWriter{w: stdout}
	w := replay.NewWriter(stdout)
	status := func(ok bool, detail string) error {
		return w.Write(input.DeviceStatus{At: o.Clock.Now(), Device: "camera", OK: ok, Detail: detail})
	}
	wo := vision.DefaultWatchOpts
	wo.Clock = o.Clock
	var src vision.Source
	var pics *pictures
	switch {
	case o.Camera != "":
		// A camera missing at start is reported and tried again, like a
		// camera unplugged later.
		first, err := vision.OpenCamera(o.Camera, vision.DefaultCameraOpts)
		if err != nil {
			logger.Printf("camera: %v (trying again in the background)", err)
		}
		src = vision.Reconnect(ctx, func() (vision.Source, error) {
			if first != nil {
				c := first
				first = nil
				return c, nil
			}
			return vision.OpenCamera(o.Camera, vision.DefaultCameraOpts)
		}, vision.DefaultReconnectOpts)
		// A camera missing now is reported by the reconnecting source's
		// first read.
		if err == nil {
			if err := status(true, "camera "+o.Camera); err != nil {
				return fmt.Errorf("dicefeed: stdout: %w", err)
			}
		}
	case o.Video != "" || o.Frames != "":
		open := func() (vision.Source, error) { return vision.OpenVideo(o.Video) }
		name := "video " + o.Video
		if o.Frames != "" {
			open = func() (vision.Source, error) { return vision.OpenDir(o.Frames) }
			name = "frames " + o.Frames
		}
		s, err := open()
		if err != nil {
			return fmt.Errorf("dicefeed: %w", err)
		}
		if o.Loop {
			first := s
			s = stills.Loop(func() (vision.Source, error) {
				if first != nil {
					f := first
					first = nil
					return f, nil
				}
				return open()
			})
		}
		src = stills.Pace(ctx, s, o.FPS, o.Clock)
		if err := status(true, name); err != nil {
			return fmt.Errorf("dicefeed: stdout: %w", err)
		}
	default:
		// The pictures are checked with a reader of their own: Watch's is
		// busy in its goroutine.
		check, err := vision.NewCombined(calib)
		if err != nil {
			return fmt.Errorf("dicefeed: dice reader: %w", err)
		}
		defer check.Close()
		if pics, err = openPictures(ctx, o.Pictures, check, o.FPS, o.Clock); err != nil {
			return fmt.Errorf("dicefeed: %w", err)
		}
		src = pics.shown
		wo.Settle.HandTimeout = pictureHandTimeout
		if err := status(true, "pictures "+o.Pictures); err != nil {
			return fmt.Errorf("dicefeed: stdout: %w", err)
		}
	}
	defer src.Close()

	// stdin: the parent's requests (pictured rolls), and its end. The
	// goroutine ends with stdin (the process ends anyway).
	read := reader.Read
	var t tap
	var cal *calibrator
	if o.Readings {
		rt, tapped := tapReader(reader.Read, wo.Settle.ReadFrames, o.Clock)
		defer rt.close() // after Watch's goroutine has ended (deferred below)
		t, read = rt, tapped
		cal = &calibrator{reader: reader, last: rt.withLast, now: o.Clock.Now, seed: calib}
		if learned != nil {
			cal.forgot = func() { learned.save(reader) }
		}
		if r, ok := cal.inUse(); ok {
			if err := writeLine(stdout, r); err != nil {
				return fmt.Errorf("dicefeed: stdout: %w", err)
			}
		}
		// closed once the stdin goroutine, its only user, is done or
		// the process ends
	}
	stdinDone := make(chan error, 1)
	go func() {
		err := readRequests(stdin, pics, t, cal, stdout, w, logger)
		if cal != nil {
			cal.close()
		}
		stdinDone <- err
	}()
	// the reader learns where this camera shows a flat die's numeral
	// from the dice at rest, to refuse a die cocked against a wall
	wo.Learn = reader.LearnFlat
	events := vision.Watch(ctx, src, read, wo)
	defer func() {
		cancel()
		for range events {
		}
	}()
	for {
		select {
		case e, ok := <-events:
			if !ok {
				return nil
			}
			if t != nil {
				if err := writeVerdict(stdout, t, e, reader.view()); err != nil {
					return fmt.Errorf("dicefeed: stdout: %w", err)
				}
			}
			if err := w.Write(e); err != nil {
				return fmt.Errorf("dicefeed: stdout: %w", err)
			}
			if learned != nil {
				switch e.(type) {
				case input.DiceRolled, input.DiceUnreadable:
					// the reader learned this rest's dice before the
					// event came (Watch's Learn)
					learned.save(reader)
				}
			}
		case err := <-stdinDone:
			if err != nil {
				return err
			}
			if !o.KeepOnEOF {
				return nil
			}
			stdinDone = nil
		case <-ctx.Done():
			return nil
		}
	}
}

// writeVerdict writes the reading line of a roll or unreadable roll,
// with what the reader learned of its camera by then (it learned this
// rest's dice before the event came: Watch's Learn).
func writeVerdict(stdout io.Writer, t tap, e input.Event, view *input.ReaderView) error {
	switch e.(type) {
	case input.DiceRolled, input.DiceUnreadable:
		v := t.verdict(e)
		v.View = view
		return writeLine(stdout, readingLine{Type: "reading", DiceReading: v})
	}
	return nil
}

// readRequests reads stdin to its end. With pictures, each line is a
// recording line of type dice: the roll to show. With a tap, a line may
// ask for the last frame (inspectLine), or learn it or save the
// calibration learned (calibLine).
func readRequests(stdin io.Reader, pics *pictures, t tap, cal *calibrator, stdout io.Writer, w *replay.Writer, logger *log.Logger) error {
	sc := bufio.NewScanner(stdin)
	n := 0
	for sc.Scan() {
		n++
		if ok, err := inspectLine(sc.Text(), t, stdout); ok {
			if err != nil {
				return fmt.Errorf("dicefeed: stdout: %w", err)
			}
			continue
		}
		if ok, err := calibLine(sc.Text(), cal, stdout); ok {
			if err != nil {
				return fmt.Errorf("dicefeed: stdout: %w", err)
			}
			continue
		}
		if pics == nil || strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		evs, err := replay.Decode(strings.NewReader(sc.Text()), fmt.Sprintf("stdin:%d", n))
		if err != nil {
			logger.Printf("%v", err)
			continue
		}
		for _, e := range evs {
			d, ok := e.(input.DiceRolled)
			if !ok {
				logger.Printf("stdin:%d: a %T is not a roll to show; want a line of type dice", n, e)
				continue
			}
			if err := pics.show(int(d.Blue), int(d.Red)); err != nil {
				// The game goes on: the roll asked for is reported as such.
				logger.Printf("%v; the roll asked for is reported unread", err)
				if err := w.Write(d); err != nil {
					return fmt.Errorf("dicefeed: stdout: %w", err)
				}
			}
		}
	}
	return nil
}

// pictures shows labelled pictures of the dice: a camera filming a tray
// whose picture changes to a picture of each roll asked for.
type pictures struct {
	dir    string
	byRoll map[[2]int][]string // (blue, red) -> files, from labels.csv
	reader vision.DiceReader   // checks a picture before it is shown
	shown  *stills.Shown
	// The picture shown, and where its dice are: used by show only, which
	// one goroutine calls.
	curName string
	box     [2]image.Rectangle
}

// errNoPicture is returned by show when no picture of a roll reads right.
var errNoPicture = errors.New("no picture of that roll that the reader reads right")

// openPictures reads the labels of a folder of dice pictures (labels.csv:
// file,blue,red) and shows the first picture.
func openPictures(ctx context.Context, dir string, reader vision.DiceReader, fps float64, clk clock.Clock) (*pictures, error) {
	f, err := os.Open(filepath.Join(dir, "labels.csv"))
	if err != nil {
		return nil, fmt.Errorf("dice pictures: %w (a folder of pictures needs labels.csv: file,blue,red)", err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("dice pictures: %s: %w", f.Name(), err)
	}
	p := &pictures{dir: dir, byRoll: map[[2]int][]string{}, reader: reader}
	var first string
	for i, r := range rows {
		if i == 0 && len(r) > 0 && r[0] == "file" {
			continue
		}
		if len(r) < 3 {
			return nil, fmt.Errorf("dice pictures: %s:%d: want file,blue,red", f.Name(), i+1)
		}
		b, errb := strconv.Atoi(r[1])
		d, errd := strconv.Atoi(r[2])
		if errb != nil || errd != nil {
			return nil, fmt.Errorf("dice pictures: %s:%d: %q,%q are not faces", f.Name(), i+1, r[1], r[2])
		}
		p.byRoll[[2]int{b, d}] = append(p.byRoll[[2]int{b, d}], r[0])
		if first == "" {
			first = r[0]
		}
	}
	if first == "" {
		return nil, fmt.Errorf("dice pictures: %s lists no picture", f.Name())
	}
	data, err := os.ReadFile(filepath.Join(dir, first))
	if err != nil {
		return nil, fmt.Errorf("dice pictures: %w", err)
	}
	img, err := vision.DecodeImage(data)
	if err != nil {
		return nil, fmt.Errorf("dice pictures: %s: %w", first, err)
	}
	p.shown, p.curName = stills.NewShown(ctx, img, fps, clk), first
	return p, nil
}

// show puts up a picture of the roll that the reader reads right and whose
// dice lie away from the last picture's (so the settler sees a new throw,
// not a die knocked).
func (p *pictures) show(blue, red int) error {
	for _, name := range p.byRoll[[2]int{blue, red}] {
		if name == p.curName {
			continue
		}
		data, err := os.ReadFile(filepath.Join(p.dir, name))
		if err != nil {
			continue
		}
		img, err := vision.DecodeImage(data)
		if err != nil {
			continue
		}
		r := p.reader.Read(img)
		if r.Blue.Face != blue || r.Red.Face != red || near(r.Blue.Box, p.box[0]) || near(r.Red.Box, p.box[1]) {
			img.Close()
			continue
		}
		p.shown.Show(img)
		p.curName, p.box = name, [2]image.Rectangle{r.Blue.Box, r.Red.Box}
		return nil
	}
	return fmt.Errorf("dice pictures: blue=%d red=%d: %w (add one to %s/labels.csv)", blue, red, errNoPicture, p.dir)
}

// near reports whether two dice boxes are less than two die sizes apart.
func near(a, b image.Rectangle) bool {
	if a.Empty() || b.Empty() {
		return false
	}
	ca := a.Min.Add(a.Max).Div(2)
	cb := b.Min.Add(b.Max).Div(2)
	d := ca.Sub(cb)
	size := max(a.Dx(), a.Dy(), 1)
	return d.X*d.X+d.Y*d.Y < 4*size*size
}
