package dicefeed

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"comptoir/input"
	"comptoir/vision"
)

// With --readings, dicefeed also calibrates its reader from the table's
// own throws, on the staff's request (the staff page's "Calibrate these
// dice"):
//
//   - {"type":"learn","id":N,"blue":B,"red":R} learns the last frame read
//     as a throw of those faces and answers {"type":"learned","id":N,...}
//     with the faces learned so far per die, and the refusal in English
//     and French of a die it could not learn;
//   - {"type":"calibrate","id":N,"file":PATH} writes the calibration
//     learned so far to PATH (a temporary file, then renamed) and reads
//     with it at once; it answers {"type":"calibrated","id":N,...}, or a
//     refusal saying how many more dice to throw;
//   - {"type":"reset","id":N} starts again from nothing: it drops what
//     was learned, the calibration in use included, and answers
//     {"type":"reset","id":N,...}; the reader reads with the calibration
//     in use until the next save;
//   - {"type":"forget-camera","id":N} makes the reader forget what it
//     knows of its camera (the staff moved it): where it shows a flat
//     die's numeral, the calibration's flat dice included, and how large
//     it shows the dice (vision.NetReader.ForgetCamera); it keeps what it
//     learned of the dice, writes the --learned file at once, and answers
//     {"type":"camera-forgotten","id":N,"view":{...},...}.
//
// What it learns adds to the calibration in use (the --calibration file
// it started with, or the one it saved last): a save keeps that one's
// prototypes with the new throws' (vision.NetCalibrator.Seed), and the
// replies list its faces as Earlier (the file does not tell them by die).
// When it starts with a calibration, it tells it at once in a line
// {"type":"calibration","id":0,...}.
//
// A request it cannot take is answered with the error and changes
// nothing.

// minCalibDice is how many dice the reader must learn before its
// calibration can be saved: two throws of both dice.
const minCalibDice = 4

// calibRequest is a learn or calibrate line on stdin.
type calibRequest struct {
	Type string `json:"type"`
	ID   int64  `json:"id"`
	Blue int    `json:"blue"`
	Red  int    `json:"red"`
	File string `json:"file"`
}

// swapReader is the reader Watch reads with, replaced by a calibrated
// one on request.
type swapReader struct {
	mu sync.Mutex
	r  *vision.Combined // guarded by mu
}

func (s *swapReader) Read(m vision.Frame) vision.Roll {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.r.Read(m)
}

// swap makes n the reader and closes the old one (no read is using it:
// reads hold mu).
func (s *swapReader) swap(n *vision.Combined) {
	s.mu.Lock()
	old := s.r
	s.r = n
	s.mu.Unlock()
	old.Close()
}

func (s *swapReader) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.r.Close()
}

// LearnFlat is the reader's (vision.Combined.LearnFlat); a reader
// swapped in starts from its calibration's flat dice.
func (s *swapReader) LearnFlat(r vision.Roll) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.r.LearnFlat(r)
}

// view is what the reader learned, by now, of its camera
// (input.ReaderView).
func (s *swapReader) view() *input.ReaderView {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := s.r.View()
	return &v
}

// forgetCamera makes the reader forget its camera
// (vision.NetReader.ForgetCamera) and returns what it knows then.
func (s *swapReader) forgetCamera() input.ReaderView {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.r.Net.ForgetCamera()
	return s.r.View()
}

// learned is what the reader learned of its camera
// (vision.NetReader.LearnedCamera).
func (s *swapReader) learned() vision.LearnedCamera {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.r.Net.LearnedCamera()
}

// restore makes the reader know l (vision.NetReader.RestoreCamera).
func (s *swapReader) restore(l vision.LearnedCamera) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.r.Net.RestoreCamera(l)
}

func (s *swapReader) Options() vision.NetOpts {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.r.Options()
}

// calibrator answers the learn and calibrate requests; one goroutine
// (the one reading stdin) calls it.
type calibrator struct {
	reader *swapReader
	// last calls fn with a copy of the last frame read, or returns
	// ErrNoFrame.
	last func(fn func(vision.Frame) error) error
	now  func() time.Time
	k    *vision.NetCalibrator // made at the first learn or save
	// seed is the calibration a new k starts from: the one in use (the
	// --calibration file, or the one saved last); nil after a reset.
	seed *vision.NetCalibration
	// earlier are the faces of seed that k started from.
	earlier []int
	// forgot, when set, is called once the reader forgot its camera
	// (writes the --learned file).
	forgot func()
}

