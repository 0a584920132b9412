package vision

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"comptoir/hw/clock"
	"comptoir/input"

	"gocv.io/x/gocv"
)

// Source is a stream of frames. *gocv.VideoCapture satisfies it, as do
// the sources of this file. Read fills m with the next frame and reports
// whether it did; false means the stream ended or failed (see Err).
// A Source is used by one goroutine at a time.
type Source interface {
	Read(m *gocv.Mat) bool
	Close() error
}

var _ Source = (*gocv.VideoCapture)(nil)

// Erring is a Source that can say why its stream ended: Err returns nil at
// a clean end (the last picture of a folder, the end of a video) and the
// error otherwise.
type Erring interface {
	Source
	Err() error
}

// StatusSource is a Source that reports its device going away and coming
// back. Watch sets the function and forwards the statuses as
// input.DeviceStatus events.
type StatusSource interface {
	Source
	// OnStatus sets the function that Read calls, from Read's goroutine,
	// each time the device fails or recovers.
	OnStatus(func(input.DeviceStatus))
}

// SourceErr returns the error that ended src's stream, or nil when src
// cannot tell or the stream ended cleanly.
func SourceErr(src Source) error {
	if e, ok := src.(Erring); ok {
		return e.Err()
	}
	return nil
}

// Errors of the frame sources.
var (
	// ErrNoCamera is returned when the camera device is missing or cannot
	// be opened.
	ErrNoCamera = errors.New("vision: no camera")
	// ErrCameraLost is the end of a camera's stream: it stopped giving
	// frames (unplugged, or its driver failed).
	ErrCameraLost = errors.New("vision: camera stopped giving frames")
	// ErrCorruptFrame is a picture or video that cannot be decoded.
	ErrCorruptFrame = errors.New("vision: cannot decode frame")
	// ErrNoFrames is a folder or video with no frame in it.
	ErrNoFrames = errors.New("vision: no frames")
)

// CameraOpts sets up a camera.
type CameraOpts struct {
	// Width and Height of the frames asked from the camera. The reader is
	// calibrated at 640x480.
	Width, Height int
	// FPS is the frame rate asked from the camera.
	FPS float64
	// API is OpenCV's capture back-end; V4L2 on Linux. A Pi camera works
	// through libcamera's V4L2 compatibility layer (run the daemon under
	// libcamerify) or the bcm2835 V4L2 driver.
	API gocv.VideoCaptureAPI
	// Exposure, when not 0, turns the camera's automatic exposure off and
	// sets this exposure (in the driver's units; see v4l2-ctl -d DEV
	// --list-ctrls). A fixed exposure keeps the tray's brightness steady
	// when a hand passes, so the settler sees the dice come to rest sooner.
	Exposure float64
}

// DefaultCameraOpts asks for 640x480 at 30 frames per second through V4L2.
var DefaultCameraOpts = CameraOpts{Width: 640, Height: 480, FPS: 30, API: gocv.VideoCaptureV4L2}

// Camera is a V4L2 camera.
type Camera struct {
	vc     *gocv.VideoCapture
	device string
	frames int
	err    error
}

var _ Erring = (*Camera)(nil)

// OpenCamera opens the V4L2 camera device, a path such as /dev/video0 or
// an index such as "0", and asks it for o's frame size and rate. A missing
// device is an ErrNoCamera error that says which device and what to check.
func OpenCamera(device string, o CameraOpts) (*Camera, error) {
	var target any = device
	if n, err := strconv.Atoi(device); err == nil {
		target = n
	} else if _, err := os.Stat(device); err != nil {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("%w: %s does not exist: check the camera is plugged in and seen by the system (ls /dev/video*, v4l2-ctl --list-devices); for a Pi camera, check that libcamera sees it (libcamera-hello --list-cameras) and run under libcamerify for its V4L2 device", ErrNoCamera, device)
		case errors.Is(err, fs.ErrPermission):
			return nil, fmt.Errorf("%w: %s: permission denied: add the daemon's user to the video group", ErrNoCamera, device)
		default:
			return nil, fmt.Errorf("%w: %s: %w", ErrNoCamera, device, err)
		}
	}
	path := device
	if n, ok := target.(int); ok {
		path = fmt.Sprintf("/dev/video%d", n)
	}
	vc, err := gocv.OpenVideoCaptureWithAPI(target, o.API)
	if err == nil && !vc.IsOpened() {
		vc.Close()
		err = errors.New("not opened")
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %s could not be opened as a V4L2 camera (%v): check it is one (v4l2-ctl -d %s --all) and that no other program holds it (fuser %s)", ErrNoCamera, device, err, path, path)
	}
	if o.Width > 0 && o.Height > 0 {
		vc.Set(gocv.VideoCaptureFrameWidth, float64(o.Width))
		vc.Set(gocv.VideoCaptureFrameHeight, float64(o.Height))
	}
	if o.FPS > 0 {
		vc.Set(gocv.VideoCaptureFPS, o.FPS)
	}
	if o.Exposure != 0 {
		vc.Set(gocv.VideoCaptureAutoExposure, 1) // V4L2: 1 is manual, 3 automatic
		vc.Set(gocv.VideoCaptureExposure, o.Exposure)
	}
	vc.Set(gocv.VideoCaptureBufferSize, 1) // the newest frame, not a queue
	return &Camera{vc: vc, device: device}, nil
}

