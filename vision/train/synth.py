#!/usr/bin/python3
"""Draw cheap synthetic d8 pictures for the dice classifier's training.

POV-Ray renders cost about a quarter of a CPU second each, so make model
can afford a few thousand. These pictures cost about a hundredth: a d8 seen
from above (a hexagon silhouette: the top face, a triangle, and the three
faces that share its edges), blue or red in any shade the locator accepts,
opaque, pearl or translucent, its numeral drawn with one of the fonts of
the train split of vision/render/wide.yaml (never a font of the test
split), printed or engraved, in any ink; smaller numerals on the side
faces, a shadow, a highlight, a textured surface of random colours (never
one of the named surfaces), tilt, light colour, exposure, blur, noise and
JPEG. They are written like dicewide's crops (NNNNN.jpg and labels.csv:
file,face,colour,font,...) so that vision/train/cropexport cuts their
numerals exactly as the Go reader does.

Usage: /usr/bin/python3 synth.py --out DIR --n 20000 --seed 1 [--first 0]
The same seed gives the same pictures (numpy's PCG64 and Pillow only).
"""
import argparse
import csv
import io
import math
import os
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

FONT_DIRS = [
    "/usr/share/povray-3.7/include",
    "/usr/share/fonts/truetype/dejavu",
    "/usr/share/fonts/truetype/liberation",
    "/usr/share/fonts/truetype/freefont",
    "/usr/share/fonts/truetype/noto",
]


def train_fonts(split_file):
    """The train fonts of wide.yaml (a tiny reader: the file is ours)."""
    fonts, where = [], None
    for line in open(split_file):
        s = line.strip()
        if s.startswith("#") or not s:
            continue
        if not line.startswith(" "):
            where = s.rstrip(":")
            sub = None
            continue
        if s.endswith(":"):
            sub = s[:-1]
            continue
        if where == "fonts" and sub == "train" and s.startswith("- "):
            fonts.append(s[2:].strip())
    out = []
    for f in fonts:
        for d in FONT_DIRS:
            p = os.path.join(d, f)
            if os.path.exists(p):
                out.append((f, p))
                break
        else:
            raise SystemExit(f"synth: font {f} not found in {FONT_DIRS}")
    return out


def hsv_to_rgb(h, s, v):
    """h in degrees, s and v in 0..1: r, g, b in 0..1."""
    h = (h % 360) / 60
    c = v * s
    x = c * (1 - abs(h % 2 - 1))
    m = v - c
    r, g, b = [(c, x, 0), (x, c, 0), (0, c, x), (0, x, c), (x, 0, c), (c, 0, x)][int(h) % 6]
    return np.array([r + m, g + m, b + m])


def surface(rng, w, h):
    """A random table: a base colour, a texture (noise, stripes, checks,
    grain or patches) and a gradient of light."""
    base = hsv_to_rgb(rng.uniform(0, 360), rng.uniform(0, 0.7), rng.uniform(0.08, 0.85))
    if rng.random() < 0.25:
        # a blue or red table too: the die must still stand out by its
        # silhouette, not only its hue
        base = hsv_to_rgb(rng.choice([rng.uniform(180, 250), rng.uniform(340, 370)]), rng.uniform(0.1, 0.5), rng.uniform(0.1, 0.7))
    img = np.ones((h, w, 3), np.float32) * base.astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w] / max(w, h)
    kind = rng.integers(0, 5)
    other = hsv_to_rgb(rng.uniform(0, 360), rng.uniform(0, 0.6), rng.uniform(0.1, 0.9))
    if kind == 1:  # stripes
        a = rng.uniform(0, math.pi)
        f = rng.uniform(3, 12)
        t = (np.sin((xx * math.cos(a) + yy * math.sin(a)) * f * 2 * math.pi) > 0)[..., None]
        img = np.where(t, img, img * 0.5 + other * 0.5)
    elif kind == 2:  # checks
        f = rng.uniform(2, 8)
        a = rng.uniform(0, math.pi)
        u, v = xx * math.cos(a) + yy * math.sin(a), -xx * math.sin(a) + yy * math.cos(a)
        t = ((np.floor(u * f) + np.floor(v * f)) % 2 == 0)[..., None]
        img = np.where(t, img, img * 0.4 + other * 0.6)
    elif kind == 3:  # grain
        a = rng.uniform(0, math.pi)
        f = rng.uniform(10, 40)
        u = xx * math.cos(a) + yy * math.sin(a)
        v = -xx * math.sin(a) + yy * math.cos(a)
        g = np.sin(u * f * 2 * math.pi + 3 * np.sin(v * rng.uniform(2, 6)))
        img = img * (1 + 0.15 * g[..., None])
    elif kind == 4:  # patches
        small = rng.random((4, 4, 1))
        patch = np.array(Image.fromarray((small[..., 0] * 255).astype(np.uint8)).resize((w, h), Image.BILINEAR)) / 255
        img = img * (1 - 0.6 * patch[..., None]) + other * 0.6 * patch[..., None]
    img = img * (1 + rng.normal(0, rng.uniform(0, 0.08), (h, w, 1)))
    gx, gy = rng.normal(0, 0.4, 2)
    img = img * (1 + gx * (xx - 0.5) + gy * (yy - 0.5))[..., None]
    return img