func (c *calibrator) close() {
	if c.k != nil {
		c.k.Close()
		c.k = nil
	}
}

// state fills the reply's faces learned so far, those of the calibration
// in use kept included (before the first learn, those a learn keeps).
func (c *calibrator) state(r *input.DiceCalibReply) {
	r.Blue, r.Red, r.Earlier, r.Need = []int{}, []int{}, []int{}, minCalibDice
	defer func() {
		r.Leans = vision.TiltMisleads(r.Tilted, r.Shown)
		r.FlatNeed = max(vision.MinFlatDice-r.Flat, 0)
	}()
	if c.k == nil {
		if c.seed != nil {
			r.Earlier = append(r.Earlier, c.seed.Faces()...)
			r.Dice = protos(c.seed)
			r.Need = max(minCalibDice-r.Dice, 0)
			r.Tilted, r.Shown = c.seed.HandTilted, c.seed.HandChecked
			r.Flat, _ = c.seed.FlatDice()
			r.Colours = c.seed.DieColours()
		}
		return
	}
	r.Blue = append(r.Blue, c.k.Shown("blue")...)
	r.Red = append(r.Red, c.k.Shown("red")...)
	r.Earlier = append(r.Earlier, c.earlier...)
	r.Dice = c.k.Learned()
	r.Need = max(minCalibDice-r.Dice, 0)
	r.Tilted, r.Shown = c.k.TiltCounts()
	r.Flat = c.k.FlatDice()
	r.Colours = c.k.DieColours()
	if a := c.k.DieAcross(); a > 0 {
		r.Across = int(math.Round(a))
		r.Small, r.SmallUnder = vision.DiceTooSmall(a), vision.SmallDieAcross
	}
}

// protos counts a calibration's prototypes: the dice it learned.
func protos(cal *vision.NetCalibration) int {
	n := 0
	for _, ps := range cal.Protos {
		n += len(ps)
	}
	return n
}

// calibrator makes c.k if it is not made yet, from the calibration in
// use unless reset.
func (c *calibrator) calibrator() error {
	if c.k != nil {
		return nil
	}
	k, err := vision.NewNetCalibrator(c.reader.Options())
	if err != nil {
		return err
	}
	c.k, c.earlier = k, nil
	if c.seed != nil {
		k.Seed(c.seed)
		c.earlier = c.seed.Faces()
	}
	return nil
}

// inUse is the line that tells, at the start, the calibration the
// reader reads with; false without one.
func (c *calibrator) inUse() (input.DiceCalibReply, bool) {
	r := input.DiceCalibReply{Type: "calibration"}
	if c.seed == nil {
		return r, false
	}
	c.state(&r)
	r.Faces = c.seed.Faces()
	return r, true
}

// reset drops everything learned, the calibration in use included.
func (c *calibrator) reset(req calibRequest) input.DiceCalibReply {
	c.close()
	c.k, c.seed, c.earlier = nil, nil, nil
	reply := input.DiceCalibReply{Type: "reset", ID: req.ID}
	c.state(&reply)
	return reply
}

// forgetCamera makes the reader forget its camera, the staff having moved
// it.
func (c *calibrator) forgetCamera(req calibRequest) input.DiceCalibReply {
	reply := input.DiceCalibReply{Type: "camera-forgotten", ID: req.ID}
	v := c.reader.forgetCamera()
	reply.View = &v
	if c.forgot != nil {
		c.forgot()
	}
	c.state(&reply)
	return reply
}

// learn learns the last frame as a throw of blue and red.
func (c *calibrator) learn(req calibRequest) (reply input.DiceCalibReply) {
	reply = input.DiceCalibReply{Type: "learned", ID: req.ID}
	defer c.state(&reply)
	if req.Blue < 1 || req.Blue > 8 || req.Red < 1 || req.Red > 8 {
		reply.Refuse("bad-request", fmt.Sprintf("learn: faces blue %d and red %d: a d8 shows 1 to 8", req.Blue, req.Red),
			fmt.Sprintf("apprendre : faces bleu %d et rouge %d : un d8 montre 1 à 8", req.Blue, req.Red))
		return reply
	}
	if err := c.calibrator(); err != nil {
		reply.Refuse("failed", "learn: "+err.Error(), "apprendre : "+err.Error())
		return reply
	}
	err := c.last(func(f vision.Frame) error { return c.k.AddThrow(f, req.Blue, req.Red) })
	var te *vision.ThrowError
	switch {
	case err == nil:
		reply.Learned = []string{"blue", "red"}
	case errors.Is(err, ErrNoFrame):
		reply.Refuse("no-frame", ErrNoFrame.Error(), "le lecteur de dés n'a encore lu aucune image : attendez que le plateau soit immobile un instant")
	case errors.As(err, &te):
		reply.Learned = te.Learned
		reply.Refuse("refused", te.EN(), te.FR())
	default:
		reply.Refuse("failed", "learn: "+err.Error(), "apprendre : "+err.Error())
	}
	return reply
}