// Read reads the next frame. False means the camera stopped giving frames;
// Err says so.
func (c *Camera) Read(m *gocv.Mat) bool {
	if c.err != nil {
		return false
	}
	if !c.vc.Read(m) || m.Empty() {
		c.err = fmt.Errorf("%w: %s after %d frames: check its cable", ErrCameraLost, c.device, c.frames)
		return false
	}
	c.frames++
	return true
}

// Err returns why the stream ended.
func (c *Camera) Err() error { return c.err }

// Close releases the device.
func (c *Camera) Close() error { return c.vc.Close() }

// String names the device.
func (c *Camera) String() string { return "camera " + c.device }

// Video is a video file read frame by frame.
type Video struct {
	vc     *gocv.VideoCapture
	path   string
	frames int
	err    error
}

var _ Erring = (*Video)(nil)

// OpenVideo opens a video file (any format OpenCV's FFmpeg back-end reads,
// or a printf pattern of pictures such as frames/%03d.jpg).
func OpenVideo(path string) (*Video, error) {
	if !strings.Contains(path, "%") {
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("vision: video %s: %w", path, err)
		}
	}
	vc, err := gocv.VideoCaptureFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: video %s: %w", ErrCorruptFrame, path, err)
	}
	if !vc.IsOpened() {
		vc.Close()
		return nil, fmt.Errorf("%w: video %s cannot be opened: check it is a video OpenCV can decode (ffprobe %s)", ErrCorruptFrame, path, path)
	}
	return &Video{vc: vc, path: path}, nil
}

// Read reads the next frame; false at the end of the video.
func (v *Video) Read(m *gocv.Mat) bool {
	if v.err != nil || v.vc == nil {
		return false
	}
	if !v.vc.Read(m) || m.Empty() {
		if v.frames == 0 {
			v.err = fmt.Errorf("%w: video %s: not one frame could be decoded", ErrNoFrames, v.path)
		}
		return false
	}
	v.frames++
	return true
}

// Err returns why the stream ended; nil at the end of a good video.
func (v *Video) Err() error { return v.err }

// Close closes the video.
func (v *Video) Close() error { return v.vc.Close() }

// Dir is a folder of pictures, read in the order of their names.
type Dir struct {
	path  string
	files []string
	next  int
	err   error
}

var _ Erring = (*Dir)(nil)

// frameExts are the picture files OpenDir reads.
var frameExts = map[string]bool{".jpg": true, ".jpeg": true, ".png": true, ".bmp": true}

// OpenDir opens a folder of pictures (.jpg, .jpeg, .png, .bmp), sorted by
// name. Other files are skipped. A folder with no picture is an
// ErrNoFrames error.
func OpenDir(path string) (*Dir, error) {
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, fmt.Errorf("vision: frames folder: %w", err)
	}
	d := &Dir{path: path}
	for _, e := range entries {
		if !e.IsDir() && frameExts[strings.ToLower(filepath.Ext(e.Name()))] {
			d.files = append(d.files, filepath.Join(path, e.Name()))
		}
	}
	if len(d.files) == 0 {
		return nil, fmt.Errorf("%w: no picture (.jpg, .png, .bmp) in %s", ErrNoFrames, path)
	}
	sort.Strings(d.files)
	return d, nil
}

// Files returns the pictures' paths, in reading order.
func (d *Dir) Files() []string { return d.files }

// Read decodes the next picture into m (replacing m's matrix). A picture
// that cannot be decoded ends the stream with an ErrCorruptFrame error that
// names the file.
func (d *Dir) Read(m *gocv.Mat) bool {
	if d.err != nil || d.next >= len(d.files) {
		return false
	}
	name := d.files[d.next]
	d.next++
	buf, err := os.ReadFile(name)
	if err != nil {
		d.err = fmt.Errorf("vision: frame %s: %w", name, err)
		return false
	}
	img, err := decodeBGR(buf)
	if err != nil {
		d.err = fmt.Errorf("%w: %s is not a picture OpenCV can read (truncated or corrupt?): %v", ErrCorruptFrame, name, err)
		return false
	}
	m.Close()
	*m = img
	return true
}

// Err returns why the stream ended; nil after the last picture.
func (d *Dir) Err() error { return d.err }