def draw_digit(font_path, digit, height, ink_rgba, angle, stroke=0):
    """The digit in the font, height pixels tall, turned angle degrees:
    an RGBA image whose middle is the digit's middle."""
    size = max(6, int(height * 1.4))
    font = ImageFont.truetype(font_path, size)
    l, t, r, b = font.getbbox(digit, stroke_width=stroke)
    w, h = r - l, b - t
    pad = int(max(w, h) * 0.3) + 2
    im = Image.new("RGBA", (w + 2 * pad, h + 2 * pad), (0, 0, 0, 0))
    ImageDraw.Draw(im).text((pad - l, pad - t), digit, font=font, fill=ink_rgba, stroke_width=stroke, stroke_fill=ink_rgba)
    k = height / max(h, 1)
    im = im.resize((max(1, int(im.width * k)), max(1, int(im.height * k))), Image.LANCZOS)
    return im.rotate(angle, resample=Image.BICUBIC, expand=True)



INKS = {
    "white": (245, 245, 240),
    "cream": (235, 220, 180),
    "gold": (215, 175, 80),
    "silver": (190, 195, 200),
    "black": (20, 20, 22),
}


def turbulence(rng, W, R):
    """Smooth noise in -1..1 over a W x W picture, three octaves, its
    coarsest features about a die's radius R wide."""
    t = np.zeros((W, W), np.float32)
    amp, cells = 0.57, max(2, int(round(W / R)))
    for _ in range(3):
        g = rng.uniform(-1, 1, (cells + 1, cells + 1)).astype(np.float32)
        t += amp * np.array(Image.fromarray(g, mode="F").resize((W, W), Image.BICUBIC))
        amp, cells = amp / 2, cells * 2
    return t