// calibrate writes the calibration learned so far to req.File and reads
// with it.
func (c *calibrator) calibrate(req calibRequest) (reply input.DiceCalibReply) {
	reply = input.DiceCalibReply{Type: "calibrated", ID: req.ID}
	defer c.state(&reply)
	if !filepath.IsAbs(req.File) {
		reply.Refuse("bad-request", fmt.Sprintf("calibrate: %q is not an absolute path", req.File), fmt.Sprintf("calibrer : %q n'est pas un chemin absolu", req.File))
		return reply
	}
	learned := 0
	if c.k != nil {
		learned = c.k.Learned()
	} else if c.seed != nil {
		learned = protos(c.seed)
	}
	if learned < minCalibDice {
		more := minCalibDice - learned
		reply.Refuse("too-few",
			fmt.Sprintf("%d dice learned, %d more needed before saving: throw both dice and learn %d more throw(s)", learned, more, (more+1)/2),
			fmt.Sprintf("%d dés appris, encore %d avant d'enregistrer : lancez les deux dés et apprenez encore %d lancer(s)", learned, more, (more+1)/2))
		return reply
	}
	err := c.calibrator()
	var cal *vision.NetCalibration
	if err == nil {
		cal, err = c.k.PartialCalibration(minCalibDice)
	}
	if err == nil {
		err = WriteCalibration(req.File, cal, c.now())
	}
	if err == nil {
		// read with what the file holds, as the next reader will: what
		// it learns of its camera (--learned) is then of the same
		// calibration (vision.NetCalibration.Sum)
		cal, err = vision.LoadNetCalibration(req.File)
	}
	var n *vision.Combined
	if err == nil {
		n, err = vision.NewCombined(cal)
	}
	if err != nil {
		reply.Refuse("failed", "calibrate: "+err.Error(), "calibrer : "+err.Error())
		return reply
	}
	c.reader.swap(n)
	c.seed = cal // in use: a calibrator made after a reset starts from it
	reply.File, reply.Faces = req.File, cal.Faces()
	return reply
}

// WriteCalibration writes cal to path through a temporary file beside it.
func WriteCalibration(path string, cal *vision.NetCalibration, made time.Time) error {
	data, err := vision.EncodeNetCalibration(cal, made)
	if err != nil {
		return err
	}
	return writeFile(path, data)
}

// writeFile writes data to path through a temporary file beside it,
// renamed over path: a reader of path sees the old file or the new one,
// never half of one.
func writeFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// calibLine answers a learn, calibrate, reset or forget-camera request
// read on stdin; ok is false when the line is not one.
func calibLine(line string, c *calibrator, out io.Writer) (ok bool, err error) {
	if c == nil || (!strings.Contains(line, `"learn"`) && !strings.Contains(line, `"calibrate"`) && !strings.Contains(line, `"reset"`) && !strings.Contains(line, `"forget-camera"`)) {
		return false, nil
	}
	var req calibRequest
	if err := json.Unmarshal([]byte(line), &req); err != nil {
		reply := input.DiceCalibReply{Type: "error"}
		reply.Refuse("bad-request", fmt.Sprintf("a request that is not JSON (%v): %.80s", err, line), fmt.Sprintf("une requête qui n'est pas du JSON (%v) : %.80s", err, line))
		c.state(&reply)
		return true, writeLine(out, reply)
	}
	switch req.Type {
	case "learn":
		return true, writeLine(out, c.learn(req))
	case "calibrate":
		return true, writeLine(out, c.calibrate(req))
	case "reset":
		return true, writeLine(out, c.reset(req))
	case "forget-camera":
		return true, writeLine(out, c.forgetCamera(req))
	}
	return false, nil
}