// Close does nothing: pictures are read whole.
func (d *Dir) Close() error { return nil }

// ReconnectOpts controls a Reconnecting source.
type ReconnectOpts struct {
	// Device names the device in status reports, e.g. "camera".
	Device string
	// MinBackoff is the wait before the first retry; it doubles after
	// each failed retry up to MaxBackoff.
	MinBackoff, MaxBackoff time.Duration
	// Clock times the back-off; nil is the real clock.
	Clock clock.Clock
}

// DefaultReconnectOpts retries after 250 ms, then 500 ms, and so on up to
// every 5 s.
var DefaultReconnectOpts = ReconnectOpts{Device: "camera", MinBackoff: 250 * time.Millisecond, MaxBackoff: 5 * time.Second}

// Reconnecting is a source that opens its device again when it fails
// (a camera unplugged mid-stream), waiting with back-off between tries,
// and reports each fault and recovery as an input.DeviceStatus. Its Read
// blocks while the device is away, until the device is back or the context
// given to Reconnect is done.
type Reconnecting struct {
	ctx     context.Context
	open    func() (Source, error)
	o       ReconnectOpts
	src     Source // open source, nil while away
	down    bool   // a fault was reported and no recovery since
	backoff time.Duration
	status  func(input.DeviceStatus)
	closed  bool
}

var _ StatusSource = (*Reconnecting)(nil)

// Reconnect returns a source that reads from open's source and opens it
// again whenever it fails, until ctx is done. For a camera:
//
//	src := vision.Reconnect(ctx, func() (vision.Source, error) {
//		return vision.OpenCamera("/dev/video0", vision.DefaultCameraOpts)
//	}, vision.DefaultReconnectOpts)
func Reconnect(ctx context.Context, open func() (Source, error), o ReconnectOpts) *Reconnecting {
	if o.Clock == nil {
		o.Clock = clock.Real()
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = DefaultReconnectOpts.MinBackoff
	}
	if o.MaxBackoff < o.MinBackoff {
		o.MaxBackoff = o.MinBackoff
	}
	if o.Device == "" {
		o.Device = DefaultReconnectOpts.Device
	}
	return &Reconnecting{ctx: ctx, open: open, o: o, backoff: o.MinBackoff}
}

// OnStatus sets the function called with each fault and recovery.
func (r *Reconnecting) OnStatus(f func(input.DeviceStatus)) { r.status = f }

func (r *Reconnecting) report(ok bool, detail string) {
	if r.status != nil {
		r.status(input.DeviceStatus{At: r.o.Clock.Now(), Device: r.o.Device, OK: ok, Detail: detail})
	}
}

// Read reads the next frame, reopening the device as often as needed. It
// returns false only when the context is done or the source was closed.
func (r *Reconnecting) Read(m *gocv.Mat) bool {
	for !r.closed && r.ctx.Err() == nil {
		if r.src == nil {
			src, err := r.open()
			if err != nil {
				if !r.down {
					r.report(false, err.Error()+"; retrying")
					r.down = true
				}
				if clock.Sleep(r.ctx, r.o.Clock, r.backoff) != nil {
					return false
				}
				r.backoff = min(2*r.backoff, r.o.MaxBackoff)
				continue
			}
			r.src = src
			if r.down {
				r.report(true, "back")
				r.down = false
			}
		}
		if r.src.Read(m) && !m.Empty() {
			r.backoff = r.o.MinBackoff
			return true
		}
		err := SourceErr(r.src)
		if err == nil {
			err = fmt.Errorf("%w: end of stream", ErrCameraLost)
		}
		r.src.Close()
		r.src = nil
		r.report(false, err.Error()+"; retrying")
		r.down = true
	}
	return false
}

// Close closes the device, if open.
func (r *Reconnecting) Close() error {
	r.closed = true
	if r.src == nil {
		return nil
	}
	err := r.src.Close()
	r.src = nil
	return err
}

// OpenSource opens the frames named by spec: a camera when spec is a
// device (/dev/video0) or a camera index ("0"), reopened with back-off
// until ctx is done if it goes away; a folder of pictures; or a video
// file.
func OpenSource(ctx context.Context, spec string, o CameraOpts) (Source, error) {
	if _, err := strconv.Atoi(spec); err == nil || strings.HasPrefix(spec, "/dev/") {
		// Open once now, so that a missing camera is an error at once.
		cam, err := OpenCamera(spec, o)
		if err != nil {
			return nil, err
		}
		first := true
		return Reconnect(ctx, func() (Source, error) {
			if first {
				first = false
				return cam, nil
			}
			return OpenCamera(spec, o)
		}, DefaultReconnectOpts), nil
	}
	if fi, err := os.Stat(spec); err == nil && fi.IsDir() {
		return OpenDir(spec)
	}
	return OpenVideo(spec)
}
