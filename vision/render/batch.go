package render

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// RenderBatch renders scenes of one size with a single povray process (an
// animation whose frame k includes scene k), which saves povray's start for
// each small picture. Fonts the scenes name that are not POV-Ray's own are
// copied next to the scenes (Debian's povray reads only below its folder
// and its library paths). It returns the pictures as povray wrote them, no
// post-processing.
func RenderBatch(ctx context.Context, scenes []Scene, o Opts) ([]image.Image, error) {
	if len(scenes) == 0 {
		return nil, nil
	}
	bin, err := exec.LookPath(o.Povray)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoPovray, err)
	}
	dir, err := os.MkdirTemp("", "dicewide-")
	if err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	defer os.RemoveAll(dir)
	w, h := scenes[0].Width, scenes[0].Height
	for k, s := range scenes {
		if s.Width != w || s.Height != h {
			return nil, fmt.Errorf("render: batch of scenes of different sizes (%dx%d and %dx%d)", w, h, s.Width, s.Height)
		}
		if err := copyFonts(s, dir, o.Include); err != nil {
			return nil, err
		}
		var pov bytes.Buffer
		if err := s.WritePOV(&pov); err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.inc", k)), pov.Bytes(), 0o644); err != nil {
			return nil, fmt.Errorf("render: %w", err)
		}
	}
	master := "#version 3.7;\n#include concat(\"f\", str(frame_number, 0, 0), \".inc\")\n"
	if err := os.WriteFile(filepath.Join(dir, "batch.pov"), []byte(master), 0o644); err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	args := []string{"+Ibatch.pov", "+Oout.png", "+FN", fmt.Sprintf("+W%d", w), fmt.Sprintf("+H%d", h),
		"-D", "-V", "-GA", "+L" + o.Include, "+WT1", "+KFI0", fmt.Sprintf("+KFF%d", len(scenes)-1)}
	if o.Antialias > 0 {
		args = append(args, fmt.Sprintf("+A%.2f", o.Antialias))
	}
	var stderr bytes.Buffer
	for try := 1; ; try++ {
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+dir)
		stderr.Reset()
		cmd.Stderr, cmd.Stdout = &stderr, &stderr
		err := cmd.Run()
		if err == nil {
			break
		}
		if try == 3 || ctx.Err() != nil {
			return nil, fmt.Errorf("render: povray batch (%d tries): %w: %s", try, err, lastLines(stderr.String(), 5))
		}
	}
	names, err := filepath.Glob(filepath.Join(dir, "out*.png"))
	if err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	if len(names) != len(scenes) {
		return nil, fmt.Errorf("render: povray batch wrote %d pictures for %d scenes: %s", len(names), len(scenes), lastLines(stderr.String(), 5))
	}
	sort.Strings(names) // out0..outN, zero-padded to one width by povray
	out := make([]image.Image, len(names))
	for i, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			return nil, fmt.Errorf("render: %w", err)
		}
		if out[i], err = png.Decode(bytes.NewReader(data)); err != nil {
			return nil, fmt.Errorf("render: povray's picture %s: %w", filepath.Base(n), err)
		}
	}
	return out, nil
}