def picture(rng, fonts):
    """One synthetic picture and its labels."""
    face = int(rng.integers(1, 9))
    colour = "blue" if rng.random() < 0.5 else "red"
    across = float(np.exp(rng.uniform(np.log(25), np.log(160))))
    side = int(round(across * rng.uniform(1.9, 2.6)))
    ss = 2 if across < 60 else 1  # supersampling of small dice
    W = side * ss
    R = across * ss / 2 / math.cos(math.pi / 6) * rng.uniform(0.93, 1.0)  # hexagon circumradius
    cx, cy = W / 2 + rng.normal(0, 0.06) * W, W / 2 + rng.normal(0, 0.06) * W
    rot = rng.uniform(0, 2 * math.pi)
    # tilt: the die squashed along one direction, the top face moved
    # toward the picture's edge (parallax)
    tilt = rng.uniform(0, 20) * math.pi / 180
    ta = rng.uniform(0, 2 * math.pi)
    squash = math.cos(tilt)

    def warp(px, py):
        # squash along direction ta about the centre
        dx, dy = px - cx, py - cy
        u = dx * math.cos(ta) + dy * math.sin(ta)
        v = -dx * math.sin(ta) + dy * math.cos(ta)
        u *= squash
        return cx + u * math.cos(ta) - v * math.sin(ta), cy + u * math.sin(ta) + v * math.cos(ta)

    hexa = [warp(cx + R * math.cos(rot + k * math.pi / 3), cy + R * math.sin(rot + k * math.pi / 3)) for k in range(6)]
    shift = R * math.sin(tilt) * 0.5
    top = [(x + shift * math.cos(ta), y + shift * math.sin(ta)) for (x, y) in hexa[0::2]]
    # body colour
    if colour == "blue":
        hue = rng.uniform(200, 258)
    else:
        hue = rng.uniform(-20, 16)
    body = rng.choice(["opaque", "pearl", "translucent"], p=[0.45, 0.3, 0.25])
    sat = rng.uniform(0.5, 0.95) if body == "opaque" else rng.uniform(0.3, 0.75)
    val = rng.uniform(0.35, 0.95) if body != "translucent" else rng.uniform(0.5, 1.0)
    base = hsv_to_rgb(hue, sat, val)
    img = surface(rng, W, W)
    # shadow: the silhouette moved away from the light, blurred
    sh = Image.new("L", (W, W), 0)
    sd = rng.uniform(0, 0.5) * R
    sa = rng.uniform(0, 2 * math.pi)
    ImageDraw.Draw(sh).polygon([(x + sd * math.cos(sa), y + sd * math.sin(sa)) for x, y in hexa], fill=255)
    sh = np.array(sh.filter(ImageFilter.GaussianBlur(R * rng.uniform(0.05, 0.3)))) / 255
    img = img * (1 - rng.uniform(0.2, 0.7) * sh[..., None])
    # the die: top face and three side faces, each its own light
    light = rng.uniform(0, 2 * math.pi)
    faces = [(top, rng.uniform(0.9, 1.2))]
    for k in range(3):
        a, b = top[k], top[(k + 1) % 3]
        outer = hexa[(2 * k + 1) % 6]
        mid = rot + (2 * k + 1) * math.pi / 3
        shade = 0.75 + 0.35 * math.cos(mid - light) + rng.normal(0, 0.05)
        faces.append(([a, outer, b], max(0.25, shade)))
    mask_all = Image.new("L", (W, W), 0)
    ImageDraw.Draw(mask_all).polygon(hexa, fill=255)
    die = np.zeros((W, W, 3), np.float32)
    for poly, shade in faces:
        m = Image.new("L", (W, W), 0)
        ImageDraw.Draw(m).polygon(poly, fill=255)
        m = np.array(m)[..., None] / 255
        die = die * (1 - m) + m * np.clip(base * shade, 0, 1)
    yy, xx = np.mgrid[0:W, 0:W].astype(np.float32)
    if body == "pearl":
        # marble veins, as POV-Ray's pearl (vision/render/pov.go: marble,
        # turbulence 0.8, the body's colour to a pale grey at half): a
        # wave across the die bent by turbulence, each face keeping its
        # shade
        period = R * rng.uniform(0.15, 0.45)
        va = rng.uniform(0, 2 * math.pi)
        m = ((xx - cx) * math.cos(va) + (yy - cy) * math.sin(va)) / period + rng.uniform(1.5, 3.0) * turbulence(rng, W, R * rng.uniform(0.4, 0.8))
        t = np.abs(np.mod(m, 2) - 1)
        w = np.where(t < 0.6, t / 0.6 * 0.25, 0.25 + (t - 0.6) / 0.4 * 0.25) * rng.uniform(0.8, 1.6)
        pale = np.array([0.9, 0.9, 0.95])[rng.permutation(3)] if rng.random() < 0.2 else np.array([0.9, 0.9, 0.95])
        lum = die.sum(-1, keepdims=True) / max(float(base.sum()), 1e-3)
        die = die * (1 - w[..., None]) + w[..., None] * pale * lum
    elif body == "translucent":
        # the table shows through, the light gathers at one side
        die = die * rng.uniform(0.55, 0.85) + img * rng.uniform(0.1, 0.35)
        g = ((xx - cx) * math.cos(light) + (yy - cy) * math.sin(light)) / R
        die = die * (1 + 0.25 * np.clip(g, -1, 1))[..., None]
    ma = np.array(mask_all)[..., None] / 255
    if rng.random() < 0.5:  # rounded edges: a soft silhouette
        ma = np.array(Image.fromarray((ma[..., 0] * 255).astype(np.uint8)).filter(ImageFilter.GaussianBlur(R * 0.03))) [..., None] / 255
    img = img * (1 - ma) + die * ma
    out = Image.fromarray((np.clip(img, 0, 1) * 255).astype(np.uint8)).convert("RGBA")
    # the numerals
    fname, fpath = fonts[int(rng.integers(0, len(fonts)))]
    ink_name = rng.choice(list(INKS) + ["other"], p=[0.3, 0.15, 0.2, 0.15, 0.12, 0.08])
    ink = INKS.get(ink_name) or tuple(int(c * 255) for c in hsv_to_rgb(rng.uniform(0, 360), rng.uniform(0, 1), rng.choice([rng.uniform(0, 0.2), rng.uniform(0.8, 1)])))
    engraved = rng.random() < 0.5
    stroke = int(rng.integers(0, 2)) * ss if rng.random() < 0.3 else 0
    tcx, tcy = sum(p[0] for p in top) / 3, sum(p[1] for p in top) / 3
    height = R * rng.uniform(0.42, 0.62) * squash ** 0.5
    angle = rng.uniform(0, 360)
    # the side faces' numerals, squeezed toward their outer corner
    for k in range(3):
        if rng.random() < 0.25:
            continue
        a, b = top[k], top[(k + 1) % 3]
        outer = hexa[(2 * k + 1) % 6]
        fx, fy = (a[0] + b[0] + outer[0]) / 3, (a[1] + b[1] + outer[1]) / 3
        d = draw_digit(fpath, str(int(rng.integers(1, 9))), height * rng.uniform(0.6, 0.95), ink + (int(255 * rng.uniform(0.5, 1)),), 0)
        d = d.resize((d.width, max(1, int(d.height * rng.uniform(0.35, 0.6)))), Image.BILINEAR)
        facing = math.degrees(math.atan2(outer[1] - tcy, outer[0] - tcx))
        d = d.rotate(-facing - 90 + rng.normal(0, 8), resample=Image.BICUBIC, expand=True)
        out.alpha_composite(d, (max(0, int(fx - d.width / 2)), max(0, int(fy - d.height / 2))))
    jx, jy = rng.normal(0, 0.04 * R, 2)
    dg = draw_digit(fpath, str(face), height, ink + (255,), angle, stroke)
    px, py = int(tcx + jx - dg.width / 2), int(tcy + jy - dg.height / 2)
    if engraved:
        # the groove's shadow: the numeral darker, a little off
        groove = draw_digit(fpath, str(face), height, (0, 0, 0, int(255 * rng.uniform(0.3, 0.7))), angle, stroke + ss)
        off = rng.normal(0, 0.02 * R, 2)
        out.alpha_composite(groove, (max(0, int(tcx + jx + off[0] - groove.width / 2)), max(0, int(tcy + jy + off[1] - groove.height / 2))))
    out.alpha_composite(dg, (max(0, px), max(0, py)))
    out = out.convert("RGB")
    a = np.array(out).astype(np.float32) / 255
    # a highlight
    if rng.random() < 0.5:
        hx, hy = tcx + rng.normal(0, 0.4 * R), tcy + rng.normal(0, 0.4 * R)
        hr = R * rng.uniform(0.1, 0.4)
        hl = np.exp(-((xx - hx) ** 2 + (yy - hy) ** 2) / (2 * hr * hr))
        a = a + rng.uniform(0.1, 0.45) * hl[..., None] * ma
    # partial shadow across the die
    if rng.random() < 0.2:
        sa = rng.uniform(0, 2 * math.pi)
        edge = (xx - cx) * math.cos(sa) + (yy - cy) * math.sin(sa) - rng.normal(0, 0.4) * R
        a = a * (1 - rng.uniform(0.3, 0.6) * (edge > 0))[..., None]
    # light colour and exposure
    tint = np.array([1 + rng.normal(0, 0.08), 1, 1 + rng.normal(0, 0.08)])
    a = np.clip(a * tint * rng.uniform(0.6, 1.5), 0, 1) ** rng.uniform(0.75, 1.35)
    out = Image.fromarray((a * 255).astype(np.uint8)).resize((side, side), Image.BOX)
    blur = rng.uniform(0, 1.2) if rng.random() < 0.6 else 0.0
    if blur > 0.2:
        out = out.filter(ImageFilter.GaussianBlur(blur))
    if rng.random() < 0.15:  # motion blur
        k = 3 if rng.random() < 0.5 else 5
        ker = np.zeros((k, k))
        if rng.random() < 0.5:
            ker[k // 2, :] = 1
        else:
            np.fill_diagonal(ker, 1)
        out = out.filter(ImageFilter.Kernel((k, k), ker.flatten().tolist(), scale=k))
    noise = rng.uniform(0, 9)
    a = np.array(out).astype(np.float64) + rng.normal(0, noise, (side, side, 3))
    out = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))
    q = int(rng.integers(35, 96))
    buf = io.BytesIO()
    out.save(buf, "JPEG", quality=q)
    labels = dict(face=face, colour=colour, font=fname, ink=ink_name, body=body,
                  numeral="engraved" if engraved else "printed", size_px=f"{across:.1f}",
                  tilt=f"{math.degrees(tilt):.1f}", blur=f"{blur:.1f}", noise=f"{noise:.1f}", jpeg=q)
    return buf.getvalue(), labels


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--n", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first", type=int, default=0, help="number of the first picture (to draw a range in parallel)")
    ap.add_argument("--split", default=os.path.join(os.path.dirname(__file__), "..", "render", "wide.yaml"))
    a = ap.parse_args()
    fonts = train_fonts(a.split)
    os.makedirs(a.out, exist_ok=True)
    cols = ["file", "face", "colour", "font", "ink", "body", "numeral", "size_px", "tilt", "blur", "noise", "jpeg"]
    with open(os.path.join(a.out, "labels.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols)
        for i in range(a.first, a.first + a.n):
            # one generator per picture: picture i is the same whatever n
            rng = np.random.Generator(np.random.PCG64([a.seed, i]))
            data, lab = picture(rng, fonts)
            name = f"{i:05d}.jpg"
            with open(os.path.join(a.out, name), "wb") as g:
                g.write(data)
            lab["file"] = name
            w.writerow([lab[c] for c in cols])
            if (i + 1) % 1000 == 0:
                print(f"synth: {i + 1 - a.first}/{a.n}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
