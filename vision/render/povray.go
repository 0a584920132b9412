package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ErrNoPovray is returned when the povray program cannot be found.
var ErrNoPovray = errors.New("render: povray not found (install the Debian package povray)")

// Opts controls how scenes are rendered.
type Opts struct {
	// Povray is the povray program, looked up on PATH when it has no slash.
	Povray string
	// Include is POV-Ray's include and font folder, where timrom.ttf and
	// cyrvetic.ttf live.
	Include string
	// Antialias is the +A threshold; 0 turns antialiasing off. Lower is
	// slower and smoother.
	Antialias float64
	// Quality is the JPEG quality, 1 to 100.
	Quality int
}

// DefaultOpts renders with Debian's povray at a low antialias threshold,
// about a second per 640x480 picture on one core.
var DefaultOpts = Opts{Povray: "povray", Include: "/usr/share/povray-3.7/include", Antialias: 0.3, Quality: 85}

// Render renders s with POV-Ray and applies its post-processing (blur and
// noise, drawn from seed). It runs povray in a temporary folder, because
// Debian's povray only writes below the current folder and /tmp.
func Render(ctx context.Context, s Scene, seed uint64, o Opts) (*image.RGBA, error) {
	bin, err := exec.LookPath(o.Povray)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoPovray, err)
	}
	dir, err := os.MkdirTemp("", "dicerender-")
	if err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	defer os.RemoveAll(dir)
	var pov bytes.Buffer
	if err := s.WritePOV(&pov); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "scene.pov"), pov.Bytes(), 0o644); err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	if err := copyFonts(s, dir, o.Include); err != nil {
		return nil, err
	}
	args := []string{"+Iscene.pov", "+Oscene.png", "+FN", fmt.Sprintf("+W%d", s.Width), fmt.Sprintf("+H%d", s.Height),
		"-D", "-V", "-GA", "+L" + o.Include}
	if o.Antialias > 0 {
		args = append(args, fmt.Sprintf("+A%.2f", o.Antialias))
	}
	// povray sometimes fails to start its threads on a loaded machine
	// ("Timed out waiting for worker thread startup"): try again.
	var stderr bytes.Buffer
	for try := 1; ; try++ {
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+dir) // no user povray.conf
		stderr.Reset()
		cmd.Stderr = &stderr
		cmd.Stdout = &stderr
		err := cmd.Run()
		if err == nil {
			break
		}
		if try == 3 || ctx.Err() != nil {
			return nil, fmt.Errorf("render: povray (%d tries): %w: %s", try, err, lastLines(stderr.String(), 5))
		}
	}
	f, err := os.Open(filepath.Join(dir, "scene.png"))
	if err != nil {
		return nil, fmt.Errorf("render: povray wrote no picture: %w: %s", err, lastLines(stderr.String(), 5))
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("render: povray's picture: %w", err)
	}
	return PostProcess(img, s.Blur, s.Noise, seed), nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

// PostProcess returns img blurred by a box of the given radius and with
// Gaussian noise of standard deviation noise (in 8-bit levels) drawn from
// seed.
func PostProcess(img image.Image, blur int, noise float64, seed uint64) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	w, h := b.Dx(), b.Dy()
	src := image.NewRGBA(out.Rect)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			src.Set(x, y, img.At(b.Min.X+x, b.Min.Y+y))
		}
	}
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var sum [3]float64
			n := 0.0
			for dy := -blur; dy <= blur; dy++ {
				for dx := -blur; dx <= blur; dx++ {
					xx, yy := min(max(x+dx, 0), w-1), min(max(y+dy, 0), h-1)
					c := src.RGBAAt(xx, yy)
					sum[0] += float64(c.R)
					sum[1] += float64(c.G)
					sum[2] += float64(c.B)
					n++
				}
			}
			var px [3]uint8
			for i := range px {
				v := sum[i]/n + r.NormFloat64()*noise
				px[i] = uint8(min(max(v+0.5, 0), 255))
			}
			out.SetRGBA(x, y, color.RGBA{px[0], px[1], px[2], 255})
		}
	}
	return out
}

// WriteJPEG encodes img as a JPEG of the given quality.
func WriteJPEG(w io.Writer, img image.Image, quality int) error {
	return jpeg.Encode(w, img, &jpeg.Options{Quality: quality})
}