// copyFonts copies the fonts of s's dice that are not in POV-Ray's
// include folder into dir.
func copyFonts(s Scene, dir, include string) error {
	for _, d := range s.Dice {
		if d.Font == "" || strings.ContainsRune(d.Font, '/') {
			continue
		}
		if _, err := os.Stat(filepath.Join(include, d.Font)); err == nil {
			continue
		}
		dst := filepath.Join(dir, d.Font)
		if _, err := os.Stat(dst); err == nil {
			continue
		}
		src, err := FontPath(d.Font)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(src)
		if err != nil {
			return fmt.Errorf("render: %w", err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return fmt.Errorf("render: %w", err)
		}
	}
	return nil
}

// Camera defects drawn for a picture of the wide distribution.
type Defects struct {
	Scale    float64 // resize factor applied first
	Blur     float64 // motion blur length in pixels (after resizing), 0 for none
	BlurDir  float64 // its direction, radians
	Exposure float64 // gain on the linear picture (1: none)
	Noise    float64 // standard deviation of the sensor noise, 8-bit levels
	JPEG     int     // JPEG quality the picture is saved at
}

// DrawDefects draws the defects of one picture: a motion blur for one in
// five, an exposure shift of up to 1.6x either way, noise of 0 to 8
// levels, JPEG quality 35 to 95.
func DrawDefects(r *rand.Rand, scale float64) Defects {
	d := Defects{Scale: scale, Exposure: math.Exp(uniform(r, -0.45, 0.45)), Noise: uniform(r, 0, 8), JPEG: 35 + r.IntN(61)}
	if r.Float64() < 0.2 {
		d.Blur, d.BlurDir = uniform(r, 1, 4), uniform(r, 0, math.Pi)
	}
	return d
}

// Apply returns img resized by d.Scale, blurred along d.BlurDir, its
// exposure shifted and noise added (drawn from seed). The JPEG quality is
// for the caller to use when saving.
func (d Defects) Apply(img image.Image, seed uint64) *image.RGBA {
	b := img.Bounds()
	w, h := max(1, int(math.Round(float64(b.Dx())*d.Scale))), max(1, int(math.Round(float64(b.Dy())*d.Scale)))
	src := resize(img, w, h)
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(seed, 0x51ed27))
	steps := int(math.Ceil(d.Blur))
	dx, dy := math.Cos(d.BlurDir), math.Sin(d.BlurDir)
	// the exposure curve of a channel's mean, by the sum of its 2*steps+1
	// samples: the values computing it at each pixel gives, a 640x480
	// frame in a fifth of the time
	n := float64(2*steps + 1)
	tone := make([]float64, 255*(2*steps+1)+1)
	for s := range tone {
		tone[s] = 255 * math.Pow(math.Pow(float64(s)/n/255, 2.2)*d.Exposure, 1/2.2)
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var sum [3]int
			for k := -steps; k <= steps; k++ {
				t := 0.0
				if steps > 0 {
					t = float64(k) / float64(steps) * d.Blur / 2
				}
				xx := min(max(int(math.Round(float64(x)+t*dx)), 0), w-1)
				yy := min(max(int(math.Round(float64(y)+t*dy)), 0), h-1)
				c := src.RGBAAt(xx, yy)
				sum[0] += int(c.R)
				sum[1] += int(c.G)
				sum[2] += int(c.B)
			}
			var px [3]uint8
			for i := range px {
				v := tone[sum[i]] + r.NormFloat64()*d.Noise
				px[i] = uint8(min(max(v+0.5, 0), 255))
			}
			out.SetRGBA(x, y, color.RGBA{px[0], px[1], px[2], 255})
		}
	}
	return out
}

// resize scales img to w x h: an average over each output pixel's
// footprint when shrinking, bilinear when enlarging.
func resize(img image.Image, w, h int) *image.RGBA {
	b := img.Bounds()
	sw, sh := b.Dx(), b.Dy()
	src := image.NewRGBA(image.Rect(0, 0, sw, sh))
	for y := 0; y < sh; y++ {
		for x := 0; x < sw; x++ {
			src.Set(x, y, img.At(b.Min.X+x, b.Min.Y+y))
		}
	}
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	fx, fy := float64(sw)/float64(w), float64(sh)/float64(h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var c [3]float64
			if fx > 1 || fy > 1 {
				x0, x1 := int(float64(x)*fx), max(int(float64(x)*fx)+1, int(math.Ceil(float64(x+1)*fx)))
				y0, y1 := int(float64(y)*fy), max(int(float64(y)*fy)+1, int(math.Ceil(float64(y+1)*fy)))
				n := 0.0
				for yy := y0; yy < min(y1, sh); yy++ {
					for xx := x0; xx < min(x1, sw); xx++ {
						p := src.RGBAAt(xx, yy)
						c[0] += float64(p.R)
						c[1] += float64(p.G)
						c[2] += float64(p.B)
						n++
					}
				}
				for i := range c {
					c[i] /= n
				}
			} else {
				sx, sy := (float64(x)+0.5)*fx-0.5, (float64(y)+0.5)*fy-0.5
				x0, y0 := int(math.Floor(sx)), int(math.Floor(sy))
				ax, ay := sx-float64(x0), sy-float64(y0)
				at := func(xx, yy int) color.RGBA {
					return src.RGBAAt(min(max(xx, 0), sw-1), min(max(yy, 0), sh-1))
				}
				p00, p10, p01, p11 := at(x0, y0), at(x0+1, y0), at(x0, y0+1), at(x0+1, y0+1)
				lerp := func(a, b, c, d uint8) float64 {
					return (float64(a)*(1-ax)+float64(b)*ax)*(1-ay) + (float64(c)*(1-ax)+float64(d)*ax)*ay
				}
				c = [3]float64{lerp(p00.R, p10.R, p01.R, p11.R), lerp(p00.G, p10.G, p01.G, p11.G), lerp(p00.B, p10.B, p01.B, p11.B)}
			}
			out.SetRGBA(x, y, color.RGBA{uint8(c[0] + 0.5), uint8(c[1] + 0.5), uint8(c[2] + 0.5), 255})
		}
	}
	return out
}
